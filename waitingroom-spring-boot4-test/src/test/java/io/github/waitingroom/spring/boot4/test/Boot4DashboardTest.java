package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.WaitingRoom;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.reactor.netty.NettyWebServer;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The operator dashboard and live settings from {@code waitingroom.dashboard.*} in a Spring Boot 4
 * application, servlet on Tomcat 11 and reactive on Reactor Netty, over real HTTP. The room has one
 * slot and it is taken: an operator opens the page and reads the data with the token (never with
 * a ticket, never in line), a request without the token gets 401, and a {@code PUT} of new limits
 * through the dashboard lets the visitor who waits in, at one of their page's next polls.
 */
class Boot4DashboardTest {
  private static final String TOKEN = "boot4-operator-token-0123";
  private static final String ROOM = "boot4-dashboard";

  @ParameterizedTest
  @EnumSource(value = WebApplicationType.class, names = {"SERVLET", "REACTIVE"})
  void anOperatorReadsTheFullRoomAndLetsTheLineInWithLiveSettings(WebApplicationType type) throws Exception {
    try (ConfigurableApplicationContext context = Boot4Home.run(
        type,
        "--waitingroom.room-id=" + ROOM,
        "--waitingroom.total-active-users=1",
        "--waitingroom.new-users-per-minute=1",
        "--waitingroom.session-duration=5m",
        "--waitingroom.refresh-interval=2s",
        "--waitingroom.keyset.generate-ephemeral=true",
        "--waitingroom.dashboard.bearer-token=" + TOKEN,
        "--waitingroom.dashboard.settings-changes=true")) {
      assertThat(SpringBootVersion.getVersion()).startsWith("4.");
      WebServer server = Objects.requireNonNull(((WebServerApplicationContext) context).getWebServer());
      assertThat(server).isInstanceOf(type == WebApplicationType.SERVLET ? TomcatWebServer.class : NettyWebServer.class);
      int port = server.getPort();

      assertThat(get(client(), port, "/").body()).as("the first visitor takes the one slot").isEqualTo("boot 4 home");
      HttpClient waiting = client();
      assertThat(get(waiting, port, "/").body()).contains("You are in line");

      // The operator: a client with no cookie, in a full room, is never queued for the dashboard.
      HttpResponse<String> page = get(client(), port, "/waitingroom/dashboard/");
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).contains("<h1>Waiting room dashboard</h1>");
      assertThat(page.headers().allValues("Set-Cookie")).isEmpty();
      HttpResponse<String> anonymous = get(client(), port, "/waitingroom/dashboard/data");
      assertThat(anonymous.statusCode()).isEqualTo(401);
      assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
      HttpResponse<String> data = get(client(), port, "/waitingroom/dashboard/data", "Authorization", "Bearer " + TOKEN);
      assertThat(data.statusCode()).isEqualTo(200);
      assertThat(data.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
      assertThat(data.headers().firstValue("Cache-Control")).hasValue("no-store");
      assertThat(data.body()).contains("\"roomId\":\"" + ROOM + "\"");
      assertThat(data.headers().allValues("Set-Cookie")).as("no ticket for an operator").isEmpty();

      // A PUT without the token changes nothing.
      assertThat(putSettings(port, "{\"totalActiveUsers\":2}", null).statusCode()).isEqualTo(401);
      assertThat(context.getBean(WaitingRoom.class).latestSettings().totalActiveUsers()).isEqualTo(1);

      // Room for one more, through the dashboard's live settings.
      HttpResponse<String> put = putSettings(port, "{\"totalActiveUsers\":2,\"newUsersPerMinute\":2}", TOKEN);
      assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
      assertThat(put.body()).contains("\"totalActiveUsers\":2", "\"activeFrom\"");
      assertThat(put.headers().allValues("Set-Cookie")).isEmpty();
      assertThat(context.getBean(WaitingRoom.class).latestSettings().totalActiveUsers()).isEqualTo(2);

      // The visitor in line is let in at a later poll of their page, once the settings are in force.
      HttpResponse<String> poll = get(waiting, port, "/");
      for (int i = 0; i < 120 && !poll.body().equals("boot 4 home"); i++) {
        assertThat(poll.body()).contains("You are in line");
        Thread.sleep(250);
        poll = get(waiting, port, "/");
      }
      assertThat(poll.body()).as("the waiting visitor, after the limits were raised").isEqualTo("boot 4 home");
      assertThat(get(client(), port, "/").body()).as("two slots, both taken").contains("You are in line");
    }
  }

  private static HttpClient client() {
    return HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(5)).build();
  }

  private static HttpResponse<String> get(HttpClient client, int port, String path, String... headers) throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Accept", "text/html,*/*;q=0.8")
            .timeout(Duration.ofSeconds(10));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      r.header(headers[i], headers[i + 1]);
    }
    return client.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> putSettings(int port, String json, @Nullable String token) throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/waitingroom/dashboard/settings"))
            .PUT(HttpRequest.BodyPublishers.ofString(json))
            .header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(10));
    if (token != null) {
      r.header("Authorization", "Bearer " + token);
    }
    return client().send(r.build(), HttpResponse.BodyHandlers.ofString());
  }
}
