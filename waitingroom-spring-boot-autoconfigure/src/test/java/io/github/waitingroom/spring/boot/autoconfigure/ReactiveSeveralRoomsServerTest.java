package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.spring.boot.WaitingRooms;
import io.github.waitingroom.webflux.WaitingRoomWebFilter;
import java.net.http.HttpResponse;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import io.github.waitingroom.testsupport.HttpVisitor;

/**
 * Three rooms in one reactive application on a real Reactor Netty, over real HTTP, one slot each:
 * the main room {@code site} on {@code /} from {@code waitingroom.*}, a {@code drop} room on {@code
 * /drop} and a {@code shop} room on {@code /shop} from {@code waitingroom.rooms.*}. {@code /drop/x}
 * lies under {@code /} and {@code /drop}: it counts in the drop room, the most specific, and in no
 * other.
 */
@SpringBootTest(
    classes = ReactiveSeveralRoomsServerTest.ReactiveShop.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.main.web-application-type=reactive",
      "waitingroom.keyset.generate-ephemeral=true",
      "waitingroom.room-id=site",
      "waitingroom.total-active-users=1",
      "waitingroom.new-users-per-minute=1",
      "waitingroom.session-duration=5m",
      "waitingroom.rooms.drop.path-prefix=/drop",
      "waitingroom.rooms.drop.total-active-users=1",
      "waitingroom.rooms.drop.new-users-per-minute=1",
      "waitingroom.rooms.drop.session-duration=5m",
      "waitingroom.rooms.shop.path-prefix=/shop",
      "waitingroom.rooms.shop.total-active-users=1",
      "waitingroom.rooms.shop.new-users-per-minute=1",
      "waitingroom.rooms.shop.session-duration=5m"
    })
class ReactiveSeveralRoomsServerTest {
  private static final String QUEUED = DropAndShop.QUEUED;

  @LocalServerPort int port;
  @Autowired WaitingRoom site;
  @Autowired WaitingRooms rooms;
  @Autowired ApplicationContext context;

  /** A reactive shop with a drop: no Spring MVC. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import(OnReactorNetty.class)
  static class ReactiveShop {
    @Bean
    RouterFunction<ServerResponse> routes() {
      return RouterFunctions.route()
          .GET("/", request -> ServerResponse.ok().bodyValue("home"))
          .GET("/drop/{item}", request -> ServerResponse.ok().bodyValue("drop " + request.pathVariable("item")))
          .GET("/shop/{item}", request -> ServerResponse.ok().bodyValue("shop " + request.pathVariable("item")))
          .build();
    }
  }

  @Test
  void eachRequestCountsInItsOwnRoomAndFillingOneRoomQueuesNoOther() throws Exception {
    OnReactorNetty.assertOnNetty(context);
    assertThat(context.getBeansOfType(WaitingRoomWebFilter.class)).hasSize(1);
    WaitingRoom drop = Objects.requireNonNull(rooms.get("drop"), "drop room");
    WaitingRoom shop = Objects.requireNonNull(rooms.get("shop"), "shop room");
    assertThat(drop.config().roomId()).isEqualTo("drop");
    assertThat(shop.config().roomId()).isEqualTo("shop");
    assertThat(site.config().roomId()).isEqualTo("site");
    HttpVisitor a = new HttpVisitor(port);
    HttpVisitor b = new HttpVisitor(port);
    HttpVisitor c = new HttpVisitor(port);

    // /drop/x counts in the drop room only, and takes its one slot.
    DropAndShop.fillTheDropThenTheShop(a, b);
    // Now the shop is full too, and each room keeps its own line.
    assertThat(c.get("/shop/y").body()).contains(QUEUED);
    DropAndShop.eachRoomKeepsItsOwnLine(a, b, c);

    // Neither /drop/x nor /shop/y counted in the main room on /: its one slot is still free.
    HttpResponse<String> home = c.get("/");
    assertThat(home.body()).isEqualTo("home");
    assertThat(DropAndShop.cookieNames(home)).containsExactly("wr_site");
    assertThat(new HttpVisitor(port).get("/").body()).contains(QUEUED);
  }
}
