package io.github.waitingroom.redis;

import io.github.waitingroom.FailurePolicy;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import io.github.waitingroom.testsupport.LocalRedis;

/**
 * Nodes of one room in one JVM, each with its own manual clock and its own transport to a real
 * Redis, synced by the test four times per epoch at the points a background thread aims at
 * ({@code 1/8, 3/8, 5/8, 7/8} of the epoch), in an order that rotates. Two ways to keep time:
 *
 * <ul>
 *   <li>{@link Time#VIRTUAL}: the answers carry the room's virtual time as the store's clock
 *       instead of Redis's {@code TIME}, so minutes pass in milliseconds. For tests about what
 *       happens over sessions, outages and retention, where the clock's source is not the point.
 *   <li>{@link Time#STORE}: the nodes keep time by Redis's {@code TIME}, as in production. Each
 *       manual clock is set to the real clock plus the node's skew before every sync, and the test
 *       waits real time between syncs; use a short epoch and short sessions.
 * </ul>
 *
 */
final class RedisNodes implements AutoCloseable {
  /** Where the room's time comes from; see the class comment. */
  enum Time { VIRTUAL, STORE }

  static final Instant START = Instant.parse("2026-11-30T10:00:00Z");

  /** One node: its room, own clock, and its transport (which a test may switch off). */
  static final class Node {
    final String dataCenter;
    final String id;
    final Duration skew;
    final ManualClock clock;
    final TestTransport transport;
    final WaitingRoom room;
    boolean alive = true;

    private Node(String dataCenter, String id, Duration skew, ManualClock clock, TestTransport transport, WaitingRoom room) {
      this.dataCenter = dataCenter;
      this.id = id;
      this.skew = skew;
      this.clock = clock;
      this.transport = transport;
      this.room = room;
    }

    @Override
    public String toString() {
      return dataCenter + "/" + id;
    }
  }

  final RoomConfig config;
  final Time time;
  final Duration epoch;
  final List<Node> nodes = new ArrayList<>();
  private final String uri;
  private final String prefix;
  private final Function<String, Transport> transports;
  private final long epochMillis;
  private final long quarterMillis;
  /** VIRTUAL: the room's time, which the nodes' clocks follow with their skews. */
  private final ManualClock base;
  private long rounds;
  /** For nodes added from now on: see {@code WaitingRoom.Builder#storeBudget}. */
  long storeBudget = WaitingRoom.Builder.DEFAULT_STORE_BUDGET;
  /**
   * For nodes added from now on: where their places' tie-break bits come from, a stream split off
   * for each node so that a run replays ({@code null}: at random, as in production).
   */
  java.util.@Nullable SplittableRandom tieBreaks;
  /**
   * How often a sync of {@link #step(Random, double)} reaches the store but loses its answer (see
   * {@link TestTransport#loseAnswers}).
   */
  double lostAnswers;

  /** Nodes over the Redis at {@code uri}, with keys under {@code prefix} (deleted on close). */
  RedisNodes(RoomConfig config, String uri, String prefix, Duration epoch, Time time) {
    this(config, uri, prefix, epoch, time,
        redisUri -> RedisTransport.builder(redisUri).keyPrefix(prefix).commandTimeout(Duration.ofMillis(500)).build());
  }

  /** Nodes over transports of the given factory (given the URI a node is added with). */
  RedisNodes(RoomConfig config, String uri, String prefix, Duration epoch, Time time,
      Function<String, Transport> transports) {
    this.config = config;
    this.uri = uri;
    this.prefix = prefix;
    this.epoch = epoch;
    this.time = time;
    this.transports = transports;
    this.epochMillis = epoch.toMillis();
    this.quarterMillis = epochMillis / 4;
    // Start at the first sync point of an epoch, where a background thread would first sync.
    this.base = new ManualClock(START.plusMillis(epochMillis / 8));
  }

  /** The room's shared clock in virtual time (for stores that expire by it). */
  ManualClock virtualClock() {
    return base;
  }

  Node add(String dataCenter, String id) {
    return add(dataCenter, id, Duration.ZERO, FailurePolicy.FAIL_CLOSED, uri);
  }

  Node add(String dataCenter, String id, Duration skew, FailurePolicy policy) {
    return add(dataCenter, id, skew, policy, uri);
  }

  /**
   * Adds a node whose own clock is {@code skew} ahead of the room's, talking to the store at
   * {@code storeUri}. It joins now, wherever the others are in their epoch, as nodes do in
   * production (its first sync, at build, is its join).
   */
  Node add(String dataCenter, String id, Duration skew, FailurePolicy policy, String storeUri) {
    return add(dataCenter, id, skew, policy, storeUri, t -> {});
  }

  /** {@link #add}, with the node's transport set up by {@code setUp} before its first sync. */
  Node add(String dataCenter, String id, Duration skew, FailurePolicy policy, String storeUri,
      java.util.function.Consumer<TestTransport> setUp) {
    TestTransport transport = transport(storeUri);
    setUp.accept(transport);
    return build(dataCenter, id, skew, policy, transport);
  }

  private TestTransport transport(String storeUri) {
    TestTransport t = new TestTransport(transports.apply(storeUri), time == Time.VIRTUAL ? base : null);
    try {
      // Connects now, so that the node's first sync is one quick round trip.
      t.exchange("warm-up", List.of(new Transport.Publication("warm-up", "warm-up", new byte[0])), Duration.ofSeconds(5));
    } catch (IOException e) {
      // a store that is down or paused: the node will find out itself
    }
    return t;
  }

  private Node build(String dataCenter, String id, Duration skew, FailurePolicy policy, TestTransport transport) {
    ManualClock clock = new ManualClock(sourceNow().plus(skew));
    WaitingRoom.Builder builder =
        WaitingRoom.builder(config, MultiNodeSimulation.KEYS)
            .clock(clock)
            .transport(transport)
            .dataCenter(dataCenter)
            .nodeId(id)
            .syncInterval(epoch)
            .failurePolicy(policy)
            .storeBudget(storeBudget)
            .backgroundSync(false);
    if (tieBreaks != null) {
      builder.random(tieBreaks.split());
    }
    WaitingRoom room = builder.build();
    Node n = new Node(dataCenter, id, skew, clock, transport, room);
    nodes.add(n);
    return n;
  }

  /** VIRTUAL: the room's time; STORE: the real clock (which Redis's follows on this machine). */
  Instant sourceNow() {
    return time == Time.VIRTUAL ? base.instant() : Instant.now();
  }

  /** The room's current epoch second, as the test's ground truth sees it. */
  long nowSecond() {
    return sourceNow().getEpochSecond();
  }

  /** The next sync point (1/8, 3/8, 5/8 or 7/8 of an epoch) after {@code millis}. */
  private long nextSyncPoint(long millis) {
    long start = Math.floorDiv(millis, epochMillis) * epochMillis;
    for (long p = start + quarterMillis / 2; ; p += quarterMillis) {
      if (p > millis) {
        return p;
      }
    }
  }

  /** Moves time on by {@code by}, syncing every live node at each sync point on the way. */
  void advance(Duration by) {
    advance(by, null, 0);
  }

  /** Moves time on by {@code by}, syncing as {@link #step(Random, double)} does. */
  void advance(Duration by, @Nullable Random random, double skip) {
    long end = sourceNow().toEpochMilli() + by.toMillis();
    while (nextSyncPoint(sourceNow().toEpochMilli()) <= end) {
      step(random, skip);
    }
    if (time == Time.VIRTUAL) {
      base.set(Instant.ofEpochMilli(end));
      setClocks();
    } else {
      sleepUntil(end);
    }
  }

  /** To the next sync point, then one sync of every live node (in an order that rotates). */
  void step() {
    step(null, 0);
  }

  /**
   * To the next sync point, then one sync of every live node, each skipped with the given
   * probability (a sync thread too busy to run it).
   */
  void step(@Nullable Random random, double skip) {
    long next = nextSyncPoint(sourceNow().toEpochMilli());
    if (time == Time.VIRTUAL) {
      base.set(Instant.ofEpochMilli(next));
    } else {
      sleepUntil(next);
    }
    setClocks();
    int k = nodes.size();
    long first = rounds++;
    for (int i = 0; i < k; i++) {
      Node n = nodes.get((int) ((first + i) % k));
      if (n.alive && (random == null || random.nextDouble() >= skip)) {
        if (random != null && lostAnswers > 0) {
          n.transport.loseAnswers = random.nextDouble() < lostAnswers;
        }
        n.room.sync();
      }
    }
  }

  /** VIRTUAL only: moves time on without syncing, as if the nodes' threads were stalled. */
  void jump(Duration by) {
    if (time != Time.VIRTUAL) {
      throw new IllegalStateException("only virtual time jumps");
    }
    base.advance(by);
    setClocks();
  }

  /** Sets every node's clock to the source's time plus its skew. */
  void setClocks() {
    Instant now = sourceNow();
    for (Node n : nodes) {
      n.clock.set(now.plus(n.skew));
    }
  }

  /** Syncs one node now (after setting the clocks), as its background thread would. */
  void sync(Node n) {
    setClocks();
    n.room.sync();
  }

  private static void sleepUntil(long epochMillis) {
    long wait = epochMillis - System.currentTimeMillis();
    if (wait > 0) {
      try {
        Thread.sleep(wait); // real time must pass: the nodes keep time by Redis
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /** Stops one node for good, as a crashed process: it no longer serves or syncs. */
  void kill(Node n) {
    n.alive = false;
    n.room.close();
  }

  @Override
  public void close() throws Exception {
    for (Node n : nodes) {
      n.room.close();
      n.transport.close();
    }
    if (uri.isEmpty()) {
      return;
    }
    RedisClient admin = LocalRedis.adminClient(uri);
    try (StatefulRedisConnection<String, String> c = admin.connect()) {
      RedisSupport.deleteKeys(c.sync(), prefix);
    } finally {
      admin.shutdown();
    }
  }
}
