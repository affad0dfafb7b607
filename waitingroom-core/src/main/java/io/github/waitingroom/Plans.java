package io.github.waitingroom;

import io.github.waitingroom.allocation.Pace;
import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.SlotAllocator;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Epochs;
import io.github.waitingroom.internal.LongList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Puts this node's plans in force: makes the plan of a settled epoch (under the settings in force
 * at its end), learns from the settled tallies what the node needs besides (duplicate places,
 * revoked sessions, the room's shares), schedules the plan on the node's state and notes the line
 * it shows; and tells what the plans in force mean for a waiting holder and for the room's status.
 * Part of {@link Synchronizer}; used by the sync thread under its lock, and read by request threads.
 */
final class Plans {

  private final NodeState state;
  private final LiveSettings live;
  private final Coordinator coordinator;
  /** Turns each settled epoch into this node's plan (see {@link SlotAllocator}). */
  private final SlotAllocator allocator;
  /** The room clock (see {@link Synchronizer#nowMillis}). */
  private final LongSupplier nowMillis;
  private final LineDrain drain = new LineDrain();
  private final Turnover turnover = new Turnover();
  /** See {@link NodeState#ageing}, at the last plan. */
  private volatile double[] ageing = Pace.evenly();
  private final QueueLog queueLog;
  private volatile int roomNodes = 1;
  /** How many epochs after its own the last plan took over (see {@link #secondsUntilNextCall}). */
  private volatile long planDelay = 1;
  /**
   * Whether this node's data center had other live nodes at the last plan (until then: assumed),
   * so that its tallies list their check-ins (see {@link NodeState#dropDuplicates}).
   */
  private boolean sharedDataCenter = true;
  /** The users of each data center and of each node of this one, at the last plan computed. */
  private volatile Shares shares = new Shares(List.of(), List.of());
  /** The epoch of the last plan applied. */
  private long applied = Long.MIN_VALUE;

  private record Shares(List<RoomStatus.Share> dataCenters, List<RoomStatus.Share> nodes) {}

  /** @param nowMillis the room clock */
  Plans(String roomId, NodeState state, LiveSettings live, Coordinator coordinator, SlotAllocator allocator,
      LongSupplier nowMillis) {
    this.state = state;
    this.live = live;
    this.coordinator = coordinator;
    this.allocator = allocator;
    this.nowMillis = nowMillis;
    this.queueLog = new QueueLog(roomId);
  }

  /** The epoch of the last plan applied, {@link Long#MIN_VALUE} before the first. */
  long applied() {
    return applied;
  }

  /** Applies no plan of an epoch before {@code epoch} (see {@code Synchronizer#withdrawFrom}). */
  void appliedAtLeast(long epoch) {
    applied = Math.max(applied, epoch);
  }

  /** The live nodes of the room at the last settled plan (1 before the first). */
  int roomNodes() {
    return roomNodes;
  }

  /** Whether this node's data center had other live nodes at the last plan (until then: assumed). */
  boolean sharedDataCenter() {
    return sharedDataCenter;
  }

  /**
   * Makes the plan of the settled epoch {@code s} and applies it (see {@link #apply}) at {@code
   * activateAtMillis}, or at once on a node alone in the room, seen at second {@code now}.
   */
  void applySettled(Coordinator.Settled s, long epoch, long activateAtMillis, long now) {
    // A node alone in the room: no other node calls a user the plan has not reached here, and
    // none counts a holder as shared (see Seen.Polls).
    boolean alone = s.roomNodes() <= 1 && s.dataCenters().size() == 1;
    state.countedAlone(alone);
    Plan p = plan(s, epoch);
    apply(p, alone ? 0 : activateAtMillis);
    noteQueueing(p, now);
  }

  private void noteQueueing(Plan plan, long now) {
    drain.note(plan, now);
    RoomConfig config = live.current(now).config();
    long[] admitted = state.admittedByAge(now, (int) Turnover.idleSeconds(config));
    ageing = NodeState.ageing(admitted);
    turnover.note(plan.room().browsing(), config, plan.activeUsers(), admitted, plan.room().recentAdmissions());
    queueLog.note(plan, now, live.current().config().totalActiveUsers());
  }

  /** The plan of a settled epoch, for this node. */
  private Plan plan(Coordinator.Settled s, long epoch) {
    roomNodes = Math.max(1, s.roomNodes());
    sharedDataCenter = s.nodes().size() > 1;
    state.dropDuplicates(s.nodes(), s.me(), nowSecond());
    state.learnRevoked(s.dataCenters(), nowSecond());
    state.learnRevoked(s.nodes(), nowSecond());
    shares = new Shares(RoomStatus.Share.of(s.dataCenterNames(), s.dataCenters()), RoomStatus.Share.of(s.nodeNames(), s.nodes()));
    LiveSettings.Current in = live.at(coordinator.epochs().start(epoch + 1));
    return allocator.allocate(new SlotAllocator.SettledEpoch(in.config(), in.admitting(), epoch,
        s.dataCenters(), s.myDataCenter(), s.nodes(), s.me()));
  }

  private long nowSecond() {
    return Math.floorDiv(nowMillis.getAsLong(), 1000L);
  }

  /** Schedules a plan to take over at {@code activateAtMillis} (0: at once), and lets it take over if that is now. */
  void apply(Plan plan, long activateAtMillis) {
    state.schedule(plan, activateAtMillis);
    state.activateIfDue(nowMillis.getAsLong());
    applied = plan.epoch();
    long takesOver = activateAtMillis == 0 ? nowMillis.getAsLong() : activateAtMillis;
    planDelay = Math.max(1, coordinator.epochs().at(takesOver) - plan.epoch());
  }

  /** How fast the line moves from {@code plan} on, under {@code config} (see {@link Plan#pace}). */
  Pace pace(Plan plan, RoomConfig config) {
    return plan.pace(config, drain.departures(), ageing, turnover.leaving());
  }

  /** See {@link Synchronizer#secondsUntilNextCall}. */
  long secondsUntilNextCall(Plan inForce, long arrivalSecond) {
    if (inForce.epoch() == Long.MIN_VALUE) {
      return 0;
    }
    Epochs epochs = coordinator.epochs();
    long first = Math.max(inForce.epoch() + 1, epochs.at(arrivalSecond * 1000));
    // The plan takes over at the first sync from then on (syncs come a quarter epoch apart).
    long takesOver = epochs.start(first + planDelay) + epochs.length(first + planDelay) / Synchronizer.SYNCS_PER_EPOCH;
    return Math.max(0, Math.floorDiv(takesOver - nowMillis.getAsLong() + 999, 1000L));
  }

  /** The room's status as this node sees it (see {@link WaitingRoom#status}). */
  RoomStatus status(NodeState node, boolean failing) {
    Plan plan = node.grant().plan;
    long nowMillis = this.nowMillis.getAsLong();
    long now = Math.floorDiv(nowMillis, 1000L);
    Shares sh = shares;
    LiveSettings.Current in = live.current(now);
    return new RoomStatus(
        now,
        plan.epoch(),
        plan.epoch() == Long.MIN_VALUE ? -1 : Math.max(0, nowMillis - coordinator.epochs().start(plan.epoch() + 1)),
        plan.activeUsers(),
        plan.waitingUsers(),
        plan.freeSlots(),
        plan.room().recentAdmissions(),
        plan.cutoffSecond(),
        node.activeUsers(now),
        coordinator.dataCenterNames(),
        roomNodes,
        failing,
        sh.dataCenters(),
        sh.nodes(),
        in.settings(),
        in.event(),
        in.prequeueing(),
        maxWait(plan, now, in),
        coordinator.epochs().length(coordinator.epochs().at(nowMillis)),
        in.config().totalActiveUsers(),
        in.config().newUsersPerMinute(),
        in.limit() != null ? in.limit().reason() : "");
  }

  /** The estimated wait of someone who joins the line now (see {@link RoomStatus#maxWaitSeconds()}). */
  private long maxWait(Plan plan, long now, LiveSettings.Current in) {
    if (!in.admitting()) {
      return -1;
    }
    if (plan.waitingUsers() == 0) {
      return 0;
    }
    return plan.estimate(now, 0, pace(plan, in.config())).seconds();
  }
}
