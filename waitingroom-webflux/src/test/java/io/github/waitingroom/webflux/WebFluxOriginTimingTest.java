package io.github.waitingroom.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.testsupport.HttpVisitor;
import io.github.waitingroom.testsupport.PublishedTallies;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import org.springframework.web.server.handler.ResponseStatusExceptionHandler;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;

/**
 * The WebFlux twin of the servlet filter's {@code OriginTimingTest}: the filter times every
 * exchange the room lets through to the end of its response and tells the room, seen the way the
 * room publishes it ({@link Tally#origin()} of the tallies its coordinator exchanges), on a real
 * Reactor Netty server in front of an application that delays, fails or errs as told. Exchanges the
 * room answers itself or never decides are not timed. Time is asserted only as a lower bound.
 */
class WebFluxOriginTimingTest {
  @RegisterExtension final FluxFixture fixture = new FluxFixture();
  private final PublishedTallies published = new PublishedTallies();
  private final WaitingRoom room =
      fixture.room(FluxFixture.oneSlot("flux", Duration.ofMinutes(10)), b -> b.coordinator(published));
  private final int port;

  /**
   * The application, by path: {@code /sleep?ms=N} answers 200 after N ms (without blocking);
   * {@code /status?code=N} answers N; {@code /error} fails its {@code Mono}; {@code /throw} throws;
   * {@code /missing} fails with a 404 {@link ResponseStatusException}, which the server's handler
   * answers 404; anything else {@code 200 app}.
   */
  private static final WebHandler APP = exchange -> {
    ServerHttpResponse response = exchange.getResponse();
    String ms = exchange.getRequest().getQueryParams().getFirst("ms");
    String code = exchange.getRequest().getQueryParams().getFirst("code");
    return switch (exchange.getRequest().getPath().value()) {
      case "/sleep" -> Mono.delay(Duration.ofMillis(Long.parseLong(ms))).then(FluxFixture.answer(response, "slept"));
      case "/status" -> {
        response.setStatusCode(HttpStatusCode.valueOf(Integer.parseInt(code)));
        yield response.setComplete();
      }
      case "/error" -> Mono.error(new IllegalStateException("the application failed (on purpose)"));
      case "/throw" -> throw new IllegalStateException("the application threw (on purpose)");
      case "/missing" -> Mono.error(new ResponseStatusException(HttpStatus.NOT_FOUND));
      default -> FluxFixture.answer(response, "app");
    };
  };

  WebFluxOriginTimingTest() {
    WaitingRoomWebFilter filter = WaitingRoomWebFilter.builder(room).ignorePaths("/static/").build()
        .bypassing(exchange -> exchange.getRequest().getHeaders().getFirst("X-Ops") != null);
    DisposableServer server = FluxFixture.bind(WebHttpHandlerBuilder.webHandler(APP).filter(filter)
        .exceptionHandler(new ResponseStatusExceptionHandler()).build());
    fixture.opened(server::disposeNow);
    port = server.port();
  }

  /** A visitor whom the room lets in (its one slot): its first request answers 200. */
  private HttpVisitor admitted() throws Exception {
    HttpVisitor v = new HttpVisitor(port);
    assertThat(v.get("/first").body()).isEqualTo("app");
    return v;
  }

  @Test
  void timesEveryExchangeTheRoomLetsThroughAndNothingElse() throws Exception {
    HttpVisitor in = admitted();
    for (int i = 0; i < 4; i++) {
      assertThat(in.get("/sleep?ms=50").body()).isEqualTo("slept");
    }
    // Not timed: the JSON status the page polls, an ignored path, a bypassed request, a waiting visitor.
    assertThat(in.get("/?waitingRoomStatus=1", "Accept", "application/json").body()).contains("\"inWaitingRoom\":false");
    assertThat(in.get("/static/logo.svg").statusCode()).isEqualTo(200);
    assertThat(in.get("/ops", "X-Ops", "1").statusCode()).isEqualTo(200);
    HttpVisitor waiting = new HttpVisitor(port);
    assertThat(waiting.get("/sleep?ms=50").body()).contains("You are in line");
    assertThat(waiting.get("/?waitingRoomStatus=1", "Accept", "application/json").body()).contains("\"inWaitingRoom\":true");

    Tally.Origin o = published.origin(room, fixture.clock, 5);
    assertThat(o.requests()).as("the first request and four sleeps").isEqualTo(5);
    assertThat(o.failures()).isZero();
    assertThat(o.quantileMicros(0.5)).as("the median of five requests, four of them sleeping 50 ms")
        .isGreaterThanOrEqualTo(50_000);
  }

  @Test
  void countsServerErrorsAndErrorsAsFailures() throws Exception {
    HttpVisitor in = admitted();
    assertThat(in.get("/status?code=500").statusCode()).isEqualTo(500);
    assertThat(in.get("/status?code=503").statusCode()).isEqualTo(503);
    assertThat(in.get("/error").statusCode()).isEqualTo(500);
    assertThat(in.get("/throw").statusCode()).isEqualTo(500);
    assertThat(in.get("/missing").statusCode()).as("a client error is an answer").isEqualTo(404);
    assertThat(in.get("/status?code=404").statusCode()).isEqualTo(404);
    assertThat(in.get("/status?code=204").statusCode()).isEqualTo(204);

    Tally.Origin o = published.origin(room, fixture.clock, 8);
    assertThat(o.requests()).isEqualTo(8);
    assertThat(o.failures()).as("500, 503, the failed Mono and the throw").isEqualTo(4);
  }
}
