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
import io.github.waitingroom.testsupport.LocalRedis;

/**
 * Several data centers with several nodes each, all syncing through the real Redis, arrivals
 * skewed across the data centers and well above the room's rate. Time is
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
    uri = LocalRedis.require();
    prefix = LocalRedis.uniquePrefix("multi-dc");
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
    RedisClient admin = LocalRedis.adminClient(uri);
    try (StatefulRedisConnection<String, String> c = admin.connect()) {
      RedisSupport.deleteKeys(c.sync(), prefix);
    } finally {
      admin.shutdown();
    }
  }

  /** Nine nodes in three data centers, arrivals 60/30/10 %: a quiet start, a spike, calm. */
  private MultiNodeSimulation nineNodes(RoomConfig config, boolean sticky) {
    return nineNodes(config, sticky, 7, 0);
  }

  /**
   * {@link #nineNodes(RoomConfig, boolean)} with the visitors of seed 7, the nodes' tie-break bits
   * of {@code tieBreakSeed}, and that share of lost answers (see {@link MultiNodeSimulation}).
   */
  private MultiNodeSimulation nineNodes(RoomConfig config, boolean sticky, long tieBreakSeed, double lostAnswers) {
    MultiNodeSimulation sim =
        new MultiNodeSimulation(
            config, new String[] {"dc-a", "dc-b", "dc-c"}, new double[] {0.6, 0.3, 0.1}, 3, uri, prefix,
            this::transport, 7, tieBreakSeed, lostAnswers);
    this.sim = sim;
    if (sticky) {
      sim.sticky();
    }
    sim.run(30, 0.5); // a quiet start
    sim.run(150, 12); // a spike of 720 a minute against 100 a minute
    sim.run(60, 1);
    System.out.printf(
        "multi-dc (%s): admissions=%d maxActive=%d/%d admittedInAMinute=%d/%d inversions=%d (cross-DC %d,"
            + " by seconds between the arrivals %s) aheadGrew=%d (max +%d)%n",
        sticky ? "sticky" : "random nodes", sim.admissions, sim.maxActive, config.totalActiveUsers(),
        sim.maxAdmittedInAMinute, config.newUsersPerMinute(), sim.inversions, sim.crossDcInversions,
        sim.lateByMoreThan, sim.aheadGrew, sim.maxAheadGrowth);
    return sim;
  }

  /**
   * The order of service: first come, first served by arrival second, across nodes and data
   * centers, up to what a plan cannot see yet. A visitor may be passed only by one who arrived at
   * most three epochs (3 s) later: a node that still holds slots for new arrivals admits them until
   * the plan that sees the line form takes over, two to three epochs after the tally that saw it.
   */
  private static void assertOrder(MultiNodeSimulation sim) {
    assertThat(sim.maxInversionLateness).as("%s; inversions by seconds between the arrivals: %s", sim.firstInversion,
        sim.lateByMoreThan).isLessThanOrEqualTo(3);
  }

  @Test
  void nineNodesInThreeDataCentersKeepOneLimitFillTheRoomAndServeInArrivalOrder() {
    RoomConfig config = config("multi-dc-" + UUID.randomUUID().toString().substring(0, 8));
    MultiNodeSimulation sim = nineNodes(config, true);
    // The limits hold exactly, with views that lag: every node plans from the same settled
    // tallies, which count every slot handed out before anyone spends it.
    assertThat(sim.maxActive).isLessThanOrEqualTo(config.totalActiveUsers());
    assertThat(sim.maxAdmittedInAMinute).isLessThanOrEqualTo(config.newUsersPerMinute());
    // And the room uses them: the spike fills its rate (a test of overshoot means nothing if the
    // room never got there).
    assertThat(sim.maxAdmittedInAMinute).isGreaterThanOrEqualTo(config.newUsersPerMinute() * 95 / 100);
    assertOrder(sim);
  }

  /**
   * Without session affinity (every request to a random node of the data center) the limits and
   * the order still hold (see {@link #aNodeThatDiesKeepsItsUsersCountingAndTheOthersDoNotOverAdmit}),
   * but the room should also still fill up.
   */
  @Test
  void withoutSessionAffinityTheRoomStillFillsUp() {
    RoomConfig config = config("multi-dc-" + UUID.randomUUID().toString().substring(0, 8));
    MultiNodeSimulation sim = nineNodes(config, false);
    assertThat(sim.maxActive).isLessThanOrEqualTo(config.totalActiveUsers());
    assertThat(sim.maxAdmittedInAMinute).isGreaterThanOrEqualTo(config.newUsersPerMinute() * 95 / 100);
  }

  /**
   * A command that times out after Redis ran it: the node takes the failure for an outage while the
   * others read what it published. Nodes that planned alone at once, by their last answered tally,
   * let 101 in within a minute against 100 in this run (one sync in 20 loses its answer; the tie-break
   * seed was found by {@link #theLimitHoldsWithoutAffinityForRandomSeeds}), and 201 of 200 were
   * active once in about 15 CI runs on a loaded machine.
   */
  @Test
  void answersLostAfterRedisRanThemNeverExceedTheLimits() {
    RoomConfig config = config("lost-answers-" + UUID.randomUUID().toString().substring(0, 8));
    MultiNodeSimulation sim = nineNodes(config, false, 130723, 0.05);
    assertThat(sim.maxActive).isLessThanOrEqualTo(config.totalActiveUsers());
    assertThat(sim.maxAdmittedInAMinute).isLessThanOrEqualTo(config.newUsersPerMinute());
  }

  /**
   * {@link #withoutSessionAffinityTheRoomStillFillsUp}'s limits on random tie-break seeds (its
   * visitors are those of seed 7), which the build runs on seed 7 only. Skipped unless asked for:
   * {@code mvn -pl waitingroom-redis -am test -Dsurefire.failIfNoSpecifiedTests=false
   * -Dtest='MultiDataCenterTest#theLimitHoldsWithoutAffinityForRandomSeeds' -Dmultidc.randomSeeds=50}
   * (about 10 s a seed), with {@code -Dmultidc.lostAnswers=0.05} to lose one answer in 20. A failure
   * names its seed, and {@code -Dmultidc.seed=S} replays it.
   */
  @Test
  void theLimitHoldsWithoutAffinityForRandomSeeds() {
    int seeds = Integer.getInteger("multidc.randomSeeds", 0);
    Long replay = Long.getLong("multidc.seed");
    org.junit.jupiter.api.Assumptions.assumeTrue(seeds > 0 || replay != null,
        "run with -Dmultidc.randomSeeds=N, or -Dmultidc.seed=S to replay one");
    double lost = Double.parseDouble(System.getProperty("multidc.lostAnswers", "0"));
    java.util.SplittableRandom r = new java.util.SplittableRandom();
    for (int i = 0; i < (replay != null ? 1 : seeds); i++) {
      long seed = replay != null ? replay : r.nextLong(1_000_001);
      RoomConfig config = config("multi-dc-" + seed);
      MultiNodeSimulation sim = nineNodes(config, false, seed, lost);
      assertThat(sim.maxActive).as("seed %d", seed).isLessThanOrEqualTo(config.totalActiveUsers());
      assertThat(sim.maxAdmittedInAMinute).as("seed %d", seed).isLessThanOrEqualTo(config.newUsersPerMinute());
      sim.close();
      this.sim = null;
    }
  }

  private Transport transport(String store) {
    return RedisTransport.builder(store).keyPrefix(prefix).build();
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
            uri, prefix, this::transport);
    this.sim = sim;
    sim.run(20, 0.5);
    sim.run(60, 8);
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
    sim.run(60, 8);
    System.out.printf("dead node: admissions=%d maxActive=%d/%d admittedInAMinute=%d/%d inversions=%d (cross-DC %d,"
            + " by seconds between the arrivals %s)%n",
        sim.admissions, sim.maxActive, config.totalActiveUsers(), sim.maxAdmittedInAMinute,
        config.newUsersPerMinute(), sim.inversions, sim.crossDcInversions, sim.lateByMoreThan);
    assertThat(sim.maxActive).isLessThanOrEqualTo(config.totalActiveUsers());
    assertThat(sim.maxAdmittedInAMinute).isLessThanOrEqualTo(config.newUsersPerMinute());
    assertOrder(sim);
  }
}
