package io.github.waitingroom;

import io.github.waitingroom.allocation.LongList;
import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import java.util.Arrays;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * This node's counts for one room, shared lock-free by all request threads, and the grant they
 * admit from.
 *
 * <p><b>Distinct tickets, not requests.</b> Every ticket carries a place that is also its id. The
 * node remembers, per place, what it last counted (see {@link Seen}), so that any number of
 * parallel requests, retries, tabs or replays of one ticket count as one user on this node: an
 * active user moves from the slice of their last check-in to the current slice once per slice, a
 * waiting user is in the line once. Memory grows with the users this node saw within the session
 * (or waiting) window, and is pruned by the sync thread.
 *
 * <p><b>Never counted zero times.</b> A tally reads the grant's outstanding slots and then the
 * counters. An admission takes its slot by compare-and-set and then records itself; every change
 * to the counters (an admission, a check-in that moves a user to the current slice) is bracketed
 * by two monotone counts, begun and done, and a tally adds the changes in flight while it read
 * (begun after the read less done before it) to what it counts. So an admission that took its
 * slot before the tally is in the counters or in flight, one that took it after is outstanding,
 * and a user who moves between slices is never missed; in flight counts at most a few twice.
 * What a node admits after a tally is taken from the very grant the tally read, so its new grant
 * is its plan's less exactly what the old grant lost since the tally.
 *
 * <p><b>Called holders hold their slot wherever they poll.</b> A holder the line has called (see
 * {@link Grant}) is let in without taking a slot. Every tally counts each called holder still in
 * its line as reserved (outstanding), so no plan hands that slot to anyone else until the holder
 * is in (then it counts as active) or gone from every line (then it is called again only by a
 * plan that counts it again). Without session affinity a holder may be in the line of several
 * nodes, and reserved on each: tallies list the places they reserve, and the sum of a data
 * center counts each once (see {@link Tally#reservedPlaces()}).
 */
final class NodeState {
  /** Per-second counters keep this many seconds: the per-minute window and one second more. */
  private static final long RATE_SECONDS = 61;

  /** The configuration in force: the room's, with the limits and session of its live settings. */
  private volatile RoomConfig config;
  /** Where the draws of random queueing come from (see {@link #schedule}). */
  private final java.util.function.IntSupplier draws;
  private final ConcurrentHashMap<Long, Seen> seen = new ConcurrentHashMap<>();
  /**
   * Sessions ended by the application (see {@link #revoke}), on this node or another: place to the
   * last second its ticket could still pass, after which it is forgotten.
   */
  private final ConcurrentHashMap<Long, Long> revoked = new ConcurrentHashMap<>();
  /**
   * The places of {@link #revoked}, sorted, for the request path: read with one volatile read and
   * a binary search, without boxing; replaced (copy on write) by whoever changes the map.
   */
  private final java.util.concurrent.atomic.AtomicReference<long[]> revokedPlaces =
      new java.util.concurrent.atomic.AtomicReference<>(new long[0]);
  /**
   * The sessions this node ended itself: place to the slice the user was counted in, listed in its
   * tallies while that slice counts (see {@link Tally#revokedPlaces()}).
   */
  private final ConcurrentHashMap<Long, Long> revokedHere = new ConcurrentHashMap<>();
  private final SliceCounter active = new SliceCounter();
  private final SliceCounter admissions = new SliceCounter();
  private final SliceCounter arrivals = new SliceCounter();
  /** The arrivals this node gave a place in line (no slot was left for them), per second. */
  private final SliceCounter queued = new SliceCounter();
  private final LongAdder begun = new LongAdder();
  private final LongAdder done = new LongAdder();
  /** The slots for new arrivals left, of whichever grant is in force (see {@link #activateIfDue}). */
  private final AtomicLong newSlots = new AtomicLong();
  /** The slots for the first holders of partial seconds left, of whichever grant is in force (see {@link Grant}). */
  private final AtomicLong partialSlots = new AtomicLong();
  private volatile Grant grant = Grant.none(newSlots, partialSlots);
  private final AtomicReference<Scheduled> scheduled = new AtomicReference<>();
  // Sync-thread state: the grant the last tally read, what it had left then, and the places of
  // partial seconds it had called that the tally found still in line.
  private Grant tallyGrant = grant;
  private long newAtTally;
  private long[] partialAtTally = new long[0];
  // What was left of the slots for the first holders of partial seconds at the last tally.
  private long partialLeftAtTally;
  /**
   * The holders the last tally kept those slots for (still in line), as pairs: place, then counted
   * since; half its length is how many it counted as reserved (see {@link #schedule}).
   */
  private long[] keptForAtTally = new long[0];
  private long tallySecond = Long.MIN_VALUE;
  /** The second the last tally counted the line as of: polls due before it no longer count. */
  private volatile long lineAsOf = Long.MIN_VALUE;
  /** This node's arrivals of the minute before its last tally: its share of the room's. */
  private volatile long arrivedAtTally;

  /**
   * What this node last counted for one place.
   *
   * @param state what the holder was when last counted
   * @param at for an active holder: the slice it is counted in; for a waiting one: its last poll
   * @param admittedAt when this node admitted the holder from the line, or 0
   * @param due for a waiting holder: the second by which it should poll again (its last poll
   *     plus the refresh it was told, and a grace); 0 otherwise. See {@link #inLine}.
   * @param countedSince for a waiting holder: since when its ticket says some node has counted it
   *     in a line without a break (see {@link TicketState#countedSince(long)})
   * @param firstSeen when this node first saw the place: a waiting ticket is let in only by a node
   *     that saw it before the tally its plan was made from (a copy turning up elsewhere is not,
   *     and has a tally to wait for, by which time the admission of the original is known)
   * @param movedFrom for an active holder this node moved into slice {@code at} by a check-in: the
   *     slice it moved it from; {@link #NOT_MOVED} otherwise (admitted here, or the move was taken
   *     back as a duplicate, see {@link #dropDuplicates})
   */
  record Seen(
      State state, long at, long admittedAt, long due, long countedSince, long firstSeen, long movedFrom, Polls polls) {
    Seen(State state, long at, long admittedAt, long due, long countedSince, long firstSeen, long movedFrom) {
      this(state, at, admittedAt, due, countedSince, firstSeen, movedFrom, Polls.NONE);
    }

    Seen(State state, long at, long admittedAt, long due, long countedSince, long firstSeen) {
      this(state, at, admittedAt, due, countedSince, firstSeen, NOT_MOVED);
    }

    /** Until when this node's current poll of a waiting holder counts in the line (see {@link Polls}). */
    long currentDue() {
      return Math.max(due, polls.keepDue);
    }

    /** Until when a poll of this waiting holder counts here in the line. */
    long countsUntil() {
      return Math.max(currentDue(), polls.earlierDue);
    }
  }

  /**
   * How this node counts a waiting holder in the room's line, so that a holder whose polls go to
   * several nodes (no session affinity) counts once in the sum of every node's line, not once per
   * node it polled lately.
   *
   * <p>Each poll counts the holder on the node it reached until the poll's due. A poll whose
   * ticket shows that the poll before reached another node (whose due the ticket carries) is
   * {@link Tally#shared shared} until that due: the other node still counts the holder then.
   * Summed over the nodes, the counts of a chain of polls telescope to one while the last poll is
   * due; parallel requests, replays and copies of a ticket only add polls that count at least zero,
   * so a holder who keeps polling never counts less than once. (If the node of the poll before
   * went silent, its counts are gone: then the room shares nothing, see {@link
   * Tally#sharedUnknown}.)
   *
   * <p>A node keeps two polls per holder: its current one (due at {@link Seen#due} or, when it
   * extends a poll of its own that was due later, at {@code keepDue}; shared until {@code
   * sharedUntil}) and an earlier one that another node's poll came after ({@code earlierDue},
   * {@code earlierShared}). Should a third be due at once, the earlier two merge into one that
   * counts for as long as either and is shared only while both are: never less than they did.
   */
  record Polls(long keepDue, long sharedUntil, long earlierDue, long earlierShared) {
    static final Polls NONE = new Polls(0, 0, 0, 0);

    /** The polls of a holder counted here after its poll at {@code now}, with a ticket from the poll before. */
    Polls next(Seen prev, long ticketPoll, long ticketDue, long now, long deadBefore) {
      long due = prev.currentDue();
      if (prev.at == ticketPoll) {
        // The poll before was this node's own (or one of the same second elsewhere, which then
        // simply counts twice for a while): this one extends it.
        return new Polls(due, sharedUntil, earlierDue, earlierShared);
      }
      boolean current = due >= deadBefore;
      boolean earlier = earlierDue >= deadBefore;
      if (current && earlier) {
        return new Polls(0, ticketDue, Math.max(due, earlierDue), Math.min(sharedUntil, earlierShared));
      }
      return current ? new Polls(0, ticketDue, due, sharedUntil)
          : earlier ? new Polls(0, ticketDue, earlierDue, earlierShared)
          : new Polls(0, ticketDue, 0, 0);
    }
  }

  /** {@link Seen#movedFrom} of a holder this node did not move by a check-in. */
  static final long NOT_MOVED = Long.MIN_VALUE;

  /** The state of a place on this node. */
  enum State { WAITING, ADMITTING, ACTIVE }

  /**
   * A node's state under {@code config}.
   *
   * @param draws where the random draws of random queueing come from (see {@link #schedule}):
   *     the room's tie-break bits, which tests may seed
   */
  NodeState(RoomConfig config, java.util.function.IntSupplier draws) {
    this.config = config;
    this.draws = draws;
  }

  /**
   * Puts a configuration in force (live settings changed its limits or session; its room, slices,
   * refresh and timeout are the same). Sessions and places already counted stay counted.
   */
  void configure(RoomConfig next) {
    this.config = next;
  }

  /** The configuration in force. */
  RoomConfig config() {
    return config;
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
  void schedule(Plan plan, long countedBy, long activateAtMillis, boolean roomWide, long drawnSecond,
      long[] peerReserved, long laterAfterMillis) {
    long cut = grant.cutPlace;
    Scheduled pending = scheduled.get();
    if (pending != null) {
      cut = Math.max(cut, pending.cutPlace);
    }
    if (plan.lineServed() && tallySecond != Long.MIN_VALUE) {
      // The whole line is served: everyone who held a place before the tally is called, so one
      // who missed a poll comes before any new arrival.
      cut = Math.max(cut, Ticket.place(tallySecond - 1, -1));
    }
    Calls calls = grant.calls.with(roomWide ? plan.cutoffSecond() : Long.MIN_VALUE, countedBy);
    if (calls.maxCut() != Long.MIN_VALUE) {
      cut = Math.max(cut, Ticket.place(calls.maxCut(), -1));
    }
    // Holders of partial seconds called before and still counted here at the tally stay called.
    LongList partial = new LongList();
    for (long place : partialAtTally) {
      partial.add(place);
    }
    if (!roomWide && plan.cutoffSecond() != Long.MIN_VALUE) {
      for (long place : placesWaiting(a -> a <= plan.cutoffSecond(), false)) {
        partial.add(place);
      }
      cut = Math.max(cut, Ticket.place(plan.cutoffSecond(), -1));
    }
    long partialSlots = 0;
    // The slots the tally kept are for holders at or below the last cuts.
    long partialCut = keptForAtTally.length > 0 ? tallyGrant.partialCut : Long.MIN_VALUE;
    long partialCutLater = keptForAtTally.length > 0 ? tallyGrant.partialCutLater : Long.MIN_VALUE;
    // The holders of the partial second who hold no slot yet (the tally counted the ones called
    // before as reserved, not in its line).
    long[] places = plan.partialGrant() > 0 ? placesWaiting(a -> a == plan.partialSecond(), true) : new long[0];
    boolean draw = plan.partialSecond() == drawnSecond;
    if (!draw && places.length > 0 && places.length >= FIRST_COME_HOLDERS * plan.partialGrant()) {
      partialSlots = plan.partialGrant();
      // Whoever of the plan's first holders of the second polls here first, and half an epoch
      // later whoever of more of them (see Grant#partialOpen).
      partialCut = Math.max(partialCut, places[(int) Math.min(places.length, plan.partialFirst()) - 1]);
      long later = Grant.LATER_HOLDERS_FACTOR * plan.partialFirst();
      partialCutLater = Math.max(partialCutLater, places[(int) Math.min(places.length, later) - 1]);
    } else if (places.length > 0) {
      // A few holders for each slot, or a draw: this node calls as many of them as it has slots
      // for, the first by place or drawn at random (a partial Fisher-Yates shuffle, whose first
      // n places are a uniform draw), and holds a slot for each by place.
      int n = (int) Math.min(places.length, plan.partialGrant());
      for (int i = 0; i < n; i++) {
        if (draw) {
          int j = i + Math.floorMod(draws.getAsInt(), places.length - i);
          long swap = places[i];
          places[i] = places[j];
          places[j] = swap;
        }
        partial.add(places[i]);
      }
      if (n > 0 && !draw) {
        cut = Math.max(cut, places[n - 1]);
      }
    }
    // What the plan itself called from the line its tallies counted (see Grant.slotHeldElsewhere).
    long planCut = !roomWide || plan.room().sharedUnknown() ? Long.MIN_VALUE
        : Math.max(plan.cutoffSecond(), plan.lineServed() && tallySecond != Long.MIN_VALUE ? tallySecond - 1 : Long.MIN_VALUE);
    long[] called = partial.sorted();
    // A holder the tally kept a slot for whom this grant calls (by its arrival, or by place) is let
    // in on the call without a slot, and the room's plans count it once: its kept slot goes back.
    // Kept as well, it went to another holder, one over the limit (issue 39: 41 of 40).
    long kept = keptForAtTally.length / 2;
    for (int i = 0; i < keptForAtTally.length; i += 2) {
      long place = keptForAtTally[i];
      if (calls.called(Ticket.arrivalOf(place), keptForAtTally[i + 1]) || Arrays.binarySearch(called, place) >= 0) {
        kept--;
      }
    }
    scheduled.set(new Scheduled(plan, tallySecond, cut, calls, called, tallyGrant, newAtTally,
        activateAtMillis, planCut, countedBy, peerReserved, partialSlots, partialCut, partialCutLater,
        laterAfterMillis, partialLeftAtTally, kept));
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
  @org.jspecify.annotations.Nullable Plan scheduledPlan() {
    Scheduled next = scheduled.get();
    return next == null ? null : next.plan;
  }

  /**
   * The places in this node's line at its last tally whose arrival second passes {@code arrival},
   * sorted; without the ones the tally counted as called, if {@code uncalled}.
   */
  private long[] placesWaiting(java.util.function.LongPredicate arrival, boolean uncalled) {
    return seen.entrySet().stream()
        .filter(e -> inLine(e.getValue(), tallySecond) && arrival.test(Ticket.arrivalOf(e.getKey())))
        .filter(e -> !uncalled || !tallyGrant.lineCalled(e.getKey(), e.getValue().countedSince))
        .mapToLong(java.util.Map.Entry::getKey)
        .sorted()
        .toArray();
  }

  @org.jspecify.annotations.Nullable Seen seen(long place) {
    return seen.get(place);
  }

  /**
   * Counts an active ticket seen at {@code now}, once per slice: moves it from the slice it was
   * last counted in (by this node, or by the node that wrote the ticket) to the current one.
   */
  void checkIn(TicketState t, long now) {
    long slice = config.sliceOf(now);
    long fromTicket = config.sliceOf(t.lastCheckIn());
    while (true) {
      Seen prev = seen.get(t.place());
      long from = fromTicket;
      if (prev != null && prev.state == State.ACTIVE) {
        if (prev.at >= slice) {
          return; // already counted in this slice, by another request of the same ticket
        }
        from = Math.max(from, prev.at);
      }
      Seen next =
          new Seen(State.ACTIVE, slice, prev == null ? 0 : prev.admittedAt, 0, 0, prev == null ? now : prev.firstSeen,
              from < slice ? from : NOT_MOVED);
      if (prev == null ? seen.putIfAbsent(t.place(), next) == null : seen.replace(t.place(), prev, next)) {
        if (from < slice) {
          begun.increment();
          active.add(slice, 1);
          active.add(from, -1);
          done.increment();
        }
        return;
      }
    }
  }

  /**
   * Counts a waiting ticket's poll at {@code now}: it is in this node's line once, counted in a
   * line without a break since {@code countedSince}.
   */
  void poll(long place, long now, long countedSince, long ticketPoll, long ticketDue) {
    Seen prev = seen.get(place);
    if (prev == null) {
      seen.putIfAbsent(place, waiting(now, countedSince, now, new Polls(0, ticketDue, 0, 0)));
    } else if (prev.state == State.WAITING && (prev.at < now || prev.countedSince != countedSince)) {
      // Only a waiting entry moves: one being admitted by a parallel request stays as it is.
      Polls polls = prev.at == now ? prev.polls : prev.polls.next(prev, ticketPoll, ticketDue, now, lineAsOf);
      seen.replace(place, prev, waiting(now, countedSince, prev.firstSeen, polls));
    }
  }

  private Seen waiting(long now, long countedSince, long firstSeen, Polls polls) {
    return new Seen(State.WAITING, now, 0, now + pollWindowSeconds(), countedSince, firstSeen, NOT_MOVED, polls);
  }

  /**
   * Notes the pace of a waiting holder polling at {@code now}: it stays in the line while it misses
   * no more than one poll, that is until two of the refresh intervals it was told and two seconds
   * (tickets hold whole seconds). A holder that keeps a slower pace of its own ({@code slowPace}: a
   * browser runs a background tab's timers once a minute, an API client polls on its own timer)
   * stays until one of its own intervals, up to {@link #LONGEST_PACE_SECONDS}, and one told
   * interval and two seconds: a slow client keeps its turn and is let in at its next poll, and one
   * that stops polling leaves the line, with any slot held for it, about one of its intervals later.
   * Returns that second, the holder's due.
   */
  long expect(long place, long now, long refreshSeconds, long slowPace) {
    long told = now + Math.max(2 * refreshSeconds, refreshSeconds + Math.min(slowPace, longestPaceSeconds())) + 2;
    for (Seen prev = seen.get(place); prev != null && prev.state == State.WAITING && prev.at == now; prev = seen.get(place)) {
      // Parallel requests of this poll may have been told other intervals: the poll counts here
      // until the latest due any of their tickets carries (another node may share it until then).
      long due = prev.due == now + pollWindowSeconds() ? told : Math.max(told, prev.due);
      if (prev.due == due || seen.replace(place, prev,
          new Seen(State.WAITING, now, 0, due, prev.countedSince, prev.firstSeen, NOT_MOVED, prev.polls))) {
        return due;
      }
    }
    return told;
  }

  /**
   * Whether a place counts in the line at {@code now}: it waits, polled within the {@link
   * #pollWindowSeconds() poll window}, and is not overdue. A holder who misses two polls in a row
   * at its pace (see {@link #expect}: gave up, closed the tab, or polls another node now) leaves the
   * line, and with it any slot held for it, until it polls again: the plans spend no slots on
   * people who are gone, and one who comes back keeps its place and is counted again at once.
   */
  boolean inLine(Seen s, long now) {
    return s.state == State.WAITING && s.at >= now - pollWindowSeconds() && now <= s.due;
  }

  /** The outcome of an attempt to admit a waiting ticket. */
  enum Admission { ADMITTED, NO_SLOT, BUSY }

  /** Which slot a waiting ticket is let in on (see {@link #admitWaiting}). */
  enum Slot {
    /** The line has called it: the plans hold its slot, it takes none (see {@link Grant}). */
    HELD,
    /** One of the grant's slots for the holders of the plan's partial second. */
    PARTIAL,
    /**
     * A slot for new arrivals: it was called but not counted in the plan's line (it missed polls
     * and came back), and is still older than any new arrival.
     */
    NEW
  }

  /**
   * Admits a waiting ticket on the given slot, if the grant has one left. Only one request per
   * place gets that far: a parallel request of the same ticket is {@link Admission#BUSY}.
   */
  Admission admitWaiting(long place, long now, Grant g, Slot slot) {
    Seen prev = seen.get(place);
    if (prev != null && prev.state != State.WAITING) {
      return Admission.BUSY;
    }
    Seen claim = new Seen(State.ADMITTING, now, 0, 0, 0, prev == null ? now : prev.firstSeen);
    if (prev == null ? seen.putIfAbsent(place, claim) != null : !seen.replace(place, prev, claim)) {
      return Admission.BUSY;
    }
    begun.increment();
    boolean admitted = switch (slot) {
      case HELD -> true;
      case PARTIAL -> g.takePartial();
      case NEW -> g.takeNew();
    };
    record(admitted, now);
    seen.put(place, admitted
        ? new Seen(State.ACTIVE, config.sliceOf(now), now, 0, 0, claim.firstSeen)
        : prev == null ? waiting(now, now, claim.firstSeen, Polls.NONE)
        // Back to waiting as it was, with any due a parallel request's ticket already carries.
        : new Seen(State.WAITING, now, 0, prev.due, prev.countedSince, claim.firstSeen, NOT_MOVED, prev.polls));
    return admitted ? Admission.ADMITTED : Admission.NO_SLOT;
  }

  /** Whether the application ended the session of this place (here, or on a node this one heard of). */
  boolean revoked(long place) {
    long[] places = java.util.Objects.requireNonNull(revokedPlaces.get());
    return places.length > 0 && java.util.Arrays.binarySearch(places, place) >= 0;
  }

  /** Puts the places of {@link #revoked} in {@link #revokedPlaces}, sorted (however many threads change the map). */
  private void publishRevoked() {
    long[] now;
    long[] next;
    do {
      now = revokedPlaces.get();
      next = revoked.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
    } while (!revokedPlaces.compareAndSet(now, next));
  }

  /**
   * Ends an active ticket's session at the application's request: the ticket never passes here
   * again, and this node's tallies list its place while the slice it is counted in still counts,
   * so that the room's plans count the user out (once, however many nodes list it: see {@link
   * Tally#revokedPlaces()}) and every other node learns of it ({@link #learnRevoked}). The
   * counters themselves are left as they are. Once per place per node.
   *
   * @return whether this call ended it (false: it was ended before)
   */
  boolean revoke(TicketState t, long now) {
    long slice = config.sliceOf(t.lastCheckIn());
    Seen s = seen.get(t.place());
    if (s != null && s.state == State.ACTIVE) {
      slice = Math.max(slice, s.at); // checked in here since the ticket was written
    }
    if (revoked.putIfAbsent(t.place(), slice + config.sessionSeconds() + config.sliceSeconds()) != null) {
      return false;
    }
    revokedHere.put(t.place(), slice);
    publishRevoked();
    return true;
  }

  /**
   * Places other nodes admitted from the line lately (see {@link
   * io.github.waitingroom.coordinator.Coordinator#latestAdmitted}), sorted; replaced by the sync
   * thread after every exchange.
   */
  private volatile long[] admittedElsewhere = new long[0];

  /** Takes the places other nodes list as admitted in their latest tallies. */
  void learnAdmitted(long[] places) {
    admittedElsewhere = places;
  }

  /**
   * Whether another node listed this place as admitted in its latest tally: a waiting ticket with
   * it is a copy of one that got in.
   */
  boolean admittedElsewhere(long place) {
    return java.util.Arrays.binarySearch(admittedElsewhere, place) >= 0;
  }

  /** Learns the sessions other nodes ended, from the tallies of a settled epoch: they are refused here too. */
  void learnRevoked(java.util.List<Tally> tallies, long now) {
    long until = now + config.sessionSeconds() + 2 * config.sliceSeconds();
    boolean learned = false;
    for (Tally t : tallies) {
      for (long place : t.revokedPlaces()) {
        learned |= revoked.putIfAbsent(place, until) == null;
      }
    }
    if (learned) {
      publishRevoked();
    }
  }

  /**
   * Admits a user who arrived without a ticket, if the grant has a slot for new arrivals, or
   * {@code always} without one (the room lets everyone through: counted as an arrival and an
   * admission all the same, so the plans and the status stay true).
   */
  boolean admitNew(long place, long now, Grant g, boolean always) {
    arrivals.add(now, 1);
    begun.increment();
    boolean admitted = always || g.takeNew();
    record(admitted, now);
    if (!admitted) {
      queued.add(now, 1);
    }
    seen.put(place, admitted ? new Seen(State.ACTIVE, config.sliceOf(now), 0, 0, 0, now) : waiting(now, now, now, Polls.NONE));
    return admitted;
  }

  /** Gives a newcomer a place in line without trying for a slot (the room lets nobody in now). */
  void queueNew(long place, long now) {
    arrivals.add(now, 1);
    queued.add(now, 1);
    seen.put(place, waiting(now, now, now, Polls.NONE));
  }

  /**
   * Lets in a newcomer only if a slot for new arrivals is left, as {@link #admitNew} does; without
   * one, counts nothing (no arrival, no place): the caller challenges it first.
   */
  boolean admitNewIfFree(long place, long now, Grant g) {
    if (!g.hasNew()) {
      return false;
    }
    begun.increment();
    boolean admitted = g.takeNew();
    if (admitted) {
      arrivals.add(now, 1);
      seen.put(place, new Seen(State.ACTIVE, config.sliceOf(now), 0, 0, 0, now));
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
      active.add(config.sliceOf(now), 1);
      admissions.add(now, 1);
    }
    done.increment();
  }

  /**
   * What this node counts at {@code now}: the tally it publishes for the epoch that just ended.
   * An admission racing with the tally is counted at least once: as active, as in flight, or as
   * outstanding (see the class comment). The line holds the users {@link #inLine in line}; called
   * users hold their reserved slots and are left out of it.
   *
   * @param asOfSecond the second the tally's windows end at (sessions that have run out, the
   *     admissions and arrivals of the last minute): the end of the epoch it is for, the same on
   *     every node however late each takes its tally, so that a session one node moved from
   *     another's slice is counted on both or on neither ({@link Long#MAX_VALUE}: now)
   * @param listCheckInsSeconds how far back to list the check-ins this node counted (from the
   *     start of the slice that many seconds ago), for the other nodes of its data center to find
   *     the ones they counted too (see {@link #dropDuplicates}): at least the two epochs a check-in
   *     can fall between two tallies; 0 for none (a node alone in its data center)
   */
  Tally tally(long nowMillis, long asOfSecond, long listCheckInsSeconds) {
    long now = Math.floorDiv(nowMillis, 1000L);
    long asOf = Math.min(now, asOfSecond);
    activateIfDue(nowMillis);
    long doneBefore = done.sum();
    Grant g = grant;
    long admittedSince = now - config.waitingTimeoutSeconds();
    TreeMap<Long, Long> line = new TreeMap<>();
    TreeMap<Long, Long> shared = new TreeMap<>();
    long polling = 0;
    long reserved = 0;
    LongList partial = new LongList();
    LongList admitted = new LongList();
    LongList checkIns = new LongList();
    LongList reservedPlaces = new LongList();
    // Holders in line who may take a slot for the first holders of partial seconds.
    TreeMap<Long, Seen> firstHolders = new TreeMap<>();
    boolean listCheckIns = listCheckInsSeconds > 0;
    long checkInsFrom = config.sliceOf(now - listCheckInsSeconds);
    for (var e : seen.entrySet()) {
      Seen s = e.getValue();
      long place = e.getKey();
      if (s.state == State.WAITING && !g.plan.room().admitted(place)) {
        boolean byArrival = g.calls.called(Ticket.arrivalOf(place), s.countedSince);
        boolean called = byArrival || g.partialCalled(place);
        if (inLine(s, asOf)) {
          polling++;
          if (called) {
            // Called and still here as of the epoch's end: the slot the plan made for them stays
            // theirs. (As of the end, as the lines are: another node that counts the holder in its
            // line counts it shared while a poll here is due then, see Polls.)
            reserved++;
            reservedPlaces.add(place);
            if (!byArrival) {
              partial.add(place);
            }
          }
        }
        if (!called && place <= g.partialCutLater && inLine(s, asOf)) {
          firstHolders.put(place, s);
        } else if (!called) {
          // As of the epoch's end, as on every node (see Polls).
          countInLine(s, asOf, Ticket.arrivalOf(place), line, shared);
        }
      } else if (s.admittedAt >= admittedSince && s.admittedAt > 0) {
        admitted.add(place);
      }
      if (listCheckIns && s.state == State.ACTIVE && s.movedFrom != NOT_MOVED && s.at >= checkInsFrom) {
        checkIns.add(s.at);
        checkIns.add(place);
      }
    }
    // Called holders of partial seconds who are gone give their slots back to the room (one who
    // comes back is counted, and called, again).
    partialAtTally = partial.sorted();
    g.keepPartialCalled(partialAtTally);
    long outstandingNew = g.outstandingNew();
    long outstandingPartial = g.outstandingPartial();
    // The slots for the first holders of partial seconds that are left stay reserved for as many of
    // them as are still in line, the first by place; the others count in the line again.
    long kept = Math.min(outstandingPartial, firstHolders.size());
    long k = 0;
    LongList keptFor = new LongList();
    for (var e : firstHolders.entrySet()) {
      if (k++ >= kept) {
        countInLine(e.getValue(), asOf, Ticket.arrivalOf(e.getKey()), line, shared);
      } else {
        keptFor.add(e.getKey());
        keptFor.add(e.getValue().countedSince);
      }
    }
    keptForAtTally = keptFor.toArray();
    reserved += kept;
    partialLeftAtTally = outstandingPartial;
    tallySecond = now;
    lineAsOf = asOf;
    tallyGrant = g;
    newAtTally = outstandingNew;
    long activeUsers = sum(active, config.firstActiveSlice(asOf));
    long recent = sum(admissions, asOf - RATE_SECONDS + 1);
    long arrived = sum(arrivals, asOf - RATE_SECONDS + 1);
    arrivedAtTally = arrived;
    long inFlight = begun.sum() - doneBefore;
    activeUsers += inFlight;
    recent += inFlight;
    return new Tally(
        activeUsers,
        reserved - kept + outstandingPartial,
        outstandingNew,
        reserved,
        polling,
        Math.max(0, recent),
        Math.max(0, arrived),
        line,
        admitted.sorted(),
        checkIns.toArray(),
        reservedPlaces.size() <= Tally.MAX_ADMITTED_PLACES ? reservedPlaces.toArray() : new long[0],
        shared, false, revokedCounted(config.firstActiveSlice(asOf)), 1);
  }

  /**
   * Counts a waiting holder in the line at second {@code t} if a poll of it here is due then, and
   * as shared if every such poll is shared then (see {@link Polls}).
   */
  private static void countInLine(Seen s, long t, long arrival, TreeMap<Long, Long> line, TreeMap<Long, Long> shared) {
    Polls p = s.polls;
    boolean current = t <= s.currentDue();
    boolean earlier = t <= p.earlierDue;
    if (current || earlier) {
      line.merge(arrival, 1L, Long::sum);
      if (!(current && t > p.sharedUntil || earlier && t > p.earlierShared)) {
        shared.merge(arrival, 1L, Long::sum);
      }
    }
  }

  /**
   * The slowest pace the line counts a waiting holder at (see {@link #expect}): once a minute, the
   * pace browsers keep for a tab in the background, or the room's refresh interval if that is
   * longer. A holder that polls slower than this (a frozen tab, a phone that switched apps) leaves
   * the line between polls: it keeps its place (its ticket) and is counted again when it comes
   * back, but no slot waits for it meanwhile.
   */
  static final long LONGEST_PACE_SECONDS = 60;

  private long longestPaceSeconds() {
    return Math.max(LONGEST_PACE_SECONDS, config.refreshSeconds());
  }

  /**
   * How recently a waiting user must have polled to count in the line: the slowest pace it is
   * counted at, the room's refresh interval and two seconds (the longest due {@link #expect} gives);
   * its due is the tighter bound. A user who missed one poll keeps its turn; one whose requests go
   * to several nodes counts on the few it polled lately, not on every node it ever saw.
   */
  long pollWindowSeconds() {
    return longestPaceSeconds() + config.refreshSeconds() + 2;
  }

  /**
   * About how many users joined the room's line from {@code fromSecond} to {@code toSecond} (both
   * included): they are not in the line of a plan whose tally came before. From the arrivals this
   * node queued then, scaled by its share of the room's arrivals in the plan (see {@link
   * #toRoom}). Arrivals who got a slot at once are ahead of nobody.
   */
  long roomQueuedBetween(long fromSecond, long toSecond, Plan plan) {
    if (toSecond < fromSecond) {
      return 0;
    }
    return toRoom(queued.sum(fromSecond, Math.min(toSecond, fromSecond + RATE_SECONDS)), plan);
  }

  /**
   * About how many users join the room's line in the given second, the holder asking among them,
   * as {@link #roomQueuedBetween}; the holder itself is one for sure and is not scaled (as a
   * sample of the room's rate it would count every node as having queued one: in a room with
   * slots to spare, where one node's share ran out, that told the few queued before the
   * simulator's crowd about five times their wait). While the second runs, those so far and the
   * rest of the second at the rate of those who came before the holder asking (the last of those
   * so far). In a crowd, the
   * first holders of a second would otherwise be told of a sliver of the second that will share it
   * with them: a tenth of a crowd second in, a tenth of it. The holders before the last are
   * Poisson with mean rate x elapsed, so the rate is (so far - 1) / elapsed, taken over at least
   * {@value #MIN_ELAPSED_MILLIS} ms.
   *
   * @param nowMillis the room clock, in milliseconds
   */
  long roomQueuedIn(long second, long nowMillis, Plan plan) {
    long mine = queued.sum(second, second);
    long elapsed = nowMillis - second * 1000;
    if (mine > 1 && elapsed >= 0 && elapsed < 1000) {
      mine += Math.round((double) (1000 - elapsed) * (mine - 1) / Math.max(elapsed, MIN_ELAPSED_MILLIS));
    }
    return mine == 0 ? 0 : 1 + toRoom(mine - 1, plan);
  }

  /**
   * Whether this node's arrivals from {@code fromSecond} (a plan's tally) to {@code now} are more
   * than {@value #SURGE_FACTOR} times as many as its rate in the minute before its last tally
   * gives for that time, and {@value #SURGE_SLACK} more: a surge that no plan has counted yet
   * (a rate seen at a tally is in the next plans). Between two plans a node
   * cannot tell whether it is the room's (thousands more are arriving on other nodes and in
   * other data centers) or its own, so it cannot tell a newcomer how many of them come first.
   */
  boolean surgingSince(long fromSecond, long now) {
    long since = arrivals.sum(fromSecond, now);
    double expected = (double) arrivedAtTally * (now - fromSecond + 1) / RATE_SECONDS;
    return since > SURGE_FACTOR * expected + SURGE_SLACK;
  }

  /** How many times its usual rate of arrivals makes a surge on a node (see {@link #surgingSince}). */
  static final int SURGE_FACTOR = 2;

  /** How many arrivals more than {@link #SURGE_FACTOR} times its usual rate make a surge. */
  static final int SURGE_SLACK = 3;

  /** The shortest part of a second whose arrivals tell its rate. */
  static final long MIN_ELAPSED_MILLIS = 100;

  /**
   * This node's arrivals scaled by the room's arrivals of the last minute in the plan over this
   * node's at its last tally. That tally may be newer than the plan's (plans take over an epoch
   * or two after their tallies): when a crowd reaches this node first, the scale falls towards 1,
   * as if the crowd came only here, where the plan's own tally would scale it to the whole room
   * as if it came everywhere (in the simulator's crowd into one data center, 2.5x too long).
   */
  private long toRoom(long mine, Plan plan) {
    long room = plan.room().arrivals();
    return mine == 0 ? 0 : Math.max(mine, Math.round((double) mine * room / Math.max(1, arrivedAtTally)));
  }

  /**
   * Users whose session counts at {@code now} and who checked in here in it, each once. The
   * tallies count a session on the node of its last check-in: a check-in that moves it from
   * another node counts here and is taken off there in the sums, so this node's own count nets
   * out the users who moved to it (until their slice on the other node expires). This counts them
   * on every node they checked in on lately instead, which is what a node that plans alone, and
   * cannot see the others' counts, must go by.
   */
  long checkedInHere(long now) {
    long first = config.firstActiveSlice(now);
    long n = 0;
    for (Seen s : seen.values()) {
      if (s.state == State.ACTIVE && s.at >= first) {
        n++;
      }
    }
    return n;
  }

  /** Active users this node counts at {@code now}. */
  long activeUsers(long now) {
    return Math.max(0, sum(active, config.firstActiveSlice(now)));
  }

  /**
   * Takes back this node's counts of users that an earlier node of its data center (in publisher
   * order) also counted: the same ticket let in from the line on two nodes at once, or the same
   * session checked in on two nodes in one slice, by parallel requests of one page or by copies.
   * It is one user, and the node that published first keeps it. For an admission this node
   * removes the user from its active users and from its admissions of the last minute, and no
   * longer lists the place as admitted; for a check-in it undoes its move of the user from one
   * slice to the next. Called by the sync thread with the tallies of a settled epoch. A node that
   * checks the same user in again before the epoch of the first check-in settles (slices shorter
   * than two epochs) keeps the extra count, for at most a session.
   *
   * @param nodes the tallies of the live nodes of this node's data center, in publisher order
   * @param me this node's index in {@code nodes}
   */
  void dropDuplicates(java.util.List<Tally> nodes, int me, long now) {
    if (me == 0) {
      return;
    }
    long firstActive = config.firstActiveSlice(now);
    // The places this node listed in that epoch's tally: no need to scan every place it remembers.
    for (long place : nodes.get(me).admittedPlaces()) {
      if (!before(nodes, me, t -> t.admitted(place))) {
        continue;
      }
      for (Seen s = seen.get(place); s != null && s.admittedAt != 0; s = seen.get(place)) {
        if (seen.replace(place, s, new Seen(s.state, s.at, 0, s.due, s.countedSince, s.firstSeen, s.movedFrom))) {
          if (s.state == State.ACTIVE && s.at >= firstActive) {
            active.add(s.at, -1);
          }
          if (s.admittedAt > now - RATE_SECONDS) {
            admissions.add(s.admittedAt, -1);
          }
          break;
        }
      }
    }
    long[] checkIns = nodes.get(me).checkIns();
    for (int i = 0; i < checkIns.length; i += 2) {
      long slice = checkIns[i];
      long place = checkIns[i + 1];
      if (!before(nodes, me, t -> t.checkedIn(slice, place))) {
        continue;
      }
      for (Seen s = seen.get(place);
          s != null && s.state == State.ACTIVE && s.at == slice && s.movedFrom != NOT_MOVED;
          s = seen.get(place)) {
        if (seen.replace(place, s, new Seen(s.state, s.at, s.admittedAt, s.due, s.countedSince, s.firstSeen))) {
          active.add(slice, -1);
          if (s.movedFrom >= firstActive) {
            active.add(s.movedFrom, 1);
          }
          break;
        }
      }
    }
  }

  /** Whether a node before {@code me} in publisher order counted what {@code counted} asks about. */
  private static boolean before(java.util.List<Tally> nodes, int me, java.util.function.Predicate<Tally> counted) {
    for (int i = 0; i < me; i++) {
      if (counted.test(nodes.get(i))) {
        return true;
      }
    }
    return false;
  }

  /** Forgets what no longer matters at {@code now}; called by the sync thread. */
  void prune(long now) {
    if (revoked.values().removeIf(until -> until < now)) {
      revokedHere.keySet().retainAll(revoked.keySet());
      publishRevoked();
    }
    long firstActive = config.firstActiveSlice(now);
    active.pruneBefore(firstActive);
    admissions.pruneBefore(now - RATE_SECONDS);
    arrivals.pruneBefore(now - RATE_SECONDS);
    queued.pruneBefore(now - RATE_SECONDS);
    long waitingSince = now - config.waitingTimeoutSeconds();
    // A waiting holder's poll here is kept while it counts (another node may share it, see Polls),
    // and then until its place times out; but a place whose only request here was its arrival
    // (a request without a cookie whose client never came back: a bot, a flood) is forgotten as
    // soon as it no longer counts, so a flood costs memory for its places' first due, not for the
    // waiting timeout. One that comes back after all is remembered anew (as on a node it never
    // polled) and may be let in here once a tally has counted it again.
    seen.entrySet().removeIf(e -> {
      Seen s = e.getValue();
      if (s.admittedAt >= waitingSince) {
        return false;
      }
      if (s.state == State.ACTIVE) {
        return s.at < firstActive;
      }
      boolean over = s.at < waitingSince || s.state == State.WAITING && s.at == Ticket.arrivalOf(e.getKey());
      return over && s.countsUntil() < lineAsOf;
    });
  }

  /** How many places this node remembers. */
  int remembered() {
    return seen.size();
  }

  /** The places of the sessions this node ended whose slice still counts from {@code firstActive} on. */
  private long[] revokedCounted(long firstActive) {
    return revokedHere.entrySet().stream().filter(e -> e.getValue() >= firstActive)
        .mapToLong(java.util.Map.Entry::getKey).toArray();
  }

  private static long sum(SliceCounter counter, long from) {
    long sum = 0;
    for (long n : counter.snapshot(from).values()) {
      sum += n;
    }
    return sum;
  }
}
