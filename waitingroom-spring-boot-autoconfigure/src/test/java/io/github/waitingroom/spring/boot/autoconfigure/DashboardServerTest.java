package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import io.github.waitingroom.testsupport.HttpVisitor;

/**
 * The operator dashboard and live-settings API from {@code waitingroom.dashboard.*}, in a real
 * servlet application on Tomcat and a real reactive one on Reactor Netty ({@link OnReactorNetty}),
 * over real HTTP: an operator reads the data and raises the limits through the live settings while
 * the room is full, and is never put in line for it; the visitor who waited is let in at one of
 * their next polls.
 */
class DashboardServerTest {
  private static final String TOKEN = "operator-token-0123456789";

  @ParameterizedTest
  @EnumSource(value = WebApplicationType.class, names = {"SERVLET", "REACTIVE"})
  void anOperatorReadsAndChangesTheRoomWhileItIsFull(WebApplicationType type) throws Exception {
    Class<?> app = type == WebApplicationType.SERVLET ? ShopApplication.class : WaitingRoomReactiveServerTest.ReactiveShop.class;
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(app)
        .web(type)
        .properties("server.port=0", "spring.main.banner-mode=off")
        .run(
            "--waitingroom.room-id=shop",
            "--waitingroom.total-active-users=1",
            "--waitingroom.new-users-per-minute=1",
            "--waitingroom.session-duration=5m",
            "--waitingroom.keyset.generate-ephemeral=true",
            "--waitingroom.dashboard.bearer-token=" + TOKEN,
            "--waitingroom.dashboard.settings-changes=true")) {
      int port = ((WebServerApplicationContext) context).getWebServer().getPort();
      if (type == WebApplicationType.REACTIVE) {
        OnReactorNetty.assertOnNetty(context);
      }
      assertThat(new HttpVisitor(port).get("/").headers().allValues("Set-Cookie")).as("the first visitor takes the one place").isNotEmpty();
      HttpVisitor waiting = new HttpVisitor(port);
      assertThat(waiting.get("/").body()).contains("You are in line");

      HttpResponse<String> page = new HttpVisitor(port).get("/waitingroom/dashboard/");
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).contains("<h1>Waiting room dashboard</h1>");
      assertThat(new HttpVisitor(port).get("/waitingroom/dashboard/data").statusCode()).isEqualTo(401);
      HttpResponse<String> data = new HttpVisitor(port).get("/waitingroom/dashboard/data", "Authorization", "Bearer " + TOKEN);
      assertThat(data.statusCode()).isEqualTo(200);
      assertThat(data.body()).contains("\"roomId\":\"shop\"");
      assertThat(data.headers().allValues("Set-Cookie")).as("no ticket for an operator").isEmpty();

      HttpResponse<String> put = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/waitingroom/dashboard/settings"))
              .PUT(HttpRequest.BodyPublishers.ofString("{\"totalActiveUsers\":2,\"newUsersPerMinute\":2}"))
              .header("Authorization", "Bearer " + TOKEN)
              .header("Content-Type", "application/json")
              .timeout(Duration.ofSeconds(10))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
      assertThat(put.headers().allValues("Set-Cookie")).isEmpty();
      assertThat(context.getBean(io.github.waitingroom.WaitingRoom.class).latestSettings().totalActiveUsers()).isEqualTo(2);

      // The visitor in line is let in at a later poll of their page, once the settings are in force.
      HttpResponse<String> poll = waiting.get("/");
      for (int i = 0; i < 120 && !poll.body().equals("shop home"); i++) {
        assertThat(poll.body()).contains("You are in line");
        Thread.sleep(250);
        poll = waiting.get("/");
      }
      assertThat(poll.body()).as("the waiting visitor, after the limits were raised").isEqualTo("shop home");
    }
  }
}
