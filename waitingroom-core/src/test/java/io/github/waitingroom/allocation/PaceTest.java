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
  void thePerMinuteLimitLetsMoreInAsTheLastMinutesAdmissionsTurnAMinuteOld() {
    // 2 more allowed now; 30 admitted in the last minute, one turning a minute old every 2 s.
    Pace pace = new Pace(0, 2, 30, 60, Pace.evenly(), 1_000, UNKNOWN);
    assertThat(pace.secondsFor(2)).as("within what the limit allows now").isEqualTo(0.0);
    assertThat(pace.secondsFor(5)).as("three of the last minute must turn a minute old").isEqualTo(6.0);
    assertThat(pace.secondsFor(32)).as("all thirty").isEqualTo(60.0);
    assertThat(pace.secondsFor(35))
        .as("while this limit binds, then at the last minute's pace: 30 a minute, not the limit's 60").isEqualTo(66.0);
    assertThat(new Pace(0, 2, 30, 60, Pace.evenly(), 1, new Pace.Leaving(0, 0, 100)).secondsFor(35))
        .as("where the total limit binds, at the limit's: one a second").isEqualTo(63.0);
    assertThat(new Pace(0, -3, 60, 57, Pace.evenly(), 1_000, UNKNOWN).secondsFor(1))
        .as("over a lowered limit: three more must turn a minute old first").isEqualTo(4.0);
  }

  @Test
  void theTotalLimitLetsMoreInAsUsersLeave() {
    Pace pace = new Pace(0, 1_000, 0, 1_000, Pace.evenly(), 5, new Pace.Leaving(0, 0, 0.5));
    assertThat(pace.secondsFor(5)).as("within the free room").isEqualTo(0.0);
    assertThat(pace.secondsFor(7)).as("two must leave").isEqualTo(4.0);
    assertThat(pace.secondsFor(12)).as("seven must leave").isEqualTo(14.0);
    assertThat(new Pace(0, 1_000, 0, 1_000, Pace.evenly(), 5, UNKNOWN).secondsFor(6)).as("someone must leave, nobody knows when").isEqualTo(-1.0);
    assertThat(new Pace(0, 1_000, 0, 1_000, Pace.evenly(), -3, new Pace.Leaving(0, 0, 0.5)).secondsFor(1))
        .as("over the limit (lowered): the free room counts as none, not as more to wait for").isEqualTo(2.0);
  }

  @Test
  void theWaitIsTheLaterOfTheTwoLimits() {
    Pace pace = new Pace(0, 0, 60, 60, Pace.evenly(), 0, new Pace.Leaving(0, 0, 0.5));
    assertThat(pace.secondsFor(2)).as("the per-minute limit allows two in 2 s, two leave in 4 s").isEqualTo(4.0);
    assertThat(new Pace(0, 0, 15, 60, Pace.evenly(), 0, new Pace.Leaving(0, 0, 0.5)).secondsFor(2))
        .as("the last minute let in 15: two turn a minute old in 8 s").isEqualTo(8.0);
  }

  @Test
  void aRoomThatJustFilledIsToldWhenUsersLeaveNotTheLastMinutesFewAdmissions() {
    // topo1x1 at 200 s: 18 let in over the last minute (the room was full and nobody had left
    // yet), 2 free, users leaving at 0.9 a second. The last minute's 18 read as the line's pace
    // told 333 s for 100 admissions; the limits allow them in 109 s.
    Pace pace = new Pace(0, 132, 18, 150, Pace.evenly(), 2, new Pace.Leaving(0, 0, 0.9));
    assertThat(pace.secondsFor(100)).isCloseTo(98 / 0.9, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void theLastMinutesAdmissionsTurnAMinuteOldWhenTheyCameNotEvenly() {
    // All 30 admitted in one burst 10 s ago: none turns a minute old for 50 s (topo1x1 at 75 s:
    // 147 let in within 10 s, and waits told at an even pace were half the real ones).
    double[] burst = new double[61];
    for (int i = 50; i <= 60; i++) {
      burst[i] = 1;
    }
    Pace pace = new Pace(0, 0, 30, 60, burst, 1_000, UNKNOWN);
    assertThat(pace.secondsFor(1)).as("the first turns a minute old within the 50th second").isBetween(49.0, 50.0);
    assertThat(pace.secondsFor(30)).isEqualTo(50.0);
    assertThat(new Pace(0, 0, 30, 60, Pace.evenly(), 1_000, UNKNOWN).secondsFor(15)).as("evenly").isEqualTo(30.0);
  }

  @Test
  void nobodyLeavesSoonerThanASessionAfterTheirLastRequest() {
    // 100 users, none idle for half a session yet, sessions of 120 s, browsing 240 s on average.
    Pace.Leaving young = Pace.Leaving.of(100, 0, 60, 120, 240, 0);
    assertThat(young.secondsFor(1)).as("one session after the last request at the earliest").isGreaterThan(120);
    // Later, each leaves one session after an exponential browse: by 120 + 240 s, 1 - 1/e of them
    // (and a few let in in their places: sooner).
    assertThat(young.secondsFor(63)).isBetween(300.0, 360.0);
    // Far later, users let in in their places leave too, at the full room's pace: 100 / 360 a second.
    double n = young.departed()[young.departed().length - 1];
    assertThat(young.secondsFor((long) n + 100) - young.secondsFor((long) n))
        .isCloseTo(360, org.assertj.core.data.Offset.offset(2.0));
    // Of the same room some time later, 20 stopped within the last half session without showing
    // it yet: they leave one session after their last request, evenly between 60 s and 120 s from
    // now; the others, still browsing, not before a session.
    Pace.Leaving later = Pace.Leaving.of(100, 0, 60, 120, 240, 20);
    assertThat(later.secondsFor(1)).isBetween(60.0, 60 + 3 * later.stepSeconds());
    assertThat(later.secondsFor(20)).isCloseTo(120, org.assertj.core.data.Offset.offset(later.stepSeconds()));
    assertThat(later.secondsFor(21)).isGreaterThan(120);
    // Those who stopped longer ago leave within their horizon, before anyone else (to within one step).
    Pace.Leaving stopped = Pace.Leaving.of(100, 10, 60, 120, 240, 0);
    assertThat(stopped.secondsFor(10)).isCloseTo(60, org.assertj.core.data.Offset.offset(stopped.stepSeconds()));
  }

  @Test
  void aPlanTakesTheLimitsLessWhatTheLastMinuteAndTheSlotsHeldForNewcomersUse() {
    RoomConfig config = RoomConfig.builder("pace").totalActiveUsers(100).newUsersPerMinute(60)
        .sessionDuration(Duration.ofMinutes(2)).build();
    TreeMap<Long, Long> line = new TreeMap<>();
    line.put(1_000L, 5L);
    // 30 admitted in the last minute, 40 active: room for 30 more by the per-minute limit and 60 by
    // the total, less 10 slots the nodes hold for new arrivals and those this plan gives this node
    // for them (the line of 5 is served, so the rest of the free slots go to newcomers).
    Tally t = new Tally(40, 10, 30, 0, line, new long[0]);
    Plan plan = Plan.compute(config, 1, List.of(t), 0, List.of(t), 0);
    Pace pace = plan.pace(config, 0, Pace.evenly(), UNKNOWN);
    assertThat(plan.slots()).isPositive();
    assertThat(pace.byRate()).isEqualTo(20 - plan.slots());
    assertThat(pace.byActive()).isEqualTo(50 - plan.slots());
    assertThat(pace.recent()).isEqualTo(30);
    assertThat(pace.perMinute()).isEqualTo(60);
  }
}
