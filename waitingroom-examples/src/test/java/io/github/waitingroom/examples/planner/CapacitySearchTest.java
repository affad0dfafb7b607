package io.github.waitingroom.examples.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

class CapacitySearchTest {
  private static final PlanSettings CROWD =
      new PlanSettings(
          Arrivals.shaped(Arrivals.Shape.STEP, 40, 0, Duration.ofMinutes(6)),
          new Visitors(Duration.ofMinutes(2), Duration.ofSeconds(20), Duration.ofMinutes(8), false),
          Duration.ofMinutes(1),
          Duration.ofSeconds(20),
          Duration.ofHours(1),
          11);

  @Test
  void findsLimitsThatMeetTheTargetWhileOneStepBelowDoesNot() {
    Duration target = Duration.ofMinutes(2);
    List<PlanResult> seen = new ArrayList<>();
    CapacitySearch.Outcome o =
        CapacitySearch.search(CROWD, new Limits(100, 50), CapacitySearch.Vary.BOTH, target, 10_000, seen::add);
    PlanResult chosen = o.chosen();
    PlanResult below = Objects.requireNonNull(o.below(), "a run one step below");
    int total = chosen.limits().totalActiveUsers();
    assertThat(below.limits().totalActiveUsers()).isEqualTo(total - 1);
    // The crowd needs a line at these limits (not a trivial answer) ...
    assertThat(below.queued()).isGreaterThan(0);
    // ... the rule: newUsersPerMinute scaled 1:2 ...
    assertThat(chosen.limits().newUsersPerMinute()).isEqualTo(Math.round(total / 2.0));
    // ... the tool's own verdicts ...
    assertThat(chosen.searchWaitP90()).isLessThanOrEqualTo(target.getSeconds());
    assertThat(below.searchWaitP90()).isGreaterThan(target.getSeconds());
    assertThat(o.runs()).isEqualTo(seen).contains(chosen, below);
    // ... and fresh runs at those limits agree with them.
    PlanResult again = Simulation.run(CROWD, CapacitySearch.limitsFor(total, new Limits(100, 50), CapacitySearch.Vary.BOTH));
    PlanResult againBelow =
        Simulation.run(CROWD, CapacitySearch.limitsFor(total - 1, new Limits(100, 50), CapacitySearch.Vary.BOTH));
    assertThat(again.waitQuantile(0.9)).isLessThanOrEqualTo(target.getSeconds());
    assertThat(againBelow.waitQuantile(0.9)).isGreaterThan(target.getSeconds());
  }

  @Test
  void searchesUpwardWhenTheStartingLimitsMissAndKeepsNewUsersPerMinuteWhenAskedTo() {
    Duration target = Duration.ofMinutes(3);
    CapacitySearch.Outcome o =
        CapacitySearch.search(CROWD, new Limits(40, 40), CapacitySearch.Vary.TOTAL, target, 10_000, r -> {});
    assertThat(o.runs().get(0).searchWaitP90()).isGreaterThan(target.getSeconds());
    assertThat(o.chosen().limits().totalActiveUsers()).isGreaterThan(40);
    assertThat(o.chosen().limits().newUsersPerMinute()).isEqualTo(40);
    assertThat(o.chosen().searchWaitP90()).isLessThanOrEqualTo(target.getSeconds());
    assertThat(Objects.requireNonNull(o.below(), "a run one step below").searchWaitP90()).isGreaterThan(target.getSeconds());
  }

  @Test
  void saysSoWhenNoLimitsUpToTheCeilingMeetTheTarget() {
    // 20 admissions a minute for 40 arrivals a minute: no totalActiveUsers shortens that line.
    assertThatThrownBy(() -> CapacitySearch.search(CROWD, new Limits(50, 20), CapacitySearch.Vary.TOTAL,
            Duration.ofMinutes(1), 100, r -> {}))
        .isInstanceOf(CapacitySearch.Unreachable.class)
        .hasMessageContaining("100");
  }

  @Test
  void limitsForScalesOrKeepsNewUsersPerMinute() {
    Limits start = new Limits(1000, 500);
    assertThat(CapacitySearch.limitsFor(301, start, CapacitySearch.Vary.BOTH)).isEqualTo(new Limits(301, 151));
    assertThat(CapacitySearch.limitsFor(1, start, CapacitySearch.Vary.BOTH)).isEqualTo(new Limits(1, 1));
    assertThat(CapacitySearch.limitsFor(301, start, CapacitySearch.Vary.TOTAL)).isEqualTo(new Limits(301, 301));
    assertThat(CapacitySearch.limitsFor(800, start, CapacitySearch.Vary.TOTAL)).isEqualTo(new Limits(800, 500));
  }
}
