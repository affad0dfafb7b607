package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A client that sends the room's cookies with their values in double quotes keeps its place and
 * its admission, on Tomcat 11 and on Reactor Netty. The JDK's {@code CookieManager} does that with
 * every cookie that carries {@code Max-Age} (it takes them for RFC 2965 cookies and sends {@code
 * $Version="1"; name="value";$Path="/"}). Tomcat 11 hands the quotes on to the application, where
 * Tomcat 10 removed them; before the servlet filter removed them itself, such a client on Spring
 * Boot 4 lost its place at every poll and was counted as a new arrival each time.
 */
class Boot4QuotedCookieTest {
  private static final String ROOM = "boot4-quoted";

  @ParameterizedTest
  @EnumSource(value = WebApplicationType.class, names = {"SERVLET", "REACTIVE"})
  void aQuotedTicketOpensAsTheSameTicket(WebApplicationType type) throws Exception {
    try (ConfigurableApplicationContext context = Boot4Home.run(
        type,
        "--waitingroom.room-id=" + ROOM,
        "--waitingroom.total-active-users=1",
        "--waitingroom.new-users-per-minute=1",
        "--waitingroom.session-duration=5m",
        "--waitingroom.keyset.generate-ephemeral=true")) {
      int port = Objects.requireNonNull(((WebServerApplicationContext) context).getWebServer()).getPort();

      HttpResponse<String> in = send(port, "/", null);
      assertThat(in.body()).isEqualTo("boot 4 home");
      String session = value(in, "wr_" + ROOM + "=");
      HttpResponse<String> queued = send(port, "/", null);
      assertThat(queued.body()).contains("You are in line");
      String place = value(queued, "wr_" + ROOM + "_q=");

      for (String spelling : new String[] {"%s=%s", "%s=\"%s\"", "$Version=\"1\"; %s=\"%s\";$Path=\"/\";$Domain=\"127.0.0.1\""}) {
        String admitted = String.format(spelling, "wr_" + ROOM, session);
        assertThat(send(port, "/", admitted).body()).as(admitted).isEqualTo("boot 4 home");
        // The place opens: this client is one already waiting ("waiting"), not a newcomer ("queued").
        String waiting = String.format(spelling, "wr_" + ROOM + "_q", place);
        assertThat(send(port, "/?waitingRoomStatus=1", waiting).body()).as(waiting).contains("\"status\":\"waiting\"");
      }
    }
  }

  private static String value(HttpResponse<String> r, String prefix) {
    String c = r.headers().allValues("Set-Cookie").stream().filter(s -> s.startsWith(prefix)).findFirst().orElseThrow();
    return c.substring(prefix.length(), c.indexOf(';'));
  }

  private static HttpResponse<String> send(int port, String path, @org.jspecify.annotations.Nullable String cookie) throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Accept", "text/html,*/*;q=0.8")
            .timeout(Duration.ofSeconds(10));
    if (cookie != null) {
      r.header("Cookie", cookie);
    }
    return HttpClient.newHttpClient().send(r.build(), HttpResponse.BodyHandlers.ofString());
  }
}
