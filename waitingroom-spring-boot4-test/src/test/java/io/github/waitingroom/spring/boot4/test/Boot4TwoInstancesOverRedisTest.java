package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two instances of one Spring Boot 4 application, each a real {@code SpringApplication} on its own
 * Tomcat 11 (port 0), over the real Redis at 127.0.0.1:6379, configured by properties alone (a
 * Redis URI, a key prefix of this test's own, one keyset from an environment variable, a node id
 * each) share one room of one slot: the first visitor is let in on one instance, and the first
 * visitor of the other instance waits in line.
 */
class Boot4TwoInstancesOverRedisTest {
  private static final String KEYSET_VARIABLE = "WR_BOOT4_TWO_INSTANCES_KEYSET";

  private static ConfigurableApplicationContext start(String node, String prefix, String keyset) {
    return new SpringApplicationBuilder(Boot4DashboardTest.App.class)
        .web(WebApplicationType.SERVLET)
        .properties("server.port=0", "spring.main.banner-mode=off")
        .run(
            "--waitingroom.room-id=boot4-two",
            "--waitingroom.total-active-users=1",
            "--waitingroom.new-users-per-minute=1",
            "--waitingroom.session-duration=5m",
            "--waitingroom.store.redis-uri=redis://127.0.0.1:6379",
            "--waitingroom.store.key-prefix=" + prefix,
            "--waitingroom.keyset.env=" + KEYSET_VARIABLE,
            "--waitingroom.node-id=" + node,
            // What the environment variable holds on each instance (Spring reads it as a property).
            "--" + KEYSET_VARIABLE + "=" + keyset);
  }

  @Test
  void twoInstancesShareOneRoomThroughRedisFromPropertiesAlone() throws Exception {
    requireRedis();
    String prefix = "wr-test:boot4-two:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    String keyset = TicketKeys.toJson(TicketKeys.generate());
    try (ConfigurableApplicationContext a = start("a", prefix, keyset);
        ConfigurableApplicationContext b = start("b", prefix, keyset)) {
      assertThat(SpringBootVersion.getVersion()).startsWith("4.");
      for (int i = 0; i < 300 && !(status(a).roomNodes() == 2 && status(b).roomNodes() == 2); i++) {
        Thread.sleep(100);
      }
      assertThat(status(a).roomNodes()).isEqualTo(2);
      assertThat(status(b).roomNodes()).isEqualTo(2);

      HttpResponse<String> first = new Http(port(a)).get("/", "text/html");
      assertThat(first.body()).isEqualTo("boot 4 home");
      // Instance b's first visitor: b has let nobody in itself, but the room's one slot is taken.
      for (int i = 0; i < 300 && !(status(b).activeUsers() == 1 && status(b).freeSlots() == 0); i++) {
        Thread.sleep(100);
      }
      assertThat(new Http(port(b)).get("/", "text/html").body()).contains("You are in line");
      assertThat(status(b).localActiveUsers()).isZero();
    } finally {
      deleteKeys(prefix);
    }
  }

  private static int port(ConfigurableApplicationContext context) {
    return Objects.requireNonNull(((WebServerApplicationContext) context).getWebServer()).getPort();
  }

  private static RoomStatus status(ConfigurableApplicationContext context) {
    return context.getBean(WaitingRoom.class).status();
  }

  private static void requireRedis() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", 6379), 2000);
    } catch (IOException e) {
      if ("true".equalsIgnoreCase(System.getenv("WAITINGROOM_REQUIRE_SERVICES")) || Boolean.getBoolean("waitingroom.requireServices")) {
        throw new AssertionError("Redis at 127.0.0.1:6379 is unreachable and WAITINGROOM_REQUIRE_SERVICES demands it", e);
      }
      Assumptions.abort("Redis at 127.0.0.1:6379 is unreachable: skipped");
    }
  }

  private static void deleteKeys(String prefix) {
    RedisClient client = RedisClient.create("redis://127.0.0.1:6379");
    try (StatefulRedisConnection<String, String> c = client.connect()) {
      List<String> keys = c.sync().keys(prefix + "*");
      if (!keys.isEmpty()) {
        c.sync().del(keys.toArray(String[]::new));
      }
    } finally {
      client.shutdown();
    }
  }
}
