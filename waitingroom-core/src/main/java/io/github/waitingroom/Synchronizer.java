package io.github.waitingroom;

import io.github.waitingroom.internal.LongList;
import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.SlotAllocator;
import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Epochs;
import io.github.waitingroom.coordinator.Report;
import io.github.waitingroom.coordinator.ReportSeal;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.HexFormat;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.random.RandomGenerator;
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
 * tally) and tallies again when the store's epochs end.
 *
 * <h2>When the store fails</h2>
 *
 * While the transport fails, other nodes count this node with its last published tally as if it
 * had used all of its grant ({@link Tally#silent}), for as long as they keep its report: the
 * {@link Coordinator#retention retention} after its last report, the longest a dead node's users
 * could still be active. They do so only once that tally is more than {@link
 * Coordinator#SILENT_AFTER_EPOCHS} epochs old, and their plans take over two epochs after their
 * own: until then the plans in force count the node by its tallies, that is by its grant. So the
 * node keeps its grant (under {@link FailurePolicy#FAIL_CLOSED} less its slots for new arrivals,
 * which it gives up at its first failed exchange) until the plans of the others count it silent,
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
  /** What this node sent and what reached the store, and its plans while the store fails. */
  private final Outage outage;
  /** Turns each settled epoch into this node's plan (see {@link SlotAllocator}). */
  private final SlotAllocator allocator;
  private final FailurePolicy failurePolicy;
  private final @Nullable ScheduledExecutorService scheduler;
  private final Object lock = new Object();

  private volatile long offsetMillis;
  private volatile boolean failing;
  private volatile boolean closed;
  /** Whether the first sync, at build, is over (see {@link #refused}). */
  private boolean started;
  /** Whether this node logged an answer without the store's clock (see {@link #refused}). */
  private boolean loggedClockless;
  private volatile int roomNodes = 1;
  /** How many epochs after its own the last plan took over (see {@link #secondsUntilNextCall}). */
  private volatile long planDelay = 1;
  /**
   * Whether this node's data center had other live nodes at the last plan (until then: assumed),
   * so that its tallies list their check-ins (see {@link NodeState#dropDuplicates}).
   */
  private boolean sharedDataCenter = true;
  private final LineDrain drain = new LineDrain();
  private final QueueLog queueLog;
  /**
   * Whether the room's reports carry a settings version higher than any this node holds (see
   * {@link Coordinator#roomSettingsVersion()}): it then applies no plan, keeping its grant.
   */
  private boolean settingsBehind;
  private final RoomMetrics metrics;
  /** Where the sync jitter and the publisher suffix come from (see WaitingRoom.Builder#random). */
  private final RandomGenerator random;
  /** The users of each data center and of each node of this one, at the last plan computed. */
  private volatile Shares shares = new Shares(List.of(), List.of());

  private record Shares(List<RoomStatus.Share> dataCenters, List<RoomStatus.Share> nodes) {}

  // Sync-thread state, guarded by lock.
  private final TreeMap<Long, Tally> tallies = new TreeMap<>();
  private long tallied = Long.MIN_VALUE;
  private long joined;
  private long applied = Long.MIN_VALUE;
  private long failingSince;

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
    this.random = random;
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
    this.queueLog = new QueueLog(config.roomId());
    this.outage = new Outage(live, state, allocator, failurePolicy);
    this.pacer = new EpochPacer(config.roomId(), coordinator, storeBudget, this::nowMillis);
    // The join: if its answer lacks the store's clock, building the room fails (see syncOnce).
    sync();
    started = true;
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
    Epochs epochs = coordinator.epochs();
    return epochs.start(epochs.at(nowMillis()) + 2);
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
      Epochs epochs = coordinator.epochs();
      long epoch = epochs.at(nowMs);
      long now = Math.floorDiv(nowMs, 1000L);
      state.activateIfDue(nowMs);
      activateSettings(nowMs);
      Map<String, byte[]> keep = live.toKeep();
      if (keep != null) {
        coordinator.keep(keep);
      }
      coordinator.settingsVersion(live.latest().version());
      if (tallied == Long.MIN_VALUE) {
        // Joining: the others may have settled the epochs before this one without this node, so
        // it tallies itself from the epoch after the one it joins in, and admits nobody until
        // that epoch's plan takes over (two to three epochs).
        try {
          Coordinator.Join join =
              coordinator.join(() -> clock.millis() + offsetMillis, o -> offsetMillis += o);
          joined = join.epoch();
          tallied = joined - 1;
          readSettings();
          if (join.alone()) {
            // The only node of the room: it admitted nobody, so it plans from an empty tally now.
            Tally first = state.tally(clock.millis() + offsetMillis, Long.MAX_VALUE, checkInsToList());
            tallies.put(joined, first);
            tallied = joined;
            apply(allocator.allocate(SlotAllocator.SettledEpoch.of(live.at(coordinator.epochs().start(joined + 1)).config(),
                joined, List.of(first), 0, List.of(first), 0)), 0, true, NO_PLACES);
          }
        } catch (IOException | RuntimeException e) {
          if (e instanceof Transport.MissingClockException && !started) {
            // The first answer this node got, while the room is being built: refuse the transport.
            throw new IllegalStateException("room '" + config.roomId() + "': " + e.getMessage(), e);
          }
          boolean refused = refused(e);
          if (!failing) {
            failing = true;
            failingSince = now;
            metrics.recordStoreOutage();
            if (!refused) {
              log.warn("room '{}': coordinator transport failed at start ({}): {}", config.roomId(), failurePolicy, e.toString());
            }
          }
          if (failurePolicy == FailurePolicy.FAIL_OPEN && applied < epoch - 1) {
            apply(outage.alone(epoch - 1, state.tally(nowMs, Long.MAX_VALUE, checkInsToList()), roomNodes, nowSecond()), 0, false,
                NO_PLACES);
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
        for (long e = Math.max(Math.max(tallied + 1, joined), epoch - Report.EPOCHS_KEPT); e < epoch; e++) {
          tallies.put(e, state.tally(nowMs, Math.floorDiv(epochs.start(e + 1), 1000L), checkInsToList()));
        }
        while (tallies.size() > Report.EPOCHS_KEPT) {
          tallies.pollFirstEntry();
        }
        tallied = epoch - 1;
      }
      try {
        NavigableMap<Long, Tally> sent = outage.toSend(tallies);
        long storeMillis = coordinator.exchange(joined, sent, epoch);
        state.revocations().learnAdmitted(coordinator.latestAdmitted());
        offsetMillis = storeMillis - (startMillis + clock.millis()) / 2;
        outage.answered(sent);
        readSettings();
        if (failing) {
          failing = false;
          log.info("room '{}': coordinator transport answers again after {} s", config.roomId(), now - failingSince);
        }
        if (coordinator.epochs() != epochs) {
          // A new era: if it began already (this node missed its document), the tallies it made
          // since are of epochs cut the old way. Withdrawn, as those of a clock that ran ahead are,
          // and made again as the new epochs end.
          long first = coordinator.epochs().latest().first();
          if (joined > first) {
            // It joined, by the old lengths, after the era began: its join named an epoch of the
            // old numbering. It joins again (its users count again from its first tally).
            tallied = Long.MIN_VALUE;
            tallies.clear();
            log.warn("room '{}': an era of {} ms epochs began at epoch {} before this node joined; joining again",
                config.roomId(), coordinator.epochs().latest().lengthMillis(), first);
            return;
          }
          if (tallied >= first) {
            withdrawFrom(first, before, talliedBefore);
            log.warn("room '{}': an era of {} ms epochs began at epoch {} before this node read it; tallies since withdrawn",
                config.roomId(), coordinator.epochs().latest().lengthMillis(), first);
            return;
          }
          epochs = coordinator.epochs();
          epoch = Math.min(epoch, epochs.at(clock.millis() + offsetMillis));
        }
        long storeEpoch = epochs.at(storeMillis);
        if (storeEpoch < epoch) {
          // This node's clock ran ahead of the store's (see the class comment).
          if (tallied >= storeEpoch) {
            withdrawFrom(storeEpoch, before, talliedBefore);
            long ahead = nowMs - storeMillis;
            if (ahead >= epochs.length(epoch)) {
              log.warn("room '{}': this node's clock ran {} ms ahead of the store's; tallies of epochs that have"
                  + " not ended withdrawn", config.roomId(), ahead);
            } else {
              log.debug("room '{}': tallied {} ms before the store's epoch ended; withdrawn", config.roomId(), ahead);
            }
          }
          return;
        }
        Coordinator.Settled s = applied < epoch - 1 && !settingsBehind ? coordinator.settled(epoch - 1) : null;
        if (s != null) {
          pacer.pace(s, epoch - 1, false);
          // Every node switches to the plan of epoch e - 1 at the start of epoch e + 1, so that no
          // node calls a user whom the plan has not reached on another node; a node alone in the
          // room switches at once.
          boolean alone = s.roomNodes() <= 1 && s.dataCenters().size() == 1;
          Plan p = plan(s, epoch - 1);
          apply(p, alone ? 0 : epochs.start(epoch + 1), true, peerReserved(s));
          noteQueueing(p, now);
        }
        if (s == null && !settingsBehind && Math.max(applied, joined) < epoch - STALLED_EPOCHS) {
          // No plan for longer than a plan can come late (the late read applies the one of the
          // epoch before last): the room's epochs are too short for its lag.
          pacer.paceLate(epoch, applied);
        }
        if (!settingsBehind) {
          pacer.watchForStall(epoch, applied, joined);
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
        boolean refused = refused(e);
        if (!failing) {
          failing = true;
          failingSince = now;
          metrics.recordStoreOutage();
          if (!refused) {
            log.warn("room '{}': coordinator transport failed, planning alone ({}): {}",
                config.roomId(), failurePolicy, e.toString());
          }
        } else {
          log.debug("room '{}': coordinator transport still failing: {}", config.roomId(), e.toString());
        }
        if (failurePolicy == FailurePolicy.FAIL_CLOSED) {
          state.closeToNewArrivals();
        }
        if (applied < epoch - 1 && outage.mayPlanAlone(epoch)) {
          Tally mine = tallies.isEmpty() ? state.tally(nowMs, Long.MAX_VALUE, checkInsToList()) : tallies.lastEntry().getValue();
          apply(outage.alone(epoch - 1, mine, roomNodes, nowSecond()), 0, false, NO_PLACES);
        }
      }
      state.prune(now);
    }
  }

  /**
   * Whether the exchange failed because the answer lacked the store's clock (see {@link
   * Transport#CLOCK_SCOPE}); the first time, logs it as an error instead of the store failure's
   * warning: a transport that breaks its contract, which no retry mends.
   */
  private boolean refused(Exception e) {
    if (!(e instanceof Transport.MissingClockException)) {
      return false;
    }
    if (!loggedClockless) {
      loggedClockless = true;
      log.error("room '{}': {}. Until its answers carry it, this node treats every exchange as failed, as when the"
          + " store is down ({})", config.roomId(), e.getMessage(), failurePolicy);
    }
    return true;
  }

  /**
   * Withdraws the tallies of epoch {@code first} on (its next exchange publishes the report
   * without them), going back to the tallies it held before this sync, and applies no plan
   * computed from the tallies it made before that: its bookkeeping belongs to the withdrawn ones.
   */
  private void withdrawFrom(long first, TreeMap<Long, Tally> before, long talliedBefore) {
    tallies.clear();
    tallies.putAll(before.headMap(first, false));
    // Never back before the epoch it joined at: a node tallies nothing before that (its report
    // could not carry it), also when the store's epoch is behind the one it joined at.
    tallied = Math.max(Math.min(talliedBefore, first - 1), joined - 1);
    applied = Math.max(applied, talliedBefore);
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
      coordinator.exchange(joined, outage.toSend(tallies), epoch);
      Coordinator.Settled s = coordinator.settled(tallied);
      if (s != null && !settingsBehind) {
        Plan p = plan(s, tallied);
        apply(p, 0, true, peerReserved(s));
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
  /** {@code a / b} rounded up, for {@code b > 0}. */
  static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  private void noteQueueing(Plan plan, long now) {
    drain.note(plan, now);
    queueLog.note(plan, now, live.current().config().totalActiveUsers());
  }

  private long checkInsToList() {
    Epochs epochs = coordinator.epochs();
    long epochMillis = epochs.length(epochs.at(nowMillis()));
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
    LiveSettings.Current in = live.at(coordinator.epochs().start(epoch + 1));
    return allocator.allocate(new SlotAllocator.SettledEpoch(in.config(), in.admitting(), in.drawSecond(), epoch,
        s.dataCenters(), s.myDataCenter(), s.nodes(), s.me()));
  }

  /** Takes the settings documents of the store's last answer, and puts in force any whose time has come. */
  private void readSettings() {
    live.read(coordinator.documents());
    activateSettings(clock.millis() + offsetMillis);
    long room = coordinator.roomSettingsVersion();
    long mine = live.latest().version();
    if (room > mine && !settingsBehind) {
      settingsBehind = true;
      log.error("room '{}': the room's reports carry settings version {}, but this node holds version {} at most (the"
              + " document is missing from the store, or an older one was written back: someone without the room's keys"
              + " writes to it?); it plans nothing until it reads version {}", config.roomId(), room, mine, room);
    } else if (room <= mine && settingsBehind) {
      settingsBehind = false;
      log.info("room '{}': settings version {} read; planning again", config.roomId(), mine);
    }
  }

  private void activateSettings(long nowMillis) {
    if (live.activate(nowMillis)) {
      state.configure(live.current().config());
    }
  }

  /** The share of the line's holders who give up per second, lately (see {@link LineDrain}). */
  double departures() {
    return drain.departures();
  }

  /**
   * How long, in whole seconds from now, until a waiting holder who arrived at {@code
   * arrivalSecond} and whom the plan {@code inForce} has not called can be let in at the soonest:
   * a holder is let in from the line only when a plan calls it, and the first that can is the plan
   * of the epoch after {@code inForce}'s, or of the holder's arrival if later (the first whose
   * tallies count it). It takes over as many epochs after its own as the last plan did: two when
   * the room settles in time, more when the store or another data center answers late, one when
   * this node plans alone. So however few people are ahead, the wait is at least about this; 0
   * before the node's first plan.
   */
  long secondsUntilNextCall(Plan inForce, long arrivalSecond) {
    if (inForce.epoch() == Long.MIN_VALUE) {
      return 0;
    }
    Epochs epochs = coordinator.epochs();
    long first = Math.max(inForce.epoch() + 1, epochs.at(arrivalSecond * 1000));
    // The plan takes over at the first sync from then on (syncs come a quarter epoch apart).
    long takesOver = epochs.start(first + planDelay) + epochs.length(first + planDelay) / SYNCS_PER_EPOCH;
    return Math.max(0, Math.floorDiv(takesOver - nowMillis() + 999, 1000L));
  }

  /**
   * Applies a plan. The room's plans call holders counted in any node's line; a plan a node makes
   * alone while the store fails ({@code roomWide} false) takes over at once and calls only holders
   * of this node's own line (the others' lines are not in it).
   */
  private void apply(Plan plan, long activateAtMillis, boolean roomWide, long[] peerReserved) {
    // A holder the plan's tallies counted has been counted since before its epoch ended.
    long end = coordinator.epochs().start(plan.epoch() + 1);
    long countedBy = Math.floorDiv(end, 1000L) - 1;
    // A crowd's later holders may take the partial second's slots from half an epoch after the
    // plan takes over: with 2 s epochs a second, and before the next plan with any.
    long laterAfter = coordinator.epochs().length(plan.epoch()) / 2;
    state.schedule(plan, countedBy, activateAtMillis, roomWide, live.at(end).randomSecond(), peerReserved, laterAfter);
    state.activateIfDue(clock.millis() + offsetMillis);
    applied = plan.epoch();
    long takesOver = activateAtMillis == 0 ? clock.millis() + offsetMillis : activateAtMillis;
    planDelay = Math.max(1, coordinator.epochs().at(takesOver) - plan.epoch());
  }

  private static final long[] NO_PLACES = new long[0];

  /** The places the other nodes of this node's data center reserved in a settled epoch, sorted. */
  private static long[] peerReserved(Coordinator.Settled s) {
    LongList places = new LongList();
    for (int i = 0; i < s.nodes().size(); i++) {
      if (i != s.me()) {
        for (long place : s.nodes().get(i).reservedPlaces()) {
          places.add(place);
        }
      }
    }
    return places.sorted();
  }

  /**
   * How long until the next sync: to the next of the points 1/8, 3/8, 5/8 and 7/8 into an epoch
   * that lies at least a quarter epoch from now less its jitter (a sixteenth of an epoch either
   * way), so a node syncs four times an epoch, whatever the traffic.
   */
  Duration nextSyncDelay() {
    long now = nowMillis();
    Epochs epochs = coordinator.epochs();
    long epoch = epochs.at(now);
    long quarter = epochs.length(epoch) / SYNCS_PER_EPOCH;
    long phase = now - epochs.start(epoch);
    long target = Math.floorDiv(phase + quarter / 2, quarter) * quarter + quarter / 2;
    if (target - phase < quarter / 2) {
      target += quarter;
    }
    long jitter = Math.round((random.nextDouble() * 2 - 1) * quarter / 4.0);
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
        coordinator.epochs().length(coordinator.epochs().at(nowMillis)));
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
