package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.waitingroom.allocation.Pace;
import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 8 (estimates): people ahead leave by admission and by giving up. The node measures how
 * fast holders give up by following arrival seconds that nobody has been called from, and the
 * estimate takes it into account.
 */
class LineDrainTest {
  /** A full room whose per-minute limit is spent and one user leaves a second: one admission a second. */
  private static final Pace ONE_A_SECOND = new Pace(0, 0, 60, 600, Pace.evenly(), 0, new Pace.Leaving(0, 0, 1.0));

  private final RoomConfig config =
      RoomConfig.builder("drain").totalActiveUsers(1000).newUsersPerMinute(600)
          .sessionDuration(Duration.ofMinutes(5)).build();

  /**
   * A plan of a full room (nobody is called) whose line holds {@code perSecond} users in each
   * arrival second from 1000 to {@code last}, with one admission a second over the last minute.
   */
  private Plan plan(long perSecond, long last) {
    TreeMap<Long, Long> line = new TreeMap<>();
    for (long second = 1_000; second <= last; second++) {
      if (perSecond > 0) {
        line.put(second, perSecond);
      }
    }
    long waiting = perSecond * (last - 999);
    Tally t = new Tally(1000, 0, 60, 60, line, new long[0]);
    return Plan.compute(config, 1, List.of(t), 0, List.of(t), 0);
  }

  @Test
  void holdersWhoGiveUpAreMeasuredOnSecondsNobodyWasCalledFrom() {
    LineDrain drain = new LineDrain();
    // Each second of the line holds 10 holders at first and 5 a minute later; new seconds keep
    // arriving behind them, which does not count.
    for (long t = 0; t <= 60; t++) {
      drain.note(plan(Math.round(10 * Math.pow(0.5, t / 60.0)), 1_100 + t), 1_100 + t);
    }
    assertThat(drain.departures()).isCloseTo(Math.log(2) / 60, within(0.001));
  }

  @Test
  void aLineWhoseHoldersAllStayHasNoDepartures() {
    LineDrain drain = new LineDrain();
    for (long t = 0; t <= 60; t++) {
      drain.note(plan(10, 1_100 + t), 1_100 + t);
    }
    assertThat(drain.departures()).isZero();
    drain.note(plan(0, 1_161), 1_161);
    assertThat(drain.departures()).as("an empty line starts afresh").isZero();
  }

  @Test
  void departuresShortenTheEstimateAndTheRangeIsNeverNarrowerThanAFifthOfIt() {
    TreeMap<Long, Long> line = new TreeMap<>();
    for (long second = 1_000; second < 1_060; second++) {
      line.put(second, 1L);
    }
    Tally t = new Tally(1000, 0, 60, 0, line, new long[0]);
    Plan p = Plan.compute(config, 1, List.of(t), 0, List.of(t), 0); // one admission a second
    // 59 ahead and then its own admission, at one a second.
    assertThat(p.estimate(1_059, 0, ONE_A_SECOND).seconds()).as("59 ahead at one a second").isEqualTo(60);
    // The range: at least ± 20 % (the Poisson spread of 60 admissions would be only ± 5.2 s).
    assertThat(p.estimate(1_059, 0, ONE_A_SECOND).low()).isEqualTo(48);
    assertThat(p.estimate(1_059, 0, ONE_A_SECOND).high()).isEqualTo(72);
    // A holder ahead gives up every 100 s on average: (1 / a) ln(1 + a P / R).
    assertThat(p.estimate(1_059, 0, new Pace(0.01, 0, 60, 600, Pace.evenly(), 0, new Pace.Leaving(0, 0, 1.0))).seconds()).isEqualTo((long) Math.ceil(100 * Math.log1p(0.60)));
    // 100 more who arrived after the plan's tallies, before the holder, are ahead too.
    assertThat(p.estimate(1_059, 100, ONE_A_SECOND).usersAhead()).isEqualTo(159);
    assertThat(p.estimate(1_059, 100, ONE_A_SECOND).seconds()).isEqualTo(160);
  }

  @Test
  void theHoldersOfOnesOwnSecondWithAnEarlierPlaceAreAheadToo() {
    // A crowd: 3,000 arrive in second 1,000, the room admits one a second.
    TreeMap<Long, Long> line = new TreeMap<>(java.util.Map.of(1_000L, 3_000L));
    Tally t = new Tally(1000, 0, 60, 0, line, new long[0]);
    Plan p = Plan.compute(config, 1, List.of(t), 0, List.of(t), 0);
    assertThat(p.estimate(1_000, 0, ONE_A_SECOND).seconds()).as("without its own second: nobody ahead, its own admission")
        .isEqualTo(1);
    long early = Ticket.place(1_000, 0x1000_0000); // a sixteenth of the way through the draw
    long late = Ticket.place(1_000, 0xF000_0000);
    // Of the 2,999 others of its second, a sixteenth and fifteen sixteenths were drawn before
    // (and then its own admission).
    assertThat(p.estimate(1_000, 0, ONE_A_SECOND, Ticket.shareOfSecondAhead(early), 0).seconds()).isEqualTo(187 + 1);
    assertThat(p.estimate(1_000, 0, ONE_A_SECOND, Ticket.shareOfSecondAhead(late), 0).seconds()).isEqualTo(2_812 + 1);
    assertThat(p.estimate(1_000, 0, ONE_A_SECOND, Ticket.shareOfSecondAhead(late), 0).usersAhead())
        .as("the number shown counts earlier seconds only: it must never grow").isZero();
    // A second not in the plan's line yet: its share of those who arrived in it so far.
    assertThat(p.estimate(1_001, 0, ONE_A_SECOND, Ticket.shareOfSecondAhead(late), 1_000).seconds()).isEqualTo(3_000 + 937 + 1);
    // Alone in its second: nobody of it ahead, whatever its draw: only its own admission.
    TreeMap<Long, Long> one = new TreeMap<>(java.util.Map.of(1_000L, 1L));
    Tally alone = new Tally(1000, 0, 60, 0, one, new long[0]);
    assertThat(Plan.compute(config, 1, List.of(alone), 0, List.of(alone), 0)
        .estimate(1_000, 0, ONE_A_SECOND, Ticket.shareOfSecondAhead(late), 0).seconds()).isEqualTo(1);
  }

  @Test
  void aCrowdThatArrivedSinceThePlanIsAheadOfTheNextNewcomer() {
    RoomConfig full = RoomConfig.builder("crowd").totalActiveUsers(2).newUsersPerMinute(2)
        .sessionDuration(Duration.ofMinutes(5)).build();
    Cluster c = new Cluster(full, TicketKeys.generate());
    WaitingRoom room = c.add("eu", "a");
    c.warmUp();
    room.decide(null);
    room.decide(null);
    c.advance(Duration.ofSeconds(3)); // full, and a plan that knows it
    // Three seconds of 20 newcomers each before the node syncs again: the plan's line has none.
    Decision last = null;
    for (int second = 0; second < 3; second++) {
      for (int i = 0; i < 20; i++) {
        last = room.decide(null);
        assertThat(last.outcome()).isEqualTo(Decision.Outcome.QUEUE);
      }
      c.storeClock.advance(Duration.ofSeconds(1));
      c.clocks.get(0).advance(Duration.ofSeconds(1));
    }
    assertThat(java.util.Objects.requireNonNull(last).usersAhead())
        .as("the 40 who arrived in the two seconds before")
        .isEqualTo(40);
  }
}
