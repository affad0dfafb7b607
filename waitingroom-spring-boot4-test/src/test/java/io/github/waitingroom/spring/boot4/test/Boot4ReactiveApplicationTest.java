package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.spring.boot.ReactiveWaitingRoomBypass;
import io.github.waitingroom.webflux.WaitingRoomWebFilter;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.SpringVersion;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The starter in a reactive Spring Boot 4 application (Spring Framework 7, Reactor Netty on a
 * random port), over real HTTP: the WebFlux filter, compiled against Spring Framework 6.2, lets
 * a visitor in with its cookie on the application's response, answers the status flag itself, and
 * leaves an ignored path and an operator's request (a {@link ReactiveWaitingRoomBypass}) alone. The limits themselves are the contract suite's business.
 */
@SpringBootTest(
    classes = Boot4ReactiveApplicationTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "spring.main.web-application-type=reactive",
      "waitingroom.room-id=boot4-reactive",
      // Room enough that a visitor is let in at any second: this test is about the adapter on
      // Spring Framework 7 (both of its paths, passing and answering), not about the limits.
      "waitingroom.total-active-users=1000",
      "waitingroom.new-users-per-minute=1000",
      "waitingroom.session-duration=5m",
      "waitingroom.keyset.generate-ephemeral=true",
      "waitingroom.ignore-paths=/ping"
    })
class Boot4ReactiveApplicationTest {
  static final String OPERATOR_HEADER = "X-Test-Operator";

  @Value("${local.server.port}")
  int port;

  @Autowired ApplicationContext context;

  @Test
  void theStarterGuardsAReactiveBoot4Application() throws Exception {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.");
    assertThat(SpringVersion.getVersion()).startsWith("7.");
    assertThat(context.getBeansOfType(WaitingRoomWebFilter.class)).hasSize(1);

    HttpResponse<String> ping = get(client(), "/ping");
    assertThat(ping.body()).isEqualTo("pong");
    assertThat(ping.headers().allValues("Set-Cookie")).isEmpty();

    HttpClient first = client();
    HttpResponse<String> home = get(first, "/");
    assertThat(home.body()).isEqualTo("reactive home");
    assertThat(home.headers().allValues("Set-Cookie")).singleElement().asString()
        .startsWith("wr_boot4-reactive=").contains("; HttpOnly", "; SameSite=Lax");
    assertThat(home.headers().firstValue("Cache-Control")).hasValue("private, no-store");
    assertThat(get(first, "/").body()).isEqualTo("reactive home");

    HttpResponse<String> status = get(first, "/?waitingRoomStatus=1");
    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(status.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    assertThat(status.body()).contains("\"roomId\":\"boot4-reactive\"", "\"status\":\"active\"");
    assertThat(status.headers().firstValue("Content-Security-Policy")).hasValue("default-src 'none'");

    // An operator's request passes untouched: no ticket, so it was not counted.
    HttpResponse<String> operator = get(client(), "/", OPERATOR_HEADER, "yes");
    assertThat(operator.body()).isEqualTo("reactive home");
    assertThat(operator.headers().allValues("Set-Cookie")).isEmpty();
    assertThat(get(client(), "/", OPERATOR_HEADER, "no").headers().allValues("Set-Cookie")).hasSize(1);
  }

  private static HttpClient client() {
    return HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(5)).build();
  }

  private HttpResponse<String> get(HttpClient client, String path, String... headers) throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Accept", "text/html,*/*;q=0.8")
            .timeout(Duration.ofSeconds(10));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      r.header(headers[i], headers[i + 1]);
    }
    return client.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    @Bean
    ReactiveWaitingRoomBypass operators() {
      return exchange -> "yes".equals(exchange.getRequest().getHeaders().getFirst(OPERATOR_HEADER));
    }

    @Bean
    RouterFunction<ServerResponse> routes() {
      return RouterFunctions.route()
          .GET("/", request -> ServerResponse.ok().bodyValue("reactive home"))
          .GET("/ping", request -> ServerResponse.ok().bodyValue("pong"))
          .build();
    }
  }
}
