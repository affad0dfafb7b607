package io.github.waitingroom;

import io.github.waitingroom.allocation.Pace;
import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;

/**
 * How fast a full room turns over: how many users a second leave it, and so how many a second it
 * can let in from the line once its free room is taken.
 *
 * <p>A user browses for a while, then stops, and the session ends one session length after their
 * last request. So a user stays B + T on average (B their mean browsing time, T the session), and a
 * room full at its limit L lets in L / (B + T) users a second (Little's law) once its users' ages
 * have mixed; a room that just filled lets in fewer, since nobody in it leaves before a session has
 * run ({@link Pace.Leaving#of} follows its departures: on one node, waits told at once at the full
 * room's pace were 19 % short). The room knows T; B
 * it learns from its users: users who stopped browsing (sessions that ended, and users whose last
 * request is more than half a session old: their sessions end within the other half) against the
 * seconds every user browsed before that half session, those still browsing included. That is the
 * maximum-likelihood estimate of B for exponential browsing times with censored observations:
 * early in a sale, few users have stopped, and the seconds of those still browsing keep B from
 * being read as the short browsing of the first who stopped. Only seconds in which a stop would
 * already show count: counting those of the last half session too read B up to twice as long
 * early in a sale (on one node, waits were told 30-60 % too long). Until enough users have
 * stopped ({@link #MIN_STOPPED}), B is not known, and neither is a wait that needs more users to
 * leave than those who already stopped. The counts are the room's, summed over the settled
 * tallies of a plan ({@link Tally#browsing}): without session affinity a user's requests go to
 * several nodes, and each node alone would count the user stopped when it merely browses
 * elsewhere, while seeing only a share of its seconds.
 *
 * <p>Half a session: a user away that long has most likely gone (those who come back count as
 * stopped until they do, and lengthen B once they do); a shorter horizon counts more users who
 * merely paused, a longer one learns later. Used by the sync thread; the rate is read by request threads.
 */
final class Turnover {
  /**
   * How many users must have stopped before their mean browsing time is used: with k stops the
   * estimate's standard error is 1 / sqrt(k) of it (exponential times), and the range a wait is
   * shown with is at least ± {@link Plan#RANGE_SHARE} of it, so from 1 / RANGE_SHARE² stops on
   * one standard error fits within the range shown.
   */
  static final long MIN_STOPPED = Math.round(1 / (Plan.RANGE_SHARE * Plan.RANGE_SHARE));

  private volatile Pace.Leaving leaving = Pace.Leaving.UNKNOWN;

  /** How long a user's last request must lie back for the user to count as stopped: half a session (at least a slice). */
  static long idleSeconds(RoomConfig config) {
    long session = config.sessionSeconds();
    return Math.max(session - session / 2, config.sliceSeconds());
  }

  /**
   * Notes what the room saw of its users' browsing, the sum of its publishers' (the settled
   * tallies of a plan), under {@code config}, with the room's active users as the plan counts
   * them, this node's admissions by age ({@code admittedByAge}, see {@link
   * NodeState#admittedByAge}) and the room's of the last minute ({@code roomRecent}).
   */
  void note(Tally.Browsing room, RoomConfig config, long roomActive, long[] admittedByAge, long roomRecent) {
    long session = config.sessionSeconds();
    long stopped = Math.max(0, room.stopped());
    long seconds = Math.max(0, room.seconds());
    // The idle users stand for the room's active users in the share of the active users counted with them.
    long idle = Math.max(0, Math.min(room.idle(), room.active()));
    long soon = room.active() <= 0 ? 0 : Math.round((double) idle * roomActive / room.active());
    long idleSeconds = idleSeconds(config);
    long within = Math.max(1, session - idleSeconds);
    if (stopped < MIN_STOPPED) {
      leaving = new Pace.Leaving(soon, within, 0);
      return;
    }
    double browse = (double) seconds / stopped;
    long full = config.totalActiveUsers();
    double[] roomByAge = roomByAge(admittedByAge, (int) idleSeconds, roomRecent);
    leaving = Pace.Leaving.of(full, soon, within, session, browse,
        unseenStops(Math.max(0, full - soon), roomByAge, idleSeconds, browse));
  }

  /**
   * The room's admissions of the last {@code seconds} seconds by age, as this node's went ({@code
   * mine}, see {@link NodeState#admittedByAge}): scaled by the room's admissions of the last minute
   * ({@code roomRecent}) over this node's, or spread evenly over the minute when this node let in
   * nobody then.
   */
  static double[] roomByAge(long[] mine, int seconds, long roomRecent) {
    double[] byAge = new double[Math.max(0, seconds)];
    long minute = 0;
    for (int a = 0; a < NodeState.RATE_SECONDS; a++) {
      minute += mine[a];
    }
    if (minute <= 0) {
      for (int a = 0; a < Math.min(byAge.length, NodeState.RATE_SECONDS); a++) {
        byAge[a] = (double) Math.max(0, roomRecent) / NodeState.RATE_SECONDS;
      }
      return byAge;
    }
    double scale = (double) Math.max(0, roomRecent) / minute;
    for (int a = 0; a < byAge.length; a++) {
      byAge[a] = Math.max(0, mine[a]) * scale;
    }
    return byAge;
  }

  /**
   * How many of {@code notIdle} users stopped without showing it yet: a stop shows only once the
   * user has been idle for {@code idleSeconds}, and stops come at 1 / B a second of browsing ({@code
   * browseSeconds}, exponential), so a user let in before the idle time who is not idle stopped
   * within it with probability 1 - exp(-idle / B) (memoryless). One let in a seconds ago ({@code
   * admittedByAge}) can have stopped only since: 1 - exp(-a / B). (Left out, users leaving a
   * session after such a stop were counted to leave a session after now: waits told in the
   * simulator's crowd were 13-17 % long.)
   */
  static double unseenStops(long notIdle, double[] admittedByAge, long idleSeconds, double browseSeconds) {
    if (!(browseSeconds > 0)) {
      return 0;
    }
    double unseen = 0;
    double young = 0;
    for (int a = 0; a < admittedByAge.length; a++) {
      unseen -= admittedByAge[a] * Math.expm1(-Math.min(a + 0.5, idleSeconds) / browseSeconds);
      young += admittedByAge[a];
    }
    return unseen - Math.max(0, notIdle - young) * Math.expm1(-(double) idleSeconds / browseSeconds);
  }

  /** How users leave the room, as the sums of the last plan's tallies showed it. */
  Pace.Leaving leaving() {
    return leaving;
  }
}
