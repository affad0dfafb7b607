package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.spring.boot.actuate.WaitingRoomHealthIndicator;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two instances of one Spring Boot application, each a real {@code SpringApplication} on its own
 * embedded Tomcat (port 0), over the real Redis at 127.0.0.1:6379, configured by properties alone
 * (a Redis URI, a key prefix of this test's own, one keyset from an environment variable, a node id
 * each): they share one room of one slot. Both see two nodes; a visitor let in on one is let in on
 * the other with the same cookie; once the one slot is taken, newcomers wait on both. Two that
 * keep the default node id count apart all the same.
 */
class TwoInstancesOverRedisServerTest {
  private static final String KEYSET_VARIABLE = "WR_TWO_INSTANCES_KEYSET";
  private static final String QUEUED = "You are in line";

  private static ConfigurableApplicationContext start(String node, String prefix, String keyset, String... more) {
    List<String> args = new ArrayList<>(List.of(more));
    args.add("--waitingroom.node-id=" + node);
    return start(1, prefix, keyset, args.toArray(String[]::new));
  }

  private static ConfigurableApplicationContext start(int slots, String prefix, String keyset, String... more) {
    List<String> args = new ArrayList<>(List.of(
        "--waitingroom.room-id=two-instances",
        "--waitingroom.total-active-users=" + slots,
        "--waitingroom.new-users-per-minute=" + slots,
        "--waitingroom.session-duration=5m",
        "--waitingroom.refresh-interval=2s",
        "--waitingroom.store.redis-uri=redis://127.0.0.1:6379",
        "--waitingroom.store.key-prefix=" + prefix,
        "--waitingroom.keyset.env=" + KEYSET_VARIABLE,
        // What the environment variable holds on each instance (Spring reads it as a property).
        "--" + KEYSET_VARIABLE + "=" + keyset));
    args.addAll(List.of(more));
    return new SpringApplicationBuilder(ShopApplication.class)
        .web(WebApplicationType.SERVLET)
        .properties("server.port=0", "spring.main.banner-mode=off")
        .run(args.toArray(String[]::new));
  }

  private static int port(ConfigurableApplicationContext context) {
    return ((WebServerApplicationContext) context).getWebServer().getPort();
  }

  private static RoomStatus status(ConfigurableApplicationContext context) {
    return context.getBean(WaitingRoom.class).status();
  }

  /** Waits, a bounded number of syncs, for both instances to see the room as asked. */
  private static void awaitBoth(
      ConfigurableApplicationContext a, ConfigurableApplicationContext b, Predicate<RoomStatus> what, String description)
      throws InterruptedException {
    for (int i = 0; i < 300; i++) {
      if (what.test(status(a)) && what.test(status(b))) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("both instances never saw " + description + ": " + status(a) + " / " + status(b));
  }

  @Test
  void twoInstancesShareOneRoomThroughRedisFromPropertiesAlone() throws Exception {
    requireRedis();
    String prefix = "wr-test:two-instances:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    String keyset = TicketKeys.toJson(TicketKeys.generate());
    try (ConfigurableApplicationContext a = start("a", prefix, keyset);
        ConfigurableApplicationContext b = start("b", prefix, keyset)) {
      awaitBoth(a, b, s -> s.roomNodes() == 2 && !s.transportFailing(), "two live nodes");

      // One visitor, on instance a.
      Visitor first = new Visitor(port(a));
      HttpResponse<String> page = admit(first);

      // The same cookie opens on instance b: one keyset, one room (cookies go by host, not port).
      Visitor sameOnB = new Visitor(port(b));
      List<String> cookies = page.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("wr_two-instances=")).toList();
      assertThat(cookies).isNotEmpty();
      String ticket = cookies.get(0).substring(0, cookies.get(0).indexOf(';'));
      assertThat(sameOnB.get("/", "Cookie", ticket).body()).isEqualTo("shop home");

      // Both instances count that one visitor room-wide; the one slot is taken, so newcomers wait on both.
      awaitBoth(a, b, s -> s.activeUsers() == 1 && s.freeSlots() == 0, "the one active user and no free slot");
      assertThat(new Visitor(port(b)).get("/").body()).contains(QUEUED);
      assertThat(new Visitor(port(a)).get("/").body()).contains(QUEUED);
      assertThat(first.get("/api/items").body()).isEqualTo("[\"tea\",\"cups\"]");
    } finally {
      deleteKeys(prefix);
    }
  }

  /**
   * Two instances that leave {@code waitingroom.node-id} at its default, as a first deployment
   * does: they must not count as one node (the core gives each process's reports a suffix of its
   * own), so each counts its own visitor and both see both.
   */
  @Test
  void twoInstancesWithTheDefaultNodeIdCountApart() throws Exception {
    requireRedis();
    String prefix = "wr-test:two-instances:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    String keyset = TicketKeys.toJson(TicketKeys.generate());
    try (ConfigurableApplicationContext a = start(2, prefix, keyset);
        ConfigurableApplicationContext b = start(2, prefix, keyset)) {
      awaitBoth(a, b, s -> s.roomNodes() == 2 && !s.transportFailing(), "two live nodes");
      admit(new Visitor(port(a)));
      admit(new Visitor(port(b)));
      awaitBoth(a, b, s -> s.activeUsers() == 2 && s.freeSlots() == 0, "both active users and no free slot");
      assertThat(status(a).localActiveUsers()).isEqualTo(1);
      assertThat(status(b).localActiveUsers()).isEqualTo(1);
      assertThat(new Visitor(port(a)).get("/").body()).contains(QUEUED);
    } finally {
      deleteKeys(prefix);
    }
  }

  /**
   * Issue 42: two instances whose keysets share no key (one rotated in one step) cannot open each
   * other's values in the store. Neither plans as if it were alone: both stop planning, and the
   * health indicator of each says {@code DOWN} with {@code plansStalled}.
   */
  @Test
  void instancesWhoseKeysetsShareNoKeyStopPlanningAndReportDown() throws Exception {
    requireRedis();
    String prefix = "wr-test:two-keysets:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    String[] health = {"--management.health.waitingroom.enabled=true", "--waitingroom.sync-interval=100ms"};
    try (ConfigurableApplicationContext a = start("a", prefix, TicketKeys.toJson(TicketKeys.generate()), health);
        ConfigurableApplicationContext b = start("b", prefix, TicketKeys.toJson(TicketKeys.generate()), health)) {
      for (int i = 0; i < 300 && !(down(a) && down(b)); i++) {
        Thread.sleep(100);
      }
      for (ConfigurableApplicationContext c : List.of(a, b)) {
        Health h = health(c);
        assertThat(h.getStatus()).as(h.toString()).isEqualTo(Status.DOWN);
        assertThat(h.getDetails()).containsEntry("plansStalled", true).containsEntry("storeFailing", false);
      }
      assertThat(status(b).planEpoch()).as("b never planned").isEqualTo(Long.MIN_VALUE);
    } finally {
      deleteKeys(prefix);
    }
  }

  /** Lets a visitor in: at once, or after a few polls while its instance's grant arrives. */
  private static HttpResponse<String> admit(Visitor visitor) throws Exception {
    HttpResponse<String> page = visitor.get("/");
    for (int i = 0; i < 60 && !page.body().equals("shop home"); i++) {
      assertThat(page.body()).contains(QUEUED);
      Thread.sleep(500);
      page = visitor.get("/");
    }
    assertThat(page.body()).isEqualTo("shop home");
    return page;
  }

  private static boolean down(ConfigurableApplicationContext context) {
    return health(context).getStatus() == Status.DOWN;
  }

  private static Health health(ConfigurableApplicationContext context) {
    return context.getBean(WaitingRoomHealthIndicator.class).health();
  }

  private static void requireRedis() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", 6379), 2000);
    } catch (java.io.IOException e) {
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
