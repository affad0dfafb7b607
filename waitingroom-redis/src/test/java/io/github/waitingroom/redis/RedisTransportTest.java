package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.github.waitingroom.coordinator.Transport.Publication;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import io.github.waitingroom.testsupport.LocalRedis;

/** What the Redis transport writes, and how it rejects bad settings. */
class RedisTransportTest {
  @Test
  void badSettingsFailFastNamingTheSetting() {
    assertThatThrownBy(() -> RedisTransport.create("localhost:6379"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("uri");
    assertThatThrownBy(() -> RedisTransport.builder("redis://h").keyPrefix("a{b}:"))
        .hasMessageContaining("keyPrefix")
        .hasMessageContaining("a{b}:");
    assertThatThrownBy(() -> RedisTransport.builder("redis://h").commandTimeout(Duration.ofMillis(1)))
        .hasMessageContaining("commandTimeout")
        .hasMessageContaining("PT0.001S");
    assertThatThrownBy(() -> RedisTransport.create("http://:secret@host:6379"))
        .hasMessageContaining("uri must be a Redis URI")
        .hasMessageContaining("http://***@host:6379")
        .hasMessageNotContaining("secret");
  }

  @Test
  void overTheApplicationsClientItClosesOnlyItsOwnConnection() throws Exception {
    String uri = LocalRedis.require();
    String prefix = LocalRedis.uniquePrefix("app");
    RedisClient application = RedisClient.create(uri);
    try (StatefulRedisConnection<String, String> appConnection = application.connect()) {
      RedisTransport t = RedisTransport.builder(application).keyPrefix(prefix).build();
      assertThat(t.toString()).isEqualTo("RedisTransport[the application's RedisClient, prefix=" + prefix + "]");
      byte[] report = "r".getBytes(StandardCharsets.UTF_8);
      assertThat(t.exchange("shop", List.of(new Publication("global", "n1", report)), Duration.ofSeconds(30)).get("global"))
          .containsKey("n1");
      t.close();
      assertThatThrownBy(() -> t.exchange("shop", List.of(new Publication("global", "n1", report)), Duration.ofSeconds(30)))
          .isInstanceOf(java.io.IOException.class)
          .hasMessageContaining("closed");
      // The application's client and its own connection still work, and it can connect anew.
      assertThat(appConnection.sync().ping()).isEqualTo("PONG");
      try (StatefulRedisConnection<String, String> again = application.connect()) {
        assertThat(again.sync().keys(prefix + "*")).isNotEmpty();
        RedisSupport.deleteKeys(again.sync(), prefix);
      }
    } finally {
      application.shutdown();
    }
  }

  @Test
  void overTheApplicationsClientCallsGiveUpAfterTheCommandTimeoutNotTheClients() throws Exception {
    String uri = LocalRedis.require();
    int port = java.net.URI.create(uri).getPort();
    try (PausableProxy proxy = new PausableProxy("127.0.0.1", port < 0 ? 6379 : port)) {
      // Lettuce's default timeout is 60 s; the transport's own, 300 ms, must govern its calls.
      RedisClient application = RedisClient.create(proxy.uri());
      try (RedisTransport t = RedisTransport.builder(application).commandTimeout(Duration.ofMillis(300)).build()) {
        byte[] report = "r".getBytes(StandardCharsets.UTF_8);
        List<Publication> publish = List.of(new Publication("global", "n1", report));
        t.exchange("timeout-room", publish, Duration.ofSeconds(5));
        proxy.pause();
        assertTimeoutPreemptively(
            Duration.ofSeconds(20),
            () -> assertThatThrownBy(() -> t.exchange("timeout-room", publish, Duration.ofSeconds(5)))
                .isInstanceOf(java.io.IOException.class));
      } finally {
        proxy.resume();
        application.shutdown();
      }
    }
  }

  @Test
  void overTheApplicationsClientTheConnectTimeoutIsTheClients() {
    RedisClient application = RedisClient.create("redis://127.0.0.1:6379");
    try {
      assertThatThrownBy(() -> RedisTransport.builder(application).connectTimeout(Duration.ofSeconds(1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("connectTimeout");
    } finally {
      application.shutdown();
    }
  }

  @Test
  void sentinelAndClusterUrisMakeTransportsThatConnectLazily() {
    try (RedisTransport sentinel = RedisTransport.create("redis-sentinel://127.0.0.1:26379,127.0.0.1:26380/?sentinelMasterId=mymaster");
        RedisTransport cluster = RedisTransport.create("redis-cluster://127.0.0.1:7000,127.0.0.1:7001")) {
      assertThat(sentinel.toString()).contains("redis-sentinel://");
      assertThat(cluster.toString()).contains("redis-cluster://");
    }
  }

  @Test
  void aRoomsKeysShareOneClusterSlotAndExpireByThemselves() throws Exception {
    String uri = LocalRedis.require();
    String prefix = LocalRedis.uniquePrefix("keys");
    RedisClient admin = LocalRedis.adminClient(uri);
    try (RedisTransport t = RedisTransport.builder(uri).keyPrefix(prefix).build();
        StatefulRedisConnection<String, String> c = admin.connect()) {
      byte[] report = "r".getBytes(StandardCharsets.UTF_8);
      t.exchange(
          "shop",
          List.of(new Publication("dc:eu-west", "n1#a", report), new Publication("global", "eu-west", report)),
          Duration.ofSeconds(30));
      RedisCommands<String, String> redis = c.sync();
      List<String> keys = redis.keys(prefix + "*");
      assertThat(keys)
          .containsExactlyInAnyOrder(
              prefix + "{shop}:v:dc:eu-west", prefix + "{shop}:e:dc:eu-west",
              prefix + "{shop}:v:global", prefix + "{shop}:e:global");
      Set<Integer> slots = keys.stream().map(SlotHash::getSlot).collect(Collectors.toSet());
      assertThat(slots).containsExactly(SlotHash.getSlot("shop"));
      for (String key : keys) {
        assertThat(redis.pttl(key)).as("TTL of %s", key).isBetween(30_000L, 31_000L);
      }
      assertThat(redis.zscore(prefix + "{shop}:e:global", "eu-west")).isNotNull();
      RedisSupport.deleteKeys(redis, prefix);
    } finally {
      admin.shutdown();
    }
  }

  /**
   * Issue 42: anyone who can write to Redis could put a 60 MB value in a scope, which the script
   * handed to every node at every sync (each sync timed out). The script now deletes a value
   * longer than any node writes, and one under an overlong name, without reading it.
   */
  @Test
  void valuesLongerThanAnyNodeWritesAreDeletedUnread() throws Exception {
    String uri = LocalRedis.require();
    String prefix = LocalRedis.uniquePrefix("huge");
    RedisClient admin = LocalRedis.adminClient(uri);
    try (RedisTransport t = RedisTransport.builder(uri).keyPrefix(prefix).commandTimeout(Duration.ofSeconds(5)).build();
        StatefulRedisConnection<String, String> c = admin.connect()) {
      RedisCommands<String, String> redis = c.sync();
      String values = ExchangeScript.valuesKey(prefix, "shop", "global");
      String expiry = ExchangeScript.expiryKey(prefix, "shop", "global");
      long far = System.currentTimeMillis() + 600_000;
      redis.hset(values, "huge", "x".repeat(60 << 20));
      redis.zadd(expiry, far, "huge");
      redis.hset(values, "largest", "x".repeat(ExchangeScript.MAX_VALUE_BYTES));
      redis.zadd(expiry, far, "largest");
      String longName = "n".repeat(ExchangeScript.MAX_NAME_BYTES + 1);
      redis.hset(values, longName, "r");
      redis.zadd(expiry, far, longName);
      byte[] report = "r".getBytes(StandardCharsets.UTF_8);
      var answer = t.exchange("shop", List.of(new Publication("global", "eu-west", report)), Duration.ofSeconds(30));
      assertThat(answer.get("global")).containsOnlyKeys("eu-west", "largest");
      assertThat(redis.hexists(values, "huge")).isFalse();
      assertThat(redis.zscore(expiry, "huge")).isNull();
      assertThat(redis.hexists(values, longName)).isFalse();
      RedisSupport.deleteKeys(redis, prefix);
    } finally {
      admin.shutdown();
    }
  }
}
