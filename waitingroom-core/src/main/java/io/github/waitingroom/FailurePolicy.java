package io.github.waitingroom;

/**
 * What a node does with brand-new arrivals while it cannot reach its coordinator transport.
 * Users already admitted keep passing and waiting users keep their places either way.
 */
public enum FailurePolicy {
  /** Queue every new arrival until the coordinator answers again. The origin is never at risk. */
  FAIL_CLOSED,
  /**
   * Keep admitting new arrivals up to this node's share of the last view it received, renewed
   * each sync interval as if nothing had changed. Visitors are never stuck, at the risk of
   * overshooting the limit while the outage lasts.
   */
  FAIL_OPEN
}
