package io.github.waitingroom.allocation;

import io.github.waitingroom.RoomConfig;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The room's plan for one epoch: a pure function of the settled tallies of that epoch, computed
 * the same way, in integer arithmetic and publisher order, by every node that sees them. Because
 * every node grants from the same numbers, the grants of all nodes together never exceed what the
 * limits leave, however late each node applies them. Immutable.
 *
 * <ol>
 *   <li><b>The pool</b> = min(total active users - active, new users per minute - admissions of
 *       the last 60 s), never negative: every slot the limits leave, including those the nodes
 *       still hold under their last grants (they may be spent after the tallies were taken).
 *   <li><b>One cutoff.</b> The line (users who polled recently, by arrival second, across all data
 *       centers, each counted once however many nodes it polled: see {@link Tally#shared}) is
 *       served oldest first: the first <i>pool</i> holders are eligible. Every second whose
 *       holders all fit lies at or below the {@link #cutoffSecond() cutoff second}; of the first
 *       second that does not fit (the {@link #partialSecond() partial} one), the share the pool
 *       still covers, by tie-break bits (uniform, so the share of places is the share of holders).
 *       When the {@link Tally#cut() cutoff in force} lies in that second, the holders still
 *       waiting at or below it come first and the rest of the pool covers a share of the places
 *       above it, so that it moves on while slots wait, and not past a slow holder below it.
 *       That is the {@link #cutPlace() cutoff over places}; once the whole line fits it is {@link
 *       Long#MAX_VALUE}, and newcomers are eligible too.
 *   <li><b>Slots where the eligible poll.</b> The pool is shared out to data centers and then
 *       nodes: first one slot for each eligible holder, by where the holders are counted (a
 *       holder whose polls reach several of them weighs in each, and a slot stays where it is
 *       held among those, so that it waits for the holder rather than follows it), and
 *       once the line is served what is left by their newcomers (their arrivals of the last minute
 *       plus {@value #ARRIVALS_PER_NODE} per node), without taking from a node more than it can
 *       give back (see {@code PlanMaker.reshare}).
 * </ol>
 *
 * <p>Why the grants never exceed the limit: a node's new slots are its share of the pool less
 * what it admitted since its tally (it spent those from what it held, which is part of the pool).
 * The shares of all nodes sum to at most the pool, or to what the nodes held if that was more
 * (limits lowered: then each keeps at most what it held, and nobody gets more), so the room admits
 * at most what the limits left at the tallies. Which ticket takes a slot changes nothing in that
 * argument: eligibility decides only the order. Remainders of every split go round in turn,
 * starting from a different publisher each epoch, except that a remainder stays with a node that
 * still holds it (see {@code PlanMaker.reshare}).
 */
public final class Plan {
  /**
   * What each node adds to its arrivals of the last minute as its weight in the split of slots
   * for new arrivals. A node that has given out its slots gets more only from a later plan, about
   * three epochs later (its tally, the settling, the delay before the plan takes over): some 6 s
   * with 2 s epochs, a tenth of a minute. What a node needs until then is its arrivals of that
   * time plus one or two by chance, so its weight is its arrivals of a tenth of a minute plus one,
   * times ten. Weighed by the minute's arrivals plus one alone, a quiet node had one slot, or none
   * when its data center's few went to its other nodes, and queued its next newcomer while the
   * room had slots to spare; the busiest nodes held slots for a minute of their arrivals.
   */
  public static final long ARRIVALS_PER_NODE = 10;

  private final long epoch;
  private final long freeSlots;
  private final long activeUsers;
  private final long cutoffSecond;
  private final long partialSecond;
  private final long slots;
  private final boolean lineServed;
  /** The room's line as prefix sums: users ahead of each arrival second. */
  private final LineIndex ahead;
  private final Tally room;
  private final long cutPlace;

  Plan(
      long epoch,
      long freeSlots,
      long activeUsers,
      long cutoffSecond,
      long partialSecond,
      long slots,
      boolean lineServed,
      Tally room,
      long cutPlace) {
    this.epoch = epoch;
    this.freeSlots = freeSlots;
    this.activeUsers = activeUsers;
    this.cutoffSecond = cutoffSecond;
    this.partialSecond = partialSecond;
    this.slots = slots;
    this.lineServed = lineServed;
    this.room = room;
    this.cutPlace = cutPlace;
    this.ahead = new LineIndex(room);
  }

  /** A plan that grants nothing: for a node that has no settled tallies to plan from. */
  public static Plan none(long epoch) {
    return new Plan(epoch, 0, 0, Long.MIN_VALUE, Long.MIN_VALUE, 0, false, Tally.EMPTY, Long.MIN_VALUE);
  }

  /**
   * The plan of one epoch, and this node's grant in it.
   *
   * @param epoch the epoch the tallies were taken at the end of; also the rotation of remainders
   * @param dataCenters every data center's summed tally, in name order
   * @param myDataCenter the index of this node's data center in {@code dataCenters}
   * @param nodes the tallies of the live nodes of this node's data center, in publisher order
   * @param me the index of this node in {@code nodes}
   */
  public static Plan compute(
      RoomConfig config, long epoch, List<Tally> dataCenters, int myDataCenter, List<Tally> nodes, int me) {
    return compute(config, true, epoch, dataCenters, myDataCenter, nodes, me);
  }

  /**
   * The plan of one epoch, as {@link #compute(RoomConfig, long, List, int, List, int)}, of a room
   * that may let nobody in ({@code admitting} false: queueAll, suspended, a pre-queue, reject):
   * then it has no slots and its cutoff admits nobody, so that nobody's turn is decided before the
   * room opens. A draw (a pre-queue lottery, random queueing) needs nothing of its own: its
   * holders share one arrival second, and their random tie-break bits, which the cutoff cuts,
   * are the draw.
   */
  public static Plan compute(RoomConfig config, boolean admitting, long epoch, List<Tally> dataCenters,
      int myDataCenter, List<Tally> nodes, int me) {
    return PlanMaker.compute(config, admitting, epoch, dataCenters, myDataCenter, nodes, me);
  }

  /**
   * The free slots of a plan made from the room's summed tally: what the limits leave beyond the
   * active users, the admissions of the last minute and everything the nodes may still admit under
   * their last grants (step 1 of the class comment). The most a plan can grant beyond what its
   * tallies report as outstanding.
   */
  public static long freeSlots(RoomConfig config, Tally room) {
    return PlanMaker.freeSlots(config, room);
  }

  /**
   * Whether this plan serves the whole line, so that it gives slots to new arrivals: every
   * holder of a place before the tally is called, the same on every node (including holders who
   * missed a poll, who are still older than any new arrival).
   */
  public boolean lineServed() {
    return lineServed;
  }

  /**
   * This plan closed to newcomers (and so not {@link #lineServed}): its cutoff stops at the last
   * second of its line, its slots stay for the holders at or below it.
   */
  public Plan withoutNewArrivals() {
    return new Plan(
        epoch, freeSlots, activeUsers, cutoffSecond, partialSecond, slots, false,
        room, cutPlace != Long.MAX_VALUE ? cutPlace
            : room.line().isEmpty() ? Long.MIN_VALUE : (room.line().lastKey() << 32) | 0xFFFF_FFFFL);
  }

  /**
   * The plan's cutoff over places: a ticket whose place is at or below it may take one of a
   * node's slots ({@link Long#MAX_VALUE} once the whole line is served, so newcomers too;
   * {@link Long#MIN_VALUE} for nobody).
   */
  public long cutPlace() {
    return cutPlace;
  }

  /** The epoch whose tallies this plan was computed from. */
  public long epoch() {
    return epoch;
  }

  /** Free slots of the whole room in this plan. */
  public long freeSlots() {
    return freeSlots;
  }

  /** Active users of the whole room at the end of the epoch. */
  public long activeUsers() {
    return activeUsers;
  }

  /** Users waiting in the whole room (those who polled recently, called or not). */
  public long waitingUsers() {
    return ahead.waiting();
  }

  /** The summed tally of the whole room. */
  public Tally room() {
    return room;
  }

  /**
   * The room's line as this plan counted it (the users who polled recently, by arrival second
   * slot), in buckets of arrival time {@code bucketSeconds} wide, each user counted once.
   */
  public BucketState line(long bucketSeconds) {
    return BucketState.of(room.line(), bucketSeconds, countsPerHolder());
  }

  /**
   * The last arrival second whose users may all be admitted: every polling ticket that arrived
   * at or before it is let in. {@link Long#MIN_VALUE} when nobody is.
   */
  public long cutoffSecond() {
    return cutoffSecond;
  }

  /**
   * The arrival second that got only part of the slots it needs, or {@link Long#MIN_VALUE} for
   * none: the share of its places that the slots cover is at or below the {@link #cutPlace()
   * cutoff} (their tie-break bits are uniform).
   */
  public long partialSecond() {
    return partialSecond;
  }

  /**
   * This node's slots: what a ticket at or below the {@link #cutPlace() cutoff} takes, one by
   * compare-and-set, on this node (what the node still had plus its share of the free slots; see
   * the class comment).
   */
  public long slots() {
    return slots;
  }

  /**
   * Users ahead of a holder who arrived at the given second and has not been called: everyone
   * called and not yet in, and everyone holding a place who arrived in an earlier second. Users of
   * the holder's own second are left out (their order within the second is a draw, and they keep
   * arriving in the tallies of other nodes for a moment), so the number never grows while the
   * holder waits.
   */
  public long usersAhead(long arrivalSecond) {
    return ahead.ahead(arrivalSecond);
  }

  /**
   * The users of the room's line at the given arrival second: {@code room().lineAt(second)}, read
   * from the plan's index (a search in an array) rather than the tally's map, whose lookup boxes
   * the second and walks a tree; every waiting holder's poll asks it.
   */
  public long lineAt(long arrivalSecond) {
    return ahead.lineAt(arrivalSecond);
  }

  /**
   * The estimated wait of a holder who arrived at the given second and has not been called.
   *
   * <p>The holder waits for P admissions: of the holders ahead ({@link #usersAhead}, divided by
   * {@link #countsPerHolder}, plus those who arrived too late for the plan's tallies), and then its
   * own (the first in line still waits for the next slot). The {@link Pace} tells when the limits
   * allow P more admissions: t seconds, or not known. Holders ahead also leave the line by giving
   * up, each at the rate {@link Pace#giveUps} at which holders of the whole line have lately left
   * it without getting in; at the pace P / t, dP/dt = -P / t - a P, and the P admissions are done
   * after (1 / a) ln(1 + a t) seconds, which is plain t when nobody gives up. The range is meant as
   * the 25th to 75th percentile: the spread of the time to serve P users arriving as a Poisson
   * stream at that pace (Gamma(P, P / t): the mean ± 0.674 t / sqrt(P)), but at least ± {@value
   * #RANGE_SHARE} of the estimate, because rates change and people give up in bursts (in the
   * simulator the Poisson spread alone held 3 to 23 % of the real waits, not half).
   *
   * @param unseenAhead holders ahead who are not in this plan's line yet (they arrived after its
   *     tallies were taken, before this holder), each counted once
   * @param pace how fast the limits let the line move (see {@link #pace})
   */
  public Estimate estimate(long arrivalSecond, long unseenAhead, Pace pace) {
    return estimate(arrivalSecond, unseenAhead, pace, 0, 0);
  }

  /**
   * The estimated wait of a holder who arrived at the given second and has not been called, as
   * {@link #estimate(long, long, Pace)}, waiting also for the holders of its own second who
   * come before it: the line serves a second in place order, and the tie-break bits of places
   * are drawn uniformly, so a holder whose bits lie at {@code shareOfOwnSecond} of their range
   * has about that share of its second ahead. In a crowd that is most of the wait of the holders
   * of its first seconds. They are not in {@link Estimate#usersAhead()} (the number shown, which
   * must never grow: the draw is known only as the second's holders appear in the tallies).
   *
   * @param shareOfOwnSecond the share of the holders of its own arrival second ahead of it (0 to 1)
   * @param ownSecondUnseen holders of its own second who are not in this plan's line yet (the
   *     holder itself is one of them, or one of the line's)
   */
  public Estimate estimate(
      long arrivalSecond, long unseenAhead, Pace pace, double shareOfOwnSecond, long ownSecondUnseen) {
    return WaitEstimates.estimate(this, arrivalSecond, unseenAhead, pace, shareOfOwnSecond, ownSecondUnseen);
  }

  /**
   * How fast the line moves from this plan on, under {@code config} (the limits in force). Two
   * bounds; the wait for P admissions is the later of the two:
   *
   * <ul>
   *   <li><b>the per-minute limit</b>: what it leaves now (the limit less the last minute's
   *       admissions), then one more as each of those turns a minute old, then the limit's pace;
   *       while this limit binds, the last minute's pace (holders who come late for their slots
   *       leave some of it unused);
   *   <li><b>the total limit</b>: its free room now (the limit less the active users), then one
   *       admission for each user who leaves ({@code leaving}).
   * </ul>
   *
   * <p>Once the line is served, both leave out the slots for newcomers: those the nodes still held
   * at the tallies and those this plan gives this node, which a holder it queued found spent.
   * The last minute's admissions alone are no bound where the total limit binds: a room that just
   * filled let few in, and users leaving tell when the next get in.
   *
   * @param giveUps the share of the line's holders who give up per second (0 for none), as a node
   *     measures it over the plans it applied
   * @param ageing when the last minute's admissions turn a minute old (see {@link Pace#ageing}), as
   *     a node saw its own
   * @param leaving how users leave the room, as the room's users showed it (the sum of the tallies)
   */
  public Pace pace(RoomConfig config, double giveUps, double[] ageing, Pace.Leaving leaving) {
    return WaitEstimates.pace(this, config, giveUps, ageing, leaving);
  }

  /** The least half-width of the range shown around a wait estimate, as a share of it. */
  public static final double RANGE_SHARE = 0.2;

  /** How many times the line counts each holder, at least 1 (see {@link LineIndex#countsPerHolder}). */
  double countsPerHolder() {
    return ahead.countsPerHolder(room.arrivals());
  }

  /**
   * A wait estimate.
   *
   * @param usersAhead holders of places ahead ({@link #usersAhead}), each counted once (divided by
   *     {@link #countsPerHolder})
   * @param seconds the expected wait, or -1 when unknown (nobody was admitted in the last minute)
   * @param low the 25th percentile, or -1
   * @param high the 75th percentile, or -1
   */
  public record Estimate(long usersAhead, long seconds, long low, long high) {}

  /**
   * Splits {@code amount} in proportion to {@code weights} (equally where all weights are 0),
   * never giving a share more than its cap; what a capped share cannot take goes to the others.
   * Remainders of the division go one by one, starting at {@code rotation}. The parts sum to
   * {@code amount}, or to the sum of the caps if that is smaller.
   *
   * @param caps the most each share may take, or {@code null} for no caps
   */
  public static long[] split(long amount, long[] weights, long @Nullable [] caps, long rotation) {
    return PlanMaker.split(amount, weights, caps, rotation, null);
  }

  @Override
  public String toString() {
    return "Plan[epoch=" + epoch + ", free=" + freeSlots + ", cutoff=" + cutoffSecond + ", partial="
 + partialSecond + ", cutPlace=" + cutPlace + ", slots=" + slots + "]";
  }
}
