package io.github.waitingroom;

/**
 * What a node does with brand-new arrivals while it cannot reach its coordinator transport.
 * Users already admitted keep passing and waiting users keep their places either way.
 */
public enum FailurePolicy {
  /**
   * Queue every new arrival until the coordinator answers again; waiting users whose turn had
   * come by the last view may still use what is left of this node's budget, which is not renewed.
   * The origin is never at risk.
   */
  FAIL_CLOSED,
  /**
   * Keep admitting, new arrivals included, up to this node's budget from the last view it
   * received, granted afresh for every minute the outage lasts as if nothing had changed.
   * Visitors are not stuck behind a dead coordinator, at the risk of overshooting the limit
   * while the outage lasts.
   */
  FAIL_OPEN
}
