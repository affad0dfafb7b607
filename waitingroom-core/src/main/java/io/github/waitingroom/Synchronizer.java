package io.github.waitingroom;

import io.github.waitingroom.allocation.Pace;
import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.SlotAllocator;
import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Epochs;
import io.github.waitingroom.coordinator.ReportSeal;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.NavigableMap;
import java.util.HexFormat;
import java.util.random.RandomGenerator;
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
 * transport carries it, see {@link Transport#CLOCK_SCOPE}; the node keeps an offset to it; an
 * answer without it is a failed exchange, logged once as an error, and the first answer of all,
 * at build, makes the build fail); a room whose nodes would read more
 * from the store than its budget stretches them, on every node alike (see {@link EpochPacer#pace} and
 * {@link Epochs}). At its first sync of epoch {@code e}
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
 * tally) and tallies again when the store's epochs end (see {@link Tallies#afterAnswer}).
 *
 * <h2>When the store fails</h2>
 *
 * While the transport fails, other nodes count this node with its last published tally as if it
 * had used all of its grant ({@link Tally#silent}), for as long as they keep its report: the
 * {@link Coordinator#retention retention} after its last report, the longest a dead node's users
 * could still be active. They do so only once that tally is more than {@link
 * Coordinator#SILENT_AFTER_EPOCHS} epochs old, and their plans take over two epochs after their
 * own: until then the plans in force count the node by its tallies, that is by its grant. So the
 * node keeps its grant (under {@link FailurePolicy#FAIL_CLOSED} closed to newcomers from its
 * first failed exchange on) until the plans of the others count it silent,
 * and sends the tallies of its first failed exchange until one is answered: an exchange whose
 * answer never came (a timeout after the store ran it) may have published them, and the others
 * then count it by those. Its last published tally is whichever of its last answered one and
 * those reached the store: it stays within both. From then on the node plans alone for every
 * epoch of the outage, from its own tally (so a few failed exchanges, timeouts, open nothing):
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
 *       logging its users out, or never forgetting a node that died, would avoid that. A node
 *       planning alone counts every user who checked in on it within the session, those who
 *       moved to it from another node too (see {@link NodeState#checkedInHere}). Without session
 *       affinity a user whose requests move to another node during the outage still looks gone to
 *       the node they left once their session there has run out, which then replaces them: the
 *       room may run over by the users who move and stay away from their first node longer than a
 *       session.
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

  /**
   * Epochs without a plan after which the epochs are too short for the room's lag: a plan takes
   * over at the latest two epochs after its own (by the late read), so four without one are no
   * single late answer.
   */
  static final int STALLED_EPOCHS = 4;

  /** Epochs without a settled plan, while the store answers, after which the node warns. */
  static final int STALL_EPOCHS = 8;

  private final RoomConfig config;
  private final NodeState state;
  private final LiveSettings live;
  private final Coordinator coordinator;
  private final InstantSource clock;
  /** Decides how long the epochs are (one node of the room does), and watches for stalled plans. */
  private final EpochPacer pacer;
  /** Decides the room's adaptive limit, where it has one (see {@link LimitController}). */
  private final LimitController limits;
  /** What this node sent and what reached the store, and its plans while the store fails. */
  private final Outage outage;
  /** Turns each settled epoch into this node's plan (see {@link SlotAllocator}). */
  private final SlotAllocator allocator;
  private final FailurePolicy failurePolicy;
  private final RoomMetrics metrics;
  /** Puts the plans in force, and tells what they mean for a waiting holder and the room's status. */
  private final Plans plans;
  /** Whether the store answers, and the log lines and metrics of its outages. */
  private final StoreFailures failures;
  /** Puts the room's live settings in force, and notices when this node lacks the room's latest. */
  private final SettingsSync settings;
  /** When the next sync runs, and the background thread that runs it. */
  private final SyncTimer timer;

  private volatile long offsetMillis;
  private volatile boolean closed;
  /** Whether the first sync, at build, is over (see {@link #syncOnce}). */
  private boolean started;

  /** This node's tallies of its latest epochs (sync-thread state, guarded by lock). */
  private final Tallies tallies;
  private final Object lock = new Object();

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
      long storeBudget,
      FailurePolicy failurePolicy,
      boolean background,
      RandomGenerator random,
      RoomMetrics metrics,
      SlotAllocator allocator,
      Coordinator.Factory coordinators) {
    this.allocator = allocator;
    this.config = config;
    this.metrics = metrics;
    this.state = state;
    this.live = live;
    this.clock = clock;
    this.failurePolicy = failurePolicy;
    // A fresh suffix per process: a node that restarts with the same id never overwrites the
    // report of its previous life, whose users keep counting until their sessions expire.
    String publisher = nodeId + "#" + HexFormat.of().toHexDigits((int) random.nextLong());
    this.coordinator = coordinators.create(config, transport, seal, dataCenter, publisher, epoch);
    this.plans = new Plans(config.roomId(), state, live, coordinator, allocator, this::nowMillis);
    this.failures = new StoreFailures(config.roomId(), failurePolicy, metrics);
    this.settings = new SettingsSync(config.roomId(), state, live, coordinator, this::nowMillis);
    this.tallies = new Tallies(config.roomId(), state, coordinator, plans, this::nowMillis);
    this.outage = new Outage(live, state, allocator, failurePolicy);
    this.pacer = new EpochPacer(config.roomId(), coordinator, storeBudget, this::nowMillis);
    this.limits = new LimitController(config.roomId(), live, coordinator, this::nowMillis);
    // The join: if its answer lacks the store's clock, building the room fails (see syncOnce).
    sync();
    started = true;
    this.timer = new SyncTimer(config.roomId(), coordinator, this::nowMillis, random, this::sync, background);
    timer.scheduleNext();
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
    Epochs epochs = coordinator.epochs();
    return epochs.start(epochs.at(nowMillis()) + 2);
  }

  long nowSecond() {
    return Math.floorDiv(nowMillis(), 1000L);
  }

  boolean failing() {
    return failures.failing();
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
      metrics.recordSync(System.nanoTime() - start, !failures.failing());
    }
  }

  private void syncOnce() {
    synchronized (lock) {
      long startMillis = clock.millis();
      long nowMs = startMillis + offsetMillis;
      Epochs epochs = coordinator.epochs();
      long epoch = epochs.at(nowMs);
      long now = Math.floorDiv(nowMs, 1000L);
      state.activateIfDue(nowMs);
      settings.beforeExchange(nowMs);
      if (tallies.joining()) {
        // Joining: the others may have settled the epochs before this one without this node, so
        // it tallies itself from the epoch after the one it joins in, and admits nobody until
        // that epoch's plan takes over (two to three epochs).
        try {
          Coordinator.Join join =
              coordinator.join(() -> clock.millis() + offsetMillis, o -> offsetMillis += o);
          tallies.joined(join.epoch());
          settings.read();
          if (join.alone()) {
            // The only node of the room: it admitted nobody, so it plans from an empty tally now.
            Tally first = state.tally(clock.millis() + offsetMillis, Long.MAX_VALUE, checkInsToList());
            tallies.first(first);
            long joined = tallies.joined();
            plans.apply(allocator.allocate(SlotAllocator.SettledEpoch.of(live.at(coordinator.epochs().start(joined + 1)).config(),
                joined, List.of(first), 0, List.of(first), 0)), 0);
          }
        } catch (IOException | RuntimeException e) {
          if (e instanceof Transport.MissingClockException && !started) {
            // The first answer this node got, while the room is being built: refuse the transport.
            throw new IllegalStateException("room '" + config.roomId() + "': " + e.getMessage(), e);
          }
          failures.failedAtStart(e, now);
          if (failurePolicy == FailurePolicy.FAIL_OPEN && plans.applied() < epoch - 1) {
            plans.apply(outage.alone(epoch - 1, state.tally(nowMs, Long.MAX_VALUE, checkInsToList()), plans.roomNodes(),
                nowSecond()), 0);
          }
        }
        return;
      }
      long tallied = tallies.tallied();
      if (tallied < epoch - 1 && plans.applied() < tallied && tallied >= tallies.joined()) {
        applyLate(epoch);
      }
      tallies.tallyUpTo(epoch, nowMs, epochs, this::checkInsToList);
      try {
        NavigableMap<Long, Tally> sent = outage.toSend(tallies.all());
        long storeMillis = coordinator.exchange(tallies.joined(), sent, epoch);
        state.revocations().learnAdmitted(coordinator.latestAdmitted());
        offsetMillis = storeMillis - (startMillis + clock.millis()) / 2;
        outage.answered(sent);
        settings.read();
        failures.answered(now);
        long goOn = tallies.afterAnswer(epochs, epoch, storeMillis, nowMs);
        if (goOn == Tallies.STOP) {
          return; // tallies withdrawn (see Tallies#afterAnswer)
        }
        epoch = goOn;
        epochs = coordinator.epochs();
        Coordinator.Settled s = plans.applied() < epoch - 1 && !settings.behind() ? coordinator.settled(epoch - 1) : null;
        if (s != null) {
          pacer.pace(s, epoch - 1, false);
          limits.note(s, epoch - 1);
          // Every node switches to the plan of epoch e - 1 at the start of epoch e + 1, so that no
          // node calls a user whom the plan has not reached on another node; a node alone in the
          // room switches at once (see Plans#applySettled).
          plans.applySettled(s, epoch - 1, epochs.start(epoch + 1), now);
        }
        if (s == null && !settings.behind() && Math.max(plans.applied(), tallies.joined()) < epoch - STALLED_EPOCHS) {
          // No plan for longer than a plan can come late (the late read applies the one of the
          // epoch before last): the room's epochs are too short for its lag.
          pacer.paceLate(epoch, plans.applied());
        }
        if (!settings.behind()) {
          pacer.watchForStall(epoch, plans.applied(), tallies.joined());
        }
      } catch (RuntimeException e) {
        // A defect, not an outage: keep the grant in force (its tallies keep reporting it).
        if (!closed) {
          log.error("room '{}': sync failed", config.roomId(), e);
        }
      } catch (IOException e) {
        if (closed) {
          return; // interrupted by close(): not a transport failure
        }
        outage.failed();
        failures.failed(e, now);
        if (failurePolicy == FailurePolicy.FAIL_CLOSED) {
          state.closeToNewArrivals();
        }
        if (plans.applied() < epoch - 1 && outage.mayPlanAlone(epoch)) {
          Tally mine = tallies.all().isEmpty() ? state.tally(nowMs, Long.MAX_VALUE, checkInsToList())
              : tallies.all().lastEntry().getValue();
          plans.apply(outage.alone(epoch - 1, mine, plans.roomNodes(), nowSecond()), 0);
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
      coordinator.exchange(tallies.joined(), outage.toSend(tallies.all()), epoch);
      Coordinator.Settled s = coordinator.settled(tallies.tallied());
      if (s != null && !settings.behind()) {
        plans.applySettled(s, tallies.tallied(), 0, nowSecond());
      }
    } catch (IOException e) {
      log.debug("room '{}': late read failed: {}", config.roomId(), e.toString());
    }
  }

  /** {@code a / b} rounded up, for {@code b > 0}. */
  static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  /**
   * How many seconds back this node's tallies list its check-ins: a slice, and at least two
   * epochs, so that two nodes' check-ins of one instant are both in one settled epoch's tallies;
   * none while the node is alone in its data center.
   */
  private long checkInsToList() {
    Epochs epochs = coordinator.epochs();
    long epochMillis = epochs.length(epochs.at(nowMillis()));
    return plans.sharedDataCenter() ? Math.max(config.sliceSeconds(), ceilDiv(2 * epochMillis, 1000)) : 0;
  }

  /** How fast the line moves from {@code plan} on, under {@code config} (see {@link Plan#pace}). */
  Pace pace(Plan plan, RoomConfig config) {
    return plans.pace(plan, config);
  }

  /**
   * How long, in whole seconds from now, until a waiting holder who arrived at {@code
   * arrivalSecond} and whose place is above the cutoff of the plan {@code inForce} can be let in
   * at the soonest: only a plan whose cutoff reaches it lets it in, and the first that can is the
   * plan of the epoch after {@code inForce}'s, or of the holder's arrival if later (the first
   * whose tallies count it). It takes over as many epochs after its own as the last plan did: two when
   * the room settles in time, more when the store or another data center answers late, one when
   * this node plans alone. So however few people are ahead, the wait is at least about this; 0
   * before the node's first plan.
   */
  long secondsUntilNextCall(Plan inForce, long arrivalSecond) {
    return plans.secondsUntilNextCall(inForce, arrivalSecond);
  }

  /**
   * How long until the next sync: to the next of the points 1/8, 3/8, 5/8 and 7/8 into an epoch
   * that lies at least a quarter epoch from now less its jitter (see {@link SyncTimer}).
   */
  Duration nextSyncDelay() {
    return timer.nextSyncDelay();
  }

  /** The room's status as this node sees it (see {@link WaitingRoom#status}). */
  RoomStatus status(NodeState node) {
    return plans.status(node, failures.failing());
  }

  void close() {
    closed = true;
    timer.close();
  }
}
