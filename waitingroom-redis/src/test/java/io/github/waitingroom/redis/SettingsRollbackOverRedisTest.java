package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.Decision;
import io.github.waitingroom.FailurePolicy;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.testsupport.LocalRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 42 on the real Redis: whoever can write to the room's keys but holds none of its keys
 * cannot roll its settings back. A sealed settings document opens on every node, an old one too,
 * so such a writer can copy version 1 while it is current and, once the room runs version 2,
 * delete version 2 and write version 1 back just before a starting node's every exchange ({@code
 * HDEL} and {@code HSET} on the room's global scope): that node reads only version 1. Every report
 * carries the highest settings version its node holds, so the starting node knows the room runs a
 * newer one and plans nothing (so lets nobody in) until it reads it, which the running nodes put
 * back at their next exchange once the writer stops. Time is virtual (see {@link RedisNodes}).
 */
class SettingsRollbackOverRedisTest {
  private static final String V1 = Coordinator.DOCUMENT + "settings.1";
  private static final String V2 = Coordinator.DOCUMENT + "settings.2";

  @Test
  void aNodeShownAnOldSettingsDocumentLetsNobodyInUntilItReadsTheRoomsVersion() throws Exception {
    String uri = LocalRedis.require();
    String prefix = LocalRedis.uniquePrefix("rollback");
    RoomConfig config = RoomConfig.builder("rollback-" + UUID.randomUUID().toString().substring(0, 8))
        .totalActiveUsers(20)
        .newUsersPerMinute(20)
        .sessionDuration(Duration.ofMinutes(1))
        .build();
    String global = ExchangeScript.valuesKey(prefix, config.roomId(), Coordinator.GLOBAL_SCOPE);
    RedisClient admin = LocalRedis.adminClient(uri);
    try (RedisNodes nodes = new RedisNodes(config, uri, prefix, Duration.ofSeconds(1), RedisNodes.Time.VIRTUAL);
        StatefulRedisConnection<String, byte[]> c = admin.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE))) {
      RedisCommands<String, byte[]> redis = c.sync();
      RedisNodes.Node a = nodes.add("eu", "a");
      RedisNodes.Node b = nodes.add("eu", "b");
      nodes.advance(Duration.ofSeconds(10));
      a.room.updateSettings(RoomSettings.fromJson("{\"totalActiveUsers\": 20}", a.room.latestSettings()));
      nodes.advance(Duration.ofSeconds(5));
      // What the writer copies while version 1 is current: the sealed bytes, which it cannot open.
      byte[] version1 = redis.hget(global, V1);
      assertThat(version1).as("version 1 in the store").isNotNull();
      // Version 2 closes the room: everyone who comes queues.
      a.room.updateSettings(RoomSettings.fromJson("{\"queueAll\": true}", a.room.latestSettings()));
      nodes.advance(Duration.ofSeconds(5));
      assertThat(b.room.settings().version()).isEqualTo(2);

      boolean[] on = {true};
      RedisNodes.Node late = nodes.add("eu", "late", Duration.ZERO, FailurePolicy.FAIL_CLOSED, uri, t -> t.before = () -> {
        if (on[0]) {
          redis.hdel(global, V2);
          redis.hset(global, V1, version1);
        }
      });
      int admitted = 0;
      for (int s = 0; s < 60; s++) {
        for (RedisNodes.Node n : List.of(a, b, late)) {
          if (n.room.decide(null).outcome() == Decision.Outcome.ADMIT) {
            admitted++;
          }
        }
        nodes.advance(Duration.ofSeconds(1));
      }
      assertThat(late.room.settings().version()).as("the settings the late node read").isEqualTo(1);
      // Planning by version 1, the late node would let newcomers in while the room queues everyone.
      assertThat(admitted).as("newcomers let in within a minute by a room that queues everyone").isZero();
      assertThat(late.room.status().planEpoch()).as("the late node's plans").isEqualTo(Long.MIN_VALUE);

      // The writer stops: the others put version 2 back, the late node reads it and plans again.
      on[0] = false;
      nodes.advance(Duration.ofSeconds(10));
      assertThat(late.room.settings().version()).isEqualTo(2);
      assertThat(late.room.status().plansStalled()).isFalse();
    } finally {
      admin.shutdown();
    }
  }
}
