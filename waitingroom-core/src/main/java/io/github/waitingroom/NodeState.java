package io.github.waitingroom;

import static io.github.waitingroom.Seen.NOT_MOVED;

import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.Seen.State;
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
 * <p><b>Every admission takes a slot.</b> A waiting holder or a newcomer whose place is at or
 * below the plan's cutoff takes one of the grant's slots by compare-and-set (see {@link Grant});
 * the tally reports what is left as outstanding, so the next plan counts it whoever takes it.
 *
 * <p><b>Parts</b>, beside it: {@link Line} (the line of waiting holders: polls, paces, dues, the
 * poll window), {@link Admitter} (admissions and places in line given on the request path), {@link
 * LineScan} (one tally's pass over the places), {@link Duplicates} (counts an earlier node of the
 * data center also made, taken back), {@link Schedule} (the grant in force and the plan that takes
 * over next), {@link Arrivals}, {@link BrowsedSeconds} and {@link Revocations}.
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
  /** The seconds users browsed here, from each one's request before to the one this node counted. */
  private final BrowsedSeconds browsed = new BrowsedSeconds();
  /** Users whose sessions ended here (the counts of the active slices this node forgot); sync thread only. */
  private long sessionsEnded;
  private final LongAdder begun = new LongAdder();
  private final LongAdder done = new LongAdder();
  private final Duplicates duplicates = new Duplicates(seen, active, admissions, browsed);
  /** The application's answers to the requests let through here, since the last tally. */
  private final OriginLatency origin = new OriginLatency();
  private final Line line;
  private final Admitter admitter;

  /** A node's state under {@code config}. */
  NodeState(RoomConfig config) {
    this.config = config;
    this.schedule = new Schedule();
    this.line = new Line(seen, this::config);
    this.admitter = new Admitter(seen, line, arrivals, active, admissions, begun, done, this::config);
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

  /** Closes the grant in force to newcomers (see {@link Schedule#closeToNewArrivals}). */
  void closeToNewArrivals() {
    schedule.closeToNewArrivals();
  }

  /**
   * The grant in force at {@code nowMillis} (room clock): a scheduled plan whose instant has come
   * takes over first, so every node switches at that instant, not at its next sync.
   */
  Grant grantAt(long nowMillis) {
    schedule.activateIfDue(nowMillis);
    return schedule.grant();
  }

  /** Schedules a plan made from this node's last tally (see {@link Schedule#schedule}). */
  void schedule(Plan plan, long activateAtMillis) {
    schedule.schedule(plan, activateAtMillis);
  }

  /** The plan that takes over next, if one is scheduled. */
  @org.jspecify.annotations.Nullable Plan scheduledPlan() {
    return schedule.scheduledPlan();
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
          new Seen(State.ACTIVE, slice, prev == null ? 0 : prev.admittedAt(), 0, prev == null ? now : prev.firstSeen(),
              from < slice ? from : NOT_MOVED);
      if (prev == null ? seen.putIfAbsent(t.place(), next) == null : seen.replace(t.place(), prev, next)) {
        if (from < slice) {
          begun.increment();
          browsed.add(from, slice);
          active.add(slice, 1);
          active.add(from, -1);
          done.increment();
        }
        return;
      }
    }
  }

  /**
   * Counts a waiting ticket's poll at {@code now}, from the entry the caller just read ({@link
   * #seen}): it is in this node's line once; returns the entry it leaves (see {@link Line#poll}).
   */
  @org.jspecify.annotations.Nullable Seen poll(long place, @org.jspecify.annotations.Nullable Seen read, long now,
      long ticketPoll, long ticketDue) {
    return line.poll(place, read, now, ticketPoll, ticketDue);
  }

  /**
   * Notes the pace of a waiting holder polling at {@code now}, from the entry this request's poll
   * left if known; returns its due (see {@link Line#expect}).
   */
  long expect(long place, @org.jspecify.annotations.Nullable Seen polled, long now, long refreshSeconds,
      long slowPace) {
    return line.expect(place, polled, now, refreshSeconds, slowPace);
  }

  /** Notes whether the last settled epoch counted this node alone in the room (see {@link Seen.Polls}). */
  void countedAlone(boolean alone) {
    line.countedAlone(alone);
  }

  /** The outcome of an attempt to admit a waiting ticket. */
  enum Admission { ADMITTED, NO_SLOT, BUSY }

  /**
   * Admits a waiting ticket on one of the grant's slots, if one is left ({@code always}: without
   * one); one request per place (see {@link Admitter#admitWaiting}).
   */
  Admission admitWaiting(long place, long now, Grant g, boolean always) {
    return admitter.admitWaiting(place, now, g, always);
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
   * Admits a user who arrived without a ticket, if it may take one of the grant's slots, or
   * {@code always} without one (see {@link Admitter#admitNew}).
   */
  boolean admitNew(long place, long now, Grant g, boolean always) {
    return admitter.admitNew(place, now, g, always);
  }

  /** Gives a newcomer a place in line without trying for a slot (the room lets nobody in now). */
  void queueNew(long place, long now) {
    admitter.queueNew(place, now);
  }

  /** Lets in a newcomer only if it may take a slot (see {@link Admitter#admitNewIfFree}). */
  boolean admitNewIfFree(long place, long now, Grant g) {
    return admitter.admitNewIfFree(place, now, g);
  }

  /**
   * What this node counts at {@code now}: the tally it publishes for the epoch that just ended.
   * An admission racing with the tally is counted at least once: as active, as in flight, or as
   * outstanding (see the class comment). The line holds the waiting users whose last poll here is
   * due (see {@link Seen.Polls}).
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
    Grant g = schedule.grant();
    LineScan scan = new LineScan(asOf);
    scan.scan(this, seen.entrySet(), g, now - config.waitingTimeoutSeconds(), listCheckInsSeconds > 0,
        config.sliceOf(now - listCheckInsSeconds));
    // The slots left and the counters, read one right after the other, after the scan: an
    // admission that ends between the first read and the last counts twice (in the counters and
    // in flight), and a plan made from that tally holds back a slot, so the window is kept short.
    long doneBefore = done.sum();
    long outstanding = g.outstanding();
    long activeUsers = active.sumFrom(config.firstActiveSlice(asOf));
    long recent = admissions.sumFrom(asOf - RATE_SECONDS + 1);
    long inFlight = begun.sum() - doneBefore;
    activeUsers += inFlight;
    recent += inFlight;
    schedule.tallied(new Schedule.AtTally(g, now, outstanding));
    line.tallied(asOf);
    long arrived = arrivals.tally(asOf);
    return new Tally(
        activeUsers,
        outstanding,
        Math.max(0, recent),
        Math.max(0, arrived),
        scan.line,
        scan.admitted.sorted(),
        scan.checkIns.toArray(),
        scan.shared, false, revocations.endedHere(config.firstActiveSlice(asOf)), 1,
        browsing(asOf, Turnover.idleSeconds(config)), new Tally.Cut(g.cutPlace(), scan.atOrBelowCut),
        origin.drain());
  }

  /** What the application's answers took (see {@link WaitingRoom#originAnswered}). */
  OriginLatency origin() {
    return origin;
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

  /**
   * This node's admissions of the last {@code seconds} seconds, and at least of the last minute, by
   * age: element a is those let in a seconds before {@code now}. The wait estimates learn from
   * them when the last minute's admissions turn a minute old ({@link #ageing}) and how long those
   * of the idle time have been in the room ({@code Turnover#roomByAge}). Called by the sync thread.
   */
  long[] admittedByAge(long now, int seconds) {
    long[] byAge = new long[Math.max((int) RATE_SECONDS, seconds)];
    for (var e : admissions.snapshot(now - byAge.length + 1).entrySet()) {
      long a = now - e.getKey();
      if (a >= 0) {
        byAge[(int) a] = e.getValue();
      }
    }
    return byAge;
  }

  /**
   * When this node's admissions of the last minute ({@code byAge}, see {@link #admittedByAge}) turn
   * a minute old: element i is the share of them that have after i more seconds (61 elements, the
   * last 1; evenly when there were none). The room's admissions of the last minute are taken to
   * age the same way.
   */
  static double[] ageing(long[] byAge) {
    double[] ageing = new double[(int) RATE_SECONDS + 1];
    long total = 0;
    for (int a = 0; a < RATE_SECONDS; a++) {
      // Let in a seconds ago: a minute old in RATE_SECONDS - a seconds.
      ageing[(int) RATE_SECONDS - a] = byAge[a];
      total += byAge[a];
    }
    double sum = 0;
    for (int i = 0; i < ageing.length; i++) {
      sum += ageing[i];
      ageing[i] = total == 0 ? (double) i / RATE_SECONDS : sum / total;
    }
    return ageing;
  }

  /** Active users this node counts at {@code now}. */
  long activeUsers(long now) {
    return Math.max(0, active.sumFrom(config.firstActiveSlice(now)));
  }

  /**
   * What this node saw by second {@code now} of how long users browse (see {@code Turnover}):
   * sessions that ended here, active users whose last check-in here came more than {@code
   * idleSeconds} before (their sessions end within the rest of a session unless they come back),
   * and the seconds users browsed before that idle time (from each check-in to the next, the
   * requests between counted wherever they were made). These are this node's shares of the
   * room's (see {@link Tally.Browsing}). Called by the sync thread.
   */
  Tally.Browsing browsing(long now, long idleSeconds) {
    long idleBefore = config.firstActiveSlice(now + config.sessionSeconds() - idleSeconds);
    long users = active.sumFrom(config.firstActiveSlice(now));
    long idle = users - active.sumFrom(idleBefore);
    return new Tally.Browsing(sessionsEnded + idle, idle, users, browsed.before(idleBefore));
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
    if (me != 0) {
      duplicates.drop(nodes, me, now, config.firstActiveSlice(now));
    }
  }

  /** Forgets what no longer matters at {@code now}; called by the sync thread. */
  void prune(long now) {
    revocations.prune(now);
    long firstActive = config.firstActiveSlice(now);
    sessionsEnded += active.sumBefore(firstActive);
    active.pruneBefore(firstActive);
    browsed.forgetBefore(firstActive);
    // Kept for the idle time too when it is longer than a minute (see admittedByAge).
    admissions.pruneBefore(now - Math.max(RATE_SECONDS, Turnover.idleSeconds(config)));
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
      return over && s.countsUntil() < line.asOf();
    });
  }

  /** How many places this node remembers. */
  int remembered() {
    return seen.size();
  }
}
