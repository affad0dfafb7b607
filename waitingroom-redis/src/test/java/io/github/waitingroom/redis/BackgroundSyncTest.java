package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import io.github.waitingroom.testsupport.LocalRedis;

/**
 * The background sync runs on its own thread, never on the threads that call decide(), four times
 * per epoch, and applies the plans it settles through the real Redis (on Redis's clock).
 */
class BackgroundSyncTest {
  private static final Duration EPOCH = Duration.ofMillis(100);

  @Test
  void syncsRunOnTheSyncThreadFourTimesPerEpochAndApplyPlansFromRedis() throws Exception {
    String uri = LocalRedis.require();
    String prefix = LocalRedis.uniquePrefix("background");
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
            return redis.exchange(room, pubs, retention);
          };
      String caller = Thread.currentThread().getName();
      try (WaitingRoom room =
          WaitingRoom.builder(config, MultiNodeSimulation.KEYS)
              .transport(recording)
              .syncInterval(EPOCH)
              .build()) {
        int builtWith = threads.size(); // build() runs the first sync on the caller's thread
        long firstPlan = room.status().planEpoch();
        long started = System.nanoTime();
        long deadline = started + TimeUnit.SECONDS.toNanos(60);
        Decision admitted = room.decide(null);
        // Polling for the background thread to have run, not waiting for time to pass.
        while ((threads.size() < builtWith + 12 || room.status().activeUsers() < 1) && System.nanoTime() < deadline) {
          Thread.sleep(5);
        }
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        List<String> seen = List.copyOf(threads);
        assertThat(seen.size()).isGreaterThanOrEqualTo(builtWith + 12);
        assertThat(seen.subList(builtWith, seen.size()))
            .allMatch(t -> t.equals("waitingroom-sync-" + config.roomId()))
            .doesNotContain(caller);
        // Four syncs per epoch, never more (a loaded machine may make fewer): the store's load
        // does not grow with traffic.
        long epochs = elapsedMillis / EPOCH.toMillis() + 2;
        assertThat((long) (seen.size() - builtWith)).as("syncs in %d ms", elapsedMillis).isLessThanOrEqualTo(4 * epochs + 2);
        assertThat(admitted.outcome()).isEqualTo(Decision.Outcome.ADMIT);
        // The sync thread tallied the admission, exchanged it through Redis and applied the plan.
        assertThat(room.status().activeUsers()).isEqualTo(1);
        assertThat(room.status().planEpoch()).isGreaterThan(firstPlan);
        assertThat(room.status().transportFailing()).isFalse();
        // The next sync aims at the next of 1/8, 3/8, 5/8, 7/8 of an epoch at least a quarter away
        // less its jitter of a sixteenth: within 1/16 and 7/16 of an epoch.
        for (int i = 0; i < 20; i++) {
          assertThat(room.nextSyncDelay()).isBetween(Duration.ofMillis(1), Duration.ofMillis(EPOCH.toMillis() / 4 * 7 / 4 + 1));
        }
      }
    } finally {
      RedisClient admin = LocalRedis.adminClient(uri);
      try (StatefulRedisConnection<String, String> c = admin.connect()) {
        RedisSupport.deleteKeys(c.sync(), prefix);
      } finally {
        admin.shutdown();
      }
    }
  }
}
