package io.github.waitingroom.redis;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;

/**
 * What this module's tests do to the shared Redis ({@link io.github.waitingroom.testsupport.LocalRedis})
 * beyond reaching it: delete a prefix's keys on a connection of their own, and age the transport's
 * stored values.
 */
final class RedisSupport {
  private RedisSupport() {}

  /** Deletes every key that starts with {@code prefix}. */
  static void deleteKeys(RedisCommands<String, String> redis, String prefix) {
    for (String key : redis.keys(prefix + "*")) {
      redis.del(key);
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
