package io.github.waitingroom.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Small runs of the simulator: bookkeeping invariants that hold whatever the tuning, the room's
 * limits on small topologies, and that a seed fixes the traffic.
 */
class SpikeSimulatorTest {

  private static Scenario oneNode(long seed) {
    Scenario s = Scenario.smoke(seed);
    return new Scenario(
        "tiny-one-node",
        "1 node, 1,000 arrivals against 40 active users",
        1,
        1,
        Duration.ofSeconds(1),
        Duration.ZERO,
        Duration.ZERO,
        40,
        30,
        Duration.ofMinutes(1),
        Duration.ofSeconds(10),
        List.of(
            new Scenario.Wave(Duration.ZERO, Duration.ofMinutes(8), 200, Scenario.Shape.STEP, -1),
            new Scenario.Wave(Duration.ofMinutes(1), Duration.ofMinutes(1), 800, Scenario.Shape.STEP, -1)),
        new double[] {1},
        s.browseMean(),
        s.thinkMin(),
        s.thinkMax(),
        Duration.ofMinutes(3),
        Duration.ofMinutes(8),
        seed,
        Scenario.Adversity.NONE);
  }

  private static void assertBookkeeping(SpikeSimulator.Result r) {
    int admittedFromLine = r.waits.size();
    assertThat(r.admitted).isLessThanOrEqualTo(r.users);
    // Every arrival was either admitted at once or queued.
    assertThat(r.admitted - admittedFromLine + r.queued).isEqualTo(r.users);
    assertThat(admittedFromLine + r.abandoned).isLessThanOrEqualTo(r.queued);
    // Users who keep polling keep their place, and admitted users are never turned away.
    assertThat(r.lostPlace).isZero();
    assertThat(r.bounced).isZero();
    assertThat(r.queued).isPositive();
    assertThat(admittedFromLine).isPositive();
    assertThat(r.syncs).isPositive();
  }

  private static void assertLimits(SpikeSimulator.Result r) {
    assertThat(r.peakActive).isLessThanOrEqualTo(r.scenario.totalActiveUsers());
    assertThat(r.peakAdmittedPerMinute).isLessThanOrEqualTo(r.scenario.newUsersPerMinute());
  }

  @Test
  void oneNodeStaysWithinItsLimitsAndServesTheLineInOrder() {
    SpikeSimulator.Result r = SpikeSimulator.run(oneNode(7));
    assertBookkeeping(r);
    assertLimits(r);
    assertThat(r.utilization).isGreaterThan(0.5);
  }

  @Test
  void severalDataCentersWithLagKeepTheBookkeepingStraight() {
    SpikeSimulator.Result r = SpikeSimulator.run(Scenario.smoke(11));
    assertBookkeeping(r);
    assertThat(r.arrivalsByDc[1]).isGreaterThan(r.arrivalsByDc[0]);
    // Four nodes sync (at least) four times per epoch of 1 s, on their own schedules.
    assertThat(r.syncs).isGreaterThan(4L * 4 * 8 * 60 * 9 / 10);
    // Joining takes an exchange or more of its own.
    assertThat(r.storeExchanges).isGreaterThanOrEqualTo(r.syncs);
  }

  @Test
  void severalDataCentersWithLagStayWithinTheLimits() {
    SpikeSimulator.Result r = SpikeSimulator.run(Scenario.smoke(11));
    assertLimits(r);
  }

  // Known gap of issue 8: on 8786976, 1 or 2 FIFO-inverted users on seed 11 in 3 of 40 runs. A
  // holder of a partial second called by place on one node polls the other node of its data
  // center next; that node sees its slot reserved by the peer but did not call it, so it turns it
  // away while a later second gets in elsewhere. Letting it in there (5995cae) went over the limit
  // (LimitsTest.aHolderAnotherNodeCalledIsNotLetInWhereNoTallyHoldsItsSlot); see
  // benchmarks/README.md, section 13. Since section 15 the count includes newcomers let in on
  // arrival (walk-ins) while a holder queued on a node that had given out its slots, which the
  // simulator did not count before (smoke seed 42: 2 users so inverted, on the cores before and
  // after 1d63f23).
  @org.junit.jupiter.api.Disabled("known gap: 0 FIFO-inverted users on smoke seed 11 in 37 of 40 runs, 1 or 2 in three")
  @Test
  void severalDataCentersWithLagServeTheLineInOrder() {
    SpikeSimulator.Result r = SpikeSimulator.run(Scenario.smoke(11));
    assertThat(r.invertedUsers).isZero();
  }

  @Test
  void theSameSeedGivesTheSameRunBitForBit() {
    // Not only the traffic: every random choice of every node (tie-break bits, draws, sync
    // jitter, publisher names) comes from the seed, so a failing run can be replayed.
    SpikeSimulator.Result a = SpikeSimulator.run(Scenario.smoke(11).truncated(3));
    SpikeSimulator.Result b = SpikeSimulator.run(Scenario.smoke(11).truncated(3));
    assertThat(b.users).isEqualTo(a.users);
    assertThat(b.arrivedPerSecond).containsExactly(a.arrivedPerSecond);
    assertThat(b.fingerprint()).isEqualTo(a.fingerprint());
    SpikeSimulator.Result other = SpikeSimulator.run(Scenario.smoke(12).truncated(3));
    assertThat(other.fingerprint()).isNotEqualTo(a.fingerprint());
  }

  @Test
  void parallelFetchesAndClonedCookiesCountAsTheyShould() {
    Scenario base = Scenario.smoke(13).truncated(5);
    Scenario hostile = new Scenario(
        "tiny-hostile", "smoke with 3 parallel fetches per page and 20 clones of one waiting cookie",
        base.dataCenters(), base.nodesPerDataCenter(), base.syncInterval(), base.globalLag(), base.dataCenterLag(),
        base.totalActiveUsers(), base.newUsersPerMinute(), base.sessionDuration(), base.refreshInterval(),
        base.waves(), base.dataCenterWeights(), base.browseMean(), base.thinkMin(), base.thinkMax(),
        base.patienceMean(), base.duration(), base.seed(),
        Scenario.Adversity.NONE.withParallel(3).withClones(20, Duration.ofMinutes(4)));
    SpikeSimulator.Result r = SpikeSimulator.run(hostile);
    assertThat(r.cloneSkipped).isFalse();
    assertThat(r.decisions).isGreaterThanOrEqualTo(3L * r.users);
    // The cloned place gets in for a few holders at most (each node may admit it once before
    // the plans show it admitted), never for all 21.
    assertThat(r.clonePlaceAdmitted).isLessThanOrEqualTo(hostile.dataCenters() * hostile.nodesPerDataCenter());
  }

  // Issue 8, finding 5 (see ConcurrentAdmissionTest in the core for the cause and the fix).
  @Test
  void requestThreadsRacingTheSyncNeverSpendMoreThanTheGrant() throws InterruptedException {
    ThreadRace.Outcome o = ThreadRace.run(60, 20, 8, 100, 24);
    assertThat(o.maxAdmitted()).isLessThanOrEqualTo(20);
    assertThat(o.trialsOver()).isZero();
    assertThat(o.meanAdmitted()).isGreaterThan(0);
  }
}
