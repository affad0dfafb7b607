package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import io.github.waitingroom.testsupport.LocalRedis;

/**
 * Live settings and a sale over the real Redis, with nodes in several data centers: a change made
 * on any node is in force on every node at the same sync point, within two sync intervals,
 * survives the loss of the room's keys in Redis, and reaches a node that starts afterwards; an
 * event's pre-queue holds every node until its start; a session the application ends in one data
 * center frees its slot and is refused in the other. Time is virtual (see
 * {@link RedisNodes}); the store is real.
 */
class LiveSettingsOverRedisTest {
  private static final Duration EPOCH = Duration.ofSeconds(1);

  @RegisterExtension final RedisNodesFixture fixture = new RedisNodesFixture("live-settings");

  @Test
  void aChangeOnOneNodeIsInForceOnEveryNodeOfEveryDataCenterAtOnce() {
    RoomConfig config =
        RedisNodesFixture.room("live").totalActiveUsers(3).newUsersPerMinute(3).sessionDuration(Duration.ofMinutes(5)).build();
    RedisNodes room = fixture.nodes(config, EPOCH);
    room.add("eu", "eu-1");
    room.add("eu", "eu-2");
    room.add("us", "us-1");
    room.add("ap", "ap-1");
    room.advance(Duration.ofSeconds(6));

    WaitingRoom operator = room.nodes.get(2).room;
    Instant from = operator.updateSettings(
        RoomSettings.fromJson("{\"queueingMethod\": \"reject\", \"totalActiveUsers\": 7}", operator.latestSettings()));
    int steps = 0;
    while (room.nodes.stream().allMatch(n -> n.room.settings().version() == 0)) {
      room.step();
      steps++;
      assertThat(steps).as("quarter epochs until the change is in force").isLessThanOrEqualTo(8);
    }
    assertThat(room.sourceNow()).isAfterOrEqualTo(from);
    for (RedisNodes.Node n : room.nodes) {
      assertThat(n.room.settings().version()).as("version on %s", n).isEqualTo(1);
      assertThat(n.room.decide(null).outcome()).as("a newcomer on %s", n).isEqualTo(Decision.Outcome.REJECT);
    }

    // Redis loses the room's keys: every node keeps the settings, and puts them back.
    LocalRedis.deleteKeys(fixture.uri(), fixture.prefix());
    room.advance(Duration.ofSeconds(2));
    for (RedisNodes.Node n : room.nodes) {
      assertThat(n.room.settings().version()).as("version on %s after the loss", n).isEqualTo(1);
    }
    // A node that starts now, in a data center of its own, gets them at its first syncs.
    RedisNodes.Node late = room.add("sa", "sa-1");
    room.advance(Duration.ofSeconds(1));
    assertThat(late.room.settings().version()).isEqualTo(1);
    assertThat(late.room.settings().totalActiveUsers()).isEqualTo(7);

    // And a second change, made on the newest node, reaches all five.
    late.room.updateSettings(RoomSettings.fromJson("{\"queueingMethod\": \"fifo\"}", late.room.latestSettings()));
    room.advance(Duration.ofSeconds(2));
    for (RedisNodes.Node n : room.nodes) {
      assertThat(n.room.settings().version()).as("version on %s", n).isEqualTo(2);
      assertThat(n.room.status().settingsVersion()).isEqualTo(2);
    }
  }

  /**
   * A user let in on {@code node}: at once if the node holds a slot for new arrivals, else from
   * the line at the next plan (which of a small room's nodes hold its slots depends on the split,
   * see {@code Plan#ARRIVALS_PER_NODE}); its ticket.
   */
  private static String admit(RedisNodes room, WaitingRoom node) {
    Decision d = node.decide(null);
    String ticket = d.ticket();
    for (int i = 0; i < 20 && !d.letsThrough(); i++) {
      room.advance(Duration.ofSeconds(1));
      d = node.decide(ticket);
      ticket = d.ticket() != null ? d.ticket() : ticket;
    }
    assertThat(d.letsThrough()).as("let in on %s", node.nodeId()).isTrue();
    return java.util.Objects.requireNonNull(ticket);
  }

  private RedisNodes room(int active) {
    RoomConfig config =
        RedisNodesFixture.room("sale").totalActiveUsers(active).newUsersPerMinute(active).sessionDuration(Duration.ofMinutes(5)).build();
    RedisNodes room = fixture.nodes(config, EPOCH);
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
    String a = admit(room, room.nodes.get(0).room);
    room.advance(Duration.ofSeconds(1));
    String b = admit(room, room.nodes.get(2).room);
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
