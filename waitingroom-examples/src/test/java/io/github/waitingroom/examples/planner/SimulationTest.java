package io.github.waitingroom.examples.planner;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SimulationTest {
  private static final Visitors VISITORS =
      new Visitors(Duration.ofMinutes(2), Duration.ofSeconds(20), Duration.ofMinutes(4), false);

  private static PlanSettings settings(double perMinute, Duration length, long seed) {
    return new PlanSettings(
        Arrivals.shaped(Arrivals.Shape.STEP, perMinute, 0, length),
        VISITORS,
        Duration.ofMinutes(1),
        Duration.ofSeconds(20),
        Duration.ofHours(1),
        seed);
  }

  private static void assertConserved(PlanResult r) {
    assertThat(r.admittedAtOnce() + r.queued()).isEqualTo(r.arrivals() + r.lostSessions());
    assertThat(r.admittedFromLine() + r.gaveUp() + r.stillWaiting()).isEqualTo(r.queued());
    assertThat(r.waits()).hasSize(r.admittedFromLine());
  }

  @Test
  void aSteadyLoadWellUnderTheLimitsWaitsForNothing() {
    // 20 a minute who stay about 3 minutes (2 browsing, 1 of session): about 60 active of 200.
    PlanResult r = Simulation.run(settings(20, Duration.ofMinutes(10), 1), new Limits(200, 100));
    assertThat(r.arrivals()).isEqualTo(200);
    assertThat(r.admittedAtOnce()).isEqualTo(200);
    assertThat(r.queued()).isZero();
    assertThat(r.gaveUp()).isZero();
    assertThat(r.peakLine()).isZero();
    assertThat(r.waitQuantile(0.99)).isZero();
    assertThat(r.peakActive()).isBetween(30, 100);
    assertThat(r.secondsWithLine()).isZero();
    assertConserved(r);
  }

  @Test
  void anOverloadMakesPeopleWaitAndSomeGiveUp() {
    // 60 a minute against a room that serves about 20 a minute (60 active, 3 minutes each).
    PlanResult r = Simulation.run(settings(60, Duration.ofMinutes(10), 1), new Limits(60, 30));
    assertThat(r.arrivals()).isEqualTo(600);
    assertThat(r.queued()).isGreaterThan(300);
    assertThat(r.waitQuantile(0.5)).isGreaterThan(60);
    assertThat(r.waitQuantile(0.9)).isGreaterThan(r.waitQuantile(0.5));
    assertThat(r.peakLine()).isGreaterThan(100);
    assertThat(r.gaveUp()).isGreaterThan(0);
    assertThat(r.peakActive()).isLessThanOrEqualTo(60);
    assertThat(r.activeUtilization()).isGreaterThan(0.8);
    assertThat(r.stillWaiting()).isZero();
    assertThat(r.line()[r.line().length - 1]).isZero();
    assertConserved(r);
  }

  @Test
  void oneSeedOneRunAnotherSeedAnotherRun() {
    PlanSettings a = settings(60, Duration.ofMinutes(6), 42);
    Limits limits = new Limits(60, 30);
    PlanResult first = Simulation.run(a, limits);
    PlanResult second = Simulation.run(a, limits);
    assertThat(second.waits()).containsExactly(first.waits());
    assertThat(second.line()).containsExactly(first.line());
    assertThat(second.active()).containsExactly(first.active());
    assertThat(second.admissionMillis()).containsExactly(first.admissionMillis());
    assertThat(second.gaveUp()).isEqualTo(first.gaveUp());
    PlanResult other = Simulation.run(settings(60, Duration.ofMinutes(6), 43), limits);
    assertThat(other.admissionMillis()).isNotEqualTo(first.admissionMillis());
  }

  @Test
  void oneSyncPerEpochGivesWhatTheRoomsFourGive() {
    PlanSettings s = settings(60, Duration.ofMinutes(4), 3);
    Limits limits = new Limits(50, 25);
    PlanResult one = Simulation.run(s, limits, 1);
    PlanResult four = Simulation.run(s, limits, 4);
    assertThat(one.queued()).isGreaterThan(50);
    assertThat(four.admissionMillis()).containsExactly(one.admissionMillis());
    assertThat(four.waits()).containsExactly(one.waits());
    assertThat(four.line()).containsExactly(one.line());
    assertThat(four.gaveUp()).isEqualTo(one.gaveUp());
  }

  @Test
  void aThinkTimeLongerThanTheSessionLosesSessionsInAFullRoom() {
    // A click every 90 s with sessions of 60 s: in a full room a user's next click finds the
    // session gone and puts them back in line.
    Visitors slow = new Visitors(Duration.ofMinutes(5), Duration.ofSeconds(90), Duration.ofMinutes(10), true);
    PlanSettings s = new PlanSettings(Arrivals.shaped(Arrivals.Shape.STEP, 30, 0, Duration.ofMinutes(4)), slow,
        Duration.ofMinutes(1), Duration.ofSeconds(20), Duration.ofMinutes(30), 9);
    PlanResult r = Simulation.run(s, new Limits(20, 20));
    assertThat(r.lostSessions()).isGreaterThan(0);
    assertConserved(r);
    PlanResult quick = Simulation.run(new PlanSettings(s.arrivals(),
        new Visitors(Duration.ofMinutes(5), Duration.ofSeconds(30), Duration.ofMinutes(10), true), s.session(),
        s.refresh(), s.drain(), 9), new Limits(20, 20));
    assertThat(quick.lostSessions()).isZero();
  }

  @Test
  void fixedTimesAreKeptExactly() {
    // Everybody browses 60 s with a click every 10 s (last click at 50 s) and stays counted 30 s
    // after it: 80 s each. 6 a minute, spread out, fill at most 8 + 1 places.
    Visitors fixed = new Visitors(Duration.ofSeconds(60), Duration.ofSeconds(10), null, true);
    PlanSettings s = new PlanSettings(Arrivals.shaped(Arrivals.Shape.STEP, 6, 0, Duration.ofMinutes(10)), fixed,
        Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ofMinutes(30), 5);
    PlanResult r = Simulation.run(s, new Limits(100, 100));
    assertThat(r.queued()).isZero();
    assertThat(r.peakActive()).isBetween(6, 10);
  }
}
