package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.net.CookieManager;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link WaitingRoomFilter#bypassing} on a real Jetty over real HTTP, as {@code
 * WaitingRoomWebFilterBypassTest} checks WebFlux's: a room with one slot, and operators that a
 * header lets through, for any method.
 */
class WaitingRoomFilterBypassTest {
  private static final String OPERATOR = "X-Operator";

  private final WaitingRoom room =
      WaitingRoom.builder(
              RoomConfig.builder("bypass").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(5)).build(),
              TicketKeys.generate())
          .build();
  private @Nullable TestServer server;

  @AfterEach
  void stop() throws Exception {
    TestServer s = server;
    if (s != null) {
      s.close();
    }
    room.close();
  }

  private TestServer start(WaitingRoomFilter filter) throws Exception {
    TestServer s = TestServer.start(filter);
    server = s;
    return s;
  }

  private static HttpResponse<String> send(TestServer s, String method, String path, String... headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(s.uri(path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .header("Accept", "text/html")
            .timeout(Duration.ofSeconds(10));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return HttpClient.newBuilder().cookieHandler(new CookieManager()).build().send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aBypassedRequestPassesWithoutATicketAndIsNotCounted() throws Exception {
    WaitingRoomFilter filter =
        WaitingRoomFilter.builder(room).build().bypassing(request -> "yes".equals(request.getHeader(OPERATOR)));
    TestServer s = start(filter);

    // Operators before anyone else: none of them takes the one slot.
    for (int i = 0; i < 3; i++) {
      HttpResponse<String> operator = send(s, "GET", "/", OPERATOR, "yes");
      assertThat(operator.body()).isEqualTo("app:/");
      assertThat(operator.headers().allValues("Set-Cookie")).isEmpty();
    }
    HttpResponse<String> first = send(s, "GET", "/");
    assertThat(first.body()).isEqualTo("app:/");
    assertThat(first.headers().allValues("Set-Cookie")).isNotEmpty();
    // The room is full: a new visitor waits, and an operator still gets in, whatever the method.
    assertThat(send(s, "GET", "/").body()).contains("You are in line");
    assertThat(send(s, "GET", "/", OPERATOR, "no").body()).contains("You are in line");
    for (String method : List.of("GET", "POST", "PUT", "DELETE")) {
      HttpResponse<String> operator = send(s, method, "/buy", OPERATOR, "yes");
      assertThat(operator.body()).as(method).isEqualTo("app:/buy");
      assertThat(operator.headers().allValues("Set-Cookie")).as(method).isEmpty();
    }
  }

  @Test
  void theFilterItWasMadeFromIsUnchanged() throws Exception {
    WaitingRoomFilter plain = WaitingRoomFilter.builder(room).build();
    plain.bypassing(request -> true);
    TestServer s = start(plain);

    assertThat(send(s, "GET", "/", OPERATOR, "yes").body()).isEqualTo("app:/");
    assertThat(send(s, "GET", "/", OPERATOR, "yes").body()).contains("You are in line");
  }

  @Test
  void aFilterFromInitParamsHasNoBypassApi() {
    assertThatThrownBy(() -> new WaitingRoomFilter().bypassing(request -> true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("built in code");
  }
}
