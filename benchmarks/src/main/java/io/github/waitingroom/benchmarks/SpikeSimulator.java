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
import java.time.Instant;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeMap;
import io.github.waitingroom.simulation.ActiveUsers;
import io.github.waitingroom.simulation.CookieJar;
import io.github.waitingroom.simulation.DoubleList;
import io.github.waitingroom.simulation.EventQueue;
import io.github.waitingroom.simulation.LongList;
import io.github.waitingroom.simulation.VirtualNodes;
import org.jspecify.annotations.Nullable;

/**
 * Drives the real core through traffic spikes and hostile conditions in virtual time, on the
 * harness of {@code waitingroom-simulation} that the capacity planner runs on too (its {@link
 * EventQueue}, {@link ActiveUsers}, {@link CookieJar} and {@link VirtualNodes}). Every node is a
 * real {@link WaitingRoom} (built with {@code backgroundSync(false)}, on its own {@link
 * ManualClock} that may be skewed) whose {@link WaitingRoom#sync()} the simulator calls whenever
 * that node's own {@link WaitingRoom#nextSyncDelay()} asks (four times per epoch, jittered), over a
 * {@link LaggedTransport} that delays what nodes see of each other (and a {@link FaultyTransport}
 * when the scenario has store faults). The store's clock is the lagged store's {@code
 * InMemoryTransport} clock, the simulator's master clock. Every simulated client carries the real
 * sealed ticket the room gave it and honours each {@link Decision}'s {@code ticketMaxAgeSeconds};
 * how it honours {@code refreshSeconds} depends on its {@link ClientKind} (pages poll as
 * told, hidden tabs once a minute, API clients at their own pace, frozen tabs go silent once for
 * minutes and come back with their old cookies, leavers give up), drawn from the scenario's {@link
 * ClientMix}. The room's own settings (refresh interval, waiting timeout) stay those of
 * the scenario whatever the mix.
 *
 * <p>The simulator keeps its own per-user ground truth, independent of the room's counters, and
 * measures the room against it (see {@link SimResult}). It writes, per scenario, a directory with a
 * per-second CSV, a per-DC CSV and {@code summary.json} ({@link SimReport}); the command line is
 * {@link SpikeCli}, the arrivals {@link SpikeArrivals}.
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
  private static final long ID_MASK = EventQueue.MAX_ID;

  static final byte NEW = 0;
  static final byte WAITING = 1;
  static final byte ACTIVE = 2;
  static final byte GONE = 3;

  // The ordinals of ClientKind, as constants for switches (checked below).
  private static final byte HIDDEN_KIND = 1;
  private static final byte FROZEN_KIND = 2;
  private static final byte API_KIND = 3;

  static {
    if (ClientKind.HIDDEN.ordinal() != HIDDEN_KIND || ClientKind.FROZEN.ordinal() != FROZEN_KIND
        || ClientKind.API.ordinal() != API_KIND) {
      throw new AssertionError("ClientKind's order changed");
    }
  }

  static final byte HONEST = 0;
  static final byte CLONE = 1;

  private final Scenario s;
  private final Adversity adv;
  private final RoomConfig config;
  private final ManualClock storeClock;
  private final ManualClock[] nodeClocks;
  private final long[] skewMillis;
  final @Nullable WaitingRoom[] nodes;
  private final TicketCodec codec;
  final LaggedTransport lagged;
  final @Nullable FaultyTransport faulty;
  private final SplittableRandom random;
  /** Every random choice of each node (tie-breaks, draws, sync jitter), from the run's seed. */
  private final SplittableRandom[] nodeRandom;
  final long endMillis;
  /** Internal time 0 is {@code base}; the run (traffic, statistics) starts at internal {@code warm}. */
  private final long warm;
  private final long base;
  private final long joinGapMillis;
  private final KeysetHandle keys;
  private final Transport transport;
  private final long sessionMillis;

  // Users (struct of arrays, indexed by user id: arrivals in order, then clones).
  final int users;
  private final int total;
  private final long[] arrivalMillis;
  private final short[] dataCenter;
  private final long[] patienceMillis;
  final byte[] state;
  final byte[] kind;
  /** Each user's session cookie and the one that holds its place in line (as the Gate keeps them). */
  private final CookieJar cookies;
  private final long[] placeSecond;
  /** When each waiting user was first told a wait estimate (-1 while it is unknown). */
  private final long[] shownAtMillis;
  private final long[] queuedMillis;
  /** When each user was first put in line (a user the room put at the back keeps it), or -1. */
  private final long[] firstQueuedMillis;
  final long[] shownWait;
  private final long[] shownLow;
  private final long[] shownHigh;
  private final long[] lastAhead;
  private final long[] browseEndMillis;
  private final boolean[] inverted;
  private final boolean[] invertedFromLine;
  private final boolean[] aheadGrew;
  /** Each user's {@link ClientKind} (its ordinal). */
  final byte[] clientKind;
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
  int cloneVictim = -1;
  private long cloneAtMillis = Long.MAX_VALUE;
  private long clonePlace = Long.MIN_VALUE;
  final DoubleList clonePlaceAdmissions = new DoubleList();

  // Ground truth over time.
  private final int seconds;
  final int[] activeAt;
  final int[] maxActiveIn;
  final int[] queueAt;
  final int[] queueSeenAt;
  final int[] admittedIn;
  final int[] arrivedIn;
  final LongList admissionMillis = new LongList();
  /** Who is really active (ground truth), each for a session from its last request let through. */
  private final ActiveUsers active;
  /** Replays the room let in as new arrivals: each counts as active for a session. */
  private int phantomActive;
  private final java.util.PriorityQueue<Long> phantomExpiries = new java.util.PriorityQueue<>();
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

  private final SimResult result;

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

    long[] arrivals = SpikeArrivals.draw(s, random);
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
      ClientKind k = s.clientMix().pick(random.nextDouble());
      clientKind[i] = (byte) k.ordinal();
      switch (k) {
        case API -> apiPeriodMillis[i] =
            uniform(ClientKind.API_MIN_SECONDS * 1000L, ClientKind.API_MAX_SECONDS * 1000L + 1);
        case FROZEN -> {
          freezeStartMillis[i] = arrivalMillis[i] + uniform(0, ClientKind.FREEZE_START_MAX_MINUTES * 60_000L);
          freezeMillis[i] = uniform(ClientKind.FREEZE_MIN_MINUTES * 60_000L,
              ClientKind.FREEZE_MAX_MINUTES * 60_000L + 1);
        }
        case LEAVER -> patienceMillis[i] =
            s.patienceMean().isZero() ? Long.MAX_VALUE : exponential(s.patienceMean().toMillis());
        default -> {}
      }
    }
    this.state = new byte[total];
    this.kind = new byte[total];
    this.cookies = new CookieJar(total);
    this.active = new ActiveUsers(total, sessionMillis, 0);
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
    this.result = new SimResult(s, users);

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
        // Each node draws from its own generator, split from the run's seed in node order.
        VirtualNodes.builder(config, keys, nodeClocks[i], transport, nodeRandom[i])
            .dataCenter("dc-" + i / s.nodesPerDataCenter())
            .nodeId("node-" + i % s.nodesPerDataCenter())
            .syncInterval(s.syncInterval())
            .failurePolicy(adv.failurePolicy())
            .build();
    nodes[i] = room;
    result.syncs++;
    if (Boolean.getBoolean("sim.debugWarm")) {
      System.err.println("at=" + (at - warm) + " join n" + i + " grant=" + SimDebug.grantOf(room));
    }
    return room;
  }

  /** Runs one scenario. */
  public static SimResult run(Scenario scenario) {
    long started = System.nanoTime();
    SpikeSimulator sim = new SpikeSimulator(scenario);
    sim.simulate();
    sim.result.wallMillis = (System.nanoTime() - started) / 1_000_000;
    return sim.result;
  }

  /** Arrival times (ms) and data centers, packed as {@code millis << 8 | dc}, sorted. */
  private long exponential(long meanMillis) {
    return (long) (-meanMillis * Math.log(1 - random.nextDouble()));
  }

  private long uniform(long fromMillis, long toMillis) {
    return fromMillis + (long) (random.nextDouble() * (toMillis - fromMillis));
  }

  private final EventQueue events = new EventQueue();

  private void schedule(long atMillis, int id) {
    if (atMillis < endMillis) {
      events.schedule(atMillis, id);
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
      int id = events.poll();
      long at = events.time();
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
          System.err.println("at=" + (at - warm) + " sync n" + n + " " + room.status().roomNodes() + " nodes, grant=" + SimDebug.grantOf(room));
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
    if (cookies.sessionExpired(u, at)) {
      if (state[u] == ACTIVE && at < active.expiry(u)) {
        result.cookieExpiredEarly++;
      }
      cookies.dropSession(u);
    }
    if (cookies.placeExpired(u, at)
        && !(clientKind[u] == FROZEN_KIND && state[u] == WAITING && kind[u] == HONEST)) {
      // The browser drops a cookie past its Max-Age; a frozen tab that comes back still presents
      // the one it held (its page never ran to notice), and the room decides.
      cookies.dropPlace(u);
      if (state[u] == WAITING && kind[u] == HONEST) {
        result.kind(clientKind[u]).cookieExpired++;
      }
    }
    String session = cookies.session(u);
    String place = cookies.place(u);
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
    cookies.keep(u, d, at);
  }

  /** The place (arrival second) of the user's current ticket, as the room wrote it. */
  private long placeSecondOf(int u, long at) {
    return arrivalSecondOf(cookies.place(u), at);
  }

  /** The arrival second of the place a ticket carries (waiting or session). */
  private long arrivalSecondOf(@Nullable String sealed, long at) {
    Ticket t = codec.open(sealed, START_EPOCH_SECOND + Math.floorDiv(at - warm, 1000));
    return t == null ? Long.MIN_VALUE : t.arrival() - START_EPOCH_SECOND;
  }

  private long placeOf(int u, long at) {
    Ticket t = codec.open(cookies.place(u), START_EPOCH_SECOND + Math.floorDiv(at - warm, 1000));
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
        placeSecond[u] = a.letThrough() ? arrivalSecondOf(cookies.session(u), at) : placeSecondOf(u, at);
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
      case HIDDEN_KIND -> at + ClientKind.HIDDEN_SECONDS * 1000L + uniform(0, 500);
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
        && (clientKind[u] == 0 || clientKind[u] == ClientKind.LEAVER.ordinal());
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
      replayTicket[r] = cookies.session(u);
      replayEndMillis[r] = browseEndMillis[u];
      schedule(at + 1000 / adv.replaysPerSecond(), replayId(r));
    }
    schedule(at + uniform(s.thinkMin().toMillis(), s.thinkMax().toMillis()), u);
  }

  /** Since when a waiting user's wait counts against its estimate: when it was first told one. */
  long estimateFrom(int u) {
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
    if (active.touch(u, at) && !admission) {
      result.revived++; // let through after its configured session had run out
    }
    noteActive(at);
  }

  private void noteActive(long at) {
    int second = (int) ((at - warm) / 1000);
    int now = active.count() + phantomActive;
    if (second >= 0 && second < seconds) {
      maxActiveIn[second] = Math.max(maxActiveIn[second], now);
    }
  }

  private void expireUpTo(long at) {
    active.expireUpTo(at);
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
      if (state[u] == WAITING && kind[u] == HONEST && cookies.place(u) != null
          && (v < 0 || placeSecond[u] < placeSecond[v])) {
        v = u;
      }
    }
    cloneVictim = v;
    if (v >= 0) {
      patienceMillis[v] = Long.MAX_VALUE;
    }
    result.cloneStartMillis = at - warm;
    if (v < 0 || state[v] != WAITING || cookies.place(v) == null) {
      result.cloneSkipped = true;
      return;
    }
    clonePlace = placeOf(v, at);
    kind[v] = HONEST;
    for (int c = users; c < total; c++) {
      kind[c] = CLONE;
      state[c] = WAITING;
      cookies.copyPlace(v, c);
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
    activeAt[second] = active.count() + phantomActive;
    maxActiveIn[second] = Math.max(maxActiveIn[second], activeAt[second]);
    queueAt[second] = waitingNow;
    queueSeenAt[second] = (int) node(0, at).status().waitingUsers();
    if (SimDebug.showsSecond(second)) {
      SimDebug.printSecond(second, activeAt[second], waitingNow, nodes.length, n -> node(n, at));
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
    int code = new picocli.CommandLine(new SpikeCli()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }
}
