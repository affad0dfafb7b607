package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.boot.web.embedded.netty.NettyWebServer;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * HTTPS behind a TLS-terminating reverse proxy, on real embedded servers over real HTTP: the
 * requests arrive in plain HTTP from the proxy with {@code X-Forwarded-Proto: https}, {@code
 * X-Forwarded-Host} and {@code X-Forwarded-Port}, as nginx or a cloud load balancer sends them,
 * and Spring's {@code server.forward-headers-strategy} (each of its two values) makes them HTTPS
 * requests again; in a servlet application (Tomcat) and a reactive one (Reactor Netty, {@link
 * OnReactorNetty}) alike, each checked to run on its server. With the default {@code
 * waitingroom.cookie.secure=auto}, both ticket cookies are {@code Secure}; the waiting page sends
 * a visitor who posted a form back to the page of that form by a path on the same origin (so it
 * stays on https), and names no {@code http://} URL.
 */
class ForwardedHttpsServerTest {
  private static final String PUBLIC_HOST = "shop.example";

  abstract static class BehindAProxy {
    @LocalServerPort int port;
    @Autowired ApplicationContext context;

    /** The server this application must run on. */
    abstract Class<? extends WebServer> server();

    private final HttpClient first = client();
    private final HttpClient second = client();

    private static HttpClient client() {
      return HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(5)).build();
    }

    private HttpRequest.Builder proxied(String path) {
      return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .header("X-Forwarded-Proto", "https")
          .header("X-Forwarded-Host", PUBLIC_HOST)
          .header("X-Forwarded-Port", "443")
          .header("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
          .timeout(Duration.ofSeconds(10));
    }

    @Test
    void cookiesAreSecureAndTheWaitingPageStaysOnHttps() throws Exception {
      assertThat(((WebServerApplicationContext) context).getWebServer()).isInstanceOf(server());
      HttpResponse<String> in = first.send(proxied("/").GET().build(), HttpResponse.BodyHandlers.ofString());
      assertThat(in.body()).isEqualTo("shop home");
      List<String> cookies = in.headers().allValues("Set-Cookie");
      assertThat(cookies).anySatisfy(c -> assertThat(c).startsWith("wr_shop="));
      assertThat(cookies).allSatisfy(c -> assertThat(c).containsIgnoringCase("; Secure"));

      // The one slot is taken: a second visitor posts the order form from the public https page.
      HttpResponse<String> queued =
          second.send(
              proxied("/orders")
                  .header("Referer", "https://" + PUBLIC_HOST + "/order-form?item=tea")
                  .header("Content-Type", "application/x-www-form-urlencoded")
                  .POST(HttpRequest.BodyPublishers.ofString("item=tea"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(queued.body()).contains("You are in line");
      List<String> placeCookies = queued.headers().allValues("Set-Cookie");
      assertThat(placeCookies).anySatisfy(c -> assertThat(c).startsWith("wr_shop_q="));
      assertThat(placeCookies).allSatisfy(c -> assertThat(c).containsIgnoringCase("; Secure"));
      // Back to the form's page when it is this visitor's turn: a path on the page's own (https)
      // origin, in the no-script refresh and in the poll script alike; no plain-http URL anywhere.
      assertThat(queued.body())
          .contains("url=/order-form?item=tea\"")
          .contains("var back = \"/order-form?item=tea\"")
          .doesNotContain("http://");
      // The JSON status the page polls: same cookies, no absolute URL either.
      HttpResponse<String> status =
          second.send(
              proxied("/?waitingRoomStatus=1").header("Accept", "application/json").GET().build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(status.body()).contains("\"status\"").doesNotContain("http://");
    }
  }

  /** {@code framework}: Spring's {@code ForwardedHeaderFilter}, at the head of the filter chain. */
  @Nested
  @SpringBootTest(
      classes = ShopApplication.class,
      webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
      properties = {
        "server.forward-headers-strategy=framework",
        "waitingroom.room-id=shop",
        "waitingroom.total-active-users=1",
        "waitingroom.new-users-per-minute=1",
        "waitingroom.session-duration=5m"
      })
  class FrameworkStrategy extends BehindAProxy {
    @Override
    Class<? extends WebServer> server() {
      return TomcatWebServer.class;
    }
  }

  /** {@code native}: Tomcat's {@code RemoteIpValve}, which trusts a proxy on 127.0.0.1. */
  @Nested
  @SpringBootTest(
      classes = ShopApplication.class,
      webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
      properties = {
        "server.forward-headers-strategy=native",
        "waitingroom.room-id=shop",
        "waitingroom.total-active-users=1",
        "waitingroom.new-users-per-minute=1",
        "waitingroom.session-duration=5m"
      })
  class NativeStrategy extends BehindAProxy {
    @Override
    Class<? extends WebServer> server() {
      return TomcatWebServer.class;
    }
  }

  /** A reactive shop with the same two routes as {@link ShopApplication}'s. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import(OnReactorNetty.class)
  static class ReactiveShop {
    @Bean
    RouterFunction<ServerResponse> routes() {
      return RouterFunctions.route()
          .GET("/", request -> ServerResponse.ok().bodyValue("shop home"))
          .POST("/orders", request -> ServerResponse.ok().bodyValue("order placed"))
          .build();
    }
  }

  /** WebFlux, {@code framework}: Spring's {@code ForwardedHeaderTransformer}. */
  @Nested
  @SpringBootTest(
      classes = ReactiveShop.class,
      webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
      properties = {
        "spring.main.web-application-type=reactive",
        "server.forward-headers-strategy=framework",
        "waitingroom.room-id=shop",
        "waitingroom.total-active-users=1",
        "waitingroom.new-users-per-minute=1",
        "waitingroom.session-duration=5m"
      })
  class ReactiveFrameworkStrategy extends BehindAProxy {
    @Override
    Class<? extends WebServer> server() {
      return NettyWebServer.class;
    }
  }

  /** WebFlux, {@code native}: Reactor Netty's own forwarded-header support. */
  @Nested
  @SpringBootTest(
      classes = ReactiveShop.class,
      webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
      properties = {
        "spring.main.web-application-type=reactive",
        "server.forward-headers-strategy=native",
        "waitingroom.room-id=shop",
        "waitingroom.total-active-users=1",
        "waitingroom.new-users-per-minute=1",
        "waitingroom.session-duration=5m"
      })
  class ReactiveNativeStrategy extends BehindAProxy {
    @Override
    Class<? extends WebServer> server() {
      return NettyWebServer.class;
    }
  }
}
