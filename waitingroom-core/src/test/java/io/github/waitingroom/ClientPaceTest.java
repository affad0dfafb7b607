package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A waiting user who polls slower than told (a browser tab in the background runs its timers once
 * a minute; an API client polls on its own timer, often at the room's refresh interval) keeps its
 * turn: once the line reaches it, it gets in at its next poll, not after everyone behind it.
 */
class ClientPaceTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  /** The room of {@link #pollAFullRoom}. */
  private static final RoomConfig FULL_ROOM = RoomConfig.builder("pace")
      .totalActiveUsers(10)
      .newUsersPerMinute(10)
      .sessionDuration(Duration.ofMinutes(3))
      .build();

  /**
   * One node, limit 10, sessions of three minutes that nobody renews. The first of 40 newcomers
   * polls every {@code pace} seconds whatever it is told; the others poll as told. The room learns
   * a holder's pace from the gap between two of its polls (a newcomer's first answer asks again
   * within seconds, so that a place nobody polls again soon leaves the line), so the first slots
   * free well after that. Before, it was passed by 19 later arrivals at a pace of 20 s and by all
   * of them at 30 s or more: it never counted in the line long enough to be called.
   */
  @ParameterizedTest(name = "polling every {0} s")
  @ValueSource(ints = {20, 45, 60})
  void aHolderThatPollsSlowerThanToldGetsInAtItsNextPollOnceTheLineReachesIt(int pace) {
    int users = 40;
    long[] admittedAt = new long[users];
    RoomConfig config = pollAFullRoom(users, pace, false, (i, now, d) -> {
      if (d.letsThrough()) {
        admittedAt[i] = now;
      }
    });
    assertThat(admittedAt[0]).as("the slow holder got in").isPositive();
    long firstLater = java.util.Arrays.stream(admittedAt, 1, users).filter(a -> a > 0).min().orElseThrow();
    // Once the line reaches it (no later than the first later arrival is let in), its slot waits
    // for its next poll: one of its intervals, plus the plan that calls it (a few epochs).
    assertThat(admittedAt[0]).isLessThanOrEqualTo(firstLater + pace + 5);
    long passedBy = java.util.Arrays.stream(admittedAt, 1, users).filter(a -> a > 0 && a < admittedAt[0]).count();
    // At most those the plans called within one of its intervals: a room's worth at this pace.
    assertThat(passedBy).as("later arrivals let in before it").isLessThan(config.totalActiveUsers());
  }

  /**
   * A tab that freezes between two polls (a phone that switched apps, a laptop lid) is silent from
   * some moment before its next poll was due: it keeps its place for the whole waiting timeout
   * from when the line stopped counting it (two of the intervals it was told and two seconds after
   * its last poll), and its cookie lives as long. Before, the timeout ran from the poll before, so
   * a tab that froze for the whole timeout came back to the back of the line.
   */
  @ParameterizedTest(name = "back {0} s after the timeout from its due")
  @ValueSource(ints = {-1, 0})
  void aTabFrozenForTheWholeWaitingTimeoutKeepsItsPlaceAndOneSilentLongerArrivesAnew(int late) {
    RoomConfig config = RoomConfig.builder("frozen")
        .totalActiveUsers(10)
        .newUsersPerMinute(10)
        .sessionDuration(Duration.ofMinutes(30))
        .build();
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom node = c.add("eu", "a");
    c.warmUp();
    c.fill(node);
    Decision first = node.decide(null);
    assertThat(first.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    c.advance(Duration.ofSeconds(first.refreshSeconds()));
    Decision polled = node.decide(first.ticket());
    assertThat(polled.outcome()).isEqualTo(Decision.Outcome.WAIT);
    long due = 2 * polled.refreshSeconds() + 2;
    long timeout = config.waitingTimeoutSeconds();
    assertThat(polled.ticketMaxAgeSeconds()).as("the place cookie lives until the place times out").isEqualTo(due + timeout);
    c.advance(Duration.ofSeconds(due + timeout + late));
    Decision back = node.decide(polled.ticket());
    assertThat(back.outcome()).isEqualTo(late < 0 ? Decision.Outcome.WAIT : Decision.Outcome.QUEUE);
  }

  /** A waiting ticket that last polled at {@code lastPoll} and was given {@code due}. */
  private static TicketState polled(long lastPoll, long due) {
    return new TicketState(TicketState.State.WAITING, Ticket.place(lastPoll - 100, 1), 0, lastPoll, lastPoll, TicketState.NOT_SHOWN,
        due);
  }

  /**
   * Nobody is let in between its polls, so no holder is told a wait shorter than the time to its
   * next one: one that polls as told, no shorter than the interval it is told; one that keeps a
   * pace of its own (here 45 s), once the room has seen it, a whole number of its intervals, the
   * range too (it is let in at the first of its polls at or after its turn). Before, a hidden tab
   * was told 12 s and came back, and got in, a minute later. A silence longer than the line's poll
   * window (82 s here; 120 s) is no pace: a frozen tab polls as told once it is back, and is told
   * the wait as it is.
   */
  @ParameterizedTest(name = "silent {0} s between polls")
  @ValueSource(ints = {45, 120})
  void aHolderIsToldTheWaitToThePollAtWhichItCanGetIn(int pace) {
    // Within the line's poll window (the slowest pace it counts, the refresh interval and 2 s)?
    boolean paced = pace <= Line.pollWindowSeconds(FULL_ROOM);
    List<Long> slowTold = new ArrayList<>();
    boolean[] slowIn = new boolean[1];
    int[] asToldAnswers = new int[1];
    pollAFullRoom(30, pace, true, (i, now, d) -> {
      if (d.letsThrough() || !d.waitKnown()) {
        slowIn[0] |= i == 0 && d.letsThrough();
        return;
      }
      if (i == 0) {
        slowTold.add(d.waitSeconds());
        if (paced) {
          assertThat(List.of(d.waitLowSeconds(), d.waitHighSeconds()))
              .as("the slow holder's range at %s", now)
              .allSatisfy(v -> assertThat(v % pace).isZero());
        }
      } else {
        asToldAnswers[0]++;
        assertThat(d.waitSeconds()).as("holder %s at %s", i, now).isGreaterThanOrEqualTo(d.refreshSeconds());
      }
    });
    if (paced) {
      assertThat(slowIn[0]).as("the slow holder got in").isTrue();
    }
    assertThat(asToldAnswers[0]).isPositive();
    // Each of its polls came late (its first answer, as a newcomer's, asked again within 5 s), so
    // at each the room knew its pace.
    assertThat(slowTold).isNotEmpty();
    if (paced) {
      assertThat(slowTold).allSatisfy(w -> {
        assertThat(w).isPositive();
        assertThat(w % pace).isZero();
      });
    } else {
      // Rounded, it would be told whole minutes (the slowest pace the line honours).
      assertThat(slowTold).as("told as it is, not rounded to its silence")
          .anySatisfy(w -> assertThat(w % Line.LONGEST_PACE_SECONDS).isNotZero());
    }
  }

  /**
   * Who counts as slow: a holder that polls within the interval it was told is on pace, however
   * long that interval was; one that comes back after more than half the window its last answer
   * gave it keeps its own pace, and keeps being counted at it while it keeps polling at it.
   */
  @Test
  void aHolderIsCountedAtItsOwnPaceOnlyWhileItPollsSlowerThanTold() {
    long a = 1_800_000_000L;
    // Told 20 s (due in 2 x 20 + 2 s), back after 20 s: on pace.
    assertThat(polled(a, a + 42).slowPace(a + 20)).isZero();
    // Told 5 s (due in 12 s), back after a minute (a hidden tab): slow, at 60 s.
    assertThat(polled(a, a + 12).slowPace(a + 60)).isEqualTo(60);
    // Counted at that pace (due in 60 + 5 + 2 s), back after another minute: still slow.
    assertThat(polled(a, a + 67).slowPace(a + 60)).isEqualTo(60);
    // The tab is shown again and polls as told (5 s): on pace again.
    assertThat(polled(a, a + 67).slowPace(a + 5)).isZero();
  }

  /**
   * A holder that polled as told at a long interval (far back in the line) and is told a short one
   * near the front: on a node alone in the room it stays in the line, as the tallies count it, for
   * two of the short ones, not of its earlier long ones. When it gives up, the slot the plans hold
   * for it is free again within seconds (a line whose front keeps giving up keeps moving). On a
   * node of several the earlier due holds: a parallel request may have carried the ticket of that
   * earlier poll to another node, which counts the holder as shared until then (see Seen.Polls).
   */
  @Test
  void aHolderThatPolledAsToldAndStopsLeavesTheLineAfterTwoOfItsLastIntervals() {
    for (boolean alone : new boolean[] {true, false}) {
      RoomConfig config = RoomConfig.builder("pace").totalActiveUsers(10).newUsersPerMinute(10)
          .sessionDuration(Duration.ofMinutes(3)).build();
      NodeState x = new NodeState(config);
      x.countedAlone(alone);
      long a = 1_800_000_000L;
      long place = Ticket.place(a, 7);
      x.poll(place, x.seen(place), a, 0, 0);
      long due = x.expect(place, null, a, 20, 0);
      assertThat(due).isEqualTo(a + 42);
      x.poll(place, x.seen(place), a + 20, a, due);
      long last = x.expect(place, null, a + 20, 2, polled(a, due).slowPace(a + 20));
      assertThat(last).isEqualTo(a + 20 + 2 * 2 + 2);
      long leaves = alone ? last : due;
      assertThat(x.tally(leaves * 1000, leaves, 0).waiting()).as("alone %s: in line at its due", alone).isEqualTo(1);
      assertThat(x.tally((leaves + 1) * 1000, leaves + 1, 0).waiting()).as("alone %s: gone after it", alone).isZero();
      // A slow holder (a hidden tab, told 2 s) stays one of its own intervals and one told one.
      x.poll(place, x.seen(place), a + 80, a + 20, last);
      long slow = x.expect(place, null, a + 80, 2, polled(a + 20, last).slowPace(a + 80));
      assertThat(slow).isEqualTo(a + 80 + 60 + 2 + 2);
      assertThat(x.tally(slow * 1000, slow, 0).waiting()).as("alone %s: the slow holder at its due", alone).isEqualTo(1);
      assertThat(x.tally((slow + 1) * 1000, slow + 1, 0).waiting()).isZero();
    }
  }

  /** What a poll of {@link #pollAFullRoom} was answered: holder i (0: the one at its own pace) at second now. */
  private interface Answered {
    void answer(int holder, long now, Decision d);
  }

  /**
   * One node, limit 10, sessions of three minutes that nobody renews, full: {@code users}
   * newcomers queue half a second apart; the first polls every {@code pace} seconds whatever it is
   * told, the others as told, each until it gets in, for at most 600 s (or until the first gets in,
   * with {@code untilFirstIn}). Every answer to a poll goes to {@code answered}. Returns the room's
   * configuration.
   */
  private static RoomConfig pollAFullRoom(int users, int pace, boolean untilFirstIn, Answered answered) {
    RoomConfig config = FULL_ROOM;
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom node = c.add("eu", "a");
    c.warmUp();
    c.fill(node);
    List<@Nullable String> tickets = new ArrayList<>();
    long[] nextPoll = new long[users];
    for (int i = 0; i < users; i++) {
      Decision d = node.decide(null);
      assertThat(d.outcome()).as("newcomer %s", i).isEqualTo(Decision.Outcome.QUEUE);
      tickets.add(d.ticket());
      nextPoll[i] = c.now() + (i == 0 ? pace : d.refreshSeconds());
      c.advance(Duration.ofMillis(500));
    }
    for (int s = 0; s < 600 && (untilFirstIn ? tickets.get(0) != null : tickets.stream().anyMatch(t -> t != null)); s++) {
      long now = c.now();
      for (int i = 0; i < users; i++) {
        String t = tickets.get(i);
        if (t == null || nextPoll[i] > now) {
          continue;
        }
        Decision d = node.decide(t);
        answered.answer(i, now, d);
        if (d.letsThrough()) {
          tickets.set(i, null);
        } else {
          tickets.set(i, d.ticket() != null ? d.ticket() : t);
          nextPoll[i] = now + (i == 0 ? pace : d.refreshSeconds());
        }
      }
      c.advance(Duration.ofSeconds(1));
    }
    return config;
  }
}
