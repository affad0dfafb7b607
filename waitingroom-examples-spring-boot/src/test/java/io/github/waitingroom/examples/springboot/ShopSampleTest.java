package io.github.waitingroom.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.testsupport.HttpVisitor;
import io.github.waitingroom.testsupport.JsonTree;
import io.github.waitingroom.testsupport.LocalRedis;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The sample shop as shipped ({@code application.yml}: 2 active users, 2 new users per minute, its
 * store in the real Redis at 127.0.0.1:6379), on a random port, visited over real HTTP by plain
 * clients, each with its own cookie jar: the everyday build's short form of {@link
 * ShopCrowdBrowserTest}, which walks a crowd of real browsers through the shop for over a minute
 * and runs with {@code -P full}. Static assets never count as arrivals; the first two visitors are
 * let in with a ticket, and the shop's JSON API lets them through with it; the room counts them
 * once each; a third visitor waits in line. Only the room's id (unique per run) is changed.
 */
@SpringBootTest(classes = ShopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ShopSampleTest {
  private static final String ROOM = "shop-sample-" + UUID.randomUUID();
  private static final String SHOP = "Welcome to the tea shop";
  private static final String QUEUED = "You are in line";
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @DynamicPropertySource
  static void room(DynamicPropertyRegistry registry) {
    registry.add("waitingroom.room-id", () -> ROOM);
  }

  @BeforeAll
  static void redis() {
    LocalRedis.require();
  }

  @LocalServerPort int port;
  @Autowired WaitingRoom room;

  @Test
  void assetsPassTwoVisitorsGoInAndTheThirdWaits() throws Exception {
    assertThat(room.config().roomId()).isEqualTo(ROOM);
    assertThat(room.config().totalActiveUsers()).isEqualTo(2);
    assertThat(room.transportFailing()).as("the Redis store answers").isFalse();

    // Static assets never count as arrivals: fetched without a cookie, they come with no ticket.
    HttpVisitor assets = new HttpVisitor(port);
    for (String path : List.of("/css/shop.css", "/js/shop.js", "/img/teapot.svg")) {
      HttpResponse<String> r = assets.get(path);
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      assertThat(r.body()).as(path).doesNotContain(QUEUED);
      assertThat(r.headers().allValues("Set-Cookie")).as("cookies of " + path).isEmpty();
    }

    // A node that joins admits nobody until it applies the plan of the epoch after it joined.
    long firstPlan = until("the room's first plan", s -> s.planEpoch() != Long.MIN_VALUE).planEpoch();
    RoomStatus ready = until("the room's second plan", s -> s.planEpoch() > firstPlan);
    assertThat(ready.activeUsers()).isZero();
    assertThat(ready.waitingUsers()).as("nobody waits: the asset fetches were not arrivals").isZero();

    // The first two visitors take both slots; the shop's API lets them through with the ticket.
    for (String name : List.of("ada", "bob")) {
      HttpVisitor visitor = new HttpVisitor(port);
      HttpResponse<String> page = visitor.get("/");
      assertThat(page.body()).as(name).contains(SHOP);
      assertThat(page.headers().allValues("Set-Cookie")).as(name + "'s ticket cookie").anySatisfy(c -> assertThat(c).startsWith("wr_" + ROOM + "="));
      HttpResponse<String> products = visitor.get("/api/products", "Accept", "application/json");
      assertThat(products.statusCode()).as(name).isEqualTo(200);
      assertThat(products.body()).as(name).startsWith("[").doesNotContain(QUEUED);
    }
    long loaded = room.status().now();
    RoomStatus afterLoad = until("a plan made after the pages loaded", s -> s.planEpoch() >= loaded);
    assertThat(afterLoad.activeUsers()).as("active users").isEqualTo(2);
    assertThat(afterLoad.waitingUsers()).as("waiting users").isZero();
    assertThat(afterLoad.localActiveUsers()).as("active users counted by this node").isEqualTo(2);
    Map<String, Object> endpoint =
        JsonTree.object(new HttpVisitor(port).get("/actuator/waitingroom", "Accept", "application/json").body());
    assertThat(endpoint.get("roomId")).isEqualTo(ROOM);
    assertThat(endpoint.get("activeUsers")).isEqualTo(2L);
    assertThat(endpoint.get("storeFailing")).isEqualTo(false);

    // A third visitor waits in line while both slots are taken.
    assertThat(new HttpVisitor(port).get("/").body()).contains(QUEUED).doesNotContain(SHOP);
  }

  private RoomStatus until(String what, Predicate<RoomStatus> condition) throws InterruptedException {
    Instant deadline = Instant.now().plus(PATIENCE);
    RoomStatus s = room.status();
    while (!condition.test(s)) {
      assertThat(Instant.now()).as("waiting for " + what + "; last status " + s).isBefore(deadline);
      Thread.sleep(100);
      s = room.status();
    }
    return s;
  }
}
