package io.github.waitingroom.redis;

import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.tck.TransportCompatibilityKit;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import io.github.waitingroom.testsupport.LocalRedis;
import io.github.waitingroom.testsupport.RedisClusterProcesses;

/**
 * The Redis transport against the compatibility kit on a private three-master Redis Cluster: the
 * room's hash tag keeps every key of one script call in one slot, whichever master owns it.
 */
class RedisClusterCompatibilityTest extends TransportCompatibilityKit {
  private static final String PREFIX = LocalRedis.uniquePrefix("cluster");
  private static @Nullable RedisClusterProcesses cluster;
  private static @Nullable RedisClusterClient admin;
  private static @Nullable StatefulRedisClusterConnection<String, String> adminConnection;
  private static @Nullable Path dir;

  @BeforeAll
  static void startCluster() throws Exception {
    dir = Files.createTempDirectory("wr-cluster");
    RedisClusterProcesses c = RedisClusterProcesses.start(dir);
    cluster = c;
    RedisClusterClient a = RedisClusterClient.create(c.lettuceUri());
    admin = a;
    adminConnection = a.connect();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (adminConnection != null) {
      adminConnection.close();
    }
    if (admin != null) {
      admin.shutdown();
    }
    if (cluster != null) {
      cluster.close();
    }
    if (dir != null) {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static RedisClusterProcesses cluster() {
    RedisClusterProcesses c = cluster;
    if (c == null) {
      throw new IllegalStateException("no cluster");
    }
    return c;
  }

  @Override
  protected Transport transport() {
    return RedisTransport.builder(cluster().uri()).keyPrefix(PREFIX).build();
  }

  @Override
  protected void elapse(Duration time) {
    StatefulRedisClusterConnection<String, String> c = adminConnection;
    if (c == null) {
      throw new IllegalStateException("no admin connection");
    }
    RedisAdvancedClusterCommands<String, String> redis = c.sync();
    for (String key : redis.keys(PREFIX + "*:e:*")) {
      for (String member : redis.zrange(key, 0, -1)) {
        redis.zincrby(key, -time.toMillis(), member);
      }
    }
  }
}
