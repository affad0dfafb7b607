package io.github.waitingroom;

import io.github.waitingroom.allocation.Plan;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one node may still admit under the plan it applied last: lock-free counters that request
 * threads take from and the sync thread replaces. A slot is taken by one compare-and-set, so the
 * node never admits more than it was granted, whatever the number of threads.
 */
final class Grant {
  static final Grant NONE = new Grant(Plan.none(Long.MIN_VALUE), Long.MIN_VALUE, Long.MIN_VALUE, 0, 0);

  final Plan plan;
  /** When the tally the plan was made from was taken (epoch second). */
  final long tallySecond;
  /** Waiting tickets with a place at or below this one are called: they may take a line slot. */
  final long cutPlace;
  private final AtomicLong line;
  private final AtomicLong fresh;

  Grant(Plan plan, long tallySecond, long cutPlace, long lineSlots, long newSlots) {
    this.plan = plan;
    this.tallySecond = tallySecond;
    this.cutPlace = cutPlace;
    this.line = new AtomicLong(Math.max(0, lineSlots));
    this.fresh = new AtomicLong(Math.max(0, newSlots));
  }

  /** Whether a waiting ticket with this place has been called. */
  boolean called(long place) {
    return place <= cutPlace;
  }

  /** Takes one slot for a waiting user who has been called. */
  boolean takeLine() {
    return take(line);
  }

  /** Takes one slot for a user who arrived without a ticket. */
  boolean takeNew() {
    return take(fresh);
  }

  /** Whether any slot is left. */
  boolean hasSlots() {
    return line.get() > 0 || fresh.get() > 0;
  }

  long outstandingLine() {
    return line.get();
  }

  long outstandingNew() {
    return fresh.get();
  }

  /**
   * Gives back the line slots beyond {@code keep} (those held for called users who are no longer
   * in line) and returns the line slots left. Atomic, so a slot is either taken or given back.
   */
  long trimLine(long keep) {
    while (true) {
      long left = line.get();
      long kept = Math.min(left, Math.max(0, keep));
      if (kept == left || line.compareAndSet(left, kept)) {
        return kept;
      }
    }
  }

  /** Empties the line slots (a thread that still holds the grant can take none) and returns what was left. */
  long drainLine() {
    return line.getAndSet(0);
  }

  /** Empties the slots for new arrivals and returns what was left. */
  long drainNew() {
    return fresh.getAndSet(0);
  }

  private static boolean take(AtomicLong counter) {
    for (long left = counter.get(); left > 0; left = counter.get()) {
      if (counter.compareAndSet(left, left - 1)) {
        return true;
      }
    }
    return false;
  }
}
