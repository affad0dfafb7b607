package io.github.waitingroom.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomConfig;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** How fast the line moves ({@link Pace}, {@link Pace.Leaving}): the bounds a wait estimate divides by. */
class PaceTest {
  private static final Pace.Leaving UNKNOWN = Pace.Leaving.UNKNOWN;

  @Test
  void usersWhoStoppedLeaveEvenlyWithinTheirHorizonAndTheRestAtTheFullRoomsPace() {
    Pace.Leaving two = new Pace.Leaving(2, 15, 0.1);
    assertThat(two.secondsFor(1)).isEqualTo(7.5);
    assertThat(two.secondsFor(2)).isEqualTo(15.0);
    assertThat(two.secondsFor(3)).as("after the two, one every 10 s").isEqualTo(25.0);
    assertThat(new Pace.Leaving(2, 15, 0).secondsFor(3)).as("beyond those who stopped, not known").isEqualTo(-1.0);
    assertThat(new Pace.Leaving(0, 0, 0.5).secondsFor(2)).isEqualTo(4.0);
    assertThat(UNKNOWN.secondsFor(1)).isEqualTo(-1.0);
  }

  @Test
  void theWaitIsTheLaterOfTheLinesPaceAndTheRoomToLetThemIn() {
    Pace pace = new Pace(0, 1.0, 5, new Pace.Leaving(0, 0, 0.5));
    assertThat(pace.secondsFor(3)).as("within the free room: the line's pace").isEqualTo(3.0);
    assertThat(pace.secondsFor(7)).as("two must leave first (4 s), the line's pace is slower").isEqualTo(7.0);
    assertThat(pace.secondsFor(12)).as("seven must leave: 14 s").isEqualTo(14.0);
    assertThat(new Pace(0, 1.0, 5, UNKNOWN).secondsFor(5)).as("the free room needs nobody to leave").isEqualTo(5.0);
    assertThat(new Pace(0, 1.0, 5, UNKNOWN).secondsFor(6)).as("someone must leave, nobody knows when").isEqualTo(-1.0);
    assertThat(new Pace(0, 1.0, -3, new Pace.Leaving(0, 0, 0.5)).secondsFor(1))
        .as("over the limit (lowered): the free room counts as none, not as more to wait for").isEqualTo(2.0);
  }

  @Test
  void theLineMovesAtTheLastMinutesAdmissionsOrThePerMinuteLimitWhenNobodyWasAdmitted() {
    RoomConfig config = RoomConfig.builder("pace").totalActiveUsers(100).newUsersPerMinute(60)
        .sessionDuration(Duration.ofMinutes(2)).build();
    TreeMap<Long, Long> line = new TreeMap<>();
    line.put(1_000L, 5L);
    // 30 admitted in the last minute (holders came late for their slots), 40 active: room for 60
    // more, less 10 slots the nodes hold for new arrivals and those this plan gives this node for
    // them (the line of 5 is served, so the rest of the free slots go to newcomers).
    Tally t = new Tally(40, 10, 30, 0, line, new long[0]);
    Plan plan = Plan.compute(config, 1, List.of(t), 0, List.of(t), 0);
    Pace pace = plan.pace(config, 0, UNKNOWN);
    assertThat(pace.perSecond()).isEqualTo(0.5);
    assertThat(plan.slots()).isPositive();
    assertThat(pace.byActive()).isEqualTo(50 - plan.slots());
    Tally none = new Tally(40, 0, 0, 0, line, new long[0]);
    assertThat(Plan.compute(config, 1, List.of(none), 0, List.of(none), 0).pace(config, 0, UNKNOWN).perSecond())
        .as("nobody admitted in the last minute: the per-minute limit").isEqualTo(1.0);
  }
}
