package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.spring.boot.ReactiveWaitingRoomBypass;
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
import org.springframework.context.annotation.Import;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import io.github.waitingroom.testsupport.HttpVisitor;

/**
 * The starter in a real reactive application on a real Reactor Netty (random port), over real
 * HTTP: the same {@code waitingroom.*} properties give a {@link WaitingRoomWebFilter} instead of
 * the servlet filter, and Spring's static files, the favicon and Actuator pass without a ticket as
 * they do in a servlet application, and so do the requests of the application's two {@link
 * ReactiveWaitingRoomBypass} rules. The room has two slots for two new users.
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

  static final String OPERATOR_HEADER = "X-Test-Operator";
  static final String MONITOR_AGENT = "test-monitor";

  /** A reactive shop: two routes, no Spring MVC, and two operator bypass rules. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import(OnReactorNetty.class)
  static class ReactiveShop {
    @Bean
    ReactiveWaitingRoomBypass operators() {
      return exchange -> "yes".equals(exchange.getRequest().getHeaders().getFirst(OPERATOR_HEADER));
    }

    @Bean
    ReactiveWaitingRoomBypass monitoring() {
      return exchange -> MONITOR_AGENT.equals(exchange.getRequest().getHeaders().getFirst("User-Agent"));
    }

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
    OnReactorNetty.assertOnNetty(context);
    assertThat(context.getBeansOfType(WaitingRoomWebFilter.class)).hasSize(1);
    assertThat(context.getBean(WaitingRoomWebFilter.class).getOrder()).isEqualTo(-99);

    for (int i = 0; i < 3; i++) {
      HttpResponse<String> health = new HttpVisitor(port).get("/health");
      assertThat(health.body()).isEqualTo("UP");
      assertThat(health.headers().allValues("Set-Cookie")).isEmpty();
    }
    // A browser fetches a page's assets by itself, cookie-less at first: none of them counts.
    for (int i = 0; i < 3; i++) {
      HttpResponse<String> css = new HttpVisitor(port).get("/css/shop.css");
      assertThat(css.statusCode()).isEqualTo(200);
      assertThat(css.body()).contains("color: #333");
      HttpResponse<String> favicon = new HttpVisitor(port).get("/favicon.ico");
      HttpResponse<String> actuator = new HttpVisitor(port).get("/actuator/health");
      assertThat(actuator.statusCode()).isEqualTo(200);
      for (HttpResponse<String> r : java.util.List.of(css, favicon, actuator)) {
        assertThat(r.headers().allValues("Set-Cookie")).as(r.uri().getPath()).isEmpty();
        assertThat(r.body()).as(r.uri().getPath()).doesNotContain("You are in line");
      }
    }
    // Nor does a request that a bypass rule lets through: each of the two rules is asked.
    for (int i = 0; i < 3; i++) {
      for (HttpResponse<String> r :
          java.util.List.of(
              new HttpVisitor(port).get("/", OPERATOR_HEADER, "yes"), new HttpVisitor(port).get("/", "User-Agent", MONITOR_AGENT))) {
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("shop home");
        assertThat(r.headers().allValues("Set-Cookie")).isEmpty();
      }
    }
    // So both slots are still free for the two real visitors.
    HttpResponse<String> first = new HttpVisitor(port).get("/");
    assertThat(first.body()).isEqualTo("shop home");
    assertThat(first.headers().allValues("Set-Cookie")).singleElement().asString()
        .startsWith("wr_shop=").contains("; HttpOnly", "; SameSite=Strict");
    assertThat(new HttpVisitor(port).get("/").body()).isEqualTo("shop home");

    HttpVisitor third = new HttpVisitor(port);
    HttpResponse<String> page = third.get("/");
    assertThat(page.statusCode()).isEqualTo(429);
    assertThat(page.body()).contains("You are in line");
    // The waiting page still gets its stylesheet.
    HttpResponse<String> queuedCss = third.get("/css/shop.css");
    assertThat(queuedCss.statusCode()).isEqualTo(200);
    assertThat(queuedCss.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/css"));
    assertThat(queuedCss.body()).contains("color: #333");
    HttpResponse<String> json = third.get("/", "Accept", "application/json");
    assertThat(json.statusCode()).isEqualTo(429);
    assertThat(json.body()).contains("\"roomId\":\"shop\"", "\"inWaitingRoom\":true");

    // The room is full, and the operators still get in: without a ticket, and without counting.
    for (String[] operator : new String[][] {{OPERATOR_HEADER, "yes"}, {"User-Agent", MONITOR_AGENT}}) {
      HttpResponse<String> r = new HttpVisitor(port).get("/", operator);
      assertThat(r.statusCode()).as(operator[0]).isEqualTo(200);
      assertThat(r.body()).as(operator[0]).isEqualTo("shop home");
      assertThat(r.headers().allValues("Set-Cookie")).as(operator[0]).isEmpty();
    }
    // A request that no rule lets through is still queued.
    assertThat(new HttpVisitor(port).get("/", OPERATOR_HEADER, "no").statusCode()).isEqualTo(429);
  }
}
