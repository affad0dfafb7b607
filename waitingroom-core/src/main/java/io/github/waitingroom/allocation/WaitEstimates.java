package io.github.waitingroom.allocation;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.allocation.Plan.Estimate;

/**
 * The wait estimates of a {@link Plan}: how many admissions a holder waits for, how fast the
 * limits let the line move ({@link Pace}), and the expected wait and its range (see {@link
 * Plan#estimate(long, long, Pace, double, long)} and {@link Plan#pace}).
 */
final class WaitEstimates {
  private WaitEstimates() {}

  /** See {@link Plan#estimate(long, long, Pace, double, long)}. */
  static Estimate estimate(
      Plan plan, long arrivalSecond, long unseenAhead, Pace pace, double shareOfOwnSecond, long ownSecondUnseen) {
    double share = Math.max(0, Math.min(1, shareOfOwnSecond));
    long ahead = Math.round(plan.usersAhead(arrivalSecond) / plan.countsPerHolder()) + Math.max(0, unseenAhead);
    // Of the others of its second (itself left out), the share drawn before it.
    double others = plan.lineAt(arrivalSecond) / plan.countsPerHolder() + Math.max(0, ownSecondUnseen) - 1;
    long waitFor = ahead + Math.round(share * Math.max(0, others));
    // The holder waits for the admissions of everyone ahead of it and then for its own: the first
    // in line of a full room still waits for the next user to leave.
    long admissions = waitFor + 1;
    double t = pace.secondsFor(admissions);
    if (t < 0) {
      return new Estimate(ahead, -1, -1, -1);
    }
    double giveUps = pace.giveUps();
    double mean = giveUps > 0 ? Math.log1p(giveUps * t) / giveUps : t;
    double spread = Math.max(0.674 * t / Math.sqrt(admissions), Plan.RANGE_SHARE * mean);
    return new Estimate(
        ahead,
        (long) Math.ceil(mean),
        (long) Math.max(0, Math.floor(mean - spread)),
        (long) Math.ceil(mean + spread));
  }

  /** See {@link Plan#pace}. */
  static Pace pace(Plan plan, RoomConfig config, double giveUps, double[] ageing, Pace.Leaving leaving) {
    Tally room = plan.room();
    // Slots held for newcomers come before everyone waiting; slots of a plan that has not served
    // its line are the line's own.
    long held = plan.lineServed() ? room.outstanding() + plan.slots() : 0;
    return new Pace(
        giveUps,
        config.newUsersPerMinute() - room.recentAdmissions() - held,
        room.recentAdmissions(),
        config.newUsersPerMinute(),
        ageing,
        config.totalActiveUsers() - room.activeUsers() - held,
        leaving);
  }
}
