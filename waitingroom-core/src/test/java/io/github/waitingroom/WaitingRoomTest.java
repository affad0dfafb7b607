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
}
