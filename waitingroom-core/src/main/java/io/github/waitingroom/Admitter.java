package io.github.waitingroom;

import static io.github.waitingroom.Seen.NOT_MOVED;

import io.github.waitingroom.Seen.Polls;
import io.github.waitingroom.Seen.State;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The admissions of the request threads: takes a slot from the grant for a waiting ticket or a
 * newcomer and records the admission, each change to the counters bracketed by {@code begun} and
 * {@code done} so that a tally never counts it zero times (see {@link NodeState}); and gives
 * newcomers their places in line. Lock-free. Part of {@link NodeState}; used by its request paths
 * (through {@link Decider}).
 */
final class Admitter {
  private final ConcurrentHashMap<Long, Seen> seen;
  private final Line line;
  private final Arrivals arrivals;
  private final SliceCounter active;
  private final SliceCounter admissions;
  private final LongAdder begun;
  private final LongAdder done;
  /** The configuration in force (see {@link NodeState#config}). */
  private final Supplier<RoomConfig> config;

  /** Over the places, line, arrivals and counters of a {@link NodeState}. */
  Admitter(ConcurrentHashMap<Long, Seen> seen, Line line, Arrivals arrivals, SliceCounter active, SliceCounter admissions,
      LongAdder begun, LongAdder done, Supplier<RoomConfig> config) {
    this.seen = seen;
    this.line = line;
    this.arrivals = arrivals;
    this.active = active;
    this.admissions = admissions;
    this.begun = begun;
    this.done = done;
    this.config = config;
  }

  /**
   * Admits a waiting ticket on one of the grant's slots, if one is left ({@code always}: without
   * one, the room lets everyone through). Only one request per
   * place gets that far: a parallel request of the same ticket is {@link NodeState.Admission#BUSY}.
   */
  NodeState.Admission admitWaiting(long place, long now, Grant g, boolean always) {
    Seen prev = seen.get(place);
    if (prev != null && prev.state() != State.WAITING) {
      return NodeState.Admission.BUSY;
    }
    Seen claim = new Seen(State.ADMITTING, now, 0, 0, prev == null ? now : prev.firstSeen());
    if (prev == null ? seen.putIfAbsent(place, claim) != null : !seen.replace(place, prev, claim)) {
      return NodeState.Admission.BUSY;
    }
    begun.increment();
    boolean admitted = always || g.take();
    record(admitted, now);
    seen.put(place, admitted
        ? new Seen(State.ACTIVE, config.get().sliceOf(now), now, 0, claim.firstSeen())
        : prev == null ? line.waiting(now, claim.firstSeen(), Polls.NONE)
        // Back to waiting as it was, with any due a parallel request's ticket already carries.
        : new Seen(State.WAITING, now, 0, prev.due(), claim.firstSeen(), NOT_MOVED, prev.polls()));
    return admitted ? NodeState.Admission.ADMITTED : NodeState.Admission.NO_SLOT;
  }

  /**
   * Admits a user who arrived without a ticket, if its place is at or below the cutoff and a slot
   * is left, or {@code always} without one (the room lets everyone through: counted as an arrival and an
   * admission all the same, so the plans and the status stay true).
   */
  boolean admitNew(long place, long now, Grant g, boolean always) {
    arrivals.arrive(now);
    begun.increment();
    boolean admitted = always || g.eligible(place) && g.take();
    record(admitted, now);
    if (!admitted) {
      arrivals.queue(now);
    }
    seen.put(place, admitted ? new Seen(State.ACTIVE, config.get().sliceOf(now), 0, 0, now) : line.waiting(now, now, Polls.NONE));
    return admitted;
  }

  /** Gives a newcomer a place in line without trying for a slot (the room lets nobody in now). */
  void queueNew(long place, long now) {
    arrivals.arrive(now);
    arrivals.queue(now);
    seen.put(place, line.waiting(now, now, Polls.NONE));
  }

  /**
   * Lets in a newcomer only if it may take a slot, as {@link #admitNew} does; without
   * one, counts nothing (no arrival, no place): the caller challenges it first.
   */
  boolean admitNewIfFree(long place, long now, Grant g) {
    if (!g.hasSlots() || !g.eligible(place)) {
      return false;
    }
    begun.increment();
    boolean admitted = g.take();
    if (admitted) {
      arrivals.arrive(now);
      seen.put(place, new Seen(State.ACTIVE, config.get().sliceOf(now), 0, 0, now));
    }
    record(admitted, now);
    return admitted;
  }

  /**
   * Counts an admission whose slot was just taken, and closes the bracket the caller opened
   * (with {@code begun}) before it tried to take the slot.
   */
  private void record(boolean admitted, long now) {
    if (admitted) {
      active.add(config.get().sliceOf(now), 1);
      admissions.add(now, 1);
    }
    done.increment();
  }
}
