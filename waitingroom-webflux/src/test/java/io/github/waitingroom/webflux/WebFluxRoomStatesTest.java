package io.github.waitingroom.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.WaitingRoom;
import java.net.CookieManager;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The live settings' states through the WebFlux filter on a real Reactor Netty server, as the
 * servlet filter answers them: the "sold out" page of {@code reject} with its status (403, or the
 * filter's {@code rejectStatus}), the JSON status's settings fields, and the paused page.
 */
class WebFluxRoomStatesTest {
  @RegisterExtension final FluxFixture fixture = new FluxFixture();
  private final WaitingRoom room = fixture.room(FluxFixture.oneSlot("flux", Duration.ofMinutes(5)));

  private void start(WaitingRoomWebFilter filter) {
    fixture.start(FluxFixture.APP, filter);
  }

  private HttpResponse<String> get(HttpClient client, String pathAndQuery, String accept) throws Exception {
    return fixture.get(client, pathAndQuery, accept);
  }

  private void change(String json) {
    fixture.putInForce(room, json);
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
