package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.spring.boot.WaitingRooms;
import java.net.http.HttpResponse;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import io.github.waitingroom.testsupport.HttpVisitor;

/**
 * Two rooms in one application on a real embedded Tomcat, over real HTTP: the main room {@code
 * shop} on {@code /} from {@code waitingroom.*} and a {@code drop} room on {@code /drop} from
 * {@code waitingroom.rooms.drop.*}, one slot each. {@code /drop/x} lies under both prefixes and
 * belongs to the drop room alone.
 */
@SpringBootTest(
    classes = ShopApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "waitingroom.room-id=shop",
      "waitingroom.total-active-users=1",
      "waitingroom.new-users-per-minute=1",
      "waitingroom.session-duration=5m",
      "waitingroom.keyset.generate-ephemeral=true",
      "waitingroom.rooms.drop.path-prefix=/drop",
      "waitingroom.rooms.drop.total-active-users=1",
      "waitingroom.rooms.drop.new-users-per-minute=1",
      "waitingroom.rooms.drop.session-duration=5m",
      "management.endpoints.web.exposure.include=waitingroom,health",
      "management.health.waitingroom.enabled=true",
      "management.endpoint.health.show-details=always"
    })
class SeveralRoomsServerTest {
  private static final String QUEUED = DropAndShop.QUEUED;

  @LocalServerPort int port;
  @Autowired WaitingRoom shop;
  @Autowired WaitingRooms rooms;

  @Test
  void eachRequestCountsInTheMostSpecificRoomAndFillingOneRoomQueuesNoOther() throws Exception {
    WaitingRoom drop = Objects.requireNonNull(rooms.get("drop"), "drop room");
    assertThat(drop.config().roomId()).isEqualTo("drop");
    assertThat(shop.config().roomId()).isEqualTo("shop");
    HttpVisitor a = new HttpVisitor(port);
    HttpVisitor b = new HttpVisitor(port);
    HttpVisitor c = new HttpVisitor(port);

    // /drop/x is under both prefixes: only the drop room decides it, and takes its one slot.
    DropAndShop.fillTheDropThenTheShop(a, b);
    // Now the shop is full too, and each room keeps its own line.
    assertThat(c.get("/shop/y").body()).contains(QUEUED);
    assertThat(c.get("/").body()).contains(QUEUED);
    DropAndShop.eachRoomKeepsItsOwnLine(a, b, c);
  }

  @Test
  void theEndpointReportsTheMainRoomAndEachFurtherRoomByName() throws Exception {
    HttpVisitor operator = new HttpVisitor(port);
    HttpResponse<String> main = operator.get("/actuator/waitingroom", "Accept", "application/json");
    HttpResponse<String> drop = operator.get("/actuator/waitingroom/drop", "Accept", "application/json");
    HttpResponse<String> none = operator.get("/actuator/waitingroom/nope", "Accept", "application/json");

    assertThat(main.statusCode()).isEqualTo(200);
    assertThat(main.body()).contains("\"roomId\":\"shop\"", "\"totalActiveUsers\":1");
    assertThat(drop.statusCode()).isEqualTo(200);
    assertThat(drop.body()).contains("\"roomId\":\"drop\"", "\"totalActiveUsers\":1");
    assertThat(none.statusCode()).isEqualTo(404);
  }

  @Test
  void theHealthIndicatorReportsTheMainRoomAndEachFurtherRoomByName() throws Exception {
    // Actuator names the indicator after its bean, waitingRoomHealthIndicator.
    HttpResponse<String> health = new HttpVisitor(port).get("/actuator/health/waitingRoom", "Accept", "application/json");

    assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
    assertThat(health.body())
        .isEqualTo(
            "{\"status\":\"UP\",\"details\":{\"room\":\"shop\",\"storeFailing\":false,\"plansStalled\":false,"
                + "\"rooms\":{\"drop\":{\"room\":\"drop\",\"storeFailing\":false,\"plansStalled\":false}}}}");
    assertThat(health.headers().allValues("Set-Cookie")).isEmpty();
  }
}
