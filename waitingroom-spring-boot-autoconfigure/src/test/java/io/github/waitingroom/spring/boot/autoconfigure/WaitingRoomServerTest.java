package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import io.github.waitingroom.testsupport.HttpVisitor;

/**
 * The starter in a real application on a real embedded Tomcat (random port), over real HTTP. The
 * room has two slots for two new users; everything below is what a browser would do.
 */
@SpringBootTest(
    classes = ShopApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "waitingroom.room-id=shop",
      "waitingroom.total-active-users=2",
      "waitingroom.new-users-per-minute=2",
      "waitingroom.session-duration=5m",
      "waitingroom.keyset.generate-ephemeral=true",
      "management.endpoints.web.exposure.include=health,waitingroom,metrics"
    })
class WaitingRoomServerTest {
  private static final String QUEUED = "You are in line";

  @LocalServerPort int port;

  @Test
  void staticAssetsNeverTakeSlotsAndAQueuedUserStillGetsCss() throws Exception {
    // Cookie-less asset fetches, as a browser makes them before it holds a ticket.
    HttpResponse<String> css = new HttpVisitor(port).get("/css/shop.css");
    HttpResponse<String> logo = new HttpVisitor(port).get("/img/logo.gif");
    HttpResponse<String> favicon = new HttpVisitor(port).get("/favicon.ico");
    HttpResponse<String> health = new HttpVisitor(port).get("/actuator/health");
    assertThat(css.statusCode()).isEqualTo(200);
    assertThat(css.body()).contains("color: #333");
    assertThat(logo.body()).startsWith("GIF89a");
    assertThat(health.body()).contains("UP");
    for (HttpResponse<String> r : java.util.List.of(css, logo, favicon, health)) {
      assertThat(r.headers().allValues("Set-Cookie")).as(r.uri().toString()).isEmpty();
    }

    // So both slots are still free for the two real visitors.
    HttpVisitor first = new HttpVisitor(port);
    HttpVisitor second = new HttpVisitor(port);
    assertThat(first.get("/").body()).isEqualTo("shop home");
    assertThat(second.get("/").body()).isEqualTo("shop home");

    // The third is queued; the waiting page's own stylesheet and images still arrive as themselves.
    HttpVisitor third = new HttpVisitor(port);
    HttpResponse<String> page = third.get("/");
    assertThat(page.body()).contains(QUEUED);
    HttpResponse<String> queuedCss = third.get("/css/shop.css");
    assertThat(queuedCss.statusCode()).isEqualTo(200);
    assertThat(queuedCss.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/css"));
    assertThat(queuedCss.body()).contains("color: #333").doesNotContain(QUEUED);
    // Static files pass for GET and HEAD only (issue 42): any other method is decided by the room.
    assertThat(third.send("HEAD", "/css/shop.css").statusCode()).isEqualTo(200);
    HttpResponse<String> post = third.send("POST", "/css/shop.css");
    assertThat(post.body()).contains(QUEUED).doesNotContain("color: #333");
    // A page is a visit: static HTML is guarded like any other page, and so is the JSON API.
    assertThat(third.get("/about.html").body()).contains(QUEUED);
    assertThat(third.get("/api/items").body()).contains(QUEUED);
    // Admitted visitors keep using the application.
    assertThat(first.get("/api/items").body()).isEqualTo("[\"tea\",\"cups\"]");

    // An operator rule lets a request through without a ticket and without counting it.
    HttpResponse<String> operator = new HttpVisitor(port).get("/", ShopApplication.OPERATOR_HEADER, "yes");
    assertThat(operator.body()).isEqualTo("shop home");
    assertThat(operator.headers().allValues("Set-Cookie")).isEmpty();

    // Actuator: the endpoint is not guarded either, and reports the room.
    HttpResponse<String> status = new HttpVisitor(port).get("/actuator/waitingroom", "Accept", "application/json");
    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(status.body())
        .contains("\"roomId\":\"shop\"", "\"totalActiveUsers\":2", "\"newUsersPerMinute\":2", "\"storeFailing\":false",
            "\"settingsVersion\":0", "\"queueingStatus\":\"", "\"queueingMethod\":\"fifo\"");

    // Metrics: the starter bound the room's gauges to the application's registry.
    HttpResponse<String> active = new HttpVisitor(port).get("/actuator/metrics/waitingroom.users.active?tag=room:shop&tag=scope:node");
    assertThat(active.statusCode()).isEqualTo(200);
    assertThat(active.body()).contains("\"name\":\"waitingroom.users.active\"", "\"baseUnit\":\"users\"", "\"value\":2.0");
    HttpResponse<String> limit = new HttpVisitor(port).get("/actuator/metrics/waitingroom.limit.active.users");
    assertThat(limit.statusCode()).isEqualTo(200);
    assertThat(limit.body()).contains("\"value\":2.0", "\"tag\":\"room\"", "\"shop\"");
  }
}
