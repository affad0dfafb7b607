package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.WaitingRoom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Live settings over the real Redis, with nodes in three data centers: a change made on any node
 * is in force on every node at the same sync point, within two sync intervals, survives the loss
 * of the room's keys in Redis, and reaches a node that starts afterwards. Time is virtual (see
 * {@link RedisNodes}); the store is real.
 */
class LiveSettingsOverRedisTest {
  private static final Duration EPOCH = Duration.ofSeconds(1);

  private String uri = "";
  private String prefix = "";
  private @Nullable RedisNodes nodes;

  @BeforeEach
  void setUp() {
    uri = RedisSupport.requireRedis();
    prefix = RedisSupport.uniquePrefix("live-settings");
  }

  @AfterEach
  void tearDown() throws Exception {
    RedisNodes n = nodes;
    if (n != null) {
      n.close();
    }
  }

  @Test
  void aChangeOnOneNodeIsInForceOnEveryNodeOfEveryDataCenterAtOnce() {
    RoomConfig config = RoomConfig.builder("live-" + UUID.randomUUID().toString().substring(0, 8))
        .totalActiveUsers(3)
        .newUsersPerMinute(3)
        .sessionDuration(Duration.ofMinutes(5))
        .build();
    RedisNodes room = new RedisNodes(config, uri, prefix, EPOCH, RedisNodes.Time.VIRTUAL);
    nodes = room;
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
    RedisClient admin = RedisSupport.adminClient(uri);
    try (StatefulRedisConnection<String, String> c = admin.connect()) {
      RedisSupport.deleteKeys(c.sync(), prefix);
    } finally {
      admin.shutdown();
    }
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
}
