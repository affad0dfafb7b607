package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A sale over the real Redis, with nodes in two data centers: an event's pre-queue holds everyone
 * on every node until its start, and a session the application ends on one node frees its slot
 * and is refused on the nodes of the other data center. Time is virtual (see {@link RedisNodes});
 * the store is real.
 */
class SaleOverRedisTest {
  private static final Duration EPOCH = Duration.ofSeconds(1);

  private String uri = "";
  private String prefix = "";
  private @Nullable RedisNodes nodes;

  @BeforeEach
  void setUp() {
    uri = RedisSupport.requireRedis();
    prefix = RedisSupport.uniquePrefix("sale");
  }

  @AfterEach
  void tearDown() throws Exception {
    RedisNodes n = nodes;
    if (n != null) {
      n.close();
    }
  }

  private RedisNodes room(int active) {
    RoomConfig config = RoomConfig.builder("sale-" + UUID.randomUUID().toString().substring(0, 8))
        .totalActiveUsers(active)
        .newUsersPerMinute(active)
        .sessionDuration(Duration.ofMinutes(5))
        .build();
    RedisNodes room = new RedisNodes(config, uri, prefix, EPOCH, RedisNodes.Time.VIRTUAL);
    nodes = room;
    room.add("eu", "eu-1");
    room.add("eu", "eu-2");
    room.add("us", "us-1");
    room.advance(Duration.ofSeconds(6));
    return room;
  }

  @Test
  void aPreQueueHoldsEveryNodeUntilTheStartAndThenTheLineMoves() {
    RedisNodes room = room(10);
    WaitingRoom operator = room.nodes.get(0).room;
    Instant now = room.sourceNow();
    operator.updateSettings(RoomSettings.fromJson("{\"events\": [{\"name\": \"drop\", \"prequeueStart\": \""
        + Instant.ofEpochSecond(now.getEpochSecond() + 4) + "\", \"start\": \""
        + Instant.ofEpochSecond(now.getEpochSecond() + 20) + "\", \"end\": \"" + Instant.ofEpochSecond(now.getEpochSecond() + 600)
        + "\", \"shuffleAtEventStart\": true}]}", operator.latestSettings()));
    room.advance(Duration.ofSeconds(6));
    List<String> line = new ArrayList<>();
    for (RedisNodes.Node n : room.nodes) {
      assertThat(n.room.status().queueingStatus()).as("on %s", n).isEqualTo("event_prequeueing");
      Decision d = n.room.decide(null);
      assertThat(d.outcome()).as("a newcomer on %s, the room empty", n).isEqualTo(Decision.Outcome.QUEUE);
      line.add(d.ticket());
    }
    int in = 0;
    for (int s = 0; s < 40 && in < line.size(); s += 2) {
      for (int i = 0; i < line.size(); i++) {
        if (line.get(i) == null) {
          continue;
        }
        Decision d = room.nodes.get((i + s / 2) % 3).room.decide(line.get(i));
        if (d.letsThrough()) {
          assertThat(room.sourceNow().getEpochSecond()).as("let in before the start").isGreaterThanOrEqualTo(now.getEpochSecond() + 20);
          line.set(i, null);
          in++;
        } else if (d.ticket() != null) {
          line.set(i, d.ticket());
        }
      }
      room.advance(Duration.ofSeconds(2));
    }
    assertThat(in).as("let in after the start").isEqualTo(3);
  }

  @Test
  void aSessionEndedInOneDataCenterFreesItsSlotAndIsRefusedInTheOther() {
    RedisNodes room = room(2);
    String a = room.nodes.get(0).room.decide(null).ticket();
    room.advance(Duration.ofSeconds(1));
    String b = room.nodes.get(2).room.decide(null).ticket();
    room.advance(Duration.ofSeconds(61)); // the limit per minute no longer holds anyone back
    String waiting = room.nodes.get(1).room.decide(null).ticket();
    assertThat(a).isNotNull();
    assertThat(b).isNotNull();
    assertThat(room.nodes.get(1).room.revoke(a)).isTrue();
    boolean admitted = false;
    for (int s = 0; s < 20 && !admitted; s += 2) {
      Decision d = room.nodes.get(s / 2 % 3).room.decide(waiting);
      admitted = d.letsThrough();
      waiting = d.ticket() != null ? d.ticket() : waiting;
      room.advance(Duration.ofSeconds(2));
    }
    assertThat(admitted).as("the next in line let in after the revoke").isTrue();
    assertThat(room.nodes.get(2).room.decide(a).letsThrough()).as("the ended ticket in the other data center").isFalse();
    assertThat(room.nodes.get(0).room.decide(b).letsThrough()).as("the other session").isTrue();
    assertThat(room.nodes.get(0).room.status().activeUsers()).isLessThanOrEqualTo(2);
  }
}
