package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomConfig;
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
 * arrivals skewed 60/30/10 across the data centers and well above the room's rate.
 */
class MultiDataCenterTest {
  /**
   * The documented bound on overshoot: a node's view lags by up to two sync rounds (its data
   * center's sum reaches the global tier at the next publication), and a node can only hand out
   * slots that admissions it cannot see yet have already taken. So the room never holds more than
   * the limit plus what it admitted in two consecutive sync intervals; for the rate, likewise.
   */
  static long overshootBound(MultiNodeSimulation sim) {
    return sim.maxAdmittedInTwoRounds;
  }

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
            () -> RedisTransport.builder(uri).keyPrefix(prefix).build());
    this.sim = sim;
    sim.run(60, 0.5); // a quiet first minute: the shares settle
    sim.run(240, 12); // a spike of 720 a minute against 100 a minute
    sim.run(240, 1);
    long bound = overshootBound(sim);
    System.out.printf(
        "multi-dc: admissions=%d maxActive=%d limit=%d (%.3f) admittedInSixSlices=%d rate=%d bound=%d orderViolations=%d stragglers=%d lapped=%d%n",
        sim.admissions, sim.maxActive, config.totalActiveUsers(),
        sim.maxActive / (double) config.totalActiveUsers(), sim.maxAdmittedInSlices,
        config.newUsersPerMinute(), bound, sim.orderViolations, sim.stragglers(), sim.lapped);
    assertThat(sim.maxActive).isLessThanOrEqualTo(config.totalActiveUsers() + bound);
    assertThat(sim.maxAdmittedInSlices).isLessThanOrEqualTo(config.newUsersPerMinute() + bound);
    assertThat(sim.orderViolations).as(sim.firstViolation).isZero();
    assertThat(sim.lapped).as(sim.firstLapped).isZero();
    // The room did reach its limit: the test would not show an overshoot if it never got there.
    assertThat(sim.maxActive).isGreaterThanOrEqualTo(config.totalActiveUsers() * 9 / 10);
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
            () -> RedisTransport.builder(uri).keyPrefix(prefix).build());
    this.sim = sim;
    sim.run(60, 0.5);
    sim.run(90, 8);
    MultiNodeSimulation.Node victim = sim.nodes.get(0);
    long activeBefore = sim.nodes.get(1).room.view().activeUsers();
    sim.kill(victim);
    sim.run(5, 8);
    // The survivors still count the dead node's users: its report lives until their sessions end.
    assertThat(sim.nodes.get(1).room.view().activeUsers()).isGreaterThanOrEqualTo(activeBefore * 9 / 10);
    sim.run(200, 8);
    assertThat(sim.maxActive).isLessThanOrEqualTo(config.totalActiveUsers() + overshootBound(sim));
    assertThat(sim.orderViolations).as(sim.firstViolation).isZero();
  }
}
