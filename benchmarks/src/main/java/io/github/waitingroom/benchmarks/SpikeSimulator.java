package io.github.waitingroom.benchmarks;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.Decision;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.allocation.RoomView;
import io.github.waitingroom.coordinator.Report;
import io.github.waitingroom.coordinator.SyncCadence;
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
 * Drives the real core through traffic spikes in virtual time. Every node is a real {@link
 * WaitingRoom} (built with {@code backgroundSync(false)} on a shared {@link ManualClock}) whose
 * {@link WaitingRoom#sync()} the simulator calls when the room's own adaptive cadence ({@link
 * WaitingRoom#nextSyncDelay()}) says its background thread would, over a {@link
 * LaggedTransport} that delays what nodes see of each other. Every simulated user carries the real
 * sealed ticket the room gave them: a new user arrives without one, a waiting user polls every
 * refresh interval (and may give up), an admitted user makes requests for a while and leaves.
 *
 * <p>The simulator keeps its own per-user ground truth, independent of the room's counters, and
 * measures the room against it: peak active users, admissions per minute, utilization while
 * people wait, FIFO inversions, the error of the wait shown at queue time, per-data-center
 * fairness. It writes a per-second CSV and a chart for each scenario.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.waitingroom.benchmarks.SpikeSimulator \
 *     [--out DIR] [--no-lag] [--patient] [--one-dc] [--lockstep] [scenario ...]
 * </pre>
 *
 * <p>Scenarios: {@code one-node dc5x4 flash20x5 smoke}; default: the first three. The variant
 * options change every chosen scenario, to separate causes: {@code --no-lag} (no propagation
 * lag), {@code --patient} (nobody gives up), {@code --one-dc} (all nodes in one data center),
 * {@code --lockstep} (all nodes sync at the same instants).
 *
 * <pre>
 * </pre>
 */
public final class SpikeSimulator {
  /** Virtual start: a round hour, so minute buckets and slices line up with the run's seconds. */
  static final long START_EPOCH_SECOND = Instant.parse("2026-11-30T10:00:00Z").getEpochSecond();

  private static final int ID_BITS = 24;
  private static final long ID_MASK = (1L << ID_BITS) - 1;

  private static final byte NEW = 0;
  private static final byte WAITING = 1;
  private static final byte ACTIVE = 2;
  private static final byte GONE = 3;

  private final Scenario s;
  private final RoomConfig config;
  private final ManualClock clock;
  private final WaitingRoom[] nodes;
  private final SplittableRandom random;
  private final long endMillis;

  // Users (struct of arrays, indexed by user id in arrival order).
  private final int users;
  private final long[] arrivalMillis;
  private final short[] dataCenter;
  private final long[] patienceMillis;
  private final byte[] state;
  private final @Nullable String[] ticket;
  private final long[] bucket;
  private final int[] shownWait;
  private final long[] sessionEndMillis;
  private final int[] expiry;
  private final boolean[] inverted;

  // Ground truth over time.
  private final int seconds;
  private final int[] activeAt;
  private final int[] queueAt;
  private final int[] queueSeenAt;
  private final int[] admittedIn;
  private final int[] arrivedIn;
  private final int[] expiriesAt;
  private int expiredUpTo = -1;
  private int expiredCount;
  private int everActive;
  private int waitingNow;
  private final TreeMap<Long, Integer> waitingByBucket = new TreeMap<>();
  private final long[] newestAdmittedBucket;

  // Sync cadence per node.
  private final SyncCadence cadence;
  private final @Nullable RoomView[] lastView;
  private final int[] lastNodes;
  private final Duration[] plainDelay;

  // Results.
  private final Result result;

  private SpikeSimulator(Scenario s) {
    this.s = s;
    this.random = new SplittableRandom(s.seed());
    this.config =
        RoomConfig.builder("sim")
            .totalActiveUsers(s.totalActiveUsers())
            .newUsersPerMinute(s.newUsersPerMinute())
            .sessionDuration(s.sessionDuration())
            .refreshInterval(s.refreshInterval())
            .build();
    this.clock = new ManualClock(Instant.ofEpochSecond(START_EPOCH_SECOND));
    this.endMillis = s.duration().toMillis();
    this.seconds = (int) s.duration().getSeconds();

    long[] arrivals = arrivals();
    this.users = arrivals.length;
    if (users + (long) s.dataCenters() * s.nodesPerDataCenter() >= ID_MASK) {
      throw new IllegalArgumentException("too many users for one run: " + users);
    }
    this.arrivalMillis = new long[users];
    this.dataCenter = new short[users];
    for (int i = 0; i < users; i++) {
      arrivalMillis[i] = arrivals[i] >>> 8;
      dataCenter[i] = (short) (arrivals[i] & 0xFF);
    }
    this.patienceMillis = new long[users];
    for (int i = 0; i < users; i++) {
      patienceMillis[i] =
          s.patienceMean().isZero() ? Long.MAX_VALUE : exponential(s.patienceMean().toMillis());
    }
    this.state = new byte[users];
    this.ticket = new String[users];
    this.bucket = new long[users];
    this.shownWait = new int[users];
    this.sessionEndMillis = new long[users];
    this.expiry = new int[users];
    this.inverted = new boolean[users];
    this.activeAt = new int[seconds];
    this.queueAt = new int[seconds];
    this.queueSeenAt = new int[seconds];
    this.admittedIn = new int[seconds];
    this.arrivedIn = new int[seconds];
    this.expiriesAt =
        new int[seconds + (int) (config.sessionSeconds() + 2 * config.sliceSeconds()) + 10];
    this.newestAdmittedBucket = new long[s.dataCenters()];
    Arrays.fill(newestAdmittedBucket, Long.MIN_VALUE);
    this.result = new Result(s, users);

    Duration base = s.syncInterval();
    Duration quarter = base.dividedBy(4);
    Duration fourTimes = base.multipliedBy(4);
    // The room's default bounds (WaitingRoom.Builder#syncIntervalBounds).
    this.cadence =
        new SyncCadence(
            base,
            quarter.compareTo(Duration.ofMillis(10)) < 0 ? Duration.ofMillis(10) : quarter,
            fourTimes.compareTo(Duration.ofMinutes(1)) > 0 ? Duration.ofMinutes(1) : fourTimes);
    int nodeCount = s.dataCenters() * s.nodesPerDataCenter();
    this.lastView = new RoomView[nodeCount];
    this.lastNodes = new int[nodeCount];
    this.plainDelay = new Duration[nodeCount];
    Arrays.fill(plainDelay, base);
    Arrays.fill(lastNodes, 1);
    KeysetHandle keys = TicketKeys.generate();
    LaggedTransport transport = new LaggedTransport(clock, s.globalLag(), s.dataCenterLag());
    this.nodes = new WaitingRoom[s.dataCenters() * s.nodesPerDataCenter()];
    for (int d = 0; d < s.dataCenters(); d++) {
      for (int n = 0; n < s.nodesPerDataCenter(); n++) {
        nodes[d * s.nodesPerDataCenter() + n] =
            WaitingRoom.builder(config, keys)
                .clock(clock)
                .transport(transport)
                .dataCenter("dc-" + d)
                .nodeId("node-" + n)
                .syncInterval(s.syncInterval())
                .backgroundSync(false)
                .build();
        nextDelay(d * s.nodesPerDataCenter() + n); // building ran the first sync
      }
    }
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
        double at = w.shape() == Scenario.Shape.STEP ? u : Math.sqrt(u);
        long millis = start + (long) (at * length);
        if (millis >= endMillis) {
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

  private void simulate() {
    for (int i = 0; i < users; i++) {
      schedule(arrivalMillis[i], i);
    }
    long sync = s.syncInterval().toMillis();
    if (s.lockstep()) {
      schedule(sync, users); // one event syncs every node
    } else {
      for (int n = 0; n < nodes.length; n++) {
        schedule(uniform(0, sync), users + n);
      }
    }
    int nextSample = 0;
    while (!events.isEmpty()) {
      long event = events.poll();
      long at = event >>> ID_BITS;
      int id = (int) (event & ID_MASK);
      while (nextSample < seconds && nextSample * 1000L <= at) {
        sample(nextSample++);
      }
      clock.set(Instant.ofEpochMilli(START_EPOCH_SECOND * 1000 + at));
      if (id >= users) {
        if (s.lockstep()) {
          syncAllAtOnce();
          schedule((at / sync + 1) * sync, id);
        } else {
          schedule(at + syncAndNextDelay(id - users), id);
        }
      } else {
        request(id, at);
      }
    }
    while (nextSample < seconds) {
      sample(nextSample++);
    }
    result.finish(this);
  }

  /**
   * Syncs a node and returns the delay to its next sync, chosen by the room's own {@link
   * SyncCadence} from what the sync saw, with the jitter drawn from the run's seeded random source
   * (the room's background thread draws it from {@code ThreadLocalRandom}, which would make runs
   * irreproducible). Counts a mismatch if the room itself chose a delay outside that jitter band.
   */
  private long syncAndNextDelay(int n) {
    nodes[n].sync();
    result.syncs++;
    return nextDelay(n);
  }

  /**
   * The diagnostic lock step: every node syncs three times at the same instant, with no request
   * in between, so that every node's final view holds every other node's and data center's counts
   * as of this instant (the first round publishes the nodes' reports, the second the data
   * centers' sums, the third reads them): budgets computed from one consistent snapshot.
   */
  private void syncAllAtOnce() {
    for (int round = 0; round < 3; round++) {
      for (WaitingRoom node : nodes) {
        node.sync();
      }
    }
    result.syncs += nodes.length;
  }

  /** The delay the room's cadence chooses after the sync that just ran on node {@code n}. */
  private long nextDelay(int n) {
    WaitingRoom node = nodes[n];
    RoomView view = node.view();
    Report own = view.dataCenters().get("dc-" + n / s.nodesPerDataCenter());
    int live = own == null ? 1 : Math.max(1, own.nodes());
    SyncCadence.Signal signal =
        SyncCadence.classify(config, lastView[n], lastNodes[n], view, live, node.transportFailing());
    SyncCadence.Delay delay = cadence.next(plainDelay[n], signal, random.nextDouble());
    long plain = delay.plain().toMillis();
    long chosen = node.nextSyncDelay().toMillis();
    long band = plain / 10 + 1;
    if (chosen < Math.max(cadence.fastest().toMillis(), plain - band) - 1
        || chosen > Math.min(cadence.slowest().toMillis(), plain + band) + 1) {
      result.cadenceMismatches++;
    }
    lastView[n] = view;
    lastNodes[n] = live;
    plainDelay[n] = delay.plain();
    return Math.max(1, delay.jittered().toMillis());
  }

  private WaitingRoom nodeFor(int user) {
    int base = dataCenter[user] * s.nodesPerDataCenter();
    return nodes[base + random.nextInt(s.nodesPerDataCenter())];
  }

  private void request(int u, long at) {
    int second = (int) (at / 1000);
    switch (state[u]) {
      case NEW -> {
        arrivedIn[second]++;
        result.arrivalsByDc[dataCenter[u]]++;
        Decision d = decide(u);
        bucket[u] = config.bucketOf(START_EPOCH_SECOND + second) - START_EPOCH_SECOND;
        if (d.letsThrough()) {
          admit(u, at, false);
        } else {
          state[u] = WAITING;
          waitingNow++;
          waitingByBucket.merge(bucket[u], 1, Integer::sum);
          shownWait[u] = (int) d.waitSeconds();
          result.queued++;
          result.queuedByDc[dataCenter[u]]++;
          nextPoll(u, at);
        }
      }
      case WAITING -> {
        if (at - arrivalMillis[u] >= patienceMillis[u]) {
          leaveLine(u);
          state[u] = GONE;
          result.abandoned++;
          result.abandonedByDc[dataCenter[u]]++;
          return;
        }
        Decision d = decide(u);
        if (d.letsThrough()) {
          leaveLine(u);
          admit(u, at, true);
        } else {
          if (d.outcome() == Decision.Outcome.QUEUE) {
            // The room no longer knew this ticket: the user starts again at the back.
            result.lostPlace++;
            requeue(u, second);
          }
          checkInversion(u);
          nextPoll(u, at);
        }
      }
      case ACTIVE -> {
        if (at >= sessionEndMillis[u]) {
          state[u] = GONE;
          return;
        }
        Decision d = decide(u);
        if (d.letsThrough()) {
          setExpiry(u, second);
        } else {
          // An admitted user turned away: a defect worth counting, then treated as waiting.
          result.bounced++;
          state[u] = WAITING;
          waitingNow++;
          waitingByBucket.merge(bucket[u], 1, Integer::sum);
          requeue(u, second);
          nextPoll(u, at);
          return;
        }
        schedule(at + uniform(s.thinkMin().toMillis(), s.thinkMax().toMillis()), u);
      }
      default -> {}
    }
  }

  private Decision decide(int u) {
    Decision d = nodeFor(u).decide(ticket[u]);
    result.decisions++;
    String t = d.ticket();
    if (t != null) {
      ticket[u] = t;
    }
    return d;
  }

  private void nextPoll(int u, long at) {
    long poll = at + config.refreshSeconds() * 1000 + uniform(0, 1000);
    long giveUp = patienceMillis[u] == Long.MAX_VALUE ? Long.MAX_VALUE : arrivalMillis[u] + patienceMillis[u];
    schedule(Math.min(poll, giveUp), u);
  }

  private void requeue(int u, int second) {
    leaveLine(u);
    bucket[u] = config.bucketOf(START_EPOCH_SECOND + second) - START_EPOCH_SECOND;
    waitingNow++;
    waitingByBucket.merge(bucket[u], 1, Integer::sum);
  }

  private void leaveLine(int u) {
    waitingNow--;
    waitingByBucket.compute(bucket[u], (b, n) -> n == null || n <= 1 ? null : n - 1);
  }

  private void admit(int u, long at, boolean fromLine) {
    int second = (int) (at / 1000);
    state[u] = ACTIVE;
    admittedIn[second]++;
    result.admitted++;
    result.admittedByDc[dataCenter[u]]++;
    if (!waitingByBucket.isEmpty() && waitingByBucket.firstKey() < bucket[u]) {
      result.strictInversions++;
    }
    int dc = dataCenter[u];
    newestAdmittedBucket[dc] = Math.max(newestAdmittedBucket[dc], bucket[u]);
    if (fromLine) {
      long waitedMillis = at - arrivalMillis[u];
      result.waits.add(waitedMillis);
      result.waitsByDc.get(dc).add(waitedMillis);
      if (shownWait[u] >= 0) {
        double actual = waitedMillis / 1000.0;
        result.estimateErrors.add((shownWait[u] - actual) / actual);
      } else {
        result.unknownEstimates++;
      }
    }
    long browse = Math.max(10_000, exponential(s.browseMean().toMillis()));
    sessionEndMillis[u] = at + browse;
    everActive++;
    expiry[u] = -1;
    setExpiry(u, second);
    schedule(at + uniform(s.thinkMin().toMillis(), s.thinkMax().toMillis()), u);
  }

  /** The user's last request was in {@code second}: they count as active until the slice-rounded session ends. */
  private void setExpiry(int u, int second) {
    long epoch = START_EPOCH_SECOND + second;
    int until = (int) (config.sliceOf(epoch) + config.sliceSeconds() + config.sessionSeconds() - START_EPOCH_SECOND);
    int old = expiry[u];
    if (old == until) {
      return;
    }
    if (old >= 0) {
      expiriesAt[old]--;
      if (old <= expiredUpTo) {
        expiredCount--; // counted as expired already; the room let them through again
        result.revived++;
      }
    }
    expiriesAt[until]++;
    expiry[u] = until;
  }

  private void checkInversion(int u) {
    long mine = bucket[u];
    boolean any = false;
    boolean crossDc = false;
    for (int dc = 0; dc < newestAdmittedBucket.length; dc++) {
      if (newestAdmittedBucket[dc] > mine) {
        any = true;
        crossDc |= dc != dataCenter[u];
      }
    }
    if (any) {
      result.inversions++;
      if (crossDc) {
        result.crossDcInversions++;
      }
      if (!inverted[u]) {
        inverted[u] = true;
        result.invertedUsers++;
      }
    }
  }

  private void sample(int second) {
    while (expiredUpTo < second) {
      expiredUpTo++;
      expiredCount += expiriesAt[expiredUpTo];
    }
    activeAt[second] = everActive - expiredCount;
    queueAt[second] = waitingNow;
    queueSeenAt[second] = (int) nodes[0].view().waitingUsers();
  }

  /** What one run measured. */
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
    long strictInversions;
    long inversions;
    long crossDcInversions;
    int invertedUsers;
    int unknownEstimates;
    int cadenceMismatches;
    final DoubleList waits = new DoubleList();
    final List<DoubleList> waitsByDc = new ArrayList<>();
    final DoubleList estimateErrors = new DoubleList();
    final int[] arrivalsByDc;
    final int[] queuedByDc;
    final int[] admittedByDc;
    final int[] abandonedByDc;
    int[] active = new int[0];
    int[] queue = new int[0];
    int[] queueSeen = new int[0];
    int[] admittedPerSecond = new int[0];
    int[] arrivedPerSecond = new int[0];
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
    }

    void finish(SpikeSimulator sim) {
      active = sim.activeAt;
      queue = sim.queueAt;
      queueSeen = sim.queueSeenAt;
      admittedPerSecond = sim.admittedIn;
      arrivedPerSecond = sim.arrivedIn;
      int total = scenario.totalActiveUsers();
      int perMinute = scenario.newUsersPerMinute();
      double sum = 0;
      for (int t = 0; t < active.length; t++) {
        peakActive = Math.max(peakActive, active[t]);
        if (active[t] > total) {
          secondsOverLimit++;
        }
        peakQueue = Math.max(peakQueue, queue[t]);
        int lastMinute = admittedLastMinute(t);
        peakAdmittedPerMinute = Math.max(peakAdmittedPerMinute, lastMinute);
        if (queue[t] > 0) {
          double u = Math.min(1.0, Math.max((double) active[t] / total, (double) lastMinute / perMinute));
          sum += u;
          queueSeconds++;
          if (u < 0.97) {
            secondsBelowTarget++;
          }
        }
      }
      utilization = queueSeconds == 0 ? Double.NaN : sum / queueSeconds;
    }

    /** Admissions in the 60 seconds ending with second {@code t}. */
    int admittedLastMinute(int t) {
      int n = 0;
      for (int i = Math.max(0, t - 59); i <= t; i++) {
        n += admittedPerSecond[i];
      }
      return n;
    }

    /** Peak active users over the limit, as a fraction of the limit (0 when never over). */
    public double overshoot() {
      return Math.max(0, peakActive - scenario.totalActiveUsers()) / (double) scenario.totalActiveUsers();
    }

    double medianAbsError() {
      return estimateErrors.absQuantile(0.5);
    }

    String line() {
      return String.format(
          Locale.ROOT,
          "%s: %d arrivals, %d queued, %d admitted, %d abandoned; peak active %d / %d (overshoot %.2f%%, %d s over),"
              + " peak admitted/min %d / %d, utilization while queued %.1f%% over %d s (%d s below 97%%),"
              + " FIFO inversions %d (users %d, cross-DC events %d; strict %d), wait estimate |error| p50 %.1f%%"
              + " p90 %.1f%% (signed p50 %+.1f%%, unknown %d, sample %d), bounced %d, lost place %d;"
              + " %d decisions, %d syncs (cadence mismatches %d) in %.1f s",
          scenario.name(),
          users,
          queued,
          admitted,
          abandoned,
          peakActive,
          scenario.totalActiveUsers(),
          overshoot() * 100,
          secondsOverLimit,
          peakAdmittedPerMinute,
          scenario.newUsersPerMinute(),
          utilization * 100,
          queueSeconds,
          secondsBelowTarget,
          inversions,
          invertedUsers,
          crossDcInversions,
          strictInversions,
          medianAbsError() * 100,
          estimateErrors.absQuantile(0.9) * 100,
          estimateErrors.quantile(0.5) * 100,
          unknownEstimates,
          estimateErrors.size(),
          bounced,
          lostPlace,
          decisions,
          syncs,
          cadenceMismatches,
          wallMillis / 1000.0);
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

  /**
   * Runs scenarios and writes, per scenario, {@code <name>.csv} (per second), {@code
   * <name>-dc.csv} (per data center) and {@code <name>.png}, plus {@code summary.md} (named after
   * the variant options when there are any, e.g. {@code summary--no-lag.md}).
   */
  public static void main(String[] args) throws IOException {
    System.setProperty("java.awt.headless", "true");
    Path out = Path.of("target", "sim");
    List<Scenario> scenarios = new ArrayList<>();
    List<String> variants = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--out") && i + 1 < args.length) {
        out = Path.of(args[++i]);
      } else if (args[i].startsWith("--")) {
        variants.add(args[i]);
      } else {
        scenarios.add(Scenario.named(args[i]));
      }
    }
    if (scenarios.isEmpty()) {
      scenarios.addAll(Scenario.standard());
    }
    for (String v : variants) {
      for (int i = 0; i < scenarios.size(); i++) {
        Scenario sc = scenarios.get(i);
        scenarios.set(i, switch (v) {
          case "--no-lag" -> sc.withoutLag();
          case "--patient" -> sc.withoutAbandoning();
          case "--one-dc" -> sc.inOneDataCenter();
          case "--lockstep" -> sc.inLockstep();
          default -> throw new IllegalArgumentException(
              "unknown option " + v + "; known: --out DIR, --no-lag, --patient, --one-dc, --lockstep");
        });
      }
    }
    Files.createDirectories(out);
    List<Result> results = new ArrayList<>();
    for (Scenario scenario : scenarios) {
      System.out.println("running " + scenario.name() + ": " + scenario.description());
      Result r = run(scenario);
      results.add(r);
      System.out.println(r.line());
      SimReport.write(out, r);
    }
    SimReport.summary(out.resolve("summary" + String.join("", variants) + ".md"), results);
    System.out.println("wrote " + out.toAbsolutePath());
  }
}
