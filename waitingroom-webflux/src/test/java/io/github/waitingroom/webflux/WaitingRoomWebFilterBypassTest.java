package io.github.waitingroom.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.net.CookieManager;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * {@link WaitingRoomWebFilter#bypassing} on a real Reactor Netty server on a free port, over real
 * HTTP: a room with one slot, and operators that a header lets through.
 */
class WaitingRoomWebFilterBypassTest {
  private static final String OPERATOR = "X-Operator";

  @RegisterExtension final FluxFixture fixture = new FluxFixture();
  private final WaitingRoom room =
      fixture.opened(WaitingRoom.builder(FluxFixture.oneSlot("bypass", Duration.ofMinutes(5)).build(), TicketKeys.generate()).build());

  private void start(WaitingRoomWebFilter filter) {
    fixture.start(FluxFixture.APP, filter);
  }

  private HttpResponse<String> get(HttpClient client, String... headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(fixture.uri("/"))
            .header("Accept", "text/html")
            .timeout(Duration.ofSeconds(10));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> send(HttpClient client, String method, String path) throws Exception {
    HttpRequest r =
        HttpRequest.newBuilder(fixture.uri(path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .header("Accept", "text/html")
            .timeout(Duration.ofSeconds(10))
            .build();
    return client.send(r, HttpResponse.BodyHandlers.ofString());
  }

  private static HttpClient visitor() {
    return HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
  }

  @Test
  void aBypassedRequestPassesWithoutATicketAndIsNotCounted() throws Exception {
    WaitingRoomWebFilter plain = WaitingRoomWebFilter.builder(room).build();
    WaitingRoomWebFilter filter =
        plain.bypassing(exchange -> "yes".equals(exchange.getRequest().getHeaders().getFirst(OPERATOR)));
    assertThat(filter.getOrder()).isEqualTo(plain.getOrder());
    assertThat(filter.gate()).isSameAs(plain.gate());
    start(filter);

    // Operators before anyone else: none of them takes the one slot.
    for (int i = 0; i < 3; i++) {
      HttpResponse<String> operator = get(visitor(), OPERATOR, "yes");
      assertThat(operator.body()).isEqualTo("app");
      assertThat(operator.headers().allValues("Set-Cookie")).isEmpty();
    }
    HttpResponse<String> first = get(visitor());
    assertThat(first.body()).isEqualTo("app");
    assertThat(first.headers().allValues("Set-Cookie")).isNotEmpty();
    // The room is full: a new visitor waits, and an operator still gets in.
    assertThat(get(visitor()).body()).contains("You are in line");
    assertThat(get(visitor(), OPERATOR, "no").body()).contains("You are in line");
    HttpResponse<String> operator = get(visitor(), OPERATOR, "yes");
    assertThat(operator.body()).isEqualTo("app");
    assertThat(operator.headers().allValues("Set-Cookie")).isEmpty();
  }

  @Test
  void theFilterItWasMadeFromIsUnchanged() throws Exception {
    WaitingRoomWebFilter plain = WaitingRoomWebFilter.builder(room).build();
    plain.bypassing(exchange -> true);
    start(plain);

    assertThat(get(visitor(), OPERATOR, "yes").body()).isEqualTo("app");
    assertThat(get(visitor(), OPERATOR, "yes").body()).contains("You are in line");
  }

  /**
   * Issue 42: the starter's static-file rule ({@code of(gates, passes, order)}) let {@code POST
   * /css/shop.css} skip the room, for any method. A static file is a {@code GET} or a {@code HEAD};
   * every other method is decided by the room, while bypass rules still pass any method.
   */
  @Test
  void staticFilesPassForGetAndHeadOnly() throws Exception {
    Predicate<ServerHttpRequest> css = request -> request.getPath().pathWithinApplication().value().equals("/css/shop.css");
    WaitingRoomWebFilter filter =
        WaitingRoomWebFilter.of(List.of(WaitingRoomWebFilter.builder(room).build().gate()), css, WaitingRoomWebFilter.DEFAULT_ORDER)
            .bypassing(exchange -> "yes".equals(exchange.getRequest().getHeaders().getFirst(OPERATOR)));
    start(filter);
    assertThat(get(visitor()).body()).isEqualTo("app"); // the one slot is taken
    for (String method : List.of("GET", "HEAD")) {
      HttpResponse<String> r = send(visitor(), method, "/css/shop.css");
      assertThat(r.statusCode()).as(method).isEqualTo(200);
      assertThat(r.headers().allValues("Set-Cookie")).as(method).isEmpty();
    }
    assertThat(send(visitor(), "GET", "/css/shop.css").body()).isEqualTo("app");
    for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS")) {
      assertThat(send(visitor(), method, "/css/shop.css").body()).as(method).contains("You are in line");
    }
    HttpRequest operator =
        HttpRequest.newBuilder(fixture.uri("/css/shop.css"))
            .POST(HttpRequest.BodyPublishers.noBody()).header(OPERATOR, "yes").build();
    assertThat(visitor().send(operator, HttpResponse.BodyHandlers.ofString()).body())
        .as("a bypass rule still passes any method").isEqualTo("app");
  }
}
