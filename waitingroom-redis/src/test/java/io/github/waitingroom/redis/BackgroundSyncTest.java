package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The background sync runs on its own thread, never on the threads that call decide(). */
class BackgroundSyncTest {
  @Test
  void syncsRunOnTheSyncThreadWithAnAdaptiveJitteredDelay() throws Exception {
    String uri = RedisSupport.requireRedis();
    String prefix = RedisSupport.uniquePrefix("background");
    List<String> threads = new CopyOnWriteArrayList<>();
    RoomConfig config =
        RoomConfig.builder("background-" + UUID.randomUUID().toString().substring(0, 8))
            .totalActiveUsers(100)
            .newUsersPerMinute(100)
            .sessionDuration(Duration.ofMinutes(1))
            .build();
    try (RedisTransport redis = RedisTransport.builder(uri).keyPrefix(prefix).build()) {
      Transport recording =
          (room, pubs, retention) -> {
            threads.add(Thread.currentThread().getName());
            Map<String, Map<String, byte[]>> answer = redis.exchange(room, pubs, retention);
            return answer;
          };
      String caller = Thread.currentThread().getName();
      try (WaitingRoom room =
          WaitingRoom.builder(config, MultiNodeSimulation.KEYS)
              .transport(recording)
              .syncInterval(Duration.ofMillis(40))
              .syncIntervalBounds(Duration.ofMillis(20), Duration.ofMillis(160))
              .build()) {
        int builtWith = threads.size(); // build() runs the first sync on the caller's thread
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (threads.size() < builtWith + 5 && System.nanoTime() < deadline) {
          room.decide(null);
          Thread.sleep(5); // polling for the background thread to have run, not waiting for time
        }
        List<String> seen = List.copyOf(threads);
        assertThat(seen.size()).isGreaterThanOrEqualTo(builtWith + 5);
        assertThat(seen.subList(builtWith, seen.size()))
            .allMatch(t -> t.equals("waitingroom-sync-" + config.roomId()))
            .doesNotContain(caller);
        assertThat(room.nextSyncDelay()).isBetween(Duration.ofMillis(20), Duration.ofMillis(160));
      }
    } finally {
      RedisClient admin = RedisSupport.adminClient(uri);
      try (StatefulRedisConnection<String, String> c = admin.connect()) {
        RedisSupport.deleteKeys(c.sync(), prefix);
      } finally {
        admin.shutdown();
      }
    }
  }
}
