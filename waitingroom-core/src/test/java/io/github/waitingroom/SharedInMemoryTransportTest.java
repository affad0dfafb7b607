package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.coordinator.InMemoryTransport;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Several nodes in one JVM share one limit through one in-memory transport. */
class SharedInMemoryTransportTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final InMemoryTransport transport = new InMemoryTransport(clock);
  private final RoomConfig config =
      RoomConfig.builder("shared")
          .totalActiveUsers(10)
          .newUsersPerMinute(10)
          .sessionDuration(Duration.ofMinutes(5))
          .build();

  private WaitingRoom node(String dc, String id) {
    return WaitingRoom.builder(config, KEYS)
        .clock(clock)
        .transport(transport)
        .dataCenter(dc)
        .nodeId(id)
        .backgroundSync(false)
        .build();
  }

  @Test
  void nodesSplitTheFreeSlotsAndSeeEachOthersUsers() {
    WaitingRoom a = node("eu", "a");
    WaitingRoom b = node("eu", "b");
    a.sync();
    b.sync();
    int admitted = 0;
    for (int i = 0; i < 20; i++) {
      admitted += a.decide(null).letsThrough() ? 1 : 0;
      admitted += b.decide(null).letsThrough() ? 1 : 0;
    }
    assertThat(admitted).isEqualTo(10);
    a.sync();
    b.sync();
    a.sync();
    assertThat(a.view().activeUsers()).isEqualTo(10);
    assertThat(a.view().waitingUsers()).isEqualTo(30);
    assertThat(b.view().activeUsers()).isEqualTo(10);
  }

  @Test
  void aNodeThatRestartsWithTheSameIdDoesNotEraseItsUsers() {
    WaitingRoom first = node("eu", "a");
    for (int i = 0; i < 4; i++) {
      assertThat(first.decide(null).letsThrough()).isTrue();
    }
    first.sync();
    first.close();
    WaitingRoom again = node("eu", "a");
    again.sync();
    assertThat(again.view().activeUsers()).isEqualTo(4);
    clock.advance(Duration.ofMinutes(6));
    again.sync();
    assertThat(again.view().activeUsers()).as("sessions expire by themselves").isZero();
  }

  @Test
  void dataCentersSeeEachOtherThroughTheGlobalScope() {
    WaitingRoom eu = node("eu", "a");
    WaitingRoom us = node("us", "a");
    for (int i = 0; i < 3; i++) {
      eu.decide(null);
    }
    eu.sync();
    us.sync();
    assertThat(us.view().activeUsers()).isEqualTo(3);
    assertThat(us.view().dataCenterNames()).containsExactly("eu", "us");
  }
}
