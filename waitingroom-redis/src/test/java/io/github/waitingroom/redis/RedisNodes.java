package io.github.waitingroom.redis;

import io.github.waitingroom.FailurePolicy;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Nodes of one room in one JVM, each with its own manual clock and its own {@link RedisTransport}
 * to a real Redis, synced by the test four times per epoch at the eighths a background thread
 * aims at ({@code 1/8, 3/8, 5/8, 7/8}), in an order that rotates. Two ways to keep time:
 *
 * <ul>
 *   <li>{@link Time#VIRTUAL}: answers are stripped of the store's clock, so the manual clocks are
 *       the room's clocks and minutes pass in milliseconds. For tests about what happens over
 *       sessions, outages and retention, where the clock's source is not the point.
 *   <li>{@link Time#STORE}: the nodes keep time by Redis's {@code TIME}, as in production. Each
 *       manual clock is set to the real clock plus the node's skew before every sync, and the test
 *       waits real time between syncs; use a short epoch and short sessions.
 * </ul>
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
  private final long quarterMillis;
  /** VIRTUAL: the room's time, which the nodes' clocks follow with their skews. */
  private final ManualClock base;
  private long steps;

  RedisNodes(RoomConfig config, String uri, String prefix, Duration epoch, Time time) {
    this.config = config;
    this.uri = uri;
    this.prefix = prefix;
    this.epoch = epoch;
    this.time = time;
    this.quarterMillis = epoch.toMillis() / 4;
    // Start an eighth into an epoch, where a node's first sync would be.
    this.base = new ManualClock(START.plusMillis(epoch.toMillis() / 8));
  }

  Node add(String dataCenter, String id) {
    return add(dataCenter, id, Duration.ZERO, FailurePolicy.FAIL_CLOSED, uri);
  }

  Node add(String dataCenter, String id, Duration skew, FailurePolicy policy) {
    return add(dataCenter, id, skew, policy, uri);
  }

  /** Adds a node whose own clock is {@code skew} ahead of the room's, talking to Redis at {@code redisUri}. */
  Node add(String dataCenter, String id, Duration skew, FailurePolicy policy, String redisUri) {
    ManualClock clock = new ManualClock(sourceNow().plus(skew));
    RedisTransport redis =
        RedisTransport.builder(redisUri).keyPrefix(prefix).commandTimeout(Duration.ofMillis(500)).build();
    TestTransport transport = new TestTransport(redis, time == Time.STORE);
    WaitingRoom room =
        WaitingRoom.builder(config, MultiNodeSimulation.KEYS)
            .clock(clock)
            .transport(transport)
            .dataCenter(dataCenter)
            .nodeId(id)
            .syncInterval(epoch)
            .failurePolicy(policy)
            .backgroundSync(false)
            .build();
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

  /** Moves time on by whole quarter epochs, syncing every live node at each. */
  void advance(Duration by) {
    for (long ms = 0; ms < by.toMillis(); ms += quarterMillis) {
      step();
    }
  }

  /** One quarter epoch on, then one sync of every live node (in an order that rotates). */
  void step() {
    if (time == Time.VIRTUAL) {
      base.advance(Duration.ofMillis(quarterMillis));
    } else {
      sleepToNextSyncPoint();
    }
    setClocks();
    int k = nodes.size();
    long first = steps++;
    for (int i = 0; i < k; i++) {
      Node n = nodes.get((int) ((first + i) % k));
      if (n.alive) {
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

  private void sleepToNextSyncPoint() {
    long now = System.currentTimeMillis();
    long epochMs = epoch.toMillis();
    long phase = Math.floorMod(now, epochMs);
    long target = Math.floorDiv(phase, quarterMillis) * quarterMillis + quarterMillis / 2;
    if (target <= phase) {
      target += quarterMillis;
    }
    try {
      Thread.sleep(target - phase); // real time must pass: the nodes keep time by Redis
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
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
    RedisClient admin = RedisSupport.adminClient(uri);
    try (StatefulRedisConnection<String, String> c = admin.connect()) {
      RedisSupport.deleteKeys(c.sync(), prefix);
    } finally {
      admin.shutdown();
    }
  }
}
