package io.github.waitingroom;

import io.github.waitingroom.allocation.Plan;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one node may still admit under the plan it applied last: the plan's cutoff over places and
 * the node's slots. Request threads read it and take slots lock-free; the sync thread replaces it.
 *
 * <p>The admission rule is one line: a ticket whose place is at or below the cutoff takes one
 * slot by compare-and-set, a waiting holder and a newcomer alike (a newcomer's place is at or
 * below it only once the plan served the whole line). The slots are one count per node, shared by
 * all its grants, so a request that read the grant just before a new one took over still takes
 * from what is left (see {@link Schedule#activateIfDue}), and the node never admits more than it
 * was granted, whatever the number of threads.
 */
final class Grant {
  /** The grant of a node that has applied no plan yet: nobody is eligible, no slot is free. */
  static Grant none(AtomicLong slots) {
    return new Grant(Plan.none(Long.MIN_VALUE), Long.MIN_VALUE, slots);
  }

  final Plan plan;
  /** When the tally the plan was made from was taken (epoch second). */
  final long tallySecond;
  /**
   * Tickets with a place at or below this one may take a slot (see {@link Plan#cutPlace()});
   * lowered once, by {@link #closeToNewcomers}.
   */
  private volatile long cutPlace;
  /** The slots left, of whichever grant is in force. */
  private final AtomicLong slots;

  Grant(Plan plan, long tallySecond, AtomicLong slots) {
    this.plan = plan;
    this.tallySecond = tallySecond;
    this.cutPlace = plan.cutPlace();
    this.slots = slots;
  }

  /** Whether a ticket with this place may take a slot: its place is at or below the plan's cutoff. */
  boolean eligible(long place) {
    return place <= cutPlace;
  }

  /** The cutoff over places in force (see {@link Plan#cutPlace()}). */
  long cutPlace() {
    return cutPlace;
  }

  /**
   * Closes this grant to newcomers (see {@link Schedule#closeToNewArrivals}): a cutoff that let
   * everyone in stops at the last second of the plan's line.
   */
  void closeToNewcomers() {
    cutPlace = Math.min(cutPlace, plan.withoutNewArrivals().cutPlace());
  }

  /** Takes one slot by compare-and-set; false when none is left. */
  boolean take() {
    for (long left = slots.get(); left > 0; left = slots.get()) {
      if (slots.compareAndSet(left, left - 1)) {
        return true;
      }
    }
    return false;
  }

  /** Whether any slot is left. */
  boolean hasSlots() {
    return slots.get() > 0;
  }

  /** The slots left: what the node may still admit (outstanding at a tally). */
  long outstanding() {
    return slots.get();
  }
}
