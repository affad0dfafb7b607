package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 8 (estimates): people ahead leave by admission and by giving up. The node measures how
 * fast holders give up from the line's own changes, and the estimate takes it into account.
 */
class LineDrainTest {
  private final RoomConfig config =
      RoomConfig.builder("drain").totalActiveUsers(1000).newUsersPerMinute(600)
          .sessionDuration(java.time.Duration.ofMinutes(5)).build();

  /** A plan of a full room whose line holds {@code waiting} users of one second each. */
  private Plan plan(long waiting, long admissionsLastMinute, long arrivalsLastMinute) {
    TreeMap<Long, Long> line = new TreeMap<>();
    for (long second = 0; second < waiting; second++) {
      line.put(1_000 + second, 1L);
    }
    Tally t = new Tally(1000, 0, 0, 0, waiting, admissionsLastMinute, arrivalsLastMinute, line, new long[0]);
    return Plan.compute(config, 1, List.of(t), 0, List.of(t), 0);
  }

  @Test
  void holdersWhoLeaveWithoutGettingInAreMeasured() {
    LineDrain drain = new LineDrain();
    // Over a minute the line goes from 100 to 70 holders with 10 admissions and no arrivals:
    // 20 gave up, out of a line of 85 on average.
    for (long t = 0; t <= 60; t++) {
      drain.note(plan(100 - t / 2, t / 6, 0), t);
    }
    assertThat(drain.departures()).isCloseTo(20.0 / 60 / 85, within(0.0005));
  }

  @Test
  void aLineThatOnlyMovesByAdmissionsAndArrivalsHasNoDepartures() {
    LineDrain drain = new LineDrain();
    // One admitted and one arrived every second: the line stays at 80.
    for (long t = 0; t <= 60; t++) {
      drain.note(plan(80, 60, 60), t);
    }
    assertThat(drain.departures()).isZero();
    drain.note(plan(0, 60, 60), 61);
    assertThat(drain.departures()).as("an empty line starts afresh").isZero();
  }

  @Test
  void departuresShortenTheEstimateAndTheRangeIsNeverNarrowerThanAFifthOfIt() {
    Plan p = plan(60, 60, 0); // one admission a second
    assertThat(p.estimate(1_059, 0).seconds()).as("59 ahead at one a second").isEqualTo(59);
    // The range: at least ± 20 % (the Poisson spread of 59 users would be only ± 5.2 s).
    assertThat(p.estimate(1_059, 0).low()).isEqualTo(47);
    assertThat(p.estimate(1_059, 0).high()).isEqualTo(71);
    // A holder ahead gives up every 100 s on average: (1 / a) ln(1 + a P / R).
    assertThat(p.estimate(1_059, 0.01).seconds()).isEqualTo((long) Math.ceil(100 * Math.log1p(0.59)));
  }
}
