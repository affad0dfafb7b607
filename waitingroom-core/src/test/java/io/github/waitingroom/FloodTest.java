package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.coordinator.InMemoryTransport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Issue 12: a flood of 100,000 requests without a cookie that never come back, into a room with a
 * line of honest users who poll as they are told. A place that is never polled again counts in
 * the line (and in what others are told) for at most 2 x {@value WaitingRoom#NEWCOMER_REFRESH_SECONDS}
 * + 2 s after its arrival, plus the lag of the plans (a plan counts the tally of the epoch before
 * it), and the node forgets it as soon as it no longer counts. The honest users who arrived before
 * the flood are admitted as without it. Each run is made twice with the same seed, with and
 * without the flood.
 */
class FloodTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");
  private static final int FLOOD = 100_000;
  /** The flood: spread over these seconds (so that it is the usual rate, not a surge, after its first). */
  private static final long FLOOD_FROM = 120;
  private static final long FLOOD_TO = 140;
  private static final long HONEST_UNTIL = 200;
  private static final long END = 450;
  /** How long a place that is never polled again counts: its due, and the plan's lag behind the tally. */
  private static final long BOUND = 2 * WaitingAnswer.NEWCOMER_REFRESH_SECONDS + 2 + 3;

  private static final Run base = run(false);
  private static final Run flooded = run(true);

  /** One honest user. */
  private static final class User {
    final long arrival;
    @org.jspecify.annotations.Nullable String ticket;
    long next;
    long admitted = -1;
    long firstAhead = -1;

    User(long arrival) {
      this.arrival = arrival;
      this.next = arrival;
    }
  }

  /** Per second: the plan's waiting users, the honest users waiting, and the places the node remembers. */
  private record Second(long t, long planWaiting, long honestWaiting, long remembered) {}

  private record Run(List<User> users, List<Second> seconds) {}

  private static Run run(boolean flood) {
    RoomConfig config = RoomConfig.builder("flood").totalActiveUsers(20).newUsersPerMinute(20)
        .sessionDuration(Duration.ofMinutes(1)).refreshInterval(Duration.ofSeconds(20)).build();
    ManualClock clock = new ManualClock(START);
    Random tie = new Random(7);
    WaitingRoom room = WaitingRoom.builder(config, KEYS).clock(clock).transport(new InMemoryTransport(clock))
        .backgroundSync(false).random(tie).build();
    for (int i = 0; i < 24; i++) {
      clock.advance(Duration.ofMillis(250));
      room.sync();
    }
    long t0 = clock.instant().getEpochSecond();
    List<User> users = new ArrayList<>();
    List<Second> seconds = new ArrayList<>();
    int sent = 0;
    for (long q = 0; q < END * 4; q++) {
      long t = t0 + q / 4;
      if (q % 4 == 0 && t - t0 < HONEST_UNTIL && (t - t0) % 3 == 0) {
        users.add(new User(t)); // one honest arrival every 3 s: 20 a minute for a room that admits about 12
      }
      for (User u : users) {
        if (u.next == t && q % 4 == 0) {
          Decision d = room.decide(u.ticket);
          u.ticket = d.ticket() != null ? d.ticket() : u.ticket;
          if (d.letsThrough()) {
            u.admitted = u.admitted < 0 ? t : u.admitted;
            u.next = t - u.admitted < 30 ? t + 10 : Long.MAX_VALUE; // browses 30 s, then leaves
          } else {
            u.firstAhead = u.firstAhead < 0 ? d.usersAhead() : u.firstAhead;
            u.next = t + Math.max(1, d.refreshSeconds());
          }
        }
      }
      long s = t - t0;
      if (flood && s >= FLOOD_FROM && s < FLOOD_TO) {
        long quarters = (FLOOD_TO - FLOOD_FROM) * 4;
        long target = FLOOD * ((s - FLOOD_FROM) * 4 + q % 4 + 1) / quarters;
        for (; sent < target; sent++) {
          room.decide(null, null);
        }
      }
      clock.advance(Duration.ofMillis(250));
      room.sync();
      if (q % 4 == 3) {
        long honest = users.stream().filter(u -> u.admitted < 0).count();
        seconds.add(new Second(s + 1, room.status().waitingUsers(), honest, Inside.remembered(room)));
      }
    }
    assertThat(sent).isEqualTo(flood ? FLOOD : 0);
    return new Run(users, seconds);
  }

  @Test
  void floodHoldersCountInTheLineOnlyUntilTheirFirstDue() {
    long perSecond = FLOOD / (FLOOD_TO - FLOOD_FROM);
    for (Second s : flooded.seconds()) {
      // The plan counts the line of a tally a second or two old: a few honest users more or less.
      long honest = s.honestWaiting();
      if (s.t() >= FLOOD_FROM && s.t() < FLOOD_TO + BOUND) {
        assertThat(s.planWaiting()).as("the line at %d s", s.t()).isLessThanOrEqualTo(honest + 3 + perSecond * BOUND);
      } else {
        assertThat(s.planWaiting()).as("the line at %d s", s.t()).isBetween(honest - 3, honest + 3);
      }
    }
    assertThat(flooded.seconds().get((int) FLOOD_TO).planWaiting()).as("the flood is counted at all")
        .isGreaterThan(perSecond);
  }

  @Test
  void theNodeForgetsFloodPlacesOnceTheyNoLongerCount() {
    long perSecond = FLOOD / (FLOOD_TO - FLOOD_FROM);
    for (Second s : flooded.seconds()) {
      long without = base.seconds().get((int) s.t() - 1).remembered();
      if (s.t() >= FLOOD_FROM && s.t() < FLOOD_TO + BOUND) {
        assertThat(s.remembered()).as("places remembered at %d s", s.t()).isLessThanOrEqualTo(without + perSecond * BOUND);
      } else {
        assertThat(s.remembered()).as("places remembered at %d s", s.t()).isLessThanOrEqualTo(without + 2);
      }
    }
  }

  @Test
  void honestArrivalsAfterTheBoundAreToldWhatTheyWouldBeWithoutTheFlood() {
    for (int i = 0; i < base.users().size(); i++) {
      User b = base.users().get(i);
      User f = flooded.users().get(i);
      long s = f.arrival - base.users().get(0).arrival;
      if (s < FLOOD_FROM || s >= FLOOD_TO + BOUND) {
        assertThat(f.firstAhead).as("people ahead told to the honest arrival at %d s", s)
            .isBetween(b.firstAhead - 2, b.firstAhead + 2);
      }
    }
  }

  @Test
  void honestUsersAheadOfTheFloodAreAdmittedAsWithoutIt() {
    List<Long> without = new ArrayList<>();
    List<Long> with = new ArrayList<>();
    for (int i = 0; i < base.users().size(); i++) {
      User b = base.users().get(i);
      User f = flooded.users().get(i);
      if (b.arrival - base.users().get(0).arrival >= FLOOD_FROM) {
        break;
      }
      assertThat(b.admitted).as("honest user %d is admitted", i).isNotNegative();
      without.add(b.admitted);
      with.add(f.admitted);
    }
    assertThat(without).hasSizeGreaterThan(30);
    assertThat(with).as("admission times of the honest users who arrived before the flood").isEqualTo(without);
    assertThat(flooded.users()).as("every honest user gets in").allSatisfy(u -> assertThat(u.admitted).isNotNegative());
  }
}
