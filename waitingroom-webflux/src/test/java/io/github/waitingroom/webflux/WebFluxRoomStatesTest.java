package io.github.waitingroom.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The live settings' states through the WebFlux filter on a real Reactor Netty server, as the
 * servlet filter answers them: the "sold out" page of {@code reject} with its status (403, or the
 * filter's {@code rejectStatus}), the JSON status's settings fields, and the paused page.
 */
class WebFluxRoomStatesTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final WaitingRoom room =
      WaitingRoom.builder(
              RoomConfig.builder("flux").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(5))
                  .build(),
              TicketKeys.generate())
          .clock(clock)
          .backgroundSync(false)
          .build();
  private @Nullable DisposableServer server;
  private int port;

  @AfterEach
  void stop() {
    if (server != null) {
      server.disposeNow();
    }
    room.close();
  }

  private void start(WaitingRoomWebFilter filter) {
    WebHandler app =
        exchange -> {
          ServerHttpResponse response = exchange.getResponse();
          response.setStatusCode(HttpStatus.OK);
          return response.writeWith(Mono.just(response.bufferFactory().wrap("app".getBytes(StandardCharsets.UTF_8))));
        };
    DisposableServer s =
        HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .handle(new ReactorHttpHandlerAdapter(WebHttpHandlerBuilder.webHandler(app).filter(filter).build()))
            .bindNow();
    server = s;
    port = s.port();
  }

  private HttpResponse<String> get(HttpClient client, String pathAndQuery, String accept) throws Exception {
    HttpRequest r =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
            .header("Accept", accept)
            .timeout(Duration.ofSeconds(20))
            .build();
    return client.send(r, HttpResponse.BodyHandlers.ofString());
  }

  private void change(String json) {
    RoomSettings next = RoomSettings.fromJson(json, room.latestSettings());
    room.updateSettings(next);
    for (int i = 0; i < 40 && room.settings().version() < next.version(); i++) {
      clock.advance(Duration.ofMillis(250));
      room.sync();
    }
    assertThat(room.settings().version()).isEqualTo(next.version());
  }

  @Test
  void rejectAnswersTheSoldOutPageAndTheJsonFieldsAsTheServletFilterDoes() throws Exception {
    start(WaitingRoomWebFilter.builder(room).build());
    HttpClient active = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    assertThat(get(active, "/", "text/html").body()).isEqualTo("app");
    HttpResponse<String> before = get(HttpClient.newHttpClient(), "/?waitingRoomStatus=1", "application/json");
    assertThat(before.body()).contains("\"queueingMethod\":\"fifo\"", "\"isFIFO\":true", "\"isPassthrough\":false",
        "\"isReject\":false", "\"queueAll\":false", "\"suspended\":false", "\"settingsVersion\":0");

    change("{\"queueingMethod\":\"reject\"}");
    HttpResponse<String> page = get(HttpClient.newHttpClient(), "/", "text/html");
    assertThat(page.statusCode()).isEqualTo(403);
    assertThat(page.headers().firstValue("Cache-Control")).hasValue("private, no-store");
    assertThat(page.body()).contains("<h1>Sold out</h1>").doesNotContain("<script", "http-equiv=\"refresh\"");
    HttpResponse<String> json = get(HttpClient.newHttpClient(), "/", "application/json");
    assertThat(json.statusCode()).isEqualTo(403);
    assertThat(json.body()).contains("\"status\":\"rejected\"", "\"isReject\":true", "\"settingsVersion\":1");
    assertThat(get(active, "/", "text/html").body()).as("an active user goes on").isEqualTo("app");

    change("{\"queueingMethod\":\"fifo\",\"suspended\":true}");
    HttpResponse<String> paused = get(active, "/", "text/html");
    assertThat(paused.statusCode()).isEqualTo(200);
    assertThat(paused.body()).contains("<h1>The site is paused for maintenance</h1>");
    assertThat(get(active, "/?waitingRoomStatus=1", "application/json").body()).contains("\"suspended\":true");
  }

  @Test
  void theRejectStatusIsASetting() throws Exception {
    start(WaitingRoomWebFilter.builder(room).rejectStatus(503).build());
    change("{\"queueingMethod\":\"reject\"}");
    assertThat(get(HttpClient.newHttpClient(), "/", "text/html").statusCode()).isEqualTo(503);
    assertThat(get(HttpClient.newHttpClient(), "/?waitingRoomStatus=1", "text/html").statusCode()).isEqualTo(503);
  }
}
