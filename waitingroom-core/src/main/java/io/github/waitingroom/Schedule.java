package io.github.waitingroom;

import io.github.waitingroom.allocation.Plan;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The grant a node admits from, and the plan that takes over from it next: part of {@link
 * NodeState}. Request threads read the grant in force (one volatile read) and take its slots by
 * compare-and-set; the sync thread schedules each plan made from the node's last tally, and lets it
 * take over at its instant, handing over exactly what the old grant had left.
 */
final class Schedule {
  /** What the node's last tally read of the grant in force: the grant, the tally's second, its slots left. */
  record AtTally(Grant grant, long second, long slotsLeft) {}

  /** The slots left, of whichever grant is in force (see {@link #activateIfDue}). */
  private final AtomicLong slots = new AtomicLong();
  private volatile Grant grant = Grant.none(slots);
  private final AtomicReference<Scheduled> scheduled = new AtomicReference<>();
  /** Sync-thread state: what the last tally read. */
  private AtTally atTally = new AtTally(grant, Long.MIN_VALUE, 0);

  /** What the last tally read (sync thread only). */
  AtTally atTally() {
    return atTally;
  }

  /** Notes what a tally read (sync thread only). */
  void tallied(AtTally t) {
    atTally = t;
  }

  /** The grant in force (without activating a scheduled one): for status and tallies. */
  Grant grant() {
    return grant;
  }

  /**
   * Lets a scheduled grant take over if its time has come: by the sync thread before it tallies,
   * so a tally always sees the grant in force, and by the first request after the instant, so that
   * every node switches at that instant (one thread wins the compare-and-set and switches). The old grant must be the one the
   * plan's tally read: what its slots lost since then is exactly what was admitted since the
   * tally, and comes off the new plan's. (A plan whose tally read another grant is dropped; the
   * grant in force stays, and the next tallies report it.) Every grant of the node shares one
   * count of slots, set in one atomic step, so a request that read the old grant an instant before
   * takes its slot from the same count: no newcomer is queued because a plan took over while it
   * was let in.
   */
  void activateIfDue(long nowMillis) {
    Scheduled next = scheduled.get();
    if (next != null && nowMillis >= next.activateAtMillis && scheduled.compareAndSet(next, null)) {
      if (grant != next.tallyGrant) {
        return;
      }
      long planned = next.plan.slots();
      slots.updateAndGet(left -> Math.max(0, planned - (next.slotsAtTally - left)));
      grant = new Grant(next.plan, next.tallySecond, slots);
    }
  }

  /**
   * Closes the grant in force to newcomers: a node cut off from the store under {@code
   * FAIL_CLOSED} queues new arrivals from its first failed exchange on, while holders at or below
   * the cutoff keep their turn (see {@link Synchronizer}).
   */
  void closeToNewArrivals() {
    grant.closeToNewcomers();
  }

  /** A plan waiting for its time, with the tally it was computed from. */
  private record Scheduled(Plan plan, long tallySecond, Grant tallyGrant, long slotsAtTally, long activateAtMillis) {}

  /**
   * Schedules a plan computed from this node's last tally to take over at {@code activateAtMillis}:
   * every node of the room switches to a plan at the same instant, so the cutoff moves everywhere
   * at once. Its slots are the plan's, less what was admitted since the tally.
   */
  void schedule(Plan plan, long activateAtMillis) {
    AtTally t = atTally;
    scheduled.set(new Scheduled(plan, t.second(), t.grant(), t.slotsLeft(), activateAtMillis));
  }

  /** The plan that takes over next, if one is scheduled. */
  @Nullable Plan scheduledPlan() {
    Scheduled next = scheduled.get();
    return next == null ? null : next.plan;
  }
}
