package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.webflux.WaitingRoomWebFilter;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The starter in a real reactive application on a real Reactor Netty (random port), over real
 * HTTP: the same {@code waitingroom.*} properties give a {@link WaitingRoomWebFilter} instead of
 * the servlet filter.
 */
@SpringBootTest(
    classes = WaitingRoomReactiveServerTest.ReactiveShop.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.main.web-application-type=reactive",
      "waitingroom.room-id=shop",
      "waitingroom.total-active-users=2",
      "waitingroom.new-users-per-minute=2",
      "waitingroom.session-duration=5m",
      "waitingroom.keyset.generate-ephemeral=true",
      "waitingroom.ignore-paths=/health",
      "waitingroom.waiting-status=429",
      "waitingroom.cookie.same-site=strict"
    })
class WaitingRoomReactiveServerTest {
  @LocalServerPort int port;
  @Autowired ApplicationContext context;

  /** A reactive shop: two routes, no Spring MVC. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class ReactiveShop {
    @Bean
    RouterFunction<ServerResponse> routes() {
      return RouterFunctions.route()
          .GET("/", request -> ServerResponse.ok().bodyValue("shop home"))
          .GET("/health", request -> ServerResponse.ok().bodyValue("UP"))
          .build();
    }
  }

  @Test
  void theWebFilterGuardsAReactiveApplication() throws Exception {
    assertThat(context.getBeansOfType(WaitingRoomWebFilter.class)).hasSize(1);
    assertThat(context.getBean(WaitingRoomWebFilter.class).getOrder()).isEqualTo(-99);

    for (int i = 0; i < 3; i++) {
      HttpResponse<String> health = new Visitor(port).get("/health");
      assertThat(health.body()).isEqualTo("UP");
      assertThat(health.headers().allValues("Set-Cookie")).isEmpty();
    }
    HttpResponse<String> first = new Visitor(port).get("/");
    assertThat(first.body()).isEqualTo("shop home");
    assertThat(first.headers().allValues("Set-Cookie")).singleElement().asString()
        .startsWith("wr_shop=").contains("; HttpOnly", "; SameSite=Strict");
    assertThat(new Visitor(port).get("/").body()).isEqualTo("shop home");

    Visitor third = new Visitor(port);
    HttpResponse<String> page = third.get("/");
    assertThat(page.statusCode()).isEqualTo(429);
    assertThat(page.body()).contains("You are in line");
    HttpResponse<String> json = third.get("/", "Accept", "application/json");
    assertThat(json.statusCode()).isEqualTo(429);
    assertThat(json.body()).contains("\"roomId\":\"shop\"", "\"inWaitingRoom\":true");
  }
}
