package io.github.waitingroom;

import io.github.waitingroom.allocation.Pace;
import io.github.waitingroom.allocation.Plan;

/**
 * How fast a full room turns over: how many users a second leave it, and so how many a second it
 * can let in from the line once its free room is taken.
 *
 * <p>A user browses for a while, then stops, and the session ends one session length after their
 * last request. So a user stays B + T on average (B their mean browsing time, T the session), and a
 * room full at its limit L lets in L / (B + T) users a second (Little's law). The room knows T; B
 * it learns from its users: users who stopped browsing (sessions that ended, and users whose last
 * request is more than half a session old: their sessions end within the other half) against the
 * seconds every user browsed, those still browsing included. That is the maximum-likelihood
 * estimate of B for exponential browsing times with censored observations: early in a sale, few
 * users have stopped, and the seconds of those still browsing keep B from being read as the
 * short browsing of the first who stopped. Until enough users have stopped ({@link
 * #MIN_STOPPED}), B is not known, and neither is a wait that needs more users to leave than those
 * who already stopped. A node counts what it sees (users whose
 * requests reach it); without session affinity each node sees a share of every user's browsing
 * and stops, so the ratio stands for the room's.
 *
 * <p>Half a session: a user away that long has most likely gone (those who come back count as
 * stopped until they do, and lengthen B once they do); a shorter horizon counts more users who
 * merely paused, a longer one learns later. Used by the sync thread; the rate is read by request threads.
 */
final class Turnover {
  /**
   * What a node saw of its users' browsing.
   *
   * @param stopped users who stopped browsing: sessions that ended here and {@code idle}
   * @param idle the active users whose last request came more than the idle time ago
   * @param active the node's active users
   * @param browsedSeconds the seconds all users browsed, from admission to their last request
   */
  record Browsing(long stopped, long idle, long active, long browsedSeconds) {}

  /**
   * How many users must have stopped before their mean browsing time is used: with k stops the
   * estimate's standard error is 1 / sqrt(k) of it (exponential times), and the range a wait is
   * shown with is at least ± {@link Plan#RANGE_SHARE} of it, so from 1 / RANGE_SHARE² stops on
   * one standard error fits within the range shown.
   */
  static final long MIN_STOPPED = Math.round(1 / (Plan.RANGE_SHARE * Plan.RANGE_SHARE));

  private volatile Pace.Leaving leaving = Pace.Leaving.UNKNOWN;

  /** Notes what the node saw by {@code now} under {@code config}, with the room's active users as its plan counts them. */
  void note(NodeState state, RoomConfig config, long roomActive, long now) {
    long session = config.sessionSeconds();
    long idleAfter = Math.max(session - session / 2, config.sliceSeconds());
    Browsing b = state.browsing(now, idleAfter);
    double perSecond = b.stopped() < MIN_STOPPED ? 0 : config.totalActiveUsers() / ((double) b.browsedSeconds() / b.stopped() + session);
    // The idle users this node counts stand for the room's in the share of the active users it counts.
    long soon = b.active() == 0 ? 0 : Math.round((double) b.idle() * roomActive / b.active());
    leaving = new Pace.Leaving(soon, Math.max(1, session - idleAfter), perSecond);
  }

  /** How users leave the room, as this node learnt it. */
  Pace.Leaving leaving() {
    return leaving;
  }
}
