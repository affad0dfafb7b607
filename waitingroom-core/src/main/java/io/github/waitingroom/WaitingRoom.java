package io.github.waitingroom;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.allocation.Budget;
import io.github.waitingroom.allocation.RoomView;
import io.github.waitingroom.allocation.SlotAllocator;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.coordinator.Report;
import io.github.waitingroom.coordinator.SyncCadence;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One waiting room on one node: the container-neutral admission API. Thread-safe; request
 * threads call {@link #decide} concurrently and never block, wait on a lock or touch the network.
 *
 * <pre>{@code
 * WaitingRoom room = WaitingRoom.builder(config, TicketKeys.fromJson(keysetJson)).build();
 * Decision d = room.decide(cookieValueOrNull);
 * if (d.ticket() != null) { setCookie(d.ticket(), d.ticketMaxAgeSeconds()); }
 * if (d.letsThrough()) { serveTheApplication(); } else { showWaitingPage(d); }
 * }</pre>
 *
 * <p>{@link #decide} follows the published design:
 *
 * <ul>
 *   <li>an <b>active</b> ticket whose session has not expired passes; at most once per slice its
 *       check-in moves forward and a new ticket is issued;
 *   <li>a <b>waiting</b> ticket whose place has not timed out is checked against this node's
 *       budget for its bucket at most once per refresh interval, and admitted when a slot is
 *       there;
 *   <li><b>no ticket</b>, or one that does not open (forged, tampered, foreign, expired), is a new
 *       arrival: admitted only when nobody waits and a slot is free, otherwise given a waiting
 *       ticket in the current bucket, at the back of the line.
 * </ul>
 *
 * <p>Budgets come from a background sync (every {@link Builder#syncInterval sync interval},
 * faster while traffic changes, slower while idle, with jitter; see {@link SyncCadence}) that
 * publishes this node's counts through the {@link Transport}, and runs the pure {@link
 * SlotAllocator} over what everyone published. With one JVM the default in-memory transport
 * needs no setup. {@link #close()} stops the sync.
 */
public final class WaitingRoom implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WaitingRoom.class);

  private final RoomConfig config;
  private final TicketCodec codec;
  private final InstantSource clock;
  private final Coordinator coordinator;
  private final FailurePolicy failurePolicy;
  private final SyncCadence cadence;
  private final String publisher;
  private final NodeState state;
  private final @Nullable ScheduledExecutorService scheduler;
  private final Object syncLock = new Object();

  private volatile RoomView view;
  private volatile Budgets budgets;
  private volatile boolean transportFailing;
  private volatile Duration nextSyncDelay;
  private volatile boolean closed;

  // Sync-thread state, guarded by syncLock.
  private Duration plainDelay;
  /** The budget of the last sync that reached the transport. */
  private Budget lastGoodBudget = Budget.NONE;
  /** Admissions charged to {@link #lastGoodBudget} since it was issued, across failed syncs. */
  private long chargedToLastGood;
  /** When the current failure episode began (epoch second), or -1 while the transport answers. */
  private long failingSince = -1;

  private WaitingRoom(Builder b, Transport transport) {
    this.config = b.config;
    this.codec = new TicketCodec(config.roomId(), b.keys);
    this.clock = b.clock;
    this.failurePolicy = b.failurePolicy;
    this.cadence = b.cadence();
    this.plainDelay = b.syncInterval;
    this.nextSyncDelay = b.syncInterval;
    // A fresh suffix per process: a node that restarts with the same id never overwrites the
    // report of its previous life, whose users keep counting until their sessions expire.
    this.publisher = b.nodeId + "#" + UUID.randomUUID().toString().substring(0, 8);
    this.coordinator =
        new Coordinator(
            config, transport, b.dataCenter, publisher, cadence.slowest().multipliedBy(2).plusSeconds(1));
    this.state = new NodeState(config);
    long now = clock.instant().getEpochSecond();
    this.view = RoomView.of(config, now, java.util.Map.of());
    this.budgets = new Budgets(Budget.NONE);
    sync();
    if (b.backgroundSync) {
      this.scheduler =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "waitingroom-sync-" + config.roomId());
                t.setDaemon(true);
                return t;
              });
      scheduleNextSync();
    } else {
      this.scheduler = null;
    }
  }

  /**
   * Starts a room.
   *
   * @param config the room's limits
   * @param keys the keyset that seals tickets; every node of the room needs the same one
   */
  public static Builder builder(RoomConfig config, KeysetHandle keys) {
    return new Builder(config, keys);
  }

  /**
   * Decides one request. Never blocks and never throws on bad input: a ticket that does not open
   * is a new arrival.
   *
   * @param ticket the request's ticket (cookie value), or {@code null} when it carries none
   */
  public Decision decide(@Nullable String ticket) {
    long now = Math.floorDiv(clock.millis(), 1000L); // millis(): no Instant on the hot path
    Ticket t = codec.open(ticket, now);
    if (t != null) {
      long lastSlice = config.sliceOf(t.lastCheckIn());
      if (t.isActive() && lastSlice >= config.firstActiveSlice(now)) {
        return pass(t, lastSlice, now);
      }
      if (!t.isActive() && lastSlice >= config.firstWaitingSlice(now)) {
        return keepWaiting(t, lastSlice, now);
      }
    }
    return arrive(now);
  }

  private Decision pass(Ticket t, long lastSlice, long now) {
    if (config.sliceOf(now) == lastSlice) {
      return Decision.PASS_UNCHANGED;
    }
    state.moveActive(lastSlice, now);
    return admitted(Decision.Outcome.PASS, t.checkIn(now), now);
  }

  private Decision keepWaiting(Ticket t, long lastSlice, long now) {
    state.moveWaiting(t.bucketId(), lastSlice, now);
    // Tickets hold whole seconds: a page that polls exactly every refresh interval may arrive a
    // second "early", and must not lose a whole interval for it.
    if (now - t.lastPoll() < config.refreshSeconds() - 1) {
      return waiting(Decision.Outcome.WAIT, t.checkIn(now), now);
    }
    state.poll(now);
    if (budgets.tryBucket(t.bucketId())) {
      state.admitWaiting(t.bucketId(), config.sliceOf(now), now);
      return admitted(Decision.Outcome.ADMIT, t.admit(now), now);
    }
    return waiting(Decision.Outcome.WAIT, t.poll(now), now);
  }

  private Decision arrive(long now) {
    if (budgets.tryNewArrival()) {
      state.arriveAdmitted(now);
      long bucket = config.bucketOf(now);
      return admitted(Decision.Outcome.ADMIT, new Ticket(Ticket.State.ACTIVE, bucket, now, now, now), now);
    }
    long bucket = config.bucketOf(now);
    state.arriveQueued(bucket, now);
    return waiting(Decision.Outcome.QUEUE, Ticket.waiting(bucket, now), now);
  }

  private Decision admitted(Decision.Outcome outcome, Ticket t, long now) {
    return new Decision(outcome, codec.seal(t), config.sessionSeconds(), 0, 0, 0, now);
  }

  private Decision waiting(Decision.Outcome outcome, Ticket t, long now) {
    RoomView v = view;
    return new Decision(
        outcome,
        codec.seal(t),
        config.waitingTimeoutSeconds(),
        v.usersAhead(t.bucketId()),
        v.estimatedWaitSeconds(t.bucketId()),
        config.refreshSeconds(),
        v.now());
  }

  /**
   * Runs one coordination round now: publish this node's counts, read everyone's, compute new
   * budgets. The background sync calls this; tests and simulations that build the room with
   * {@link Builder#backgroundSync(boolean) backgroundSync(false)} call it themselves. Never throws
   * on transport failure: the room goes on from its last view, as its {@link FailurePolicy} says.
   *
   * <p>While the transport fails (one <em>episode</em>, logged once when it begins and once when
   * it ends), the node never re-grants slots from a view it cannot refresh. The budget of the last
   * sync that got through is an allowance for the whole episode: every admission since then is
   * charged to it, so the nodes together cannot admit more than the free slots they last saw.
   * With {@link FailurePolicy#FAIL_CLOSED} only waiting users whose turn had come are admitted
   * from it, and new arrivals queue; with {@link FailurePolicy#FAIL_OPEN} the allowance, new
   * arrivals included, is granted afresh for every minute the episode lasts. The first sync that
   * gets through again replaces it with a budget from the fresh view. A node that has not reached
   * the transport once since it started has no allowance: it queues every arrival.
   */
  public void sync() {
    synchronized (syncLock) {
      long now = clock.instant().getEpochSecond();
      RoomView previous = view;
      int previousNodes = coordinator.nodeCount();
      Budgets old = budgets;
      long spentBefore = old.spent();
      Report mine = state.report(publisher, now);
      RoomView next;
      boolean failed = false;
      try {
        next = coordinator.exchange(mine, now);
        if (transportFailing) {
          transportFailing = false;
          log.info(
              "room '{}': coordinator transport answers again after {} s",
              config.roomId(),
              now - failingSince);
        }
        failingSince = -1;
      } catch (IOException | RuntimeException e) {
        if (closed) {
          return; // interrupted by close(): not a transport failure
        }
        failed = true;
        if (!transportFailing) {
          transportFailing = true;
          failingSince = now;
          log.warn(
              "room '{}': coordinator transport failed, serving from the last view ({}): {}",
              config.roomId(),
              failurePolicy,
              e.toString());
        } else {
          log.debug("room '{}': coordinator transport still failing: {}", config.roomId(), e.toString());
        }
        next = coordinator.localView(mine, now, view);
      }
      Budget budget;
      if (failed) {
        budget = lastGoodBudget;
        if (failurePolicy == FailurePolicy.FAIL_OPEN) {
          budget = times(budget, 1 + Math.max(0, now - failingSince) / 60);
        } else {
          budget = new Budget(budget.bucketIds(), budget.slots(), 0);
        }
      } else {
        budget =
            SlotAllocator.budgetFor(
                SlotAllocator.allocate(next, config),
                next,
                coordinator.dataCenter(),
                coordinator.nodeIndex(),
                coordinator.nodeCount());
      }
      Budgets fresh = new Budgets(budget);
      view = next;
      budgets = fresh;
      long spentOnOld = old.spent();
      if (failed) {
        // Everything spent on the old budget (issued at or after the last good sync) counts
        // against the episode's allowance.
        chargedToLastGood += spentOnOld;
      } else {
        // Admissions made on the old budget after the report was taken are not in the view yet.
        lastGoodBudget = budget;
        chargedToLastGood = spentOnOld - spentBefore;
      }
      fresh.deduct(chargedToLastGood);
      SyncCadence.Signal signal =
          SyncCadence.classify(config, previous, previousNodes, next, coordinator.nodeCount(), failed);
      SyncCadence.Delay delay = cadence.next(plainDelay, signal, ThreadLocalRandom.current().nextDouble());
      plainDelay = delay.plain();
      nextSyncDelay = delay.jittered();
      state.prune(now);
    }
  }

  private static Budget times(Budget b, long n) {
    long[] slots = b.slots();
    for (int i = 0; i < slots.length; i++) {
      slots[i] = Math.multiplyExact(slots[i], n);
    }
    return new Budget(b.bucketIds(), slots, Math.multiplyExact(b.newArrivals(), n));
  }

  private void scheduleNextSync() {
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
              scheduleNextSync();
            }
          },
          nextSyncDelay.toMillis(),
          TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed meanwhile
    }
  }

  /**
   * How long the background sync waits before its next round, as the last sync chose it: shorter
   * while traffic or membership changes, longer while the room is idle, jittered (see {@link
   * SyncCadence}).
   */
  public Duration nextSyncDelay() {
    return nextSyncDelay;
  }

  /** The room's configuration. */
  public RoomConfig config() {
    return config;
  }

  /** The view behind the current budgets and estimates. */
  public RoomView view() {
    return view;
  }

  /** Whether the last sync failed to reach the coordinator transport. */
  public boolean transportFailing() {
    return transportFailing;
  }

  /** Stops the background sync. Decisions keep working from the last view. */
  @Override
  public void close() {
    closed = true;
    ScheduledExecutorService s = scheduler;
    if (s != null) {
      s.shutdownNow();
    }
  }

  /** Builds a {@link WaitingRoom}; every setting but the configuration and keys has a default. */
  public static final class Builder {
    private final RoomConfig config;
    private final KeysetHandle keys;
    private InstantSource clock = InstantSource.system();
    private @Nullable Transport transport;
    private String dataCenter = "local";
    private String nodeId = "node";
    private Duration syncInterval = Duration.ofSeconds(1);
    private @Nullable Duration fastestSync;
    private @Nullable Duration slowestSync;
    private FailurePolicy failurePolicy = FailurePolicy.FAIL_CLOSED;
    private boolean backgroundSync = true;

    private Builder(RoomConfig config, KeysetHandle keys) {
      this.config = Objects.requireNonNull(config, "config");
      this.keys = Objects.requireNonNull(keys, "keys");
    }

    /** Where time comes from. Default: the system clock. Tests pass a {@link ManualClock}. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The coordinator store shared by every node of the room. Default: a private {@link
     * InMemoryTransport}, right for a room on one JVM.
     */
    public Builder transport(Transport transport) {
      this.transport = Objects.requireNonNull(transport, "transport");
      return this;
    }

    /** This node's data center (region, cluster). Default: {@code local}. */
    public Builder dataCenter(String name) {
      this.dataCenter = RoomConfig.checkName("dataCenter", name);
      return this;
    }

    /** This node's id, unique within its data center. Default: {@code node}. */
    public Builder nodeId(String id) {
      this.nodeId = RoomConfig.checkName("nodeId", id);
      return this;
    }

    /** How often the node syncs with the coordinator (10 ms..1 min). Default: 1 second. */
    public Builder syncInterval(Duration interval) {
      Objects.requireNonNull(interval, "syncInterval");
      if (interval.compareTo(Duration.ofMillis(10)) < 0 || interval.compareTo(Duration.ofMinutes(1)) > 0) {
        throw new IllegalArgumentException(
            "syncInterval must be between 10 ms and 1 minute but was " + interval);
      }
      this.syncInterval = interval;
      return this;
    }

    /**
     * How far the adaptive cadence may stray from the {@link #syncInterval sync interval}: down to
     * {@code fastest} while traffic or the set of nodes changes, up to {@code slowest} while the
     * room is idle (see {@link SyncCadence}). Pass the sync interval twice for a fixed cadence.
     * Default: a quarter of the sync interval (at least 10 ms) and four times it (at most 1
     * minute). Checked against the sync interval in {@link #build()}.
     */
    public Builder syncIntervalBounds(Duration fastest, Duration slowest) {
      Objects.requireNonNull(fastest, "fastest");
      Objects.requireNonNull(slowest, "slowest");
      if (fastest.compareTo(Duration.ofMillis(10)) < 0 || slowest.compareTo(Duration.ofMinutes(1)) > 0) {
        throw new IllegalArgumentException(
            "syncIntervalBounds must lie between 10 ms and 1 minute but were " + fastest + " and " + slowest);
      }
      this.fastestSync = fastest;
      this.slowestSync = slowest;
      return this;
    }

    SyncCadence cadence() {
      Duration fastest = fastestSync;
      Duration slowest = slowestSync;
      if (fastest == null || slowest == null) {
        Duration quarter = syncInterval.dividedBy(4);
        Duration fourTimes = syncInterval.multipliedBy(4);
        fastest = quarter.compareTo(Duration.ofMillis(10)) < 0 ? Duration.ofMillis(10) : quarter;
        slowest = fourTimes.compareTo(Duration.ofMinutes(1)) > 0 ? Duration.ofMinutes(1) : fourTimes;
      }
      return new SyncCadence(syncInterval, fastest, slowest);
    }

    /** What to do with new arrivals while the transport fails. Default: {@link FailurePolicy#FAIL_CLOSED}. */
    public Builder failurePolicy(FailurePolicy policy) {
      this.failurePolicy = Objects.requireNonNull(policy, "failurePolicy");
      return this;
    }

    /**
     * Whether a background thread syncs every sync interval. Default: true. Turn it off to drive
     * {@link WaitingRoom#sync()} yourself, as tests and simulations with a manual clock do.
     */
    public Builder backgroundSync(boolean enabled) {
      this.backgroundSync = enabled;
      return this;
    }

    /** Builds the room and runs its first sync. */
    public WaitingRoom build() {
      cadence(); // fails fast on inconsistent sync intervals
      Transport t = transport;
      return new WaitingRoom(this, t != null ? t : new InMemoryTransport(clock));
    }
  }
}
