package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.testsupport.LocalRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 42 on the real Redis: whoever can write to the room's keys but holds none of its ticket
 * keys can delay admissions, never push the room past its limits. Four nodes in two data centers;
 * just before each node's exchange the writer deletes every value of the room's scopes (the
 * settings documents aside), or overwrites each with bytes that do not open, so that every node
 * reads only its own value, as a plain {@code HDEL} or {@code HSET} loop against the server does
 * at its luckiest. Before, each node then planned as the room's only node (a loop of {@code HSET}
 * held 4 nodes at 6 of a limit of 4 for 200 s). The ground truth is every admitted visitor whose
 * session still runs; time is virtual (see {@link RedisNodes}).
 */
class StoreWriterOverRedisTest {
  enum Attack { DELETE, OVERWRITE }

  @ParameterizedTest
  @EnumSource(Attack.class)
  void aWriterWithoutTheKeysNeverPushesTheRoomPastItsLimitAndThePlansComeBack(Attack attack) throws Exception {
    String uri = LocalRedis.require();
    String prefix = LocalRedis.uniquePrefix("writer");
    RoomConfig config = RoomConfig.builder("writer-" + UUID.randomUUID().toString().substring(0, 8))
        .totalActiveUsers(40)
        .newUsersPerMinute(40)
        .sessionDuration(Duration.ofMinutes(5))
        .refreshInterval(Duration.ofSeconds(10))
        .build();
    RedisClient admin = LocalRedis.adminClient(uri);
    try (RedisNodes nodes = new RedisNodes(config, uri, prefix, Duration.ofSeconds(1), RedisNodes.Time.VIRTUAL);
        StatefulRedisConnection<String, String> c = admin.connect()) {
      RedisCommands<String, String> redis = c.sync();
      boolean[] on = {false};
      Runnable writer = () -> {
        if (!on[0]) {
          return;
        }
        for (String scope : List.of("dc:dc-a", "dc:dc-b", "global")) {
          String values = ExchangeScript.valuesKey(prefix, config.roomId(), scope);
          for (String who : redis.hkeys(values)) {
            if (who.startsWith(Coordinator.DOCUMENT)) {
              continue;
            }
            if (attack == Attack.DELETE) {
              redis.hdel(values, who);
            } else {
              redis.hset(values, who, "not sealed");
            }
          }
        }
      };
      List<RedisNodes.Node> all = List.of(nodes.add("dc-a", "a1"), nodes.add("dc-a", "a2"), nodes.add("dc-b", "b1"),
          nodes.add("dc-b", "b2"));
      all.forEach(n -> n.transport.before = writer);
      Crowd crowd = new Crowd(config, 42, 30, 120);
      Function<Object, WaitingRoom> route = h -> ((RedisNodes.Node) h).room;
      long peak = 0;
      for (int s = 0; s < 150; s++) {
        on[0] = s >= 30 && s < 120; // the room fills, then 90 s of the writer, then 30 s without
        if (s == 110) {
          assertThat(all).as("nobody plans while the writer works").allSatisfy(n ->
              assertThat(n.room.status().planEpoch()).isLessThan(nodes.nowSecond() - 60));
        }
        long now = nodes.nowSecond();
        for (RedisNodes.Node n : all) {
          crowd.arrive(n, now, route);
        }
        crowd.visitDue(now, route);
        peak = Math.max(peak, crowd.active(now));
        assertThat(crowd.active(now)).as("ground-truth active users at second %d", s)
            .isLessThanOrEqualTo(config.totalActiveUsers());
        nodes.advance(Duration.ofSeconds(1));
      }
      assertThat(peak).as("the room was full").isEqualTo(config.totalActiveUsers());
      for (RedisNodes.Node n : all) {
        assertThat(n.room.status().planEpoch()).as("%s plans again once the writer stops", n)
            .isGreaterThan(nodes.nowSecond() - 10);
      }
    } finally {
      admin.shutdown();
    }
  }
}
