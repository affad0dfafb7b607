package io.github.waitingroom.benchmarks;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.Decision;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketCodec;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import java.time.Instant;
import java.util.SplittableRandom;
import io.github.waitingroom.simulation.ActiveUsers;
import io.github.waitingroom.simulation.CookieJar;
import io.github.waitingroom.simulation.EventQueue;
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
 * <p>The simulator keeps its own per-user ground truth ({@link SimGroundTruth}), independent of the
 * room's counters, and measures the room against it (see {@link SimResult}). This class runs the
 * nodes and the event loop; the users are {@link SimUsers}, how they behave {@link SimClients} (and
 * the hostile ones {@link SimAdversaries}), the arrivals {@link SpikeArrivals} and the named
 * scenarios {@link Scenarios}. It writes, per scenario, a directory with a per-second CSV, a per-DC
 * CSV and {@code summary.json} ({@link SimReport}); the command line is {@link SpikeCli}.
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
 * (store load: 2 x 5, 10 x 10 and 20 x 50 nodes; {@code load<D>x<N>} for D data centers of N
 * nodes), {@code smoke} and {@code tiny-one-node} (the one-node run of the tests).
 */
public final class SpikeSimulator {
  /** Virtual start: a round hour, so minutes and slices line up with the run's seconds. */
  static final long START_EPOCH_SECOND = Instant.parse("2026-11-30T10:00:00Z").getEpochSecond();

  private static final long START_MILLIS = START_EPOCH_SECOND * 1000;
  private static final long ID_MASK = EventQueue.MAX_ID;

  final Scenario scenario;
  private final Adversity adv;
  private final RoomConfig config;
  private final ManualClock storeClock;
  private final ManualClock[] nodeClocks;
  private final long[] skewMillis;
  final @Nullable WaitingRoom[] nodes;
  final LaggedTransport lagged;
  final @Nullable FaultyTransport faulty;
  /** Every random choice of the traffic (arrivals, kinds, nodes, pauses), from the run's seed. */
  final SplittableRandom random;
  /** Every random choice of each node (tie-breaks, draws, sync jitter), from the run's seed. */
  private final SplittableRandom[] nodeRandom;
  final long endMillis;
  /** Internal time 0 is {@code base}; the run (traffic, statistics) starts at internal {@code warm}. */
  final long warm;
  private final long base;
  private final long joinGapMillis;
  private final KeysetHandle keys;
  private final Transport transport;
  private final int seconds;
  private final EventQueue events = new EventQueue();

  final SimUsers users;
  /** The application behind the room, or {@code null} (see {@link SimOrigin}). */
  final SimOrigin.@Nullable Run origin;
  /** The limit of active users in force on the first node, by second (with an origin only). */
  final int[] limitAt;
  final SimResult result;
  final SimGroundTruth truth;
  final SimClients clients;

  private SpikeSimulator(Scenario s, @Nullable SimOrigin o) {
    this.scenario = s;
    this.adv = s.adversity();
    this.random = new SplittableRandom(s.seed());
    SplittableRandom nodeSeeds = new SplittableRandom(s.seed() ^ 0x5DEECE66DL);
    this.nodeRandom = new SplittableRandom[s.dataCenters() * s.nodesPerDataCenter()];
    for (int n = 0; n < nodeRandom.length; n++) {
      nodeRandom[n] = nodeSeeds.split();
    }
    RoomConfig.Builder cb =
        RoomConfig.builder("sim")
            .totalActiveUsers(s.totalActiveUsers())
            .newUsersPerMinute(s.newUsersPerMinute())
            .sessionDuration(s.sessionDuration())
            .refreshInterval(s.refreshInterval());
    if (o != null && o.adaptive() != null) {
      cb.adaptiveLimit(o.adaptive());
    }
    this.config = cb.build();
    long sessionMillis = config.sessionSeconds() * 1000;
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
    this.origin = o == null ? null : new SimOrigin.Run(o, s.seed(), seconds, warm);
    this.limitAt = new int[o == null ? 0 : seconds];

    this.users = new SimUsers(SpikeArrivals.draw(s, random), adv.clones(), warm);
    if (users.total + (long) nodeCount + adv.replayers() + 2 >= ID_MASK) {
      throw new IllegalArgumentException("too many users for one run: " + users.total);
    }
    this.result = new SimResult(s, users.users);
    this.truth = new SimGroundTruth(s, users, result, sessionMillis, warm);
    this.keys = TicketKeys.generate();
    // Each user's kind and the kind's own draws, in user order, from the run's generator.
    this.clients = new SimClients(this, new TicketCodec(config.roomId(), keys), config.refreshSeconds());
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
            .dataCenter("dc-" + i / scenario.nodesPerDataCenter())
            .nodeId("node-" + i % scenario.nodesPerDataCenter())
            .syncInterval(scenario.syncInterval())
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
    return run(scenario, null).result;
  }

  /** Runs one scenario in front of an application ({@link SimOrigin}), or none. */
  static SpikeSimulator run(Scenario scenario, @Nullable SimOrigin origin) {
    long started = System.nanoTime();
    SpikeSimulator sim = new SpikeSimulator(scenario, origin);
    sim.simulate();
    sim.result.wallMillis = (System.nanoTime() - started) / 1_000_000;
    return sim;
  }

  /** An exponential time of mean {@code meanMillis}, from the run's generator. */
  long exponential(long meanMillis) {
    return (long) (-meanMillis * Math.log(1 - random.nextDouble()));
  }

  /** A uniform time in [{@code fromMillis}, {@code toMillis}), from the run's generator. */
  long uniform(long fromMillis, long toMillis) {
    return fromMillis + (long) (random.nextDouble() * (toMillis - fromMillis));
  }

  /** Schedules event {@code id} (a user's, a node's or an adversary's) at {@code atMillis}, unless past the end. */
  void schedule(long atMillis, int id) {
    if (atMillis < endMillis) {
      events.schedule(atMillis, id);
    }
  }

  private int syncId(int node) {
    return users.total + node;
  }

  private int lockstepId() {
    return users.total + nodes.length;
  }

  /** The event of replayer {@code r}. */
  int replayId(int r) {
    return users.total + nodes.length + 1 + r;
  }

  private int cloneId() {
    return users.total + nodes.length + 1 + adv.replayers();
  }

  /** Node {@code n} with its clock set to the current store time plus its skew. */
  WaitingRoom node(int n, long at) {
    nodeClocks[n].set(Instant.ofEpochMilli(base + at + skewMillis[n]));
    return java.util.Objects.requireNonNull(nodes[n], "node not started");
  }

  private void simulate() {
    for (int i = 0; i < users.users; i++) {
      schedule(users.arrivalMillis[i], i);
    }
    long quarter = scenario.syncInterval().toMillis() / 4;
    // Nodes join in an order that alternates data centers, so every data center has a node early.
    for (int k = 0; k < nodes.length; k++) {
      int dc = k % scenario.dataCenters();
      int i = dc * scenario.nodesPerDataCenter() + k / scenario.dataCenters();
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
      schedule(warm + adv.cloneAfter().toMillis(), cloneId());
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
      if (id < users.total) {
        clients.request(id, at);
      } else if (id < users.total + nodes.length) {
        int n = id - users.total;
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
        clients.adversaries.startClones(at);
      } else {
        clients.adversaries.replay(id - users.total - nodes.length - 1, at);
      }
    }
    while (nextSample < seconds) {
      sample(nextSample++);
    }
    result.finish(this);
  }

  private void sample(int second) {
    long at = second * 1000L + warm;
    truth.sample(second, at);
    truth.queueSeenAt[second] = (int) node(0, at).status().waitingUsers();
    if (origin != null) {
      limitAt[second] = node(0, at).status().totalActiveUsers();
    }
    if (SimDebug.showsSecond(second)) {
      SimDebug.printSecond(second, truth.activeAt[second], truth.queueAt[second], nodes.length, n -> node(n, at));
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
