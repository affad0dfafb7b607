package io.github.waitingroom;

/**
 * What a node does while it cannot reach its coordinator store. Users already admitted keep
 * passing and waiting users keep their places either way; the node plans alone every epoch from
 * its own tally (see {@link Synchronizer} for the exact bounds).
 */
public enum FailurePolicy {
  /**
   * Keep serving this node's own line, oldest first, up to what the other nodes count this node
   * for (they count it with its last published tally, as if it had used everything it was still
   * allowed): as many active users at once, and as many admissions a minute, as it last published
   * plus its outstanding grant, from the fifth epoch after its last tally (until then it keeps its
   * grant, closed to newcomers). New arrivals queue. The room stays within its limits
   * for an outage shorter than the store's retention, and, without session affinity, as long as
   * users do not move away from their first node for longer than a session (see the README's
   * "Outages").
   */
  FAIL_CLOSED,
  /**
   * Run as a room of its own with its share of the limits (the limits divided by the room's live
   * nodes at the last plan; the whole limits if it never reached the store), new arrivals
   * included, from the fifth epoch after the node's last tally (until then it keeps its grant, so
   * a few failed exchanges open nothing). Visitors are not stuck behind a dead store, at the risk
   * of exceeding the limits by up to that share for every node that cannot reach the store while
   * the others still can.
   */
  FAIL_OPEN
}
