package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WaitingRoomTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final RoomConfig config =
      RoomConfig.builder("shop")
          .totalActiveUsers(3)
          .newUsersPerMinute(3)
          .sessionDuration(Duration.ofSeconds(60))
          .bucketWidth(Duration.ofSeconds(60))
          .sliceWidth(Duration.ofSeconds(10))
          .refreshInterval(Duration.ofSeconds(10))
          .build();

  private WaitingRoom room() {
    return WaitingRoom.builder(config, KEYS).clock(clock).backgroundSync(false).build();
  }

  @Test
  void admitsUpToTheLimitThenQueuesAndLetsTheLineInOldestFirst() {
    WaitingRoom room = room();
    List<String> admitted = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Decision d = room.decide(null);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.ADMIT);
      admitted.add(d.ticket());
    }
    Decision first = room.decide(null);
    assertThat(first.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    clock.advance(Duration.ofSeconds(30));
    first = room.decide(first.ticket());
    assertThat(first.outcome()).isEqualTo(Decision.Outcome.WAIT);
    clock.advance(Duration.ofSeconds(31));
    Decision second = room.decide(null);
    assertThat(second.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    room.sync();
    // The first three sessions count until 60 s after their last check-in, rounded up to a slice.
    first = room.decide(first.ticket());
    assertThat(first.outcome()).isEqualTo(Decision.Outcome.WAIT);
    assertThat(first.usersAhead()).isZero();
    room.sync();
    second = room.decide(second.ticket());
    assertThat(second.outcome()).isEqualTo(Decision.Outcome.WAIT);
    assertThat(second.usersAhead()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(20));
    room.sync();
    assertThat(room.view().activeUsers()).isZero();
    assertThat(room.view().waitingUsers()).isEqualTo(2);
    Decision later = room.decide(second.ticket());
    Decision earlier = room.decide(first.ticket());
    assertThat(earlier.outcome()).isEqualTo(Decision.Outcome.ADMIT);
    assertThat(later.outcome()).isEqualTo(Decision.Outcome.ADMIT);
    assertThat(room.decide(earlier.ticket()).outcome()).isEqualTo(Decision.Outcome.PASS);
  }

  @Test
  void estimatesTheWaitAsUsersAheadOverTheAdmissionRate() {
    WaitingRoom room = room();
    for (int i = 0; i < 3; i++) {
      assertThat(room.decide(null).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    }
    List<String> line = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      line.add(room.decide(null).ticket());
    }
    clock.advance(Duration.ofSeconds(10));
    room.sync();
    Decision d = room.decide(line.get(0));
    assertThat(d.outcome()).isEqualTo(Decision.Outcome.WAIT);
    // Four wait in one bucket: two ahead on average; three were admitted in the last minute.
    assertThat(d.usersAhead()).isEqualTo(2);
    assertThat(d.waitKnown()).isTrue();
    assertThat(d.waitSeconds()).isEqualTo(40);
    assertThat(d.waitMinutes()).isEqualTo(1);
    assertThat(d.refreshSeconds()).isEqualTo(10);
  }

  @Test
  void usersWhoMissedAPollDoNotCountAheadButKeepTheirPlace() {
    RoomConfig patient =
        config.toBuilder().sessionDuration(Duration.ofMinutes(10)).waitingTimeout(Duration.ofMinutes(5)).build();
    WaitingRoom room = WaitingRoom.builder(patient, KEYS).clock(clock).backgroundSync(false).build();
    for (int i = 0; i < 3; i++) {
      room.decide(null);
    }
    Decision gone = room.decide(null);
    clock.advance(Duration.ofSeconds(55));
    assertThat(room.decide(gone.ticket()).outcome()).isEqualTo(Decision.Outcome.WAIT); // its last poll
    clock.advance(Duration.ofSeconds(6));
    Decision later = room.decide(null);
    room.sync();
    assertThat(room.decide(later.ticket()).usersAhead()).as("polled 6 s ago: ahead").isEqualTo(1);
    clock.advance(Duration.ofSeconds(20));
    room.sync();
    later = room.decide(later.ticket());
    assertThat(later.outcome()).isEqualTo(Decision.Outcome.WAIT);
    assertThat(later.usersAhead()).as("missed a poll: no longer counted ahead").isZero();
    assertThat(room.view().waitingUsers()).as("both still hold a place").isEqualTo(2);
  }

  @Test
  void waitIsUnknownWithoutRecentAdmissions() {
    RoomConfig longSessions =
        config.toBuilder().totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(30)).build();
    WaitingRoom room = WaitingRoom.builder(longSessions, KEYS).clock(clock).backgroundSync(false).build();
    Decision inside = room.decide(null);
    assertThat(inside.outcome()).isEqualTo(Decision.Outcome.ADMIT);
    clock.advance(Duration.ofMinutes(6));
    room.sync();
    Decision queued = room.decide(null);
    assertThat(queued.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    assertThat(queued.waitKnown()).isFalse();
    assertThat(queued.waitSeconds()).isEqualTo(-1);
    assertThat(queued.waitMinutes()).isEqualTo(-1);
  }

  @Test
  void forgedTicketsAreNewArrivalsAtTheBackOfTheLine() {
    WaitingRoom room = room();
    for (int i = 0; i < 3; i++) {
      room.decide(null);
    }
    Decision waiting = room.decide(null);
    String sealed = java.util.Objects.requireNonNull(waiting.ticket());
    char flipped = sealed.charAt(20) == 'x' ? 'y' : 'x';
    String forged = sealed.substring(0, 20) + flipped + sealed.substring(21);
    Decision d = room.decide(forged);
    assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    Decision other = room.decide(new TicketCodec("other-room", KEYS).seal(Ticket.waiting(0, 0).admit(1)));
    assertThat(other.outcome()).isEqualTo(Decision.Outcome.QUEUE);
  }

  @Test
  void activeTicketsAreReissuedOncePerSliceAtMost() {
    WaitingRoom room = room();
    Decision admitted = room.decide(null);
    clock.advance(Duration.ofSeconds(3));
    Decision same = room.decide(admitted.ticket());
    assertThat(same.outcome()).isEqualTo(Decision.Outcome.PASS);
    assertThat(same.ticket()).isNull();
    clock.advance(Duration.ofSeconds(10));
    Decision moved = room.decide(admitted.ticket());
    assertThat(moved.outcome()).isEqualTo(Decision.Outcome.PASS);
    assertThat(moved.ticket()).isNotNull();
    assertThat(moved.ticketMaxAgeSeconds()).isEqualTo(60);
  }
}
