package io.github.waitingroom.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.AdaptiveLimit;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Short runs of the room in front of a simulated application ({@link SimOrigin}). */
class AdaptiveSimulatorTest {

  private static AdaptiveSimulator.Figures run(long seed, SimOrigin origin) {
    int perMinute = Math.min(600, java.util.Objects.requireNonNull(origin.adaptive()).max());
    return AdaptiveSimulator.run(AdaptiveSimulator.crowd("t", 1, 1, 60, perMinute, 0, AdaptiveSimulator.REFRESH, seed).truncated(4), origin);
  }

  @Test
  void theSameSeedGivesTheSameLimitsAndLatenciesBitForBit() {
    SimOrigin o = new SimOrigin(8, Duration.ofMillis(50), Duration.ofSeconds(5), List.of(), AdaptiveSimulator.adaptive());
    AdaptiveSimulator.Figures a = run(7, o);
    AdaptiveSimulator.Figures b = run(7, o);
    assertThat(a.limitAt()).containsExactly(b.limitAt());
    assertThat(a.active()).containsExactly(b.active());
    assertThat(a.p90(0, a.seconds())).isEqualTo(b.p90(0, b.seconds()));
  }

  @Test
  void aLimitFarTooLowRisesWhileTheApplicationKeepsUpAndStaysWithinItsBounds() {
    AdaptiveLimit bounds = new AdaptiveLimit(50, 400, Duration.ofMillis(250), 0.1, 0.01);
    SimOrigin o = new SimOrigin(8, Duration.ofMillis(50), Duration.ofSeconds(5), List.of(), bounds);
    AdaptiveSimulator.Figures f = run(1, o);
    assertThat(java.util.Arrays.stream(f.limitAt()).min().orElseThrow()).isGreaterThanOrEqualTo(50.0);
    assertThat(java.util.Arrays.stream(f.limitAt()).max().orElseThrow()).isLessThanOrEqualTo(400.0);
    // 400 users keep this application within its target (the sweep: 625): the limit reaches max.
    assertThat(f.limitAt()[f.seconds() - 1]).isEqualTo(400.0);
    assertThat(f.origin().failures(0, f.seconds())).isZero();
  }

  @Test
  void anApplicationThatLosesMostOfItsServersGetsNoMoreUsersAndALowerLimit() {
    SimOrigin o = new SimOrigin(8, Duration.ofMillis(50), Duration.ofSeconds(5),
        List.of(new SimOrigin.Change(Duration.ofMinutes(2), 1)), AdaptiveSimulator.adaptive());
    AdaptiveSimulator.Figures f = run(1, o);
    // One server of 50 ms serves 20 requests a second, a fifth of what the users ask of it at
    // minute 2. Once a decision's window and its two epochs to take effect have passed (10 s),
    // the limit never rises, and it falls by more than a step.
    double before = f.limitAt()[130];
    for (int t = 131; t < f.seconds(); t++) {
      assertThat(f.limitAt()[t]).as("second %d", t).isLessThanOrEqualTo(f.limitAt()[t - 1]);
    }
    assertThat(f.limitAt()[f.seconds() - 1]).isLessThan(0.9 * before);
  }
}
