package io.github.waitingroom;

import io.github.waitingroom.allocation.Plan;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * The admission rule of one node: what a request gets, from its ticket, the settings in force and
 * the grant of the node's last plan (see {@link WaitingRoom} for the rule in words, and {@link
 * Grant} for the slots). An active session passes (checked in once per slice); a waiting ticket
 * or a newcomer whose place is at or below the plan's cutoff takes a slot by compare-and-set, and
 * everyone else waits, a newcomer at the back of the line. Thread-safe and lock-free, like the
 * {@link NodeState} it counts in.
 */
final class Decider {
  private final RoomConfig config;
  private final TicketCodec codec;
  private final NodeState state;
  private final LiveSettings live;
  private final TicketRate rate;
  private final Synchronizer sync;
  private final RoomMetrics metrics;
  /** Where the tie-break bits of new places come from. */
  private final RandomGenerator random;
  /** When this node started: a poll before it was counted by another node, or by this one before a restart. */
  private final long startSecond;
  private final WaitingAnswer answer;

  Decider(RoomConfig config, TicketCodec codec, NodeState state, LiveSettings live, TicketRate rate, Synchronizer sync,
      RoomMetrics metrics, RandomGenerator random) {
    this.config = config;
    this.codec = codec;
    this.state = state;
    this.live = live;
    this.rate = rate;
    this.sync = sync;
    this.metrics = metrics;
    this.random = random;
    this.startSecond = sync.nowSecond();
    this.answer = new WaitingAnswer(config, codec, state, sync);
  }

  /**
   * Decides a request whose ticket opened as {@code t} (or {@code null}: none, or one that did not
   * open) at {@code now}, under the settings in force {@code in}; see {@link WaitingRoom#decide}.
   */
  Decision decide(@Nullable TicketState t, long now, Newcomer newcomer, LiveSettings.Current in) {
    RoomSettings settings = in.settings();
    if (t != null) {
      if (activeAt(t, now, in)) {
        if (settings.suspended()) {
          // The session is kept (no ticket to write), and goes on once the room resumes; until
          // then it waits like everyone, for as long as nobody can tell.
          return Decision.waitingWithoutEstimate(0, config.refreshSeconds(), now);
        }
        // A ticket used far faster than one browser would (a cookie shared by many clients) is
        // refused for the rest of the window: its requests arrive anew.
        if (!rate.overLimit(t.place(), now)) {
          return pass(t, now, settings);
        }
        metrics.recordRejection(RoomMetrics.Rejection.TOO_FAST);
        return arrive(now, newcomer, in);
      }
      if (!t.isActive() && t.keptUntil(config.waitingTimeoutSeconds()) >= now) {
        return settings.queueingMethod() == RoomSettings.QueueingMethod.REJECT
            ? Decision.REJECTED
            : keepWaiting(t, now, newcomer, in);
      }
      metrics.recordRejection(t.isActive() && state.revocations().revoked(t.place())
          ? RoomMetrics.Rejection.REVOKED : RoomMetrics.Rejection.EXPIRED);
    }
    return arrive(now, newcomer, in);
  }

  /** Whether {@code t} is a session that lets its holder through at {@code now}. */
  boolean activeAt(TicketState t, long now, LiveSettings.Current in) {
    long first = in.config().firstActiveSlice(now);
    return t.isActive() && config.sliceOf(t.lastCheckIn()) >= first
        // Without renewal a session runs from its admission, however often it checks in.
        && !(in.settings().disableSessionRenewal() && config.sliceOf(t.acceptedAt()) < first)
        && !state.revocations().revoked(t.place());
  }

  private Decision pass(TicketState t, long now, RoomSettings settings) {
    if (config.sliceOf(t.lastCheckIn()) >= config.sliceOf(now) || settings.disableSessionRenewal()) {
      return Decision.PASS_UNCHANGED;
    }
    state.checkIn(t, now);
    return admitted(Decision.Outcome.PASS, t.checkIn(now));
  }

  private Decision keepWaiting(TicketState t, long now, Newcomer newcomer, LiveSettings.Current in) {
    RoomSettings settings = in.settings();
    Seen seen = state.seen(t.place());
    if (seen != null && seen.state() != Seen.State.WAITING) {
      // Admitted here already (or being admitted by a parallel request of the same ticket). A
      // request that left with the waiting ticket a moment before (a parallel fetch) gets a
      // waiting answer that writes no cookie, so the browser keeps the session cookie; a copy
      // that turns up later arrives anew. A copy never gets the session.
      long since = seen.admittedAt() > 0 ? seen.admittedAt() : seen.at();
      return now - since <= config.refreshSeconds() ? waitingUnchanged(now) : arrive(now, newcomer, in);
    }
    Grant grant = state.grantAt(sync.nowMillis());
    Plan next = state.scheduledPlan();
    if (grant.plan.room().admitted(t.place()) || next != null && next.room().admitted(t.place())
        || state.revocations().admittedElsewhere(t.place())) {
      // A copy of a ticket that another node admitted: known from that node's latest tally
      // (about an epoch after the admission, plus the lag between data centers), or from the plan.
      return arrive(now, newcomer, in);
    }
    // The node its last poll reached counts it until that poll's due (see Seen.Polls): unless
    // that poll came before this node started (its counts may be gone with a restart of this node).
    // The entry as the poll left it stands for a fresh lookup until this request changes it again.
    Seen polled = state.poll(t.place(), seen, now, t.lastPoll(),
        t.lastPoll() >= startSecond ? t.due() : 0);
    if (settings.queueingMethod() == RoomSettings.QueueingMethod.PASSTHROUGH) {
      return state.admitWaiting(t.place(), now, grant, true) == NodeState.Admission.ADMITTED
          ? admitted(Decision.Outcome.ADMIT, t.admit(now))
          : waitingUnchanged(now);
    }
    if (!in.admitting()) {
      return answer.waiting(Decision.Outcome.WAIT, t.poll(now), grant, false, t.slowPace(now), now, in, polled);
    }
    // One rule: a ticket whose place is at or below the plan's cutoff takes one of the node's
    // slots by compare-and-set. A poll whose ticket does not carry this node's last answer to its
    // place (another copy of the ticket polled here since this one last polled anywhere) is a
    // copy's, or a stale retry: it waits. A browser's polls, one at a time, always carry it.
    boolean stale = seen != null && t.lastPoll() < seen.at();
    boolean eligible = grant.eligible(t.place()) && !stale;
    if (eligible && state.admitWaiting(t.place(), now, grant, false) == NodeState.Admission.ADMITTED) {
      metrics.recordAdmissionFromLine(now - t.arrival());
      return admitted(Decision.Outcome.ADMIT, t.admit(now));
    }
    // An attempt that failed may have changed the entry: then it is looked up again.
    return answer.waiting(Decision.Outcome.WAIT, t.poll(now), grant, grant.eligible(t.place()),
        t.slowPace(now), now, in, eligible ? null : polled);
  }

  private Decision waitingUnchanged(long now) {
    return new Decision(Decision.Outcome.WAIT, null, 0, 0, 0, 0, 0, 2, now);
  }

  /**
   * A newcomer: let in when its place is at or below the cutoff and a slot is left, else given a
   * place in line; or, when
   * it may not queue yet, challenged with no side effect.
   */
  private Decision arrive(long now, Newcomer newcomer, LiveSettings.Current in) {
    RoomSettings.QueueingMethod method = in.settings().queueingMethod();
    if (method == RoomSettings.QueueingMethod.REJECT) {
      return Decision.REJECTED;
    }
    if (newcomer == Newcomer.NOT_YET) {
      return Decision.CHALLENGE;
    }
    boolean mayQueue = newcomer == Newcomer.QUEUE;
    // In a pre-queue lottery or at random, every newcomer's place carries one arrival second,
    // and its random tie-break bits alone order it (see LiveSettings).
    long place = Ticket.place(in.lineSecond() != Long.MIN_VALUE ? in.lineSecond() : now, random.nextInt());
    Grant grant = state.grantAt(sync.nowMillis());
    boolean admitting = in.admitting();
    boolean passthrough = method == RoomSettings.QueueingMethod.PASSTHROUGH;
    if (passthrough ? state.admitNew(place, now, grant, true)
        : admitting && (mayQueue ? state.admitNew(place, now, grant, false) : state.admitNewIfFree(place, now, grant))) {
      metrics.recordAdmissionOnArrival();
      return admitted(Decision.Outcome.ADMIT, new TicketState(TicketState.State.ACTIVE, place, now, now, now));
    }
    if (!mayQueue) {
      return Decision.CHALLENGE;
    }
    if (!admitting) {
      state.queueNew(place, now);
    }
    Decision d = answer.waiting(Decision.Outcome.QUEUE, TicketState.waiting(place, now), grant, grant.eligible(place), 0, now, in, null);
    metrics.recordQueued(d);
    return d;
  }

  private Decision admitted(Decision.Outcome outcome, TicketState t) {
    return new Decision(
        outcome, codec.seal(t), live.current(t.lastCheckIn()).config().sessionSeconds() + config.sliceSeconds(),
        0, 0, 0, 0, 0, 0);
  }

  /** What a request without a live ticket may get (see {@link WaitingRoom#decide(String, String, boolean)}). */
  enum Newcomer {
    /** A slot, or a place in line. */
    QUEUE,
    /** A slot only; without one nothing is counted ({@link Decision.Outcome#CHALLENGE}). */
    IF_FREE,
    /** Nothing yet: nothing is counted ({@link Decision.Outcome#CHALLENGE}; see {@link WaitingRoom#decideKnown}). */
    NOT_YET
  }
}
