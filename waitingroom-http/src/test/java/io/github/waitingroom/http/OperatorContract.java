package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every adapter of the {@link OperatorApi} must do over real HTTP: the servlet dashboard on
 * Jetty and the WebFlux one on Reactor Netty each run this suite by extending it with {@link
 * #start}, which serves the API at {@value #PATH} and the room's filter on every path ({@code /}
 * guarded, so the API's path too), in front of an application that answers {@code app:} and the
 * path. The room has one active user; the tests fill it first, so that an operator who comes later
 * would be put in line by any request the room decided.
 */
public abstract class OperatorContract {
  /** Where the adapter serves the API. */
  protected static final String PATH = "/ops";

  private static final String TOKEN = "operator-token-0123456789";
  private static final Map<String, String> AUTH = Map.of("Authorization", "Bearer " + TOKEN);
  private static final KeysetHandle KEYS = TicketKeys.generate();

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private @Nullable WaitingRoom room;
  private @Nullable Server server;

  /** A server running the adapter under test. */
  public interface Server extends AutoCloseable {
    /**
     * The address of a path on this server.
     *
     * @param pathAndQuery the path, with its query
     * @return the URI
     */
    URI uri(String pathAndQuery);
  }

  /**
   * Starts the adapter under test: the API at {@value #PATH}, and the room's filter (its defaults:
   * {@code /} guarded) on every path, in front of the application.
   *
   * @param room the room
   * @param api the API of the room
   * @return the running server
   * @throws Exception when it cannot start
   */
  protected abstract Server start(WaitingRoom room, OperatorApi api) throws Exception;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (room != null) {
      room.close();
    }
  }

  private Server serve(boolean settingsChanges) throws Exception {
    RoomConfig config =
        RoomConfig.builder("shop").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(5)).build();
    WaitingRoom r = WaitingRoom.builder(config, KEYS).clock(clock).backgroundSync(false).build();
    room = r;
    Server s = start(r, OperatorApi.builder(List.of(r)).bearerToken(TOKEN).clock(clock).settingsChanges(settingsChanges).build());
    server = s;
    // The one place goes to a first visitor: any request the room decided from now on would wait.
    HttpResponse<String> first = new Client(s).send("GET", "/shop", Map.of(), null);
    assertThat(first.body()).isEqualTo("app:/shop");
    assertThat(new Client(s).send("GET", "/shop", Map.of(), null).body()).as("a second visitor waits").doesNotStartWith("app:");
    return s;
  }

  @Test
  void thePageIsServedToAnOperatorWhileTheRoomIsFullAndTheBareMappingRedirectsToIt() throws Exception {
    Client operator = new Client(serve(false));
    HttpResponse<String> bare = operator.send("GET", PATH, Map.of(), null);
    assertThat(bare.statusCode()).isEqualTo(302);
    assertThat(bare.headers().firstValue("Location")).hasValue("ops/");
    HttpResponse<String> page = operator.send("GET", PATH + "/", Map.of(), null);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    assertThat(page.body()).contains("<h1>Waiting room dashboard</h1>", "data-auth=\"bearer\"");
    assertThat(page.headers().firstValue("Content-Security-Policy"))
        .hasValueSatisfying(p -> assertThat(p).startsWith("default-src 'none'; script-src 'sha256-"));
    assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
    assertThat(operator.cookies()).as("the room set no ticket on an operator's request").isEmpty();
  }

  @Test
  void theDataAndTheStatusNeedTheToken() throws Exception {
    Client operator = new Client(serve(false));
    HttpResponse<String> refused = operator.send("GET", PATH + "/data", Map.of(), null);
    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"waitingroom-dashboard\"");
    HttpResponse<String> data = operator.send("GET", PATH + "/data", AUTH, null);
    assertThat(data.statusCode()).isEqualTo(200);
    assertThat(data.body()).contains("\"roomId\":\"shop\"", "\"totalActiveUsers\":1");
    HttpResponse<String> status = operator.send("GET", PATH + "/status?room=shop", AUTH, null);
    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(status.body()).contains("\"roomId\":\"shop\"");
    assertThat(operator.send("GET", PATH + "/status?room=nope", AUTH, null).statusCode()).isEqualTo(404);
    assertThat(operator.send("GET", PATH + "/nothing", AUTH, null).statusCode()).isEqualTo(404);
    assertThat(operator.cookies()).isEmpty();
  }

  @Test
  void liveSettingsChangeThroughAPutOnlyWhenAllowedAndOnlyAsJson() throws Exception {
    Client operator = new Client(serve(true));
    Map<String, String> json = Map.of("Authorization", "Bearer " + TOKEN, "Content-Type", "application/json");
    assertThat(operator.send("PUT", PATH + "/settings", Map.of("Content-Type", "application/json"), "{\"totalActiveUsers\":3}")
        .statusCode()).isEqualTo(401);
    assertThat(operator.send("PUT", PATH + "/settings", Map.of("Authorization", "Bearer " + TOKEN, "Content-Type", "text/plain"),
        "{\"totalActiveUsers\":3}").statusCode()).isEqualTo(415);
    HttpResponse<String> changed = operator.send("PUT", PATH + "/settings", json, "{\"totalActiveUsers\":3}");
    assertThat(changed.statusCode()).as(changed.body()).isEqualTo(200);
    assertThat(changed.body()).contains("\"totalActiveUsers\":3", "\"activeFrom\":");
    assertThat(room().latestSettings().totalActiveUsers()).isEqualTo(3);
    HttpResponse<String> bad = operator.send("PUT", PATH + "/settings", json, "{\"totalActiveUsers\":-1}");
    assertThat(bad.statusCode()).isEqualTo(400);
    HttpResponse<String> tooLong = operator.send("PUT", PATH + "/settings", json, " ".repeat(OperatorApi.MAX_BODY_BYTES + 10));
    assertThat(tooLong.statusCode()).isEqualTo(413);
    assertThat(operator.cookies()).isEmpty();
  }

  /**
   * A {@code PUT} refused before its body is read (here without the token), or a request of
   * another method (whose body the API never reads), is answered at once, its body never read,
   * with {@code Connection: close}: the server drops a connection whose
   * request body is left unread, and a client told nothing sent its next request on it now and
   * then and got no answer ("header parser received no bytes"). The request sends its head only,
   * so an adapter that read the body first would wait for it until the socket's timeout.
   */
  @Test
  void aPutRefusedBeforeItsBodyIsAnsweredWithoutReadingItAndClosesTheConnection() throws Exception {
    Server s = serve(true);
    List<String> lines = HeadOnly.send("PUT", s.uri(PATH + "/settings"), "Content-Type: application/json\r\n");
    assertThat(lines).as("an answer's head").isNotEmpty();
    assertThat(lines.get(0)).startsWith("http/1.1 401");
    assertThat(lines).contains("connection: close");
    // Another method, whose body the API never reads either.
    List<String> post = HeadOnly.send("POST", s.uri(PATH + "/settings"), "Content-Type: application/json\r\n");
    assertThat(post.get(0)).startsWith("http/1.1 405");
    assertThat(post).contains("connection: close");
    // A body that was read (here refused for its fields) keeps the connection.
    Map<String, String> json = Map.of("Authorization", "Bearer " + TOKEN, "Content-Type", "application/json");
    HttpResponse<String> bad = new Client(s).send("PUT", PATH + "/settings", json, "{\"totalActiveUsers\":-1}");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.headers().firstValue("Connection")).isEmpty();
  }

  @Test
  void aReadOnlyApiRefusesChangesAndNoOtherMethodIsAnswered() throws Exception {
    Client operator = new Client(serve(false));
    Map<String, String> json = Map.of("Authorization", "Bearer " + TOKEN, "Content-Type", "application/json");
    assertThat(operator.send("PUT", PATH + "/settings", json, "{\"totalActiveUsers\":3}").statusCode()).isEqualTo(403);
    assertThat(room().latestSettings().totalActiveUsers()).isEqualTo(1);
    HttpResponse<String> delete = operator.send("DELETE", PATH + "/settings", AUTH, null);
    assertThat(delete.statusCode()).isEqualTo(405);
    assertThat(delete.headers().firstValue("Allow")).hasValue("GET, HEAD, PUT");
  }

  private WaitingRoom room() {
    WaitingRoom r = room;
    assertThat(r).isNotNull();
    return java.util.Objects.requireNonNull(r);
  }

  /** One client with its own cookie jar. */
  private static final class Client {
    private final Server server;
    private final CookieManager jar = new CookieManager();
    private final HttpClient http = HttpClient.newBuilder().cookieHandler(jar).connectTimeout(Duration.ofSeconds(5)).build();

    Client(Server server) {
      this.server = server;
    }

    HttpResponse<String> send(String method, String path, Map<String, String> headers, @Nullable String body)
        throws IOException, InterruptedException {
      HttpRequest.Builder b = HttpRequest.newBuilder(server.uri(path))
          .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
          .timeout(Duration.ofSeconds(10));
      headers.forEach(b::header);
      return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    List<java.net.HttpCookie> cookies() {
      return jar.getCookieStore().getCookies();
    }
  }
}
