package io.github.waitingroom.redis;

import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.tck.TransportCompatibilityKit;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import io.github.waitingroom.testsupport.LocalRedis;
import io.github.waitingroom.testsupport.FreePorts;

/**
 * The Redis transport over a client the application already has ({@link
 * RedisTransport#builder(io.lettuce.core.AbstractRedisClient)}) against the compatibility kit, on
 * the real Redis: every node of the kit is a transport over the same application client, each with
 * a connection of its own.
 */
class ApplicationClientCompatibilityTest extends TransportCompatibilityKit {
  private static final String PREFIX = LocalRedis.uniquePrefix("tck-app");
  private static RedisClient application;
  private static RedisClient unreachable;
  private static StatefulRedisConnection<String, String> adminConnection;

  @BeforeAll
  static void connect() throws Exception {
    String uri = LocalRedis.require();
    // As an application would make it: Lettuce's defaults (auto-reconnect, a 60 s timeout).
    application = RedisClient.create(uri);
    adminConnection = application.connect();
    int port = FreePorts.closed();
    unreachable = RedisClient.create("redis://127.0.0.1:" + port);
    unreachable.setOptions(
        ClientOptions.builder().socketOptions(SocketOptions.builder().connectTimeout(Duration.ofMillis(300)).build()).build());
  }

  @AfterAll
  static void cleanUp() {
    if (adminConnection != null) {
      RedisSupport.deleteKeys(adminConnection.sync(), PREFIX);
      adminConnection.close();
    }
    if (application != null) {
      application.shutdown();
    }
    if (unreachable != null) {
      unreachable.shutdown();
    }
  }

  @Override
  protected Transport transport() {
    return RedisTransport.builder(application).keyPrefix(PREFIX).build();
  }

  @Override
  protected void elapse(Duration time) {
    RedisSupport.elapse(adminConnection, PREFIX, time);
  }

  @Override
  protected Transport unreachableTransport() {
    return RedisTransport.builder(unreachable).keyPrefix(PREFIX).commandTimeout(Duration.ofMillis(300)).build();
  }
}
