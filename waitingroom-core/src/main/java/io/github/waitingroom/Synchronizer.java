package io.github.waitingroom;

import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Report;
import io.github.waitingroom.coordinator.ReportSeal;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sync loop of one node, and its outage policy: it keeps the room's clock, tallies the node
 * once per epoch, exchanges tallies through the {@link Coordinator}, and applies the plan of each
 * settled epoch. Only its own thread (or the caller of {@link WaitingRoom#sync()}) runs {@link
 * #sync()}; request threads only read the clock offset.
 *
 * <h2>Epochs</h2>
 *
 * Time is cut into epochs of the sync interval, on the store's clock (each answer of the
 * transport can carry it; the node keeps an offset to it). At its first sync of epoch {@code e}
 * the node tallies itself as of the end of epoch {@code e - 1}; the plan of epoch {@code e - 1}
 * may be applied only after that and before the next tally, that is during epoch {@code e} or, if
 * it settles late, at the first sync of epoch {@code e + 1}, which reads the store once more
 * before it tallies (see {@link #applyLate}). So
 * the tally of every epoch shows, as outstanding, everything the node may still admit, and a plan
 * never hands out a slot that an earlier plan handed out already. A plan that cannot be computed
 * in time (its epoch is not settled) is skipped: the node keeps its last grant, which its tallies
 * keep reporting as outstanding.
 *
 * <h2>A clock that runs ahead</h2>
 *
 * The node learns its offset to the store's clock at its join (see {@link Coordinator#join}),
 * which it completes before it tallies anything. Between two syncs its own clock may still jump
 * forward: it then tallies epochs that, by the store's clock, have not ended. The answer of that
 * very exchange shows it; the coordinator settles nothing the store's clock has not left, and the
 * node withdraws those tallies (its next exchange publishes its report without them), applies no
 * plan computed from its earlier tallies (its tally bookkeeping now belongs to the withdrawn
 * tally) and tallies again when the store's epochs end.
 *
 * <h2>When the store fails</h2>
 *
 * While the transport fails, other nodes count this node with its last published tally as if it
 * had used all of its grant ({@link Tally#silent}), for as long as they keep its report: the
 * {@link Coordinator#retention retention} after its last report, the longest a dead node's users
 * could still be active. For every epoch of the outage the node plans alone, from its own tally:
 *
 * <ul>
 *   <li>{@link FailurePolicy#FAIL_CLOSED}: it keeps serving its own line (oldest first) but never
 *       more than others count it for: at most its last published active users plus outstanding
 *       grant at once, and per minute at most its last published admissions of a minute plus
 *       outstanding grant, or its users' share of a session if that is more (so a node cut off
 *       from a full room still replaces the users who leave). New arrivals queue. The room stays
 *       within its limits for an outage shorter than the retention; after that the others no
 *       longer count the cut node, and the room may exceed its limits by the users the cut node
 *       still serves (at most its last published active users plus outstanding grant). Only
 *       logging its users out, or never forgetting a node that died, would avoid that. And a
 *       node counts each user on the node of their last check-in: without session affinity, a
 *       user whose requests move to another node during the outage looks gone to the node they
 *       left, which replaces them, so the room may run over by the users who move.
 *   <li>{@link FailurePolicy#FAIL_OPEN}: it runs as a room of its own with its share of the
 *       limits (the limits divided by the room's live nodes at the last settled plan; the whole
 *       limits if it never reached the store), new arrivals included. The room may exceed its
 *       limits by what the other nodes, which cannot see this one, hand out meanwhile: at most
 *       that share per node that fails.
 * </ul>
 */
final class Synchronizer {
  private static final Logger log = LoggerFactory.getLogger(Synchronizer.class);

  /**
   * Syncs per epoch: publish the tally, settle the data center (whose first node publishes its sum at
   * once, in one more exchange), read the room, read it again.
   */
  static final int SYNCS_PER_EPOCH = 4;

  /** Epochs without a settled plan, while the store answers, after which the node warns. */
  static final int STALL_EPOCHS = 8;

  private final RoomConfig config;
  private final NodeState state;
  private final LiveSettings live;
  private final Coordinator coordinator;
  private final InstantSource clock;
  private final long epochMillis;
  private final FailurePolicy failurePolicy;
  private final @Nullable ScheduledExecutorService scheduler;
  private final Object lock = new Object();

  private volatile long offsetMillis;
  private volatile boolean failing;
  private volatile boolean closed;
  private volatile int roomNodes = 1;
  /**
   * Whether this node's data center had other live nodes at the last plan (until then: assumed),
   * so that its tallies list their check-ins (see {@link NodeState#dropDuplicates}).
   */
  private boolean sharedDataCenter = true;
  private final LineDrain drain = new LineDrain();
  private final RoomMetrics metrics;
  /** The users of each data center and of each node of this one, at the last plan computed. */
  private volatile Shares shares = new Shares(List.of(), List.of());

  private record Shares(List<RoomStatus.Share> dataCenters, List<RoomStatus.Share> nodes) {}

  // Sync-thread state, guarded by lock.
  private final TreeMap<Long, Tally> tallies = new TreeMap<>();
  private long tallied = Long.MIN_VALUE;
  private long joined;
  private long applied = Long.MIN_VALUE;
  private @Nullable Tally lastPublished;
  private long failingSince;
  private boolean stalled;
  /** The last epoch planned before the current stall. */
  private long stalledFrom;
  private boolean queueing;
  private long emptySince = Long.MIN_VALUE;

  Synchronizer(
      RoomConfig config,
      NodeState state,
      LiveSettings live,
      Transport transport,
      ReportSeal seal,
      InstantSource clock,
      String dataCenter,
      String nodeId,
      Duration epoch,
      FailurePolicy failurePolicy,
      boolean background,
      RoomMetrics metrics) {
    this.config = config;
    this.metrics = metrics;
    this.state = state;
    this.live = live;
    this.clock = clock;
    this.epochMillis = epoch.toMillis();
    this.failurePolicy = failurePolicy;
    // A fresh suffix per process: a node that restarts with the same id never overwrites the
    // report of its previous life, whose users keep counting until their sessions expire.
    String publisher = nodeId + "#" + UUID.randomUUID().toString().substring(0, 8);
    this.coordinator = new Coordinator(config, transport, seal, dataCenter, publisher, epoch);
    sync();
    if (background) {
      this.scheduler =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "waitingroom-sync-" + config.roomId());
                t.setDaemon(true);
                return t;
              });
      scheduleNext();
    } else {
      this.scheduler = null;
    }
  }

  /** The room clock: this node's clock plus its offset to the store's. */
  long nowMillis() {
    return clock.millis() + offsetMillis;
  }

  /**
   * When settings published now take effect on every node: the start of the epoch after next on
   * the room clock (see {@link LiveSettings}).
   */
  long settingsInstant() {
    return (Math.floorDiv(nowMillis(), epochMillis) + 2) * epochMillis;
  }

  long nowSecond() {
    return Math.floorDiv(nowMillis(), 1000L);
  }

  boolean failing() {
    return failing;
  }

  /**
   * One round: tally the node if a new epoch began, exchange with the store, and apply the plan
   * of the epoch that just ended if it is settled (or, while the store fails, a plan of the node's
   * own, as the failure policy says).
   */
  void sync() {
    long start = System.nanoTime();
    try {
      syncOnce();
    } finally {
      metrics.recordSync(System.nanoTime() - start, !failing);
    }
  }

  private void syncOnce() {
    synchronized (lock) {
      long startMillis = clock.millis();
      long nowMs = startMillis + offsetMillis;
      long epoch = Math.floorDiv(nowMs, epochMillis);
      long now = Math.floorDiv(nowMs, 1000L);
      state.activateIfDue(nowMs);
      activateSettings(nowMs);
      Map<String, byte[]> keep = live.toKeep();
      if (keep != null) {
        coordinator.keep(keep);
      }
      if (tallied == Long.MIN_VALUE) {
        // Joining: the others may have settled the epochs before this one without this node, so
        // it tallies itself from the epoch after the one it joins in, and admits nobody until
        // that epoch's plan takes over (two to three epochs).
        try {
          Coordinator.Join join =
              coordinator.join(() -> clock.millis() + offsetMillis, epochMillis, o -> offsetMillis += o);
          joined = join.epoch();
          tallied = joined - 1;
          readSettings();
          if (join.alone()) {
            // The only node of the room: it admitted nobody, so it plans from an empty tally now.
            Tally first = state.tally(clock.millis() + offsetMillis, Long.MAX_VALUE, checkInsToList());
            tallies.put(joined, first);
            tallied = joined;
            apply(Plan.compute(live.at((joined + 1) * epochMillis).config(), joined, List.of(first), 0, List.of(first), 0),
                0, true);
          }
        } catch (IOException | RuntimeException e) {
          if (!failing) {
            failing = true;
            failingSince = now;
            metrics.recordStoreOutage();
            log.warn("room '{}': coordinator transport failed at start ({}): {}", config.roomId(), failurePolicy, e.toString());
          }
          if (failurePolicy == FailurePolicy.FAIL_OPEN && applied < epoch - 1) {
            apply(alone(epoch - 1, state.tally(nowMs, Long.MAX_VALUE, checkInsToList())), 0, false);
          }
        }
        return;
      }
      if (tallied < epoch - 1 && applied < tallied && tallied >= joined) {
        applyLate(epoch);
      }
      long talliedBefore = tallied;
      TreeMap<Long, Tally> before = new TreeMap<>(tallies);
      if (tallied < epoch - 1) {
        // Each epoch's tally counts sessions and admissions in the windows as of that epoch's end,
        // the same instant on every node, however late this node takes it: a session that moved
        // from another node is then counted on both or on neither.
        for (long e = Math.max(tallied + 1, epoch - Report.EPOCHS_KEPT); e < epoch; e++) {
          tallies.put(e, state.tally(nowMs, Math.floorDiv((e + 1) * epochMillis, 1000L), checkInsToList()));
        }
        while (tallies.size() > Report.EPOCHS_KEPT) {
          tallies.pollFirstEntry();
        }
        tallied = epoch - 1;
      }
      try {
        long storeMillis = coordinator.exchange(joined, tallies, epoch);
        long after = clock.millis();
        if (storeMillis >= 0) {
          offsetMillis = storeMillis - (startMillis + after) / 2;
        }
        if (!tallies.isEmpty()) {
          lastPublished = tallies.lastEntry().getValue();
        }
        readSettings();
        if (failing) {
          failing = false;
          log.info("room '{}': coordinator transport answers again after {} s", config.roomId(), now - failingSince);
        }
        long storeEpoch = storeMillis >= 0 ? Math.floorDiv(storeMillis, epochMillis) : epoch;
        if (storeEpoch < epoch) {
          // This node's clock ran ahead of the store's (see the class comment).
          if (tallied >= storeEpoch) {
            tallies.clear();
            tallies.putAll(before.headMap(storeEpoch, false));
            tallied = Math.min(talliedBefore, storeEpoch - 1);
            applied = Math.max(applied, talliedBefore);
            long ahead = nowMs - storeMillis;
            if (ahead >= epochMillis) {
              log.warn("room '{}': this node's clock ran {} ms ahead of the store's; tallies of epochs that have"
                  + " not ended withdrawn", config.roomId(), ahead);
            } else {
              log.debug("room '{}': tallied {} ms before the store's epoch ended; withdrawn", config.roomId(), ahead);
            }
          }
          return;
        }
        Coordinator.Settled s = applied < epoch - 1 ? coordinator.settled(epoch - 1) : null;
        if (s != null) {
          // Every node switches to the plan of epoch e - 1 at the start of epoch e + 1, so that no
          // node calls a user whom the plan has not reached on another node; a node alone in the
          // room switches at once.
          boolean alone = s.roomNodes() <= 1 && s.dataCenters().size() == 1;
          Plan p = plan(s, epoch - 1);
          apply(p, alone ? 0 : (epoch + 1) * epochMillis, true);
          noteQueueing(p, now);
        }
        watchForStall(epoch);
      } catch (RuntimeException e) {
        // A defect, not an outage: keep the grant in force (its tallies keep reporting it).
        if (!closed) {
          log.error("room '{}': sync failed", config.roomId(), e);
        }
      } catch (IOException e) {
        if (closed) {
          return; // interrupted by close(): not a transport failure
        }
        if (!failing) {
          failing = true;
          failingSince = now;
          metrics.recordStoreOutage();
          log.warn("room '{}': coordinator transport failed, planning alone ({}): {}",
              config.roomId(), failurePolicy, e.toString());
        } else {
          log.debug("room '{}': coordinator transport still failing: {}", config.roomId(), e.toString());
        }
        if (applied < epoch - 1) {
          apply(alone(epoch - 1, tallies.isEmpty() ? state.tally(nowMs, Long.MAX_VALUE, checkInsToList()) : tallies.lastEntry().getValue()), 0, false);
        }
      }
      state.prune(now);
    }
  }

  /**
   * The last chance of a late plan: the plan of the node's last tally has not settled, and the
   * next tally is due. One more exchange, right before that tally, reads the store again; if the
   * plan has settled meanwhile, it takes over at once (the tally that follows reports its grant).
   * This is what lets the data centers' sums of an epoch arrive up to the first sync of the epoch
   * after next rather than by the end of the next one. Nothing happens if the store fails: the
   * exchange that follows meets the failure and handles it.
   */
  private void applyLate(long epoch) {
    try {
      coordinator.exchange(joined, tallies, epoch);
      Coordinator.Settled s = coordinator.settled(tallied);
      if (s != null) {
        Plan p = plan(s, tallied);
        apply(p, 0, true);
        noteQueueing(p, nowSecond());
      }
    } catch (IOException e) {
      log.debug("room '{}': late read failed: {}", config.roomId(), e.toString());
    }
  }

  /**
   * How many seconds back this node's tallies list its check-ins: a slice, and at least two
   * epochs, so that two nodes' check-ins of one instant are both in one settled epoch's tallies;
   * none while the node is alone in its data center.
   */
  private long checkInsToList() {
    return sharedDataCenter ? Math.max(config.sliceSeconds(), ceilDiv(2 * epochMillis, 1000)) : 0;
  }

  /** The plan of a settled epoch, for this node. */
  private Plan plan(Coordinator.Settled s, long epoch) {
    roomNodes = Math.max(1, s.roomNodes());
    sharedDataCenter = s.nodes().size() > 1;
    state.dropDuplicates(s.nodes(), s.me(), nowSecond());
    state.learnRevoked(s.dataCenters(), nowSecond());
    state.learnRevoked(s.nodes(), nowSecond());
    shares = new Shares(RoomStatus.Share.of(s.dataCenterNames(), s.dataCenters()), RoomStatus.Share.of(s.nodeNames(), s.nodes()));
    LiveSettings.Current in = live.at((epoch + 1) * epochMillis);
    return Plan.compute(in.config(), in.admitting(), in.drawSecond(), epoch, s.dataCenters(), s.myDataCenter(), s.nodes(),
        s.me());
  }

  /** Takes the settings documents of the store's last answer, and puts in force any whose time has come. */
  private void readSettings() {
    live.read(coordinator.documents());
    activateSettings(clock.millis() + offsetMillis);
  }

  private void activateSettings(long nowMillis) {
    if (live.activate(nowMillis)) {
      state.configure(live.current().config());
    }
  }

  /**
   * Warns once when the store answers but no epoch has settled in time for {@link #STALL_EPOCHS}
   * epochs (the node keeps its last grant and admits from nobody's line meanwhile), and notes when
   * plans settle again. The usual cause is a propagation lag between data centers that the sync
   * interval does not leave room for: a plan must settle by the first sync of the epoch after its
   * tallies' next.
   */
  private void watchForStall(long epoch) {
    long lastPlan = Math.max(applied, joined);
    if (!stalled && epoch - 1 - lastPlan > STALL_EPOCHS) {
      stalled = true;
      log.warn("room '{}': no plan has settled in time for {} epochs of {} ms although the store answers; unless"
              + " an unreadable report holds the plans (logged before), the data centers see each"
              + " other's reports with too much lag: raise syncInterval to at least one and a half times that lag",
          config.roomId(), epoch - 1 - lastPlan, epochMillis);
    } else if (stalled && applied >= epoch - 2) {
      // The plan of the epoch before last: the latest a plan can take over (by the late read).
      stalled = false;
      log.info("room '{}': plans settle in time again after {} epochs without one", config.roomId(),
          epoch - 1 - stalledFrom);
    }
    if (!stalled) {
      stalledFrom = lastPlan;
    }
  }

  /** The share of the line's holders who give up per second, lately (see {@link LineDrain}). */
  double departures() {
    return drain.departures();
  }

  /**
   * Applies a plan. The room's plans call holders counted in any node's line; a plan a node makes
   * alone while the store fails ({@code roomWide} false) takes over at once and calls only holders
   * of this node's own line (the others' lines are not in it).
   */
  private void apply(Plan plan, long activateAtMillis, boolean roomWide) {
    // A holder the plan's tallies counted has been counted since before its epoch ended.
    long countedBy = Math.floorDiv((plan.epoch() + 1) * epochMillis, 1000L) - 1;
    state.schedule(plan, countedBy, activateAtMillis, roomWide, live.at((plan.epoch() + 1) * epochMillis).randomSecond());
    state.activateIfDue(clock.millis() + offsetMillis);
    applied = plan.epoch();
  }

  /** How long the line must have stayed empty before the node says that queueing stopped. */
  static final long QUEUE_QUIET_SECONDS = 60;

  /**
   * Logs when people start to wait in the room (a plan of the whole room shows a line) and when
   * nobody has waited for {@link #QUEUE_QUIET_SECONDS}: one line each, never per request or per
   * epoch.
   */
  private void noteQueueing(Plan plan, long now) {
    drain.note(plan, now);
    if (plan.waitingUsers() > 0) {
      emptySince = Long.MIN_VALUE;
      if (!queueing) {
        queueing = true;
        log.info("room '{}': queueing started: {} waiting, {} of {} active users", config.roomId(),
            plan.waitingUsers(), plan.activeUsers(), live.current().config().totalActiveUsers());
      }
    } else if (queueing) {
      if (emptySince == Long.MIN_VALUE) {
        emptySince = now;
      } else if (now - emptySince >= QUEUE_QUIET_SECONDS) {
        queueing = false;
        log.info("room '{}': queueing stopped: nobody has waited for {} s", config.roomId(), now - emptySince);
      }
    }
  }

  /** This node's own plan for an epoch of an outage (see the class comment). */
  private Plan alone(long epoch, Tally mine) {
    RoomConfig config = live.current().config();
    int active;
    int perMinute;
    boolean newArrivals = failurePolicy == FailurePolicy.FAIL_OPEN;
    if (newArrivals) {
      active = (int) Math.max(1, ceilDiv(config.totalActiveUsers(), roomNodes));
      perMinute = (int) Math.max(1, ceilDiv(config.newUsersPerMinute(), roomNodes));
    } else {
      Tally published = lastPublished;
      if (published == null) {
        return Plan.none(epoch);
      }
      // Exactly what the others count this node for while it is silent.
      Tally last = published.silent(config.sessionSeconds());
      long activeLimit = Math.max(0, last.active());
      long rateLimit = last.recentAdmissions();
      if (activeLimit <= 0 || rateLimit <= 0) {
        return Plan.none(epoch);
      }
      active = (int) Math.min(Integer.MAX_VALUE, activeLimit);
      perMinute = (int) Math.min(active, rateLimit);
    }
    RoomConfig local = config.toBuilder().totalActiveUsers(active).newUsersPerMinute(Math.min(perMinute, active)).build();
    // The plan takes over at once and drains the old grant: the slots it had for new arrivals are
    // not carried; the holders it called who still wait are (they need no slot, see Grant).
    Tally alone =
        new Tally(mine.active(), mine.reserved(), 0, mine.reserved(), mine.polling(), mine.recentAdmissions(),
            mine.arrivals(), mine.line(), mine.admittedPlaces());
    Plan plan = Plan.compute(local, epoch, List.of(alone), 0, List.of(alone), 0);
    return newArrivals ? plan : plan.withoutNewArrivals();
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  /**
   * How long until the next sync: to the next of the points 1/8, 3/8, 5/8 and 7/8 into an epoch
   * that lies at least a quarter epoch from now less its jitter (a sixteenth of an epoch either
   * way), so a node syncs four times an epoch, whatever the traffic.
   */
  Duration nextSyncDelay() {
    long now = nowMillis();
    long quarter = epochMillis / SYNCS_PER_EPOCH;
    long phase = Math.floorMod(now, epochMillis);
    long target = Math.floorDiv(phase + quarter / 2, quarter) * quarter + quarter / 2;
    if (target - phase < quarter / 2) {
      target += quarter;
    }
    long jitter = Math.round((ThreadLocalRandom.current().nextDouble() * 2 - 1) * quarter / 4.0);
    return Duration.ofMillis(Math.max(1, target - phase + jitter));
  }

  RoomStatus status(NodeState node) {
    Plan plan = node.grant().plan;
    long nowMillis = nowMillis();
    long now = Math.floorDiv(nowMillis, 1000L);
    Shares sh = shares;
    LiveSettings.Current in = live.current(now);
    return new RoomStatus(
        now,
        plan.epoch(),
        plan.epoch() == Long.MIN_VALUE ? -1 : Math.max(0, nowMillis - (plan.epoch() + 1) * epochMillis),
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
        maxWait(plan, now, in));
  }

  /** The estimated wait of someone who joins the line now (see {@link RoomStatus#maxWaitSeconds()}). */
  private long maxWait(Plan plan, long now, LiveSettings.Current in) {
    if (!in.admitting()) {
      return -1;
    }
    if (plan.waitingUsers() == 0) {
      return 0;
    }
    return plan.estimate(now, 0, drain.departures()).seconds();
  }

  private void scheduleNext() {
    ScheduledExecutorService s = scheduler;
    if (s == null || s.isShutdown()) {
      return;
    }
    try {
      s.schedule(
          () -> {
            try {
              sync();
            } catch (RuntimeException e) {
              log.error("room '{}': sync failed", config.roomId(), e);
            } finally {
              scheduleNext();
            }
          },
          nextSyncDelay().toMillis(),
          TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // closed meanwhile
    }
  }

  void close() {
    closed = true;
    ScheduledExecutorService s = scheduler;
    if (s != null) {
      s.shutdownNow();
    }
  }
}
