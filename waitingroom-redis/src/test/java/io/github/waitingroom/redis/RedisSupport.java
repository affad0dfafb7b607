package io.github.waitingroom.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * The Redis the tests use ({@code -Dwaitingroom.redisUri}, default {@code redis://127.0.0.1:6379}).
 * When it cannot be reached the tests are skipped with a message, unless the environment demands
 * services ({@code WAITINGROOM_REQUIRE_SERVICES=true} or {@code -Dwaitingroom.requireServices=true}),
 * in which case they fail.
 */
final class RedisSupport {
  static final String URI_STRING = System.getProperty("waitingroom.redisUri", "redis://127.0.0.1:6379");

  private RedisSupport() {}

  static boolean servicesRequired() {
    return "true".equalsIgnoreCase(System.getenv("WAITINGROOM_REQUIRE_SERVICES"))
        || Boolean.getBoolean("waitingroom.requireServices");
  }

  /** Skips (or fails, when services are required) the calling test if Redis does not answer. */
  static String requireRedis() {
    URI u = URI.create(URI_STRING);
    int port = u.getPort() < 0 ? 6379 : u.getPort();
    String host = u.getHost() == null ? "127.0.0.1" : u.getHost();
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 2000);
    } catch (IOException e) {
      String message = "Redis at " + URI_STRING + " is unreachable (" + e.getMessage() + ")";
      if (servicesRequired()) {
        throw new AssertionError(message + " and WAITINGROOM_REQUIRE_SERVICES demands it");
      }
      Assumptions.abort(message + ": Redis tests skipped; set WAITINGROOM_REQUIRE_SERVICES=true to fail instead");
    }
    return URI_STRING;
  }

  /** A key prefix no other run uses. */
  static String uniquePrefix(String what) {
    return "wr-test:" + what + ":" + UUID.randomUUID().toString().substring(0, 8) + ":";
  }

  /** A plain Lettuce client for test-side inspection of the store. */
  static RedisClient adminClient(String uri) {
    RedisURI parsed = RedisURI.create(uri);
    parsed.setTimeout(Duration.ofSeconds(5));
    return RedisClient.create(parsed);
  }

  /** Deletes every key that starts with {@code prefix}. */
  static void deleteKeys(RedisCommands<String, String> redis, String prefix) {
    for (String key : redis.keys(prefix + "*")) {
      redis.del(key);
    }
  }

  /** Deletes every key that starts with {@code prefix} in the Redis at {@code uri}: the store loses the room. */
  static void deleteKeys(String uri, String prefix) {
    RedisClient admin = adminClient(uri);
    try (io.lettuce.core.api.StatefulRedisConnection<String, String> c = admin.connect()) {
      deleteKeys(c.sync(), prefix);
    } finally {
      admin.shutdown();
    }
  }

  /**
   * Makes the transport's values of one prefix behave as if {@code time} had passed on the
   * server, by moving their stored expiry times back.
   */
  static void elapse(StatefulRedisConnection<String, String> admin, String prefix, Duration time) {
    RedisCommands<String, String> redis = admin.sync();
    for (String key : redis.keys(prefix + "*:e:*")) {
      for (String member : redis.zrange(key, 0, -1)) {
        redis.zincrby(key, -time.toMillis(), member);
      }
    }
  }
}
