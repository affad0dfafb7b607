package io.github.waitingroom.spring.boot.autoconfigure;

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
 * {@link Http2ServerTest} with WebFlux on Tomcat (Spring Boot's choice for a reactive application
 * when both Tomcat and Reactor Netty are there): WebFlux's request does not tell its protocol,
 * Tomcat's does.
 */
@SpringBootTest(
    classes = ReactiveHttp2ServerTest.ReactiveShop.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.main.web-application-type=reactive",
      "server.http2.enabled=true",
      "waitingroom.room-id=shop",
      "waitingroom.total-active-users=2",
      "waitingroom.new-users-per-minute=2",
      "waitingroom.session-duration=5m",
      "waitingroom.keyset.generate-ephemeral=true"
    })
class ReactiveHttp2ServerTest {
  @LocalServerPort int port;
  @Autowired ApplicationContext context;

  /** A reactive shop of one route, no Spring MVC. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class ReactiveShop {
    @Bean
    RouterFunction<ServerResponse> routes() {
      return RouterFunctions.route().GET("/", request -> ServerResponse.ok().bodyValue("shop home")).build();
    }
  }

  @Test
  void aQueuedVisitorsFormGetsTheWaitingPageOverHttp2WithoutConnectionClose() throws Exception {
    Http2ServerTest.check(context, port);
  }
}
