package io.github.waitingroom.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.ResponseHeaders;
import io.github.waitingroom.http.WaitingRoomSession;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.WebHandler;

/**
 * Revoke through the WebFlux filter on a real Reactor Netty server, as the servlet filter does it
 * ({@code RevokeTest}): by the response header (removed before the response commits) and by the
 * exchange attribute; the cookie deleted, the old ticket refused, the next visitor let in within a
 * bounded number of syncs; and off by default. A scheduled event's fields in the JSON status too.
 */
class WebFluxRevokeTest {
  @RegisterExtension final FluxFixture fixture = new FluxFixture();
  private final ManualClock clock = fixture.clock;
  private final WaitingRoom room =
      fixture.room(FluxFixture.oneSlot("flux", Duration.ofMinutes(10)).refreshInterval(Duration.ofSeconds(10)));

  /** The application: {@code ?header} sets the revoke header, {@code ?attribute} calls the session's revoke(). */
  private void start(WaitingRoomWebFilter filter) {
    WebHandler app =
        exchange -> {
          ServerHttpResponse response = exchange.getResponse();
          String query = String.valueOf(exchange.getRequest().getURI().getQuery());
          String body = "app";
          if (query.contains("header")) {
            response.getHeaders().set(ResponseHeaders.REVOKE_HEADER, "1");
          }
          if (query.contains("attribute")) {
            Object s = exchange.getAttribute(WaitingRoomSession.ATTRIBUTE);
            body = "revoked:" + (s instanceof WaitingRoomSession w ? String.valueOf(w.revoke()) : "no session");
          }
          return FluxFixture.answer(response, body);
        };
    fixture.start(app, filter);
  }

  private HttpResponse<String> get(HttpClient client, String pathAndQuery, String accept) throws Exception {
    return fixture.get(client, pathAndQuery, accept);
  }

  private static @Nullable String ticket(CookieManager jar) {
    for (HttpCookie c : jar.getCookieStore().getCookies()) {
      if (c.getName().equals("wr_flux")) {
        return c.getValue();
      }
    }
    return null;
  }

  private HttpResponse<String> checksOut(String checkout) throws Exception {
    CookieManager buyerJar = new CookieManager();
    HttpClient buyer = HttpClient.newBuilder().cookieHandler(buyerJar).build();
    assertThat(get(buyer, "/", "text/html").body()).isEqualTo("app");
    String old = ticket(buyerJar);
    assertThat(old).isNotNull();
    HttpClient next = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    assertThat(get(next, "/", "text/html").body()).contains("You are in line");
    for (int i = 1; i <= 61 * 4; i++) { // a minute on: only the slot keeps the next visitor out
      clock.advance(Duration.ofMillis(250));
      room.sync();
      if (i % 20 == 0) {
        assertThat(get(next, "/?waitingRoomStatus=1", "application/json").body()).contains("\"inWaitingRoom\":true");
      }
    }

    HttpResponse<String> out = get(buyer, checkout, "text/html");
    assertThat(out.headers().firstValue(ResponseHeaders.REVOKE_HEADER)).isEmpty();
    assertThat(out.headers().allValues("Set-Cookie"))
        .anySatisfy(c -> assertThat(c).isEqualTo("wr_flux=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"));
    assertThat(ticket(buyerJar)).isNull();

    CookieManager replayJar = new CookieManager();
    HttpCookie c = new HttpCookie("wr_flux", old);
    c.setPath("/");
    c.setVersion(0);
    replayJar.getCookieStore().add(fixture.uri("/"), c);
    HttpClient replay = HttpClient.newBuilder().cookieHandler(replayJar).build();
    assertThat(get(replay, "/", "text/html").body()).contains("You are in line");

    int syncs = -1;
    for (int i = 1; i <= 16 && syncs < 0; i++) {
      clock.advance(Duration.ofMillis(250));
      room.sync();
      if (get(next, "/?waitingRoomStatus=1", "application/json").body().contains("\"inWaitingRoom\":false")) {
        syncs = i;
      }
    }
    assertThat(syncs).as("the next visitor gets in within 16 syncs").isBetween(1, 16);
    return out;
  }

  @Test
  void theRevokeHeaderEndsTheSessionAsOnTheServletFilter() throws Exception {
    start(WaitingRoomWebFilter.builder(room).revoke(true).build());
    assertThat(checksOut("/checkout?header").body()).isEqualTo("app");
  }

  @Test
  void theExchangeAttributeEndsTheSessionAlike() throws Exception {
    start(WaitingRoomWebFilter.builder(room).revoke(true).build());
    assertThat(checksOut("/checkout?attribute").body()).isEqualTo("revoked:true");
  }

  @Test
  void offByDefaultTheHeaderPassesThroughUntouched() throws Exception {
    start(WaitingRoomWebFilter.builder(room).build());
    HttpClient buyer = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    assertThat(get(buyer, "/", "text/html").body()).isEqualTo("app");
    HttpResponse<String> out = get(buyer, "/checkout?header&attribute", "text/html");
    assertThat(out.headers().firstValue(ResponseHeaders.REVOKE_HEADER)).hasValue("1");
    assertThat(out.body()).isEqualTo("revoked:no session");
    assertThat(out.headers().allValues("Set-Cookie")).noneSatisfy(v -> assertThat(v).contains("Max-Age=0"));
    assertThat(get(buyer, "/", "text/html").body()).isEqualTo("app");
  }

  @Test
  void aPrequeueAnswersTheCountdownAndTheEventFields() throws Exception {
    start(WaitingRoomWebFilter.builder(room).build());
    Instant t0 = Instant.ofEpochSecond(room.nowSecond());
    RoomSettings next = RoomSettings.fromJson("{\"events\":[{\"name\":\"drop\",\"prequeueStart\":\"" + t0
        + "\",\"start\":\"" + t0.plusSeconds(300) + "\",\"end\":\"" + t0.plusSeconds(900)
        + "\",\"shuffleAtEventStart\":true}]}", room.latestSettings());
    room.updateSettings(next);
    for (int i = 0; i < 40 && room.settings().version() < next.version(); i++) {
      clock.advance(Duration.ofMillis(250));
      room.sync();
    }
    HttpClient visitor = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    assertThat(get(visitor, "/", "text/html").body()).contains("<h1>The sale opens in</h1>", "drawn by lottery");
    assertThat(get(visitor, "/?waitingRoomStatus=1", "application/json").body())
        .contains("\"isEventPrequeueing\":true", "\"eventName\":\"drop\"", "\"shuffleAtEventStart\":true",
            "\"timeUntilEventStartFormatted\":\"5 minutes\"");
  }
}
