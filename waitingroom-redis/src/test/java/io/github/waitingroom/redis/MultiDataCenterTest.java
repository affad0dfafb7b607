package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.coordinator.Transport;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Three data centers with three nodes each, all syncing through the real Redis, one manual clock,
 * arrivals skewed 60/30/10 across the data centers and well above the room's rate. Time is
 * virtual (Redis's clock is stripped from the answers, see {@link MultiNodeSimulation}): the test
 * runs nine simulated minutes in seconds.
 */
class MultiDataCenterTest {
  private String prefix = "";
  private String uri = "";
  private @Nullable MultiNodeSimulation sim;

  static RoomConfig config(String room) {
    return RoomConfig.builder(room)
        .totalActiveUsers(200)
        .newUsersPerMinute(100)
        .sessionDuration(Duration.ofMinutes(2))
        .bucketWidth(Duration.ofMinutes(1))
        .sliceWidth(Duration.ofSeconds(10))
        .refreshInterval(Duration.ofSeconds(20))
        .waitingTimeout(Duration.ofMinutes(2))
        .build();
  }

  @BeforeEach
  void start() {
    uri = RedisSupport.requireRedis();
    prefix = RedisSupport.uniquePrefix("multi-dc");
  }

  @AfterEach
  void stop() {
    MultiNodeSimulation s = sim;
    if (s != null) {
      s.close();
    }
    if (uri.isEmpty()) {
      return; // skipped: Redis was unreachable
    }
    RedisClient admin = RedisSupport.adminClient(uri);
    try (StatefulRedisConnection<String, String> c = admin.connect()) {
      RedisSupport.deleteKeys(c.sync(), prefix);
    } finally {
      admin.shutdown();
    }
  }

  @Test
  void nineNodesInThreeDataCentersKeepOneLimitAndServeOldestBucketsFirst() {
    RoomConfig config = config("multi-dc-" + UUID.randomUUID().toString().substring(0, 8));
    MultiNodeSimulation sim =
        new MultiNodeSimulation(
            config,
            new String[] {"dc-a", "dc-b", "dc-c"},
            new double[] {0.6, 0.3, 0.1},
            3,
            this::transport);
    this.sim = sim;
    sim.run(60, 0.5); // a quiet first minute
    sim.run(240, 12); // a spike of 720 a minute against 100 a minute
    sim.run(240, 1);
    System.out.printf(
        "multi-dc: admissions=%d maxActive=%d/%d admittedInAMinute=%d/%d inversions=%d (cross-DC %d) aheadGrew=%d (max +%d)%n",
        sim.admissions, sim.maxActive, config.totalActiveUsers(), sim.maxAdmittedInAMinute,
        config.newUsersPerMinute(), sim.inversions, sim.crossDcInversions, sim.aheadGrew, sim.maxAheadGrowth);
    // The limits hold exactly, with views that lag: every node plans from the same settled
    // tallies, which count every slot handed out before anyone spends it.
    assertThat(sim.maxActive).isLessThanOrEqualTo(config.totalActiveUsers());
    assertThat(sim.maxAdmittedInAMinute).isLessThanOrEqualTo(config.newUsersPerMinute());
    // First come, first served across nodes and data centers, by arrival second.
    assertThat(sim.inversions).as(sim.firstInversion).isZero();
    // The room did reach its limits: the test would not show an overshoot if it never got there.
    assertThat(sim.maxAdmittedInAMinute).isGreaterThanOrEqualTo(config.newUsersPerMinute() * 9 / 10);
  }

  private Transport transport() {
    return new TestTransport(RedisTransport.builder(uri).keyPrefix(prefix).build(), false);
  }

  @Test
  void aNodeThatDiesKeepsItsUsersCountingAndTheOthersDoNotOverAdmit() {
    RoomConfig config = config("dead-node-" + UUID.randomUUID().toString().substring(0, 8));
    MultiNodeSimulation sim =
        new MultiNodeSimulation(
            config,
            new String[] {"dc-a", "dc-b"},
            new double[] {0.7, 0.3},
            2,
            this::transport);
    this.sim = sim;
    sim.run(60, 0.5);
    sim.run(90, 8);
    MultiNodeSimulation.Node victim = sim.nodes.get(0);
    long activeBefore = sim.nodes.get(1).room.status().activeUsers();
    sim.kill(victim);
    // The survivors still count the dead node's users (and what it could still admit): its
    // report lives on in the store and in their memory until the users' sessions end.
    for (int s = 0; s < 10; s++) {
      sim.run(1, 8);
      assertThat(sim.nodes.get(1).room.status().activeUsers()).isGreaterThanOrEqualTo(activeBefore * 9 / 10);
    }
    assertThat(sim.nodes.get(1).room.status().roomNodes()).isEqualTo(3);
    sim.run(200, 8);
    assertThat(sim.maxActive).isLessThanOrEqualTo(config.totalActiveUsers());
    assertThat(sim.maxAdmittedInAMinute).isLessThanOrEqualTo(config.newUsersPerMinute());
    assertThat(sim.inversions).as(sim.firstInversion).isZero();
  }
}
