package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The starter in a Spring Boot 4 application on a real embedded server (random port), over real
 * HTTP: one slot, an asset fetch that does not take it, a queued visitor whose CSS still arrives,
 * the Actuator endpoint and the room's metrics.
 */
@SpringBootTest(
    classes = Boot4Home.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "waitingroom.room-id=boot4",
      "waitingroom.total-active-users=1",
      "waitingroom.new-users-per-minute=1",
      "waitingroom.session-duration=5m",
      "waitingroom.keyset.generate-ephemeral=true",
      "management.endpoints.web.exposure.include=waitingroom,metrics"
    })
class Boot4ApplicationTest {
  @Value("${local.server.port}")
  int port;

  @Test
  void theStarterGuardsABoot4Application() throws Exception {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.");
    HttpResponse<String> asset = get(client(), "/css/site.css");
    assertThat(asset.body()).contains("color: #444");
    assertThat(asset.headers().allValues("Set-Cookie")).isEmpty();

    assertThat(get(client(), "/").body()).isEqualTo("boot 4 home");
    HttpClient second = client();
    assertThat(get(second, "/").body()).contains("You are in line");
    HttpResponse<String> css = get(second, "/css/site.css");
    assertThat(css.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/css"));
    assertThat(css.body()).contains("color: #444");

    HttpResponse<String> status = get(client(), "/actuator/waitingroom");
    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(status.body()).contains("\"roomId\":\"boot4\"", "\"totalActiveUsers\":1");

    // Micrometer 1.16 under Boot 4: the room's gauges are bound to the application's registry.
    HttpResponse<String> active = get(client(), "/actuator/metrics/waitingroom.users.active?tag=room:boot4&tag=scope:node");
    assertThat(active.statusCode()).isEqualTo(200);
    assertThat(active.body()).contains("\"value\":1.0");
    HttpResponse<String> limit = get(client(), "/actuator/metrics/waitingroom.limit.active.users?tag=room:boot4");
    assertThat(limit.statusCode()).isEqualTo(200);
    assertThat(limit.body()).contains("\"value\":1.0");
  }

  private static HttpClient client() {
    return HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(5)).build();
  }

  private HttpResponse<String> get(HttpClient client, String path) throws Exception {
    HttpRequest r =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Accept", "text/html,*/*;q=0.8")
            .timeout(Duration.ofSeconds(10))
            .build();
    return client.send(r, HttpResponse.BodyHandlers.ofString());
  }
}
