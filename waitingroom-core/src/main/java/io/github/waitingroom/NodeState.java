package io.github.waitingroom;

import static io.github.waitingroom.Seen.NOT_MOVED;

import io.github.waitingroom.internal.LongList;
import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.Seen.Polls;
import io.github.waitingroom.Seen.State;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
  static final long RATE_SECONDS = 61;

  /** The configuration in force: the room's, with the limits and session of its live settings. */
  private volatile RoomConfig config;
  private final ConcurrentHashMap<Long, Seen> seen = new ConcurrentHashMap<>();
  private final Revocations revocations = new Revocations();
  private final Schedule schedule;
  private final Arrivals arrivals = new Arrivals();
  private final SliceCounter active = new SliceCounter();
  private final SliceCounter admissions = new SliceCounter();
  private final LongAdder begun = new LongAdder();
  private final LongAdder done = new LongAdder();
  /** The second the last tally counted the line as of: polls due before it no longer count. */
  private volatile long lineAsOf = Long.MIN_VALUE;

  /**
   * A node's state under {@code config}.
   *
   * @param draws where the random draws of random queueing come from (see {@link Schedule}):
   *     the room's tie-break bits, which tests may seed
   */
  NodeState(RoomConfig config, java.util.function.IntSupplier draws) {
    this.config = config;
    this.schedule = new Schedule(draws);
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
    return schedule.grant();
  }

  /** Lets a scheduled grant take over if its time has come (see {@link Schedule#activateIfDue}). */
  void activateIfDue(long nowMillis) {
    schedule.activateIfDue(nowMillis);
  }

  /** Takes away the slots for new arrivals left (see {@link Schedule#closeToNewArrivals}). */
  void closeToNewArrivals() {
    schedule.closeToNewArrivals();
  }

  /** Schedules a plan made from this node's last tally (see {@link Schedule#schedule}). */
  void schedule(Plan plan, long countedBy, long activateAtMillis, boolean roomWide, long drawnSecond,
      long[] peerReserved, long laterAfterMillis) {
    schedule.schedule(this::placesWaiting, plan, countedBy, activateAtMillis, roomWide, drawnSecond, peerReserved,
        laterAfterMillis);
  }

  /** The plan that takes over next, if one is scheduled. */
  @org.jspecify.annotations.Nullable Plan scheduledPlan() {
    return schedule.scheduledPlan();
  }

  /**
   * The places in this node's line at its last tally whose arrival second passes {@code arrival},
   * sorted; without the ones the tally counted as called, if {@code uncalled}.
   */
  private long[] placesWaiting(java.util.function.LongPredicate arrival, boolean uncalled) {
    Schedule.AtTally tally = schedule.atTally();
    return seen.entrySet().stream()
        .filter(e -> inLine(e.getValue(), tally.second()) && arrival.test(Ticket.arrivalOf(e.getKey())))
        .filter(e -> !uncalled || !tally.grant().lineCalled(e.getKey(), e.getValue().countedSince()))
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
      if (prev != null && prev.state() == State.ACTIVE) {
        if (prev.at() >= slice) {
          return; // already counted in this slice, by another request of the same ticket
        }
        from = Math.max(from, prev.at());
      }
      Seen next =
          new Seen(State.ACTIVE, slice, prev == null ? 0 : prev.admittedAt(), 0, 0, prev == null ? now : prev.firstSeen(),
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
    } else if (prev.state() == State.WAITING && (prev.at() < now || prev.countedSince() != countedSince)) {
      // Only a waiting entry moves: one being admitted by a parallel request stays as it is.
      Polls polls = prev.at() == now ? prev.polls() : prev.polls().next(prev, ticketPoll, ticketDue, now, lineAsOf);
      seen.replace(place, prev, waiting(now, countedSince, prev.firstSeen(), polls));
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
    for (Seen prev = seen.get(place); prev != null && prev.state() == State.WAITING && prev.at() == now; prev = seen.get(place)) {
      // Parallel requests of this poll may have been told other intervals: the poll counts here
      // until the latest due any of their tickets carries (another node may share it until then).
      long due = prev.due() == now + pollWindowSeconds() ? told : Math.max(told, prev.due());
      if (prev.due() == due || seen.replace(place, prev,
          new Seen(State.WAITING, now, 0, due, prev.countedSince(), prev.firstSeen(), NOT_MOVED, prev.polls()))) {
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
    return s.state() == State.WAITING && s.at() >= now - pollWindowSeconds() && now <= s.due();
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
    if (prev != null && prev.state() != State.WAITING) {
      return Admission.BUSY;
    }
    Seen claim = new Seen(State.ADMITTING, now, 0, 0, 0, prev == null ? now : prev.firstSeen());
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
        ? new Seen(State.ACTIVE, config.sliceOf(now), now, 0, 0, claim.firstSeen())
        : prev == null ? waiting(now, now, claim.firstSeen(), Polls.NONE)
        // Back to waiting as it was, with any due a parallel request's ticket already carries.
        : new Seen(State.WAITING, now, 0, prev.due(), prev.countedSince(), claim.firstSeen(), NOT_MOVED, prev.polls()));
    return admitted ? Admission.ADMITTED : Admission.NO_SLOT;
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
    if (s != null && s.state() == State.ACTIVE) {
      slice = Math.max(slice, s.at()); // checked in here since the ticket was written
    }
    return revocations.revoke(t.place(), slice, slice + config.sessionSeconds() + config.sliceSeconds());
  }

  /** Learns the sessions other nodes ended, from the tallies of a settled epoch: they are refused here too. */
  void learnRevoked(java.util.List<Tally> tallies, long now) {
    revocations.learn(tallies, now + config.sessionSeconds() + 2 * config.sliceSeconds());
  }

  /**
   * Admits a user who arrived without a ticket, if the grant has a slot for new arrivals, or
   * {@code always} without one (the room lets everyone through: counted as an arrival and an
   * admission all the same, so the plans and the status stay true).
   */
  boolean admitNew(long place, long now, Grant g, boolean always) {
    arrivals.arrive(now);
    begun.increment();
    boolean admitted = always || g.takeNew();
    record(admitted, now);
    if (!admitted) {
      arrivals.queue(now);
    }
    seen.put(place, admitted ? new Seen(State.ACTIVE, config.sliceOf(now), 0, 0, 0, now) : waiting(now, now, now, Polls.NONE));
    return admitted;
  }

  /** Gives a newcomer a place in line without trying for a slot (the room lets nobody in now). */
  void queueNew(long place, long now) {
    arrivals.arrive(now);
    arrivals.queue(now);
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
      arrivals.arrive(now);
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
    Grant g = schedule.grant();
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
      if (s.state() == State.WAITING && !g.plan.room().admitted(place)) {
        boolean byArrival = g.calls.called(Ticket.arrivalOf(place), s.countedSince());
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
      } else if (s.admittedAt() >= admittedSince && s.admittedAt() > 0) {
        admitted.add(place);
      }
      if (listCheckIns && s.state() == State.ACTIVE && s.movedFrom() != NOT_MOVED && s.at() >= checkInsFrom) {
        checkIns.add(s.at());
        checkIns.add(place);
      }
    }
    // Called holders of partial seconds who are gone give their slots back to the room (one who
    // comes back is counted, and called, again).
    long[] partialCalled = partial.sorted();
    g.keepPartialCalled(partialCalled);
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
        keptFor.add(e.getValue().countedSince());
      }
    }
    reserved += kept;
    schedule.tallied(new Schedule.AtTally(g, now, outstandingNew, partialCalled, outstandingPartial, keptFor.toArray()));
    lineAsOf = asOf;
    long activeUsers = active.sumFrom(config.firstActiveSlice(asOf));
    long recent = admissions.sumFrom(asOf - RATE_SECONDS + 1);
    long arrived = arrivals.tally(asOf);
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
        shared, false, revocations.endedHere(config.firstActiveSlice(asOf)), 1);
  }

  /**
   * Counts a waiting holder in the line at second {@code t} if a poll of it here is due then, and
   * as shared if every such poll is shared then (see {@link Polls}).
   */
  private static void countInLine(Seen s, long t, long arrival, TreeMap<Long, Long> line, TreeMap<Long, Long> shared) {
    Polls p = s.polls();
    boolean current = t <= s.currentDue();
    boolean earlier = t <= p.earlierDue();
    if (current || earlier) {
      line.merge(arrival, 1L, Long::sum);
      if (!(current && t > p.sharedUntil() || earlier && t > p.earlierShared())) {
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

  /** This node's arrivals, and what they tell about the room's line between two plans. */
  Arrivals arrivals() {
    return arrivals;
  }

  /** The places this node must not let pass although their tickets open. */
  Revocations revocations() {
    return revocations;
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
      if (s.state() == State.ACTIVE && s.at() >= first) {
        n++;
      }
    }
    return n;
  }

  /** Active users this node counts at {@code now}. */
  long activeUsers(long now) {
    return Math.max(0, active.sumFrom(config.firstActiveSlice(now)));
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
      for (Seen s = seen.get(place); s != null && s.admittedAt() != 0; s = seen.get(place)) {
        if (seen.replace(place, s, new Seen(s.state(), s.at(), 0, s.due(), s.countedSince(), s.firstSeen(), s.movedFrom()))) {
          if (s.state() == State.ACTIVE && s.at() >= firstActive) {
            active.add(s.at(), -1);
          }
          if (s.admittedAt() > now - RATE_SECONDS) {
            admissions.add(s.admittedAt(), -1);
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
          s != null && s.state() == State.ACTIVE && s.at() == slice && s.movedFrom() != NOT_MOVED;
          s = seen.get(place)) {
        if (seen.replace(place, s, new Seen(s.state(), s.at(), s.admittedAt(), s.due(), s.countedSince(), s.firstSeen()))) {
          active.add(slice, -1);
          if (s.movedFrom() >= firstActive) {
            active.add(s.movedFrom(), 1);
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
    revocations.prune(now);
    long firstActive = config.firstActiveSlice(now);
    active.pruneBefore(firstActive);
    admissions.pruneBefore(now - RATE_SECONDS);
    arrivals.prune(now - RATE_SECONDS);
    long waitingSince = now - config.waitingTimeoutSeconds();
    // A waiting holder's poll here is kept while it counts (another node may share it, see Polls),
    // and then until its place times out; but a place whose only request here was its arrival
    // (a request without a cookie whose client never came back: a bot, a flood) is forgotten as
    // soon as it no longer counts, so a flood costs memory for its places' first due, not for the
    // waiting timeout. One that comes back after all is remembered anew (as on a node it never
    // polled) and may be let in here once a tally has counted it again.
    seen.entrySet().removeIf(e -> {
      Seen s = e.getValue();
      if (s.admittedAt() >= waitingSince) {
        return false;
      }
      if (s.state() == State.ACTIVE) {
        return s.at() < firstActive;
      }
      boolean over = s.at() < waitingSince || s.state() == State.WAITING && s.at() == Ticket.arrivalOf(e.getKey());
      return over && s.countsUntil() < lineAsOf;
    });
  }

  /** How many places this node remembers. */
  int remembered() {
    return seen.size();
  }
}
