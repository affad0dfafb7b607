package io.github.waitingroom.redis;

import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.tck.TransportCompatibilityKit;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import io.github.waitingroom.testsupport.LocalRedis;
import io.github.waitingroom.testsupport.FreePorts;

/**
 * The Redis transport against the compatibility kit, on the real Redis. Time moves by shifting the
 * stored expiry times back (the script itself reads the server's clock).
 */
class RedisTransportCompatibilityTest extends TransportCompatibilityKit {
  private static final String PREFIX = LocalRedis.uniquePrefix("tck");
  private static String uri = LocalRedis.URI_STRING;
  private static RedisClient admin;
  private static StatefulRedisConnection<String, String> adminConnection;

  @BeforeAll
  static void connect() {
    uri = LocalRedis.require();
    admin = LocalRedis.adminClient(uri);
    adminConnection = admin.connect();
  }

  @AfterAll
  static void cleanUp() {
    if (adminConnection != null) {
      RedisSupport.deleteKeys(adminConnection.sync(), PREFIX);
      adminConnection.close();
      admin.shutdown();
    }
  }

  @Override
  protected Transport transport() {
    return RedisTransport.builder(uri).keyPrefix(PREFIX).build();
  }

  @Override
  protected void elapse(Duration time) {
    RedisSupport.elapse(adminConnection, PREFIX, time);
  }

  @Override
  protected Transport unreachableTransport() throws Exception {
    int port = FreePorts.closed();
    return RedisTransport.builder("redis://127.0.0.1:" + port)
        .keyPrefix(PREFIX)
        .commandTimeout(Duration.ofMillis(300))
        .build();
  }
}
