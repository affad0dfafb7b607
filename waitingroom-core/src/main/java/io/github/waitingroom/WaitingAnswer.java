package io.github.waitingroom;

import io.github.waitingroom.allocation.Plan;
import org.jspecify.annotations.Nullable;

/**
 * What a node tells a holder it keeps waiting: how many people are ahead, the estimated wait and
 * its range (or that it is not known yet), and when to ask again; and the waiting ticket that
 * carries the poll. Used by {@link Decider}; thread-safe.
 */
final class WaitingAnswer {
  private final RoomConfig config;
  private final TicketCodec codec;
  private final NodeState state;
  private final Synchronizer sync;

  WaitingAnswer(RoomConfig config, TicketCodec codec, NodeState state, Synchronizer sync) {
    this.config = config;
    this.codec = codec;
    this.state = state;
    this.sync = sync;
  }

  /** Holders fewer than this many times the room's active-user limit from the front poll faster. */
  static final int FRONT_ROOMS = 4;

  /** The longest refresh interval near the front of the line (while the room is full). */
  static final long FRONT_REFRESH_SECONDS = 5;

  /**
   * The longest refresh interval of a newcomer's first answer: a place that is never polled again
   * counts in the line for at most twice this and two seconds.
   */
  static final long NEWCOMER_REFRESH_SECONDS = 5;

  /**
   * The refresh interval of an eligible holder that found no slot left on the node it polled
   * (another may still have one).
   */
  static final long ELIGIBLE_REFRESH_SECONDS = 1;

  /** The refresh interval while a surge no plan has counted leaves a holder's wait unknown. */
  static final long SURGE_REFRESH_SECONDS = 2;

  /**
   * A waiting answer.
   *
   * @param eligible whether the holder's place is at or below the plan's cutoff
   * @param slowPace the holder's own pace when it polls slower than told, else 0 (see {@link
   *     TicketState#slowPace} and {@link NodeState#expect})
   * @param polled the holder's entry as this request's poll left it, or {@code null}: looked up
   */
  Decision waiting(Decision.Outcome outcome, TicketState t, Grant grant, boolean eligible, long slowPace, long now,
      LiveSettings.Current in, @Nullable Seen polled) {
    // Eligible, with a slot left here: a parallel request of the same ticket is being admitted,
    // or the slots ran out an instant ago; the next poll lets it in.
    boolean calledHere = eligible && grant.hasSlots();
    // Before its first plan (a node that just joined the room) the wait is unknown but short.
    long refresh = grant.plan.epoch() == Long.MIN_VALUE ? 2 : config.refreshSeconds();
    Plan.Estimate e;
    // The least wait a holder the plans have not called yet can be told (see below).
    long soonest = -1;
    if (calledHere) {
      // Called, but not let in at this poll (a parallel request of the same ticket is being
      // admitted, or the slots ran out): the next poll lets it in.
      e = new Plan.Estimate(0, 0, 0, 0);
    } else {
      // Users who joined the line since the plan's tally, before this holder, are not in it yet:
      // in a crowd that is thousands of people ahead. The tally counted the second it was taken
      // in up to that moment: those are in the line.
      long unseen = 0;
      long ownUnseen = 0;
      boolean surge = false;
      if (grant.tallySecond != Long.MIN_VALUE && t.arrival() >= grant.tallySecond) {
        surge = state.arrivals().surgingSince(grant.tallySecond, now);
        unseen = Math.max(0, state.arrivals().roomQueuedBetween(grant.tallySecond, t.arrival() - 1, grant.plan)
            - (t.arrival() > grant.tallySecond ? grant.plan.lineAt(grant.tallySecond) : 0));
        // Those of its own second with an earlier place come first too: count all who queue in
        // it (while it runs: at its rate so far), not only those the tally saw. In a surge the
        // wait is not told (below), and the people ahead shown leave them out.
        if (!surge) {
          ownUnseen = Math.max(0, state.arrivals().roomQueuedIn(t.arrival(), sync.nowMillis(), grant.plan) - grant.plan.lineAt(t.arrival()));
        }
      }
      e = grant.plan.estimate(t.arrival(), unseen, sync.pace(grant.plan, in.config()), Ticket.shareOfSecondAhead(t.place()), ownUnseen);
      soonest = eligible ? -1 : sync.secondsUntilNextCall(grant.plan, t.arrival());
      if (surge) {
        // A surge since the plan's tally: the holder waits for those of its own second with an
        // earlier place and for everyone before it, and in a crowd that is thousands spread over
        // nodes and data centers nobody has heard from since. This node cannot tell how many
        // (only its own share of the room's arrivals before the surge), so the wait is not
        // known yet: it asks again every two seconds (every second while the plan served the
        // whole line, below) until a plan that counted the holder's second takes over (an epoch
        // or two, plus the store's lag).
        e = new Plan.Estimate(e.usersAhead(), -1, -1, -1);
        refresh = SURGE_REFRESH_SECONDS;
      }
    }
    // At random nobody is ahead of anybody: each plan draws its admissions afresh from everyone
    // waiting, so a holder waits on average for as long as the whole pool takes to be let in
    // once (N people at R a second: N / R), spread as an exponential wait (25th to 75th
    // percentile: 0.29 to 1.39 times that). It is shown the whole pool, which may grow.
    boolean drawn = in.settings().queueingMethod() == RoomSettings.QueueingMethod.RANDOM
        && t.arrival() == in.lineSecond();
    if (drawn && !calledHere) {
      soonest = -1;
      Plan.Estimate pool = grant.plan.estimate(t.arrival(), 0, sync.pace(grant.plan, in.config()), 1.0, 0);
      long mean = pool.seconds();
      // Everyone in the room's line: those of the draw's second and any who waited from before it.
      long waiting = Math.max(1, grant.plan.waitingUsers());
      e = new Plan.Estimate(waiting, mean, mean < 0 ? -1 : mean * 29 / 100, mean < 0 ? -1 : mean * 139 / 100);
    }
    boolean paused = !in.admitting();
    if (paused) {
      // Nobody is let in (queueAll, suspended, a pre-queue): the wait is not known until the room opens.
      e = new Plan.Estimate(e.usersAhead(), -1, -1, -1);
      refresh = config.refreshSeconds();
    }
    if (outcome == Decision.Outcome.QUEUE) {
      // A newcomer's first answer: it asks again within seconds, so that a place whose holder never
      // comes back (a bot, a flood of requests without cookies, a closed tab) counts in the line,
      // and in the estimates told to others, for at most 2 x 5 + 2 s (see Line.expect), not
      // for two full refresh intervals. Its second answer tells the interval the line asks for.
      refresh = Math.min(refresh, NEWCOMER_REFRESH_SECONDS);
    }
    if (paused) {
      // the room's refresh interval: nobody is called before it opens
    } else {
      if (e.seconds() >= 0 && e.seconds() < 2 * refresh) {
        // A short wait: ask again sooner, so a slot that frees is used within seconds.
        refresh = Math.max(2, Math.min(refresh, e.seconds() / 2));
      }
      if (e.usersAhead() < FRONT_ROOMS * in.config().totalActiveUsers()) {
        // Within a few rooms' worth of the front a holder may be called any moment, and the
        // estimate cannot tell when (those called ahead may have gone): ask again within seconds,
        // so that an eligible holder takes a slot before giving up, and one who has gone is known
        // to be gone soon (see Line.expect). Faster still while this node has slots left, and for
        // a holder the cutoff reached in the line (not one queued while the cutoff was open to
        // all). Whatever its wait, never slower than this: a wait of 30 s asked again in 15 s,
        // and a holder who gave up then kept its slot for 32 s (LineTest over Redis).
        refresh = Math.min(refresh, grant.hasSlots() || eligible && grant.cutPlace() != Long.MAX_VALUE ? 2 : FRONT_REFRESH_SECONDS);
      }
    }
    if (!paused && eligible && !calledHere && grant.plan.room().nodes() > 1) {
      // Eligible, but this node's slots are gone: another node may still hold one, and the next
      // poll that reaches it takes it. It asks again in a second, not two, until it finds one or
      // a plan shares the slots out again. It stays in this node's line for four seconds after
      // such a poll (two intervals and two seconds).
      refresh = ELIGIBLE_REFRESH_SECONDS;
    }
    if (e.seconds() >= 0 && e.seconds() < soonest) {
      // However few are ahead, nobody uncalled gets in before the next plan that can call them:
      // the holder is told that wait. It still polls as the wait before it says (near the front,
      // every two seconds): polling only then came a second late whenever that plan took over
      // later than the last one did, and the room stood empty meanwhile (LineTest over Redis).
      e = new Plan.Estimate(e.usersAhead(), soonest, Math.max(e.low(), soonest), Math.max(e.high(), soonest));
    }
    if (e.seconds() >= 0) {
      // Nobody is let in between its polls: a holder not let in at this one waits at least until
      // the next, the interval it is told; one that keeps a slower pace of its own (a hidden tab, a
      // client on a timer) until the first of its polls at or after its turn, and so does its
      // range (its slot waits for it: see Line#expect). A silence longer than the line's poll
      // window is no pace (a frozen tab, a phone back from another app: it polls as told again).
      boolean ownPace = slowPace > refresh && slowPace <= Line.pollWindowSeconds(in.config());
      long pace = ownPace ? Math.min(slowPace, Line.longestPaceSeconds(in.config())) : refresh;
      e = new Plan.Estimate(e.usersAhead(), atPoll(e.seconds(), pace, ownPace), atPoll(e.low(), pace, ownPace),
          atPoll(e.high(), pace, ownPace));
    }
    long due = state.expect(t.place(), polled, now, refresh, slowPace);
    long ahead = drawn ? e.usersAhead() : Math.min(e.usersAhead(), t.aheadShown());
    TicketState next = t.shown(ahead).countedUntil(due);
    // The cookie lives as long as the room keeps the place (see TicketState#keptUntil).
    return new Decision(
        outcome, codec.seal(next), next.keptUntil(config.waitingTimeoutSeconds()) - now + 1, ahead,
        e.seconds(), e.low(), e.high(), refresh, now);
  }

  /**
   * When a holder {@code seconds} from its turn is let in: at its next poll, {@code pace} from now,
   * or later; at a {@code fixedPace}, at the first of its polls {@code pace} apart at or after its turn.
   */
  private static long atPoll(long seconds, long pace, boolean fixedPace) {
    return fixedPace ? Math.max(1, Math.floorDiv(seconds + pace - 1, pace)) * pace : Math.max(seconds, pace);
  }
}
