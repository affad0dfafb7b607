package io.github.waitingroom.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Small runs of the simulator: invariants that hold whatever the tuning, and determinism. */
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
        false);
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
    assertThat(r.revived).isZero();
    assertThat(r.cadenceMismatches).isZero();
    assertThat(r.queued).isPositive();
    assertThat(admittedFromLine).isPositive();
  }

  @Test
  void oneNodeNeverGoesOverItsLimitsAndServesTheLineInOrder() {
    SpikeSimulator.Result r = SpikeSimulator.run(oneNode(7));
    assertBookkeeping(r);
    assertThat(r.peakActive).isLessThanOrEqualTo(40);
    assertThat(r.peakActive).isEqualTo(40);
    assertThat(r.inversions).isZero();
  }

  @Test
  void severalDataCentersWithLagKeepTheBookkeepingStraight() {
    SpikeSimulator.Result r = SpikeSimulator.run(Scenario.smoke(11));
    assertBookkeeping(r);
    assertThat(r.arrivalsByDc[1]).isGreaterThan(r.arrivalsByDc[0]);
  }

  @Test
  void theSameSeedGivesTheSameRunWithManyNodesAndLag() {
    SpikeSimulator.Result a = SpikeSimulator.run(Scenario.smoke(5));
    SpikeSimulator.Result b = SpikeSimulator.run(Scenario.smoke(5));
    assertThat(b.active).containsExactly(a.active);
    assertThat(b.queue).containsExactly(a.queue);
    assertThat(b.admittedPerSecond).containsExactly(a.admittedPerSecond);
    assertThat(b.inversions).isEqualTo(a.inversions);
  }

  @Test
  void theSameSeedGivesTheSameRun() {
    SpikeSimulator.Result a = SpikeSimulator.run(oneNode(3));
    SpikeSimulator.Result b = SpikeSimulator.run(oneNode(3));
    assertThat(b.admitted).isEqualTo(a.admitted);
    assertThat(b.active).containsExactly(a.active);
    assertThat(b.queue).containsExactly(a.queue);
    assertThat(b.admittedPerSecond).containsExactly(a.admittedPerSecond);
    assertThat(b.estimateErrors.quantile(0.5)).isEqualTo(a.estimateErrors.quantile(0.5));
  }
}
