package io.github.waitingroom.testsupport;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The shared Redis the tests use: {@code -Dwaitingroom.redisUri}, by default {@code
 * redis://127.0.0.1:6379}. Tests that share it keep to a key prefix of their own ({@link
 * #uniquePrefix}) and delete its keys when done ({@link #deleteKeys}); tests that stop, restart or
 * flush Redis use a {@link RedisServerProcess} instead. The methods that talk to Redis use Lettuce,
 * which the calling module has on its test classpath.
 */
public final class LocalRedis {
  /** The URI of the shared Redis. */
  public static final String URI_STRING = System.getProperty("waitingroom.redisUri", "redis://127.0.0.1:6379");

  private LocalRedis() {}

  /** Whether something answers on the shared Redis's address. */
  public static boolean reachable() {
    URI u = URI.create(URI_STRING);
    int port = u.getPort() < 0 ? 6379 : u.getPort();
    String host = u.getHost() == null ? "127.0.0.1" : u.getHost();
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 2000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Skips the calling test, or fails it where services are required ({@link Services}), when the
   * shared Redis does not answer.
   *
   * @return the shared Redis's URI
   */
  public static String require() {
    Services.assume(reachable(), "Redis at " + URI_STRING + " is unreachable");
    return URI_STRING;
  }

  /** A key prefix that no other test run uses: {@code wr-test:<what>:<8 random hex digits>:}. */
  public static String uniquePrefix(String what) {
    return "wr-test:" + what + ":" + UUID.randomUUID().toString().substring(0, 8) + ":";
  }

  /** A plain Lettuce client, with a 5 s command timeout, for looking into the store from a test. */
  public static RedisClient adminClient(String uri) {
    RedisURI parsed = RedisURI.create(uri);
    parsed.setTimeout(Duration.ofSeconds(5));
    return RedisClient.create(parsed);
  }

  /** Deletes every key that starts with {@code prefix} in the shared Redis. */
  public static void deleteKeys(String prefix) {
    deleteKeys(URI_STRING, prefix);
  }

  /** Deletes every key that starts with {@code prefix} in the Redis at {@code uri}: the store loses the room. */
  public static void deleteKeys(String uri, String prefix) {
    RedisClient admin = adminClient(uri);
    try (StatefulRedisConnection<String, String> c = admin.connect()) {
      List<String> keys = c.sync().keys(prefix + "*");
      if (!keys.isEmpty()) {
        c.sync().del(keys.toArray(String[]::new));
      }
    } finally {
      admin.shutdown();
    }
  }
}
