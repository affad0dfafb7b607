package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * An operator reading the application's log sees the room open, the line start and the line end:
 * one line each, whatever the number of requests and syncs in between.
 */
class StateChangeLogTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  @Test
  void theRoomSaysWhenItOpensWhenQueueingStartsAndWhenItStops() {
    RoomConfig config = RoomConfig.builder("logs").totalActiveUsers(1).newUsersPerMinute(1)
        .sessionDuration(Duration.ofMinutes(2)).build();
    ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00.100Z"));
    WaitingRoom[] room = new WaitingRoom[1];
    String opened = Logs.during(() -> room[0] = WaitingRoom.builder(config, KEYS).clock(clock).backgroundSync(false)
        .nodeId("web-1").dataCenter("eu").build());
    assertThat(opened).contains("room 'logs' open on node 'web-1' of data center 'eu': 1 active users, 1 new users a minute");
    try (WaitingRoom r = room[0]) {
      String during =
          Logs.during(
              () -> {
                assertThat(r.decide(null).letsThrough()).isTrue();
                String waiting = r.decide(null).ticket();
                for (int quarter = 0; quarter < 4 * 30; quarter++) { // 30 s: the holder polls every 2 s
                  clock.advance(Duration.ofMillis(250));
                  r.sync();
                  if (quarter % 8 == 0) {
                    assertThat(r.decide(waiting).letsThrough()).isFalse();
                  }
                }
                assertThat(r.status().waitingUsers()).as("the holder polls: the line shows it").isEqualTo(1);
                // The holder gives up; once it is out of the line and a minute has passed, the
                // room says the line is gone.
                for (int quarter = 0; quarter < 4 * 120; quarter++) {
                  clock.advance(Duration.ofMillis(250));
                  r.sync();
                }
              });
      assertThat(during.lines().filter(l -> l.contains("queueing started")).toList())
          .as(during).singleElement().asString().contains("room 'logs': queueing started: 1 waiting, 1 of 1 active users");
      assertThat(during.lines().filter(l -> l.contains("queueing stopped")).count()).as(during).isEqualTo(1);
      assertThat(during.lines().count()).as("nothing else, and nothing per request or per sync").isEqualTo(2);
    }
  }
}
