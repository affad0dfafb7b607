package io.github.waitingroom;

import io.github.waitingroom.allocation.Plan;

/**
 * A node's arrivals per second, and what they tell about the room's line between two plans: how
 * many joined it before a holder, and whether a surge that no plan has counted yet is under way.
 * Counted lock-free by request threads; part of {@link NodeState}.
 */
final class Arrivals {
  private final SliceCounter arrivals = new SliceCounter();
  /** The arrivals this node gave a place in line (no slot was left for them), per second. */
  private final SliceCounter queued = new SliceCounter();
  /** This node's arrivals of the minute before its last tally: its share of the room's. */
  private volatile long arrivedAtTally;

  /** Counts an arrival at {@code now}. */
  void arrive(long now) {
    arrivals.add(now, 1);
  }

  /** Counts an arrival at {@code now} given a place in line. */
  void queue(long now) {
    queued.add(now, 1);
  }

  /** This node's arrivals in the minute (and one second) up to {@code asOf}, as its tally reports them. */
  long tally(long asOf) {
    long arrived = arrivals.sumFrom(asOf - NodeState.RATE_SECONDS + 1);
    arrivedAtTally = arrived;
    return arrived;
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
    return toRoom(queued.sum(fromSecond, Math.min(toSecond, fromSecond + NodeState.RATE_SECONDS)), plan);
  }

  /**
   * About how many users join the room's line in the given second, the holder asking among them,
   * as {@link #roomQueuedBetween}; the holder itself is one for sure and is not scaled (as a
   * sample of the room's rate it would count every node as having queued one: in a room with
   * slots to spare, where one node's share ran out, that told the few queued before the
   * simulator's crowd about five times their wait). While the second runs, those so far and the
   * rest of the second at the rate of those who came before the holder asking (the last of those
   * so far). In a crowd, the first holders of a second would otherwise be told of a sliver of the
   * second that will share it with them: a tenth of a crowd second in, a tenth of it. The holders
   * before the last are Poisson with mean rate x elapsed, so the rate is (so far - 1) / elapsed,
   * taken over at least {@value #MIN_ELAPSED_MILLIS} ms.
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
   * (a rate seen at a tally is in the next plans). Between two plans a node cannot tell whether
   * it is the room's (thousands more are arriving on other nodes and in other data centers) or its
   * own, so it cannot tell a newcomer how many of them come first.
   */
  boolean surgingSince(long fromSecond, long now) {
    long since = arrivals.sum(fromSecond, now);
    double expected = (double) arrivedAtTally * (now - fromSecond + 1) / NodeState.RATE_SECONDS;
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

  /** Forgets the seconds before {@code fromSecond}. */
  void prune(long fromSecond) {
    arrivals.pruneBefore(fromSecond);
    queued.pruneBefore(fromSecond);
  }
}
