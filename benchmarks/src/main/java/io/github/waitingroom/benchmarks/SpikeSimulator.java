package io.github.waitingroom.benchmarks;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.Decision;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.Ticket;
import io.github.waitingroom.TicketCodec;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Drives the real core through traffic spikes and hostile conditions in virtual time. Every node is
 * a real {@link WaitingRoom} (built with {@code backgroundSync(false)}, on its own {@link
 * ManualClock} that may be skewed) whose {@link WaitingRoom#sync()} the simulator calls whenever
 * that node's own {@link WaitingRoom#nextSyncDelay()} asks (four times per epoch, jittered), over a
 * {@link LaggedTransport} that delays what nodes see of each other (and a {@link FaultyTransport}
 * when the scenario has store faults). The store's clock is the lagged store's {@code
 * InMemoryTransport} clock, the simulator's master clock. Every simulated client carries the real
 * sealed ticket the room gave it and honours each {@link Decision}'s {@code ticketMaxAgeSeconds};
 * how it honours {@code refreshSeconds} depends on its {@link Scenario.ClientKind} (pages poll as
 * told, hidden tabs once a minute, API clients at their own pace, frozen tabs go silent once for
 * minutes and come back with their old cookies, leavers give up), drawn from the scenario's {@link
 * Scenario.ClientMix}. The room's own settings (refresh interval, waiting timeout) stay those of
 * the scenario whatever the mix.
 *
 * <p>The simulator keeps its own per-user ground truth, independent of the room's counters, and
 * measures the room against it (see {@link Result}). It writes, per scenario, a directory with a
 * per-second CSV, a per-DC CSV and {@code summary.json}.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.waitingroom.benchmarks.SpikeSimulator \
 *     [--out DIR] [--no-lag] [--patient] [--one-dc] [--lockstep] [--cold-start] [--sticky] \
 *     [--minutes=N] [--sync=MILLIS] [--mix=MIX] [--seed=N] [--chart] [scenario ...]
 * java ... SpikeSimulator --all --out DIR [scenario ...]      # DIR/table.md, one row per scenario
 * java ... SpikeSimulator --seeds=1..1000 [--threads=2] smoke # prints every seed over a limit
 * </pre>
 *
 * <p>Scenarios: {@code one-node dc5x4 flash20x5} (the default), the adversarial ones ({@code
 * hostile-base parallel replay clone skew store-fail-open store-fail-closed burst}, or {@code
 * hostile} for all of them), those of issue 39 ({@code perminute short-sessions topo1x1 topo2x2
 * topo2x6 topo5x4 topo20x5 lag075 lag15 lag3 clock-skew}), {@code load10 load100 load1000}
 * (store load), {@code smoke} and {@code tiny-one-node} (the one-node run of the tests).
 */
public final class SpikeSimulator {
  /** Virtual start: a round hour, so minutes and slices line up with the run's seconds. */
  static final long START_EPOCH_SECOND = Instant.parse("2026-11-30T10:00:00Z").getEpochSecond();

  private static final long START_MILLIS = START_EPOCH_SECOND * 1000;
  private static final int ID_BITS = 24;
  private static final long ID_MASK = (1L << ID_BITS) - 1;

  private static final byte NEW = 0;
  private static final byte WAITING = 1;
  private static final byte ACTIVE = 2;
  private static final byte GONE = 3;

  // The ordinals of Scenario.ClientKind, as constants for switches (checked below).
  private static final byte HIDDEN_KIND = 1;
  private static final byte FROZEN_KIND = 2;
  private static final byte API_KIND = 3;

  static {
    if (Scenario.ClientKind.HIDDEN.ordinal() != HIDDEN_KIND || Scenario.ClientKind.FROZEN.ordinal() != FROZEN_KIND
        || Scenario.ClientKind.API.ordinal() != API_KIND) {
      throw new AssertionError("Scenario.ClientKind's order changed");
    }
  }

  private static final byte HONEST = 0;
  private static final byte CLONE = 1;

  private final Scenario s;
  private final Scenario.Adversity adv;
  private final RoomConfig config;
  private final ManualClock storeClock;
  private final ManualClock[] nodeClocks;
  private final long[] skewMillis;
  private final @Nullable WaitingRoom[] nodes;
  private final TicketCodec codec;
  private final LaggedTransport lagged;
  private final @Nullable FaultyTransport faulty;
  private final SplittableRandom random;
  /** Every random choice of each node (tie-breaks, draws, sync jitter), from the run's seed. */
  private final SplittableRandom[] nodeRandom;
  private final long endMillis;
  /** Internal time 0 is {@code base}; the run (traffic, statistics) starts at internal {@code warm}. */
  private final long warm;
  private final long base;
  private final long joinGapMillis;
  private final KeysetHandle keys;
  private final Transport transport;
  private final long sessionMillis;

  // Users (struct of arrays, indexed by user id: arrivals in order, then clones).
  private final int users;
  private final int total;
  private final long[] arrivalMillis;
  private final short[] dataCenter;
  private final long[] patienceMillis;
  private final byte[] state;
  private final byte[] kind;
  private final @Nullable String[] ticket;
  private final long[] cookieExpiresMillis;
  /** The cookie that holds a user's place in line, apart from the session (as the Gate keeps it). */
  private final @Nullable String[] placeTicket;
  private final long[] placeExpiresMillis;
  private final long[] placeSecond;
  /** When each waiting user was first told a wait estimate (-1 while it is unknown). */
  private final long[] shownAtMillis;
  private final long[] queuedMillis;
  /** When each user was first put in line (a user the room put at the back keeps it), or -1. */
  private final long[] firstQueuedMillis;
  private final long[] shownWait;
  private final long[] shownLow;
  private final long[] shownHigh;
  private final long[] lastAhead;
  private final long[] browseEndMillis;
  private final long[] expiryMillis;
  private final boolean[] counted;
  private final boolean[] inverted;
  private final boolean[] invertedFromLine;
  private final boolean[] aheadGrew;
  /** Each user's {@link Scenario.ClientKind} (its ordinal). */
  private final byte[] clientKind;
  /** An API client's fixed period. */
  private final long[] apiPeriodMillis;
  /** When a frozen tab's silence starts (from its arrival on), and how long it lasts. */
  private final long[] freezeStartMillis;
  private final long[] freezeMillis;
  private final boolean[] froze;
  private final long[] lastPollMillis;
  /** Admitted from the line after a later arrival second had been admitted from the line. */
  private final boolean[] lateFromLine;
  /** Whether the user is counted in {@link #waitingAsToldBySecond}. */
  private final boolean[] inAsTold;

  // Replayers: user id, first admitted ticket, end of replaying.
  private final int[] replayer;
  private final @Nullable String[] replayTicket;
  private final long[] replayEndMillis;
  private int replayersStarted;

  // Clones: the copied holder, when.
  private int cloneVictim = -1;
  private long cloneAtMillis = Long.MAX_VALUE;
  private long clonePlace = Long.MIN_VALUE;
  private final DoubleList clonePlaceAdmissions = new DoubleList();

  // Ground truth over time.
  private final int seconds;
  private final int[] activeAt;
  private final int[] maxActiveIn;
  private final int[] queueAt;
  private final int[] queueSeenAt;
  private final int[] admittedIn;
  private final int[] arrivedIn;
  private final LongList admissionMillis = new LongList();
  private final PriorityQueue<Long> expiries = new PriorityQueue<>();
  private int activeNow;
  private int phantomActive;
  private final PriorityQueue<Long> phantomExpiries = new PriorityQueue<>();
  private int waitingNow;
  private final TreeMap<Long, Integer> waitingBySecond = new TreeMap<>();
  /**
   * As {@link #waitingBySecond}, of the honest users who poll as told (pages and leavers): those
   * whose place the room cannot have dropped for polling late.
   */
  private final TreeMap<Long, Integer> waitingAsToldBySecond = new TreeMap<>();
  private long newestAdmittedSecond = Long.MIN_VALUE;
  /** As {@link #newestAdmittedSecond}, of users admitted from the line only (not on arrival). */
  private long newestFromLineSecond = Long.MIN_VALUE;
  private final long[] newestAdmittedSecondByDc;

  private final Result result;

  private SpikeSimulator(Scenario s) {
    this.s = s;
    this.adv = s.adversity();
    this.random = new SplittableRandom(s.seed());
    SplittableRandom nodeSeeds = new SplittableRandom(s.seed() ^ 0x5DEECE66DL);
    this.nodeRandom = new SplittableRandom[s.dataCenters() * s.nodesPerDataCenter()];
    for (int n = 0; n < nodeRandom.length; n++) {
      nodeRandom[n] = nodeSeeds.split();
    }
    this.config =
        RoomConfig.builder("sim")
            .totalActiveUsers(s.totalActiveUsers())
            .newUsersPerMinute(s.newUsersPerMinute())
            .sessionDuration(s.sessionDuration())
            .refreshInterval(s.refreshInterval())
            .build();
    this.sessionMillis = config.sessionSeconds() * 1000;
    int nodeCount = s.dataCenters() * s.nodesPerDataCenter();
    // Warm start (the default): nodes join one by one before the traffic starts, each once the
    // previous one's report (and its data center's sum) can be seen: a rolling start. Cold start:
    // every node starts at the same instant, when the traffic does.
    long epochMillis = s.syncInterval().toMillis();
    this.joinGapMillis = adv.coldStart() ? 0 : epochMillis + s.globalLag().toMillis() + epochMillis / 2;
    this.warm = adv.coldStart() ? 0 : nodeCount * joinGapMillis + 2 * epochMillis;
    this.base = START_MILLIS - warm;
    this.storeClock = new ManualClock(Instant.ofEpochMilli(base));
    this.endMillis = s.duration().toMillis() + warm;
    this.seconds = (int) s.duration().getSeconds();

    long[] arrivals = arrivals();
    this.users = arrivals.length;
    this.total = users + adv.clones();
    if (total + (long) nodeCount + adv.replayers() + 2 >= ID_MASK) {
      throw new IllegalArgumentException("too many users for one run: " + total);
    }
    this.arrivalMillis = new long[total];
    this.dataCenter = new short[total];
    for (int i = 0; i < users; i++) {
      arrivalMillis[i] = (arrivals[i] >>> 8) + warm;
      dataCenter[i] = (short) (arrivals[i] & 0xFF);
    }
    this.patienceMillis = new long[total];
    this.clientKind = new byte[total];
    this.apiPeriodMillis = new long[total];
    this.freezeStartMillis = new long[total];
    this.freezeMillis = new long[total];
    this.froze = new boolean[total];
    this.lastPollMillis = new long[total];
    this.lateFromLine = new boolean[total];
    this.inAsTold = new boolean[total];
    Arrays.fill(patienceMillis, Long.MAX_VALUE);
    Arrays.fill(freezeStartMillis, Long.MAX_VALUE);
    // Each user's kind and the kind's own draws, in user order, from the run's generator.
    for (int i = 0; i < users; i++) {
      Scenario.ClientKind k = s.clientMix().pick(random.nextDouble());
      clientKind[i] = (byte) k.ordinal();
      switch (k) {
        case API -> apiPeriodMillis[i] =
            uniform(Scenario.ClientKind.API_MIN_SECONDS * 1000L, Scenario.ClientKind.API_MAX_SECONDS * 1000L + 1);
        case FROZEN -> {
          freezeStartMillis[i] = arrivalMillis[i] + uniform(0, Scenario.ClientKind.FREEZE_START_MAX_MINUTES * 60_000L);
          freezeMillis[i] = uniform(Scenario.ClientKind.FREEZE_MIN_MINUTES * 60_000L,
              Scenario.ClientKind.FREEZE_MAX_MINUTES * 60_000L + 1);
        }
        case LEAVER -> patienceMillis[i] =
            s.patienceMean().isZero() ? Long.MAX_VALUE : exponential(s.patienceMean().toMillis());
        default -> {}
      }
    }
    this.state = new byte[total];
    this.kind = new byte[total];
    this.ticket = new String[total];
    this.cookieExpiresMillis = new long[total];
    this.placeTicket = new String[total];
    this.placeExpiresMillis = new long[total];
    this.placeSecond = new long[total];
    this.shownAtMillis = new long[total];
    this.queuedMillis = new long[total];
    this.firstQueuedMillis = new long[total];
    Arrays.fill(firstQueuedMillis, -1);
    this.shownWait = new long[total];
    this.shownLow = new long[total];
    this.shownHigh = new long[total];
    this.lastAhead = new long[total];
    this.browseEndMillis = new long[total];
    this.expiryMillis = new long[total];
    this.counted = new boolean[total];
    this.inverted = new boolean[total];
    this.invertedFromLine = new boolean[total];
    this.aheadGrew = new boolean[total];
    this.replayer = new int[adv.replayers()];
    this.replayTicket = new String[adv.replayers()];
    this.replayEndMillis = new long[adv.replayers()];
    this.activeAt = new int[seconds];
    this.maxActiveIn = new int[seconds];
    this.queueAt = new int[seconds];
    this.queueSeenAt = new int[seconds];
    this.admittedIn = new int[seconds];
    this.arrivedIn = new int[seconds];
    this.newestAdmittedSecondByDc = new long[s.dataCenters()];
    Arrays.fill(newestAdmittedSecondByDc, Long.MIN_VALUE);
    this.result = new Result(s, users);

    this.keys = TicketKeys.generate();
    this.codec = new TicketCodec(config.roomId(), keys);
    this.lagged = new LaggedTransport(storeClock, s.globalLag(), s.dataCenterLag());
    if (!adv.faults().isEmpty()) {
      faulty = new FaultyTransport(lagged, storeClock, START_MILLIS, adv.faults());
      transport = faulty;
    } else {
      faulty = null;
      transport = lagged;
    }
    this.nodes = new WaitingRoom[nodeCount];
    this.nodeClocks = new ManualClock[nodeCount];
    this.skewMillis = new long[nodeCount];
    long maxSkew = adv.maxSkew().toMillis();
    for (int n = 0; n < nodeCount; n++) {
      skewMillis[n] = maxSkew == 0 ? 0 : uniform(-maxSkew, maxSkew + 1);
      nodeClocks[n] = new ManualClock(Instant.ofEpochMilli(base + skewMillis[n]));
    }
  }

  /** Starts node {@code i} at internal time {@code at} (building it runs its first sync). */
  private WaitingRoom join(int i, long at) {
    storeClock.set(Instant.ofEpochMilli(base + at));
    nodeClocks[i].set(Instant.ofEpochMilli(base + at + skewMillis[i]));
    WaitingRoom room =
        WaitingRoom.builder(config, keys)
            .clock(nodeClocks[i])
            .transport(transport)
            .dataCenter("dc-" + i / s.nodesPerDataCenter())
            .nodeId("node-" + i % s.nodesPerDataCenter())
            .syncInterval(s.syncInterval())
            .failurePolicy(adv.failurePolicy())
            .backgroundSync(false)
            // Each node draws from its own generator, split from the run's seed in node order.
            .random(nodeRandom[i])
            .build();
    nodes[i] = room;
    result.syncs++;
    if (Boolean.getBoolean("sim.debugWarm")) {
      System.err.println("at=" + (at - warm) + " join n" + i + " grant=" + grantOf(room));
    }
    return room;
  }

  /** Runs one scenario. */
  public static Result run(Scenario scenario) {
    long started = System.nanoTime();
    SpikeSimulator sim = new SpikeSimulator(scenario);
    sim.simulate();
    sim.result.wallMillis = (System.nanoTime() - started) / 1_000_000;
    return sim.result;
  }

  /** Arrival times (ms) and data centers, packed as {@code millis << 8 | dc}, sorted. */
  private long[] arrivals() {
    List<Long> out = new ArrayList<>();
    double total = Arrays.stream(s.dataCenterWeights()).sum();
    for (Scenario.Wave w : s.waves()) {
      long start = w.start().toMillis();
      long length = w.length().toMillis();
      for (int i = 0; i < w.users(); i++) {
        double u = random.nextDouble();
        long millis =
            switch (w.shape()) {
              case STEP -> start + (long) (u * length);
              case RAMP -> start + (long) (Math.sqrt(u) * length);
              case BURST_SLICE, BURST_MINUTE -> {
                long period = w.shape() == Scenario.Shape.BURST_SLICE ? 10_000 : 60_000;
                long periods = Math.max(1, length / period);
                // The first second of a period, periods aligned to the room's slices and minutes.
                long first = (start + period - 1) / period * period;
                yield first + (long) (u * periods) * period + (long) (random.nextDouble() * 1000);
              }
            };
        if (millis >= s.duration().toMillis()) {
          continue;
        }
        int dc = w.onlyDataCenter();
        if (dc < 0) {
          double pick = random.nextDouble() * total;
          dc = 0;
          while (dc < s.dataCenters() - 1 && pick >= s.dataCenterWeights()[dc]) {
            pick -= s.dataCenterWeights()[dc];
            dc++;
          }
        }
        out.add(millis << 8 | dc);
      }
    }
    long[] packed = out.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(packed);
    return packed;
  }

  private long exponential(long meanMillis) {
    return (long) (-meanMillis * Math.log(1 - random.nextDouble()));
  }

  private long uniform(long fromMillis, long toMillis) {
    return fromMillis + (long) (random.nextDouble() * (toMillis - fromMillis));
  }

  private final PriorityQueue<Long> events = new PriorityQueue<>();

  private void schedule(long atMillis, int id) {
    if (atMillis < endMillis) {
      events.add(atMillis << ID_BITS | id);
    }
  }

  private int syncId(int node) {
    return total + node;
  }

  private int lockstepId() {
    return total + nodes.length;
  }

  private int replayId(int r) {
    return total + nodes.length + 1 + r;
  }

  private int cloneId() {
    return total + nodes.length + 1 + adv.replayers();
  }

  /** Node {@code n} with its clock set to the current store time plus its skew. */
  private WaitingRoom node(int n, long at) {
    nodeClocks[n].set(Instant.ofEpochMilli(base + at + skewMillis[n]));
    return java.util.Objects.requireNonNull(nodes[n], "node not started");
  }

  private void simulate() {
    for (int i = 0; i < users; i++) {
      schedule(arrivalMillis[i], i);
    }
    long quarter = s.syncInterval().toMillis() / 4;
    // Nodes join in an order that alternates data centers, so every data center has a node early.
    for (int k = 0; k < nodes.length; k++) {
      int dc = k % s.dataCenters();
      int i = dc * s.nodesPerDataCenter() + k / s.dataCenters();
      if (k == 0 || adv.coldStart()) {
        WaitingRoom room = join(i, k * joinGapMillis);
        if (!adv.lockstep()) {
          schedule(k * joinGapMillis + room.nextSyncDelay().toMillis(), syncId(i));
        }
      } else {
        schedule(k * joinGapMillis, syncId(i)); // it joins then (see the sync event)
      }
    }
    if (adv.lockstep()) {
      schedule(quarter / 2, lockstepId());
    }
    if (adv.clones() > 0) {
      cloneAtMillis = warm + adv.cloneAfter().toMillis();
      schedule(cloneAtMillis, cloneId());
    }
    int nextSample = 0;
    while (!events.isEmpty()) {
      long event = events.poll();
      long at = event >>> ID_BITS;
      int id = (int) (event & ID_MASK);
      while (nextSample < seconds && nextSample * 1000L + warm <= at) {
        if (nextSample == 0) {
          // The store figures are those of the traffic, not of the rolling start before it.
          lagged.exchanges = 0;
          lagged.bytesUp = 0;
          lagged.bytesDown = 0;
          lagged.valuesDown = 0;
          lagged.reportsDown = 0;
        }
        sample(nextSample++);
      }
      storeClock.set(Instant.ofEpochMilli(base + at));
      if (id < total) {
        request(id, at);
      } else if (id < total + nodes.length) {
        int n = id - total;
        if (nodes[n] == null) {
          // A rolling start: the node starts (and joins) now, at its turn.
          WaitingRoom joined = join(n, at);
          if (!adv.lockstep()) {
            schedule(at + Math.max(1, joined.nextSyncDelay().toMillis()), id);
          }
          continue;
        }
        WaitingRoom room = node(n, at);
        room.sync();
        result.syncs++;
        if (Boolean.getBoolean("sim.debugWarm") && at < warm + 2000) {
          System.err.println("at=" + (at - warm) + " sync n" + n + " " + room.status().roomNodes() + " nodes, grant=" + grantOf(room));
        }
        schedule(at + Math.max(1, room.nextSyncDelay().toMillis()), id);
      } else if (id == lockstepId()) {
        for (int round = 0; round < 2; round++) {
          for (int n = 0; n < nodes.length; n++) {
            if (nodes[n] != null) {
              node(n, at).sync();
              result.syncs++;
            }
          }
        }
        schedule(at + quarter, id);
      } else if (id == cloneId()) {
        startClones(at);
      } else {
        replay(id - total - nodes.length - 1, at);
      }
    }
    while (nextSample < seconds) {
      sample(nextSample++);
    }
    result.finish(this);
  }

  // ---- requests -------------------------------------------------------------------------

  /** What a page's requests got back: one decision for the page, and whether anything got in. */
  private record PageAnswer(Decision first, boolean letThrough, int admits) {}

  /**
   * Sends one page view of user {@code u}: {@code k} requests at once with the same cookies, each
   * to a random node of the user's data center. An admitted user's page view sends {@code
   * parallelRequests} (a page that fetches several things at once); a first visit is one request
   * (the browser's navigation, whose cookie the page's own fetches then carry) and so is a poll of
   * the waiting page (it fetches its status one request at a time). The responses come back in random
   * order and the browser keeps, for each cookie, the value of the last response that sets it; as
   * the HTTP adapters do, an answer that lets the request through sets the session cookie and any
   * other the place cookie. A cookie is dropped when its max-age has passed.
   */
  private PageAnswer page(int u, long at, int k) {
    if (ticket[u] != null && at >= cookieExpiresMillis[u]) {
      if (state[u] == ACTIVE && at < expiryMillis[u]) {
        result.cookieExpiredEarly++;
      }
      ticket[u] = null;
    }
    if (placeTicket[u] != null && at >= placeExpiresMillis[u]
        && !(clientKind[u] == FROZEN_KIND && state[u] == WAITING && kind[u] == HONEST)) {
      // The browser drops a cookie past its Max-Age; a frozen tab that comes back still presents
      // the one it held (its page never ran to notice), and the room decides.
      placeTicket[u] = null;
      if (state[u] == WAITING && kind[u] == HONEST) {
        result.kind(clientKind[u]).cookieExpired++;
      }
    }
    String session = ticket[u];
    String place = placeTicket[u];
    Decision[] answers = new Decision[k];
    boolean through = false;
    int admits = 0;
    for (int i = 0; i < k; i++) {
      answers[i] = decide(u, session, place, at);
      through |= answers[i].letsThrough();
      admits += answers[i].outcome() == Decision.Outcome.ADMIT ? 1 : 0;
    }
    // The responses arrive in random order; each cookie keeps the last value set.
    int[] order = new int[k];
    for (int i = 0; i < k; i++) {
      int j = random.nextInt(i + 1);
      order[i] = order[j];
      order[j] = i;
    }
    for (int i : order) {
      keepCookie(u, answers[i], at);
    }
    if (admits > 1) {
      result.duplicateAdmits += admits - 1;
    }
    return new PageAnswer(answers[0], through, admits);
  }

  private Decision decide(int u, @Nullable String session, @Nullable String place, long at) {
    int base = dataCenter[u] * s.nodesPerDataCenter();
    int pick = random.nextInt(s.nodesPerDataCenter());
    Decision d = node(base + (adv.sticky() ? u % s.nodesPerDataCenter() : pick), at).decide(session, place);
    result.decisions++;
    return d;
  }

  private void keepCookie(int u, Decision d, long at) {
    String t = d.ticket();
    if (t == null) {
      return;
    }
    if (d.letsThrough()) {
      ticket[u] = t;
      cookieExpiresMillis[u] = at + d.ticketMaxAgeSeconds() * 1000;
    } else {
      placeTicket[u] = t;
      placeExpiresMillis[u] = at + d.ticketMaxAgeSeconds() * 1000;
    }
  }

  /** The place (arrival second) of the user's current ticket, as the room wrote it. */
  private long placeSecondOf(int u, long at) {
    return arrivalSecondOf(placeTicket[u], at);
  }

  /** The arrival second of the place a ticket carries (waiting or session). */
  private long arrivalSecondOf(@Nullable String sealed, long at) {
    Ticket t = codec.open(sealed, START_EPOCH_SECOND + Math.floorDiv(at - warm, 1000));
    return t == null ? Long.MIN_VALUE : t.arrival() - START_EPOCH_SECOND;
  }

  private long placeOf(int u, long at) {
    Ticket t = codec.open(placeTicket[u], START_EPOCH_SECOND + Math.floorDiv(at - warm, 1000));
    return t == null ? Long.MIN_VALUE : t.place();
  }

  private void request(int u, long at) {
    int second = (int) ((at - warm) / 1000);
    switch (state[u]) {
      case NEW -> {
        arrivedIn[second]++;
        result.arrivalsByDc[dataCenter[u]]++;
        result.kind(clientKind[u]).arrivals++;
        lastPollMillis[u] = at;
        PageAnswer a = page(u, at, 1);
        // A newcomer let in at once holds no place ticket: its arrival second is its session's.
        placeSecond[u] = a.letThrough() ? arrivalSecondOf(ticket[u], at) : placeSecondOf(u, at);
        if (a.letThrough()) {
          admit(u, at, false);
        } else {
          queue(u, at, a.first());
          result.queued++;
          result.queuedByDc[dataCenter[u]]++;
          result.kind(clientKind[u]).queued++;
          nextPoll(u, at, a.first());
        }
      }
      case WAITING -> {
        if (at - arrivalMillis[u] >= patienceMillis[u]) {
          leaveLine(u);
          state[u] = GONE;
          result.abandoned++;
          result.abandonedByDc[dataCenter[u]]++;
          result.kind(clientKind[u]).abandoned++;
          return;
        }
        if (kind[u] == HONEST) {
          result.kind(clientKind[u]).poll(at - lastPollMillis[u]);
        }
        lastPollMillis[u] = at;
        boolean holdsClone = kind[u] == CLONE || u == cloneVictim;
        long heldPlace = holdsClone ? placeOf(u, at) : Long.MIN_VALUE;
        PageAnswer a = page(u, at, 1);
        if (a.letThrough()) {
          if (holdsClone && heldPlace == clonePlace) {
            clonePlaceAdmissions.add(at);
          }
          leaveLine(u);
          admit(u, at, true);
        } else {
          Decision d = a.first();
          if (d.outcome() == Decision.Outcome.QUEUE) {
            // The room no longer knew this ticket (or it was a copy): the user starts at the back.
            if (kind[u] == HONEST && !holdsClone) {
              result.lostPlace++;
              result.kind(clientKind[u]).lostPlace++;
            }
            leaveLine(u);
            placeSecond[u] = placeSecondOf(u, at);
            queue(u, at, d);
            kind[u] = kind[u] == CLONE || u == cloneVictim ? CLONE : kind[u];
          } else if (kind[u] == HONEST) {
            checkOrder(u, d);
            if (shownWait[u] < 0 && d.waitKnown()) {
              // The first estimate the user is told (a newcomer's is unknown until a plan
              // counted its arrival second): it is measured from now.
              shownAtMillis[u] = at;
              shownWait[u] = d.waitSeconds();
              shownLow[u] = d.waitLowSeconds();
              shownHigh[u] = d.waitHighSeconds();
            }
          }
          nextPoll(u, at, d);
        }
      }
      case ACTIVE -> {
        if (at >= browseEndMillis[u]) {
          state[u] = GONE;
          return;
        }
        PageAnswer a = page(u, at, adv.parallelRequests());
        if (a.letThrough()) {
          letThrough(u, at, false);
        } else {
          // An admitted user turned away: a defect worth counting, then treated as waiting.
          result.bounced++;
          placeSecond[u] = placeSecondOf(u, at);
          queue(u, at, a.first());
          nextPoll(u, at, a.first());
          return;
        }
        schedule(at + uniform(s.thinkMin().toMillis(), s.thinkMax().toMillis()), u);
      }
      default -> {}
    }
  }

  private void queue(int u, long at, Decision d) {
    state[u] = WAITING;
    waitingNow++;
    waitingBySecond.merge(placeSecond[u], 1, Integer::sum);
    if (pollsAsTold(u)) {
      waitingAsToldBySecond.merge(placeSecond[u], 1, Integer::sum);
      inAsTold[u] = true;
    }
    queuedMillis[u] = at;
    if (firstQueuedMillis[u] < 0) {
      firstQueuedMillis[u] = at;
    }
    shownAtMillis[u] = d.waitKnown() ? at : -1;
    shownWait[u] = d.waitSeconds();
    shownLow[u] = d.waitLowSeconds();
    shownHigh[u] = d.waitHighSeconds();
    lastAhead[u] = d.usersAhead();
  }

  private void nextPoll(int u, long at, Decision d) {
    long refresh = d.refreshSeconds() > 0 ? d.refreshSeconds() : config.refreshSeconds();
    long poll = switch (clientKind[u]) {
      case HIDDEN_KIND -> at + Scenario.ClientKind.HIDDEN_SECONDS * 1000L + uniform(0, 500);
      case API_KIND -> at + apiPeriodMillis[u];
      default -> at + refresh * 1000 + uniform(0, 500);
    };
    if (clientKind[u] == FROZEN_KIND && !froze[u] && poll >= freezeStartMillis[u] && kind[u] == HONEST) {
      // The tab freezes before its next poll and polls again (with its cookies) once it thaws.
      froze[u] = true;
      result.kind(clientKind[u]).froze++;
      poll = Math.max(poll, freezeStartMillis[u] + freezeMillis[u]);
    }
    long giveUp = patienceMillis[u] == Long.MAX_VALUE ? Long.MAX_VALUE : arrivalMillis[u] + patienceMillis[u];
    schedule(Math.min(poll, giveUp), u);
  }

  private void leaveLine(int u) {
    waitingNow--;
    waitingBySecond.compute(placeSecond[u], (b, n) -> n == null || n <= 1 ? null : n - 1);
    if (inAsTold[u]) {
      inAsTold[u] = false;
      waitingAsToldBySecond.compute(placeSecond[u], (b, n) -> n == null || n <= 1 ? null : n - 1);
    }
  }

  private boolean pollsAsTold(int u) {
    return kind[u] == HONEST && u != cloneVictim
        && (clientKind[u] == 0 || clientKind[u] == Scenario.ClientKind.LEAVER.ordinal());
  }

  /** A polling user turned away: an inversion if someone who arrived in a later second got in. */
  private void checkOrder(int u, Decision d) {
    long mine = placeSecond[u];
    if (newestAdmittedSecond > mine) {
      result.inversions++;
      boolean crossDc = false;
      for (int dc = 0; dc < newestAdmittedSecondByDc.length; dc++) {
        crossDc |= dc != dataCenter[u] && newestAdmittedSecondByDc[dc] > mine;
      }
      if (crossDc) {
        result.crossDcInversions++;
      }
      if (!inverted[u]) {
        inverted[u] = true;
        result.invertedUsers++;
      }
      if (newestFromLineSecond > mine && !invertedFromLine[u]) {
        invertedFromLine[u] = true;
        result.invertedUsersFromLine++;
        result.kind(clientKind[u]).passed++;
      }
    }
    if (d.usersAhead() > lastAhead[u]) {
      result.aheadIncreases++;
      result.maxAheadIncrease = Math.max(result.maxAheadIncrease, d.usersAhead() - lastAhead[u]);
      if (!aheadGrew[u]) {
        aheadGrew[u] = true;
        result.aheadGrewUsers++;
      }
    }
    lastAhead[u] = d.usersAhead();
  }

  private void admit(int u, long at, boolean fromLine) {
    state[u] = ACTIVE;
    if (kind[u] == HONEST) {
      result.admitted++;
      result.admittedByDc[dataCenter[u]]++;
    } else {
      result.cloneAdmitted++;
    }
    if (kind[u] == HONEST && !waitingBySecond.isEmpty() && waitingBySecond.firstKey() < placeSecond[u]) {
      result.strictInversions++;
    }
    if (kind[u] == HONEST && !fromLine && !waitingAsToldBySecond.isEmpty()
        && waitingAsToldBySecond.firstKey() < placeSecond[u]) {
      // A walk-in: let in on arrival while someone who arrived earlier waits and polls as told
      // (a page or a leaver, whose place the room knows).
      result.walkInsPassing++;
      long gap = (at - warm) / 1000 - waitingAsToldBySecond.firstKey();
      result.maxWalkInGapSeconds = Math.max(result.maxWalkInGapSeconds, gap);
    }
    if (kind[u] == HONEST) {
      KindStats ks = result.kind(clientKind[u]);
      if (fromLine) {
        ks.admittedFromLine++;
        if (newestFromLineSecond > placeSecond[u] && !lateFromLine[u] && u != cloneVictim) {
          lateFromLine[u] = true;
          ks.late++;
          result.lateFromLine++;
        }
      } else {
        ks.admittedOnArrival++;
      }
      newestAdmittedSecond = Math.max(newestAdmittedSecond, placeSecond[u]);
      if (fromLine) {
        newestFromLineSecond = Math.max(newestFromLineSecond, placeSecond[u]);
      }
      int dc = dataCenter[u];
      newestAdmittedSecondByDc[dc] = Math.max(newestAdmittedSecondByDc[dc], placeSecond[u]);
    }
    if (fromLine && kind[u] == HONEST && u != cloneVictim) {
      long waitedMillis = at - queuedMillis[u];
      result.waits.add(waitedMillis);
      result.waitsByDc.get(dataCenter[u]).add(waitedMillis);
      // Per kind, the wait the person saw: from the first time in line, over any lost place.
      result.kind(clientKind[u]).waits.add(at - firstQueuedMillis[u]);
      estimate(u, (at - estimateFrom(u)) / 1000.0);
      if (shownAtMillis[u] >= 0) {
        result.firstEstimateDelays.add(shownAtMillis[u] - queuedMillis[u]);
      }
    }
    browseEndMillis[u] = at + Math.max(10_000, exponential(s.browseMean().toMillis()));
    admissionMillis.add(at - warm);
    admittedIn[(int) ((at - warm) / 1000)]++;
    letThrough(u, at, true);
    if (replayersStarted < replayer.length && kind[u] == HONEST) {
      int r = replayersStarted++;
      replayer[r] = u;
      replayTicket[r] = ticket[u];
      replayEndMillis[r] = browseEndMillis[u];
      schedule(at + 1000 / adv.replaysPerSecond(), replayId(r));
    }
    schedule(at + uniform(s.thinkMin().toMillis(), s.thinkMax().toMillis()), u);
  }

  /** Since when a waiting user's wait counts against its estimate: when it was first told one. */
  private long estimateFrom(int u) {
    return shownAtMillis[u] >= 0 ? shownAtMillis[u] : queuedMillis[u];
  }

  private void estimate(int u, double actual) {
    if (shownWait[u] < 0) {
      result.unknownEstimates++;
      return;
    }
    double a = Math.max(actual, 1);
    result.estimateErrors.add((shownWait[u] - a) / a);
    result.kind(clientKind[u]).estimateErrors.add((shownWait[u] - a) / a);
    result.admittedEstimateErrors.add((shownWait[u] - a) / a);
    if (shownLow[u] >= 0) {
      result.rangeSample++;
      if (a >= shownLow[u] && a <= shownHigh[u] + 1) {
        result.rangeHits++;
      }
    }
  }

  /**
   * The room let user {@code u} through at {@code at}: the user counts as active for the
   * configured session duration from now (ground truth, not rounded to slices).
   */
  private void letThrough(int u, long at, boolean admission) {
    expireUpTo(at);
    if (!counted[u]) {
      counted[u] = true;
      activeNow++;
      if (!admission) {
        result.revived++; // let through after its configured session had run out
      }
    }
    expiryMillis[u] = at + sessionMillis;
    expiries.add(expiryMillis[u] << ID_BITS | u);
    noteActive(at);
  }

  private void noteActive(long at) {
    int second = (int) ((at - warm) / 1000);
    int now = activeNow + phantomActive;
    if (second >= 0 && second < seconds) {
      maxActiveIn[second] = Math.max(maxActiveIn[second], now);
    }
  }

  private void expireUpTo(long at) {
    while (!expiries.isEmpty() && (expiries.peek() >>> ID_BITS) <= at) {
      long e = expiries.poll();
      int u = (int) (e & ID_MASK);
      if (counted[u] && expiryMillis[u] == e >>> ID_BITS) {
        counted[u] = false;
        activeNow--;
      }
    }
    while (!phantomExpiries.isEmpty() && phantomExpiries.peek() <= at) {
      phantomExpiries.poll();
      phantomActive--;
    }
  }

  // ---- adversaries -----------------------------------------------------------------------

  /**
   * A replayer sends its first admitted ticket again, ignoring the answer. A replay the room lets
   * in as a new arrival (the ticket expired) counts as a user let in for a session: the room
   * served it, and its ticket would let it back.
   */
  private void replay(int r, long at) {
    int u = replayer[r];
    if (at >= replayEndMillis[r]) {
      return;
    }
    Decision d = decide(u, replayTicket[r], null, at);
    result.replays++;
    if (d.outcome() == Decision.Outcome.ADMIT) {
      result.replayAdmissions++;
      expireUpTo(at);
      phantomActive++;
      phantomExpiries.add(at + sessionMillis);
      admissionMillis.add(at - warm);
      admittedIn[(int) ((at - warm) / 1000)]++;
      noteActive(at);
    } else if (d.letsThrough()) {
      letThrough(u, at, false);
    }
    schedule(at + 1000 / adv.replaysPerSecond(), replayId(r));
  }

  /**
   * Copies the current waiting cookie of the user at the front of the line (the earliest place
   * still waiting) to the clone clients, who start polling with it; that user keeps polling too.
   */
  private void startClones(long at) {
    int v = -1;
    for (int u = 0; u < users; u++) {
      if (state[u] == WAITING && kind[u] == HONEST && placeTicket[u] != null
          && (v < 0 || placeSecond[u] < placeSecond[v])) {
        v = u;
      }
    }
    cloneVictim = v;
    if (v >= 0) {
      patienceMillis[v] = Long.MAX_VALUE;
    }
    result.cloneStartMillis = at - warm;
    if (v < 0 || state[v] != WAITING || placeTicket[v] == null) {
      result.cloneSkipped = true;
      return;
    }
    clonePlace = placeOf(v, at);
    kind[v] = HONEST;
    for (int c = users; c < total; c++) {
      kind[c] = CLONE;
      state[c] = WAITING;
      placeTicket[c] = placeTicket[v];
      placeExpiresMillis[c] = placeExpiresMillis[v];
      dataCenter[c] = (short) random.nextInt(s.dataCenters());
      arrivalMillis[c] = at;
      patienceMillis[c] = Long.MAX_VALUE;
      placeSecond[c] = placeSecond[v];
      waitingNow++;
      waitingBySecond.merge(placeSecond[c], 1, Integer::sum);
      schedule(at + uniform(0, 1000), c);
    }
  }

  // ---- sampling --------------------------------------------------------------------------

  private void sample(int second) {
    long at = second * 1000L + warm;
    expireUpTo(at);
    activeAt[second] = activeNow + phantomActive;
    maxActiveIn[second] = Math.max(maxActiveIn[second], activeAt[second]);
    queueAt[second] = waitingNow;
    queueSeenAt[second] = (int) node(0, at).status().waitingUsers();
    if (DEBUG_FROM >= 0 && second >= DEBUG_FROM && second <= DEBUG_TO) {
      StringBuilder b = new StringBuilder("t=" + second + " truth active=" + activeAt[second] + " queue=" + waitingNow);
      for (int n = 0; n < nodes.length; n++) {
        io.github.waitingroom.RoomStatus st = node(n, at).status();
        b.append(String.format(Locale.ROOT, "%n  n%d epoch=%d active=%d free=%d waiting=%d local=%d cutoff=%d nodes=%d failing=%b",
            n, st.planEpoch() == Long.MIN_VALUE ? -1 : st.planEpoch() % 100000, st.activeUsers(), st.freeSlots(),
            st.waitingUsers(), st.localActiveUsers(), st.cutoffSecond() == Long.MIN_VALUE ? -1 : st.cutoffSecond() - START_EPOCH_SECOND,
            st.roomNodes(), st.transportFailing()));
        b.append(" grant=").append(grantOf(node(n, at)));
      }
      System.err.println(b);
    }
  }

  private static String grantOf(WaitingRoom room) {
    try {
      java.lang.reflect.Field f = WaitingRoom.class.getDeclaredField("state");
      f.setAccessible(true);
      Object state = f.get(room);
      java.lang.reflect.Method g = state.getClass().getDeclaredMethod("grant");
      g.setAccessible(true);
      Object grant = g.invoke(state);
      java.lang.reflect.Method line = grant.getClass().getDeclaredMethod("outstandingPartial");
      java.lang.reflect.Method fresh = grant.getClass().getDeclaredMethod("outstandingNew");
      line.setAccessible(true);
      fresh.setAccessible(true);
      java.lang.reflect.Field plan = grant.getClass().getDeclaredField("plan");
      plan.setAccessible(true);
      return line.invoke(grant) + "/" + fresh.invoke(grant) + " " + plan.get(grant);
    } catch (ReflectiveOperationException e) {
      return e.toString();
    }
  }

  private static final int DEBUG_FROM = Integer.getInteger("sim.debugFrom", -1);
  private static final int DEBUG_TO = Integer.getInteger("sim.debugTo", -1);

  /** What one run measured; every figure from the simulator's ground truth. */
  public static final class Result {
    final Scenario scenario;
    final int users;
    long wallMillis;
    long decisions;
    long syncs;
    int queued;
    int admitted;
    int abandoned;
    int bounced;
    int lostPlace;
    int revived;
    int cookieExpiredEarly;
    long duplicateAdmits;
    long strictInversions;
    long inversions;
    long crossDcInversions;
    int invertedUsers;
    /** Users inverted by an admission from the line (not by a newcomer let in on arrival). */
    int invertedUsersFromLine;
    /** Users admitted from the line after a later arrival second had been admitted from the line. */
    int lateFromLine;
    /**
     * Walk-ins: newcomers let in on arrival while someone who arrived in an earlier second was
     * waiting and polling as told (a page or a leaver: a user whose place the room knows).
     */
    int walkInsPassing;
    /**
     * The largest gap, in seconds, between the arrival of the earliest such waiting user and a
     * walk-in's admission.
     */
    long maxWalkInGapSeconds;
    /** Figures per {@link Scenario.ClientKind}, in its order. */
    final KindStats[] byKind = new KindStats[Scenario.ClientKind.values().length];
    long aheadIncreases;
    long maxAheadIncrease;
    int aheadGrewUsers;
    int unknownEstimates;
    int rangeSample;
    int rangeHits;
    int censoredIncluded;
    int censoredExcluded;
    long replays;
    long replayAdmissions;
    int cloneAdmitted;
    long cloneStartMillis = -1;
    boolean cloneSkipped;
    int clonePlaceAdmitted;
    long clonePlaceSpanMillis;
    long storeExchanges;
    long storeBytesUp;
    long storeBytesDown;
    long storeValuesDown;
    long storeReportsDown;
    /** The longest epoch of any node at the end of the run (the sync interval, unless the store budget stretched it). */
    long epochMillis;
    long storeFailures;
    double nodeReportBytes;
    double dataCenterReportBytes;
    final DoubleList waits = new DoubleList();
    final List<DoubleList> waitsByDc = new ArrayList<>();
    final DoubleList estimateErrors = new DoubleList();
    /** The errors of {@link #estimateErrors} of users admitted from the line (no one still waiting). */
    final DoubleList admittedEstimateErrors = new DoubleList();
    /** For users admitted from the line: milliseconds from their queueing to their first estimate. */
    final DoubleList firstEstimateDelays = new DoubleList();
    final int[] arrivalsByDc;
    final int[] queuedByDc;
    final int[] admittedByDc;
    final int[] abandonedByDc;
    int[] active = new int[0];
    int[] maxActive = new int[0];
    int[] queue = new int[0];
    int[] queueSeen = new int[0];
    int[] admittedPerSecond = new int[0];
    int[] arrivedPerSecond = new int[0];
    long[] admissionTimes = new long[0];
    int peakActive;
    int secondsOverLimit;
    int peakAdmittedPerMinute;
    int peakQueue;
    int queueSeconds;
    double utilization;
    int secondsBelowTarget;

    Result(Scenario scenario, int users) {
      this.scenario = scenario;
      this.users = users;
      int dcs = scenario.dataCenters();
      arrivalsByDc = new int[dcs];
      queuedByDc = new int[dcs];
      admittedByDc = new int[dcs];
      abandonedByDc = new int[dcs];
      for (int d = 0; d < dcs; d++) {
        waitsByDc.add(new DoubleList());
      }
      for (Scenario.ClientKind k : Scenario.ClientKind.values()) {
        byKind[k.ordinal()] = new KindStats(k);
      }
    }

    KindStats kind(int ordinal) {
      return byKind[ordinal];
    }

    /** The figures of one kind of client. */
    KindStats kind(Scenario.ClientKind k) {
      return byKind[k.ordinal()];
    }

    /**
     * What must be equal in two runs of one seed: every admission's time, every wait, and the
     * counts of what happened, in one string.
     */
    String fingerprint() {
      return "admitted=" + admitted + " queued=" + queued + " abandoned=" + abandoned + " decisions=" + decisions
          + " syncs=" + syncs + " storeBytesUp=" + storeBytesUp + " peakActive=" + peakActive
          + " admissions=" + java.util.Arrays.hashCode(admissionTimes) + " waits=" + waits.size()
          + " active=" + java.util.Arrays.hashCode(active) + " byKind="
          + java.util.Arrays.stream(byKind).map(k -> k.admittedFromLine + "/" + k.lostPlace + "/" + k.polls)
              .toList();
    }

    void finish(SpikeSimulator sim) {
      active = sim.activeAt;
      maxActive = sim.maxActiveIn;
      queue = sim.queueAt;
      queueSeen = sim.queueSeenAt;
      admittedPerSecond = sim.admittedIn;
      arrivedPerSecond = sim.arrivedIn;
      admissionTimes = sim.admissionMillis.toArray();
      int total = scenario.totalActiveUsers();
      int perMinute = scenario.newUsersPerMinute();
      // Admissions in any sliding 60 s window, at millisecond resolution.
      for (int i = 0, j = 0; i < admissionTimes.length; i++) {
        while (admissionTimes[i] - admissionTimes[j] >= 60_000) {
          j++;
        }
        peakAdmittedPerMinute = Math.max(peakAdmittedPerMinute, i - j + 1);
      }
      double sum = 0;
      for (int t = 0; t < active.length; t++) {
        peakActive = Math.max(peakActive, maxActive[t]);
        if (maxActive[t] > total) {
          secondsOverLimit++;
        }
        peakQueue = Math.max(peakQueue, queue[t]);
        if (queue[t] > 0) {
          // Active clipped at the limit: a second over the limit is full use, never more.
          double u = Math.max(
              Math.min(active[t], total) / (double) total,
              Math.min(admittedLastMinute(t), perMinute) / (double) perMinute);
          sum += u;
          queueSeconds++;
          if (u < 0.97) {
            secondsBelowTarget++;
          }
        }
      }
      utilization = queueSeconds == 0 ? Double.NaN : sum / queueSeconds;
      // Users still waiting at the end: their wait so far is a lower bound of their real wait.
      // Those whose shown estimate has already run out are in the sample (their error is at least
      // that large); those whose estimate has not run out yet are left out and counted.
      long end = sim.endMillis;
      for (int u = 0; u < sim.users; u++) {
        if (sim.state[u] == WAITING && sim.kind[u] == HONEST) {
          byKind[sim.clientKind[u]].stillWaiting++;
        }
        if (sim.state[u] == WAITING && sim.kind[u] == HONEST && u != sim.cloneVictim) {
          double waited = (end - sim.estimateFrom(u)) / 1000.0;
          if (sim.shownWait[u] >= 0 && waited > sim.shownWait[u]) {
            estimateErrors.add((sim.shownWait[u] - waited) / waited);
            censoredIncluded++;
          } else {
            censoredExcluded++;
          }
        }
      }
      clonePlaceAdmitted = sim.clonePlaceAdmissions.size();
      if (clonePlaceAdmitted > 0) {
        clonePlaceSpanMillis = (long) (sim.clonePlaceAdmissions.max() - sim.clonePlaceAdmissions.min());
      }
      storeExchanges = sim.lagged.exchanges;
      storeBytesUp = sim.lagged.bytesUp;
      storeBytesDown = sim.lagged.bytesDown;
      storeValuesDown = sim.lagged.valuesDown;
      storeReportsDown = sim.lagged.reportsDown;
      for (WaitingRoom n : sim.nodes) {
        if (n != null) {
          epochMillis = Math.max(epochMillis, n.status().epochMillis());
        }
      }
      storeFailures = sim.faulty == null ? 0 : sim.faulty.failures;
      nodeReportBytes = sim.lagged.published[0] == 0 ? 0 : sim.lagged.publishedBytes[0] / (double) sim.lagged.published[0];
      dataCenterReportBytes =
          sim.lagged.published[1] == 0 ? 0 : sim.lagged.publishedBytes[1] / (double) sim.lagged.published[1];
    }

    /** Admissions in the 60 s ending at the start of second {@code t} (ms resolution). */
    int admittedLastMinute(int t) {
      long to = t * 1000L;
      int hi = upper(admissionTimes, to);
      int lo = upper(admissionTimes, to - 60_000);
      return hi - lo;
    }

    /** Index of the first value greater than {@code v}. */
    private static int upper(long[] sorted, long v) {
      int lo = 0;
      int hi = sorted.length;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (sorted[mid] <= v) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }

    double peakActiveRatio() {
      return peakActive / (double) scenario.totalActiveUsers();
    }

    double peakPerMinuteRatio() {
      return peakAdmittedPerMinute / (double) scenario.newUsersPerMinute();
    }

    double medianAbsError() {
      return estimateErrors.absQuantile(0.5);
    }

    double rangeHitRate() {
      return rangeSample == 0 ? Double.NaN : rangeHits / (double) rangeSample;
    }

    double virtualSeconds() {
      return scenario.duration().toMillis() / 1000.0;
    }

    String line() {
      return String.format(
          Locale.ROOT,
          "%s: %d arrivals, %d queued, %d admitted, %d abandoned; peak active %d / %d (%.3fx, %d s over),"
              + " peak admitted in 60 s %d / %d (%.3fx), utilization while queued %.1f%% over %d s (%d s below 97%%),"
              + " FIFO inversions %d (users %d, by admissions from the line %d, cross-DC %d; strict %d), ahead grew %d times (users %d, max +%d),"
              + " wait estimate |error| p50 %.1f%% p90 %.1f%% (signed p50 %+.1f%%, unknown %d, sample %d incl. %d"
              + " still waiting, %d left out; first estimate after p50 %.1f s p90 %.1f s), 25-75 range hit %.1f%%, bounced %d, lost place %d, revived %d,"
              + " cookie expired early %d, duplicate admits %d, replays %d (admitted %d), clones admitted %d"
              + " (cloned place %d within %d ms); %d decisions, %d syncs, store %d exchanges (%d failed) in %.1f s",
          scenario.name(), users, queued, admitted, abandoned, peakActive, scenario.totalActiveUsers(),
          peakActiveRatio(), secondsOverLimit, peakAdmittedPerMinute, scenario.newUsersPerMinute(),
          peakPerMinuteRatio(), utilization * 100, queueSeconds, secondsBelowTarget, inversions, invertedUsers,
          invertedUsersFromLine, crossDcInversions, strictInversions, aheadIncreases, aheadGrewUsers, maxAheadIncrease,
          medianAbsError() * 100, estimateErrors.absQuantile(0.9) * 100, estimateErrors.quantile(0.5) * 100,
          unknownEstimates, estimateErrors.size(), censoredIncluded, censoredExcluded,
          firstEstimateDelays.quantile(0.5) / 1000, firstEstimateDelays.quantile(0.9) / 1000, rangeHitRate() * 100,
          bounced, lostPlace, revived, cookieExpiredEarly, duplicateAdmits, replays, replayAdmissions,
          cloneAdmitted, clonePlaceAdmitted, clonePlaceSpanMillis, decisions, syncs, storeExchanges,
          storeFailures, wallMillis / 1000.0)
          + String.format(Locale.ROOT, "; admitted from the line after a later arrival %d, walk-ins passing a waiting user %d"
              + " (largest gap %d s)", lateFromLine, walkInsPassing, maxWalkInGapSeconds)
          + Arrays.stream(byKind).filter(k -> k.arrivals > 0).map(k -> "\n    " + k.line()).reduce("", String::concat);
    }
  }

  /** What one run measured of one kind of client. */
  static final class KindStats {
    final Scenario.ClientKind kind;
    int arrivals;
    int admittedOnArrival;
    int queued;
    int admittedFromLine;
    int abandoned;
    int stillWaiting;
    /** Waiting users the room put at the back of the line (it did not know their place any more). */
    int lostPlace;
    /** Waiting users whose place cookie the client dropped because its Max-Age had passed. */
    int cookieExpired;
    /** Users turned away while a later arrival second had been admitted from the line. */
    int passed;
    /** Users admitted from the line after a later arrival second had been admitted from the line. */
    int late;
    /** Frozen tabs that went silent (the others were let in or left before their freeze). */
    int froze;
    long polls;
    long minPollGapMillis = Long.MAX_VALUE;
    long maxPollGapMillis;
    /** Waits of users admitted from the line, from when they were first put in line (over any lost place). */
    final DoubleList waits = new DoubleList();
    final DoubleList estimateErrors = new DoubleList();

    KindStats(Scenario.ClientKind kind) {
      this.kind = kind;
    }

    void poll(long gapMillis) {
      polls++;
      minPollGapMillis = Math.min(minPollGapMillis, gapMillis);
      maxPollGapMillis = Math.max(maxPollGapMillis, gapMillis);
    }

    /** One line of the kind's figures. */
    String line() {
      return String.format(Locale.ROOT,
          "%s: %d arrivals, %d admitted on arrival, %d queued, %d admitted from the line (wait p50 %.0f s p90 %.0f s),"
              + " %d left, %d still waiting, %d lost place (%d cookies expired), %d passed, %d admitted after a later"
              + " arrival, %d froze; %d polls every %.1f-%.1f s",
          kind.label(), arrivals, admittedOnArrival, queued, admittedFromLine, waits.quantile(0.5) / 1000,
          waits.quantile(0.9) / 1000, abandoned, stillWaiting, lostPlace, cookieExpired, passed, late, froze, polls,
          polls == 0 ? Double.NaN : minPollGapMillis / 1000.0, maxPollGapMillis / 1000.0);
    }
  }

  /** A growable list of doubles. */
  static final class DoubleList {
    private double[] values = new double[16];
    private int size;

    void add(double v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = v;
    }

    int size() {
      return size;
    }

    double min() {
      return Arrays.stream(values, 0, size).min().orElse(Double.NaN);
    }

    double max() {
      return Arrays.stream(values, 0, size).max().orElse(Double.NaN);
    }

    double quantile(double q) {
      return quantileOf(Arrays.copyOf(values, size), q);
    }

    double absQuantile(double q) {
      double[] abs = new double[size];
      for (int i = 0; i < size; i++) {
        abs[i] = Math.abs(values[i]);
      }
      return quantileOf(abs, q);
    }

    private static double quantileOf(double[] v, double q) {
      if (v.length == 0) {
        return Double.NaN;
      }
      Arrays.sort(v);
      return v[(int) Math.min(v.length - 1, Math.max(0, Math.ceil(q * v.length) - 1))];
    }
  }

  /** A growable list of longs. */
  static final class LongList {
    private long[] values = new long[16];
    private int size;

    void add(long v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = v;
    }

    int size() {
      return size;
    }

    long last() {
      return values[size - 1];
    }

    long[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }

  /**
   * Runs scenarios (the standard ones when none is named; {@code hostile} for the adversarial
   * set) and writes, per scenario, a directory {@code <name>/} with {@code series.csv} (per
   * second), {@code dc.csv} (per data center), {@code kinds.csv} (per client kind) and {@code
   * summary.json} (and {@code chart.png} with {@code --chart}), plus {@code summary.md} (named after
   * the variant options when there are any, e.g. {@code summary--no-lag.md}) for all of them. With
   * {@code --all}, every named scenario (or the ones given) and one Markdown table of them, {@code
   * table.md}. With {@code --seeds=A..B}, one scenario over seeds A to B: every seed whose peak
   * active or peak per minute exceeds the limit is printed, so that it can be replayed with {@code
   * --seed=N}.
   */
  public static void main(String[] args) {
    System.setProperty("java.awt.headless", "true");
    int code = new picocli.CommandLine(new Cli()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** The command line of {@link #main}. */
  @picocli.CommandLine.Command(
      name = "SpikeSimulator",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      description = "Drives the real core through traffic spikes, hostile conditions and client mixes in virtual time.")
  static final class Cli implements java.util.concurrent.Callable<Integer> {
    @picocli.CommandLine.Parameters(paramLabel = "SCENARIO",
        description = "scenarios to run (default: one-node dc5x4 flash20x5; 'hostile' for the adversarial set);"
            + " known: ${COMPLETION-CANDIDATES}",
        completionCandidates = Names.class)
    List<String> names = new ArrayList<>();

    @picocli.CommandLine.Option(names = "--out", paramLabel = "DIR", description = "output directory (default target/sim)")
    Path out = Path.of("target", "sim");

    @picocli.CommandLine.Option(names = "--chart", description = "also write chart.png per scenario")
    boolean chart;

    @picocli.CommandLine.Option(names = "--all",
        description = "run every named scenario (or those given) and write DIR/table.md, one row per scenario")
    boolean all;

    @picocli.CommandLine.Option(names = "--seeds", paramLabel = "A..B",
        description = "run the one scenario given over seeds A to B and print every seed that breaches a limit")
    @Nullable String seeds;

    @picocli.CommandLine.Option(names = "--threads", paramLabel = "N",
        description = "with --seeds: runs at once (each run is single-threaded and deterministic; default 1)")
    int threads = 1;

    @picocli.CommandLine.Option(names = "--seed", paramLabel = "N", description = "run the scenarios with this seed")
    @Nullable Long seed;

    @picocli.CommandLine.Option(names = "--minutes", paramLabel = "N", description = "cut the scenarios to their first N minutes")
    @Nullable Integer minutes;

    @picocli.CommandLine.Option(names = "--sync", paramLabel = "MILLIS", description = "another epoch length")
    @Nullable Long syncMillis;

    @picocli.CommandLine.Option(names = "--mix", paramLabel = "MIX",
        description = "another client mix: 'default', 'legacy' (every user a page that gives up, as before client kinds)"
            + " or five shares page,hidden,frozen,api,leaver that sum to 1")
    @Nullable String mix;

    @picocli.CommandLine.Option(names = "--no-lag", description = "no propagation lag")
    boolean noLag;

    @picocli.CommandLine.Option(names = "--patient", description = "nobody gives up")
    boolean patient;

    @picocli.CommandLine.Option(names = "--one-dc", description = "all nodes in one data center")
    boolean oneDc;

    @picocli.CommandLine.Option(names = "--lockstep", description = "every node syncs at the same instants")
    boolean lockstep;

    @picocli.CommandLine.Option(names = "--cold-start", description = "every node starts with the traffic")
    boolean coldStart;

    @picocli.CommandLine.Option(names = "--sticky", description = "sticky load balancing")
    boolean sticky;

    /** The scenario names, for the help. */
    static final class Names implements Iterable<String> {
      @Override
      public java.util.Iterator<String> iterator() {
        List<String> n = new ArrayList<>(Scenario.names());
        n.add("hostile");
        n.add("tiny-one-node");
        return n.iterator();
      }
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
      List<Scenario> scenarios = new ArrayList<>();
      for (String n : names) {
        if (n.equals("hostile")) {
          scenarios.addAll(Scenario.adversarial());
        } else {
          scenarios.add(Scenario.named(n));
        }
      }
      if (scenarios.isEmpty()) {
        if (all) {
          Scenario.names().forEach(n -> scenarios.add(Scenario.named(n)));
        } else {
          scenarios.addAll(Scenario.standard());
        }
      }
      StringBuilder suffix = new StringBuilder();
      scenarios.replaceAll(sc -> variant(sc, suffix));
      if (seeds != null) {
        if (scenarios.size() != 1) {
          throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "--seeds runs exactly one scenario");
        }
        return seeds(scenarios.get(0));
      }
      Files.createDirectories(out);
      List<Result> results = new ArrayList<>();
      List<String> failures = new ArrayList<>();
      for (Scenario scenario : scenarios) {
        System.out.println("running " + scenario.name() + ": " + scenario.description());
        Result r;
        try {
          r = run(scenario);
        } catch (RuntimeException e) {
          if (!all) {
            throw e;
          }
          // In a table, a scenario the core refuses is a row, not the end of the run.
          System.out.println(scenario.name() + " failed: " + e);
          failures.add(scenario.name() + ": " + e);
          continue;
        }
        results.add(r);
        System.out.println(r.line());
        SimReport.write(out, r, chart);
        if (all) {
          // After every scenario, so that a long run cut short still leaves the rows it has.
          SimReport.table(out.resolve("table" + suffix + ".md"), results, failures);
        }
      }
      SimReport.summary(out.resolve("summary" + suffix + ".md"), results);
      if (all) {
        SimReport.table(out.resolve("table" + suffix + ".md"), results, failures);
      }
      System.out.println("wrote " + out.toAbsolutePath());
      return 0;
    }

    private Scenario variant(Scenario sc, StringBuilder suffix) {
      boolean first = suffix.length() == 0;
      StringBuilder sfx = new StringBuilder();
      if (seed != null) {
        sc = sc.withSeed(seed);
        sfx.append("--seed=").append(seed);
      }
      if (minutes != null) {
        sc = sc.truncated(minutes);
        sfx.append("--minutes=").append(minutes);
      }
      if (syncMillis != null) {
        sc = sc.withSyncInterval(Duration.ofMillis(syncMillis));
        sfx.append("--sync=").append(syncMillis);
      }
      if (mix != null) {
        sc = sc.withClientMix(mix(mix), "mix-" + mix.replace(',', '-'));
        sfx.append("--mix=").append(mix.replace(',', '-'));
      }
      if (noLag) {
        sc = sc.withoutLag();
        sfx.append("--no-lag");
      }
      if (patient) {
        sc = sc.withoutAbandoning();
        sfx.append("--patient");
      }
      if (oneDc) {
        sc = sc.inOneDataCenter();
        sfx.append("--one-dc");
      }
      if (lockstep) {
        sc = sc.inLockstep();
        sfx.append("--lockstep");
      }
      if (coldStart) {
        sc = sc.withColdStart();
        sfx.append("--cold-start");
      }
      if (sticky) {
        sc = sc.withSticky();
        sfx.append("--sticky");
      }
      if (first) {
        suffix.append(sfx);
      }
      return sc;
    }

    static Scenario.ClientMix mix(String m) {
      return switch (m) {
        case "default" -> Scenario.ClientMix.DEFAULT;
        case "legacy" -> Scenario.ClientMix.LEAVERS_ONLY;
        default -> {
          String[] p = m.split(",", -1);
          if (p.length != 5) {
            throw new IllegalArgumentException("--mix takes 'default', 'legacy' or five shares page,hidden,frozen,api,leaver: " + m);
          }
          yield new Scenario.ClientMix(Double.parseDouble(p[0]), Double.parseDouble(p[1]), Double.parseDouble(p[2]),
              Double.parseDouble(p[3]), Double.parseDouble(p[4]));
        }
      };
    }

    /** Runs {@code sc} over the seeds; prints each breach and a summary line; 0 if none breached. */
    private int seeds(Scenario sc) throws InterruptedException {
      String spec = java.util.Objects.requireNonNull(seeds);
      int dots = spec.indexOf("..");
      long from = Long.parseLong(dots < 0 ? spec : spec.substring(0, dots));
      long to = dots < 0 ? from : Long.parseLong(spec.substring(dots + 2));
      int count = (int) (to - from + 1);
      String[] breach = new String[count];
      String[] fingerprint = new String[count];
      java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
      long started = System.nanoTime();
      Runnable worker = () -> {
        for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
          Result r = run(sc.withSeed(from + i));
          fingerprint[i] = r.fingerprint();
          if (r.peakActive > sc.totalActiveUsers() || r.peakAdmittedPerMinute > sc.newUsersPerMinute()) {
            breach[i] = String.format(Locale.ROOT, "seed %d: peak active %d / %d, peak per minute %d / %d (replay: --seed=%d %s)",
                from + i, r.peakActive, sc.totalActiveUsers(), r.peakAdmittedPerMinute, sc.newUsersPerMinute(), from + i,
                names.isEmpty() ? sc.name() : names.get(0));
            System.out.println(breach[i]);
          }
          int d = done.incrementAndGet();
          if (d % 50 == 0) {
            System.err.printf(Locale.ROOT, "%d of %d seeds in %.0f s%n", d, count, (System.nanoTime() - started) / 1e9);
          }
        }
      };
      List<Thread> pool = new ArrayList<>();
      for (int t = 0; t < Math.max(1, threads); t++) {
        Thread th = new Thread(worker, "seeds-" + t);
        th.start();
        pool.add(th);
      }
      for (Thread th : pool) {
        th.join();
      }
      List<Long> bad = new ArrayList<>();
      int runs = 1;
      for (int i = 0; i < count; i++) {
        runs = 31 * runs + fingerprint[i].hashCode();
        if (breach[i] != null) {
          bad.add(from + i);
        }
      }
      // The hash of every run's fingerprint: the same for the same seeds, whatever the threads.
      System.out.printf(Locale.ROOT, "%s: seeds %d..%d, %d runs, %d with a limit breached%s; runs' fingerprint %08x (%.0f s)%n",
          sc.name(), from, to, count, bad.size(), bad.isEmpty() ? "" : ": " + bad, runs,
          (System.nanoTime() - started) / 1e9);
      return bad.isEmpty() ? 0 : 1;
    }
  }
}
