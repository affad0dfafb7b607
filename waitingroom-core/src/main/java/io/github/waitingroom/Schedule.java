package io.github.waitingroom;

import io.github.waitingroom.internal.LongList;
import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import java.util.function.LongPredicate;
import org.jspecify.annotations.Nullable;

/**
 * The grant a node admits from, and the plan that takes over from it next: part of {@link
 * NodeState}. Request threads read the grant in force (one volatile read) and take its slots by
 * compare-and-set; the sync thread schedules each plan made from the node's last tally, and lets it
 * take over at its instant, handing over exactly what the old grant had left.
 */
final class Schedule {
  /**
   * The places of this node's line at its last tally whose arrival second passes {@code arrival},
   * sorted; without the ones the tally counted as called, if {@code uncalled}.
   */
  interface Line {
    long[] placesWaiting(LongPredicate arrival, boolean uncalled);
  }

  /**
   * What the node's last tally read of the grant in force: the grant, the tally's second, its
   * slots for new arrivals left, the called holders of partial seconds the tally found still in
   * line, what was left of the slots for the first holders of partial seconds, and the holders it
   * kept those for (as pairs: place, then counted since; half its length is how many it counted as
   * reserved, see {@link #schedule}).
   */
  record AtTally(Grant grant, long second, long newLeft, long[] partialCalled, long partialLeft, long[] keptFor) {}

  /** Where the draws of random queueing come from (see {@link #schedule}). */
  private final IntSupplier draws;
  /** The slots for new arrivals left, of whichever grant is in force (see {@link #activateIfDue}). */
  private final AtomicLong newSlots = new AtomicLong();
  /** The slots for the first holders of partial seconds left, of whichever grant is in force (see {@link Grant}). */
  private final AtomicLong partialSlots = new AtomicLong();
  private volatile Grant grant = Grant.none(newSlots, partialSlots);
  private final AtomicReference<Scheduled> scheduled = new AtomicReference<>();
  /** Sync-thread state: what the last tally read. */
  private AtTally atTally = new AtTally(grant, Long.MIN_VALUE, 0, new long[0], 0, new long[0]);

  /**
   * @param draws where the random draws of random queueing come from: the room's tie-break bits,
   *     which tests may seed
   */
  Schedule(IntSupplier draws) {
    this.draws = draws;
  }

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
   * Lets a scheduled grant take over if its time has come; called by the sync thread only, before
   * it tallies, so a tally always sees the grant in force. The old grant must be the one the
   * plan's tally read: what its slots for new arrivals lost since then is exactly what was
   * admitted since the tally, and comes off the new plan's. (A plan whose tally read another grant
   * is dropped; the grant in force stays, and the next tallies report it.) Every grant of the node
   * shares one count of those slots, set in one atomic step, so a request that read the old grant
   * an instant before takes its slot from the same count: no newcomer is queued because a plan
   * took over while it was let in.
   */
  void activateIfDue(long nowMillis) {
    Scheduled next = scheduled.get();
    if (next != null && nowMillis >= next.activateAtMillis && scheduled.compareAndSet(next, null)) {
      Grant old = grant;
      if (old != next.tallyGrant) {
        return;
      }
      // What was admitted since the tally comes off the plan's slots, in the same atomic step
      // that hands them over: a request that read the old grant an instant ago takes from the
      // count the new one has, never from a count that was emptied.
      long planned = next.plan.newArrivalGrant();
      newSlots.updateAndGet(left -> Math.max(0, planned - (next.newAtTally - left)));
      // Likewise the slots for partial seconds the tally kept as reserved, less what was taken
      // since, plus the plan's new ones.
      partialSlots.updateAndGet(
          left -> Math.max(0, next.partialKept - (next.partialLeftAtTally - left)) + next.partialSlots);
      grant =
          new Grant(
              next.plan,
              next.tallySecond,
              next.cutPlace,
              next.calls,
              next.partialCalled,
              newSlots,
              next.planCut,
              next.countedBy,
              next.peerReserved,
              partialSlots,
              next.partialCut,
              next.partialCutLater,
              // New slots open to more holders half an epoch after they do to the first; slots the
              // tally kept, with no new ones, stay as open as they were.
              next.partialSlots > 0 ? nowMillis + next.laterAfterMillis : old.laterFromMillis);
    }
  }

  /**
   * Takes away the slots for new arrivals left: a node cut off from the store under {@code
   * FAIL_CLOSED} queues new arrivals from its first failed exchange on, while it keeps the rest of
   * its grant (see {@link Synchronizer}).
   */
  void closeToNewArrivals() {
    newSlots.set(0);
  }

  /** A plan waiting for its time, with the tally it was computed from. */
  private record Scheduled(
      Plan plan,
      long tallySecond,
      long cutPlace,
      Calls calls,
      long[] partialCalled,
      Grant tallyGrant,
      long newAtTally,
      long activateAtMillis,
      long planCut,
      long countedBy,
      long[] peerReserved,
      long partialSlots,
      long partialCut,
      long partialCutLater,
      long laterAfterMillis,
      long partialLeftAtTally,
      long partialKept) {}

  /**
   * Schedules a plan computed from this node's last tally to take over at {@code activateAtMillis}
   * (every node of the room switches to a plan at the same instant, so nobody is called on one
   * node while the same plan has not reached another). Every holder counted in the line up to the
   * plan's cutoff second is called, on every node. The slots the plan gives this node for its
   * partial second go, in a crowd ({@link #FIRST_COME_HOLDERS}), to whichever of the plan's first
   * holders in this node's line poll here first (see {@link Grant}); otherwise this node calls as
   * many holders it counts, the first by place or, when it is a drawn second, drawn at random.
   * The slots for new arrivals are the plan's, less what was admitted since the tally.
   *
   * @param line this node's line at the tally the plan was made from
   * @param roomWide whether the plan is the room's (made from every node's tallies); a plan a node
   *     makes alone while the store fails calls only the holders of its own line, by place, since
   *     it counted no one else's
   * @param drawnSecond the arrival second whose holders the room lets in at random ({@link
   *     RoomSettings.QueueingMethod#RANDOM}), or {@link Long#MIN_VALUE}: when it is the partial
   *     second, the node calls holders drawn at random, afresh at every plan, not in place order
   * @param peerReserved the places the other nodes of this data center reserved in the plan's
   *     tallies, sorted (see {@link Grant#slotHeldElsewhere})
   * @param laterAfterMillis how long after the plan takes over its slots for the partial second in
   *     a crowd open to more than its first holders (see {@link Grant#partialOpen})
   */
  void schedule(Line line, Plan plan, long countedBy, long activateAtMillis, boolean roomWide, long drawnSecond,
      long[] peerReserved, long laterAfterMillis) {
    AtTally t = atTally;
    scheduled.set(new Scheduled(plan, t.second(), plan.cutPlace(), Calls.NONE, new long[0], t.grant(), t.newLeft(),
        activateAtMillis, Long.MIN_VALUE, countedBy, new long[0], 0, Long.MIN_VALUE, Long.MIN_VALUE,
        laterAfterMillis, t.partialLeft(), 0));
  }

  /**
   * How many holders of a partial second a node's line must count for each slot the plan gives
   * it there for those slots to go to whoever of the first holders polls it first (see {@link
   * Grant}). With fewer (many nodes, a few holders each) the node calls the first holders of its
   * line by place and holds a slot for each: a holder that several nodes count may be called on
   * each, and whichever it polls lets it in, while the room counts its slot once (see {@link
   * Tally#reservedPlaces()}); a count of slots held on each of those nodes would be counted on
   * each, and stays unused while its holders poll the other nodes.
   */
  static final int FIRST_COME_HOLDERS = 4;

  /** The plan that takes over next, if one is scheduled. */
  @Nullable Plan scheduledPlan() {
    Scheduled next = scheduled.get();
    return next == null ? null : next.plan;
  }
}
