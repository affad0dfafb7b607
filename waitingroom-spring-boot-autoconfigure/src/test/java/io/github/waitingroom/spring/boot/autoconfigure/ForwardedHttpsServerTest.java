package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
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
 * requests arrive in plain HTTP from the proxy, some with {@code X-Forwarded-Proto: https}, {@code
 * X-Forwarded-Host} and {@code X-Forwarded-Port} (nginx, most load balancers), some with the
 * standard {@code Forwarded: proto=https;host=...} (RFC 7239), and Spring's {@code
 * server.forward-headers-strategy} (each of its two values) makes them HTTPS requests again; in a
 * servlet application (Tomcat) and a reactive one (Reactor Netty, {@link OnReactorNetty}) alike,
 * each checked to run on its server. With the default {@code waitingroom.cookie.secure=auto}, both
 * ticket cookies are {@code Secure}; the waiting page sends a visitor who posted a form back to the
 * page of that form by a path on the same origin (so it stays on https); the page, the JSON status
 * it polls and the dashboard's redirect name no {@code http://} URL. {@code Boot4ForwardedHttpsTest}
 * runs the same on Spring Boot 4.
 *
 * <p>One exception, which docs/spring-boot.md states: Tomcat's {@code RemoteIpValve} ({@code
 * native} on Tomcat) reads the {@code X-Forwarded-*} headers only, so a request that carries only
 * {@code Forwarded} stays plain HTTP there and its cookies are not {@code Secure}. This test pins
 * that, so that the docs change the day Tomcat reads {@code Forwarded}.
 */
class ForwardedHttpsServerTest {
  private static final String PUBLIC_HOST = "shop.example";
  private static final String FORM_PAGE = "/order-form?item=tea";

  /** How the proxy says that the client spoke https to {@link #PUBLIC_HOST}. */
  enum Proxy {
    X_FORWARDED {
      @Override
      HttpRequest.Builder headers(HttpRequest.Builder r) {
        return r.header("X-Forwarded-Proto", "https").header("X-Forwarded-Host", PUBLIC_HOST).header("X-Forwarded-Port", "443");
      }
    },
    RFC_7239 {
      @Override
      HttpRequest.Builder headers(HttpRequest.Builder r) {
        return r.header("Forwarded", "for=203.0.113.7;proto=https;host=" + PUBLIC_HOST);
      }
    };

    abstract HttpRequest.Builder headers(HttpRequest.Builder r);
  }

  /**
   * A browser on the public https origin, seen from behind the proxy: it keeps its cookies itself
   * and sends them all, {@code Secure} ones included, as a browser does over https to the proxy
   * (the JDK's cookie jar would hold those back from this plain-http connection).
   */
  static final class Browser {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<String, String> cookies = new LinkedHashMap<>();
    private final int port;
    private final Proxy proxy;

    Browser(int port, Proxy proxy) {
      this.port = port;
      this.proxy = proxy;
    }

    HttpResponse<String> get(String path, String accept) throws Exception {
      return send(request(path).header("Accept", accept).GET());
    }

    HttpResponse<String> postForm(String path, String referer, String form) throws Exception {
      return send(
          request(path)
              .header("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
              .header("Referer", referer)
              .header("Content-Type", "application/x-www-form-urlencoded")
              .POST(HttpRequest.BodyPublishers.ofString(form)));
    }

    private HttpRequest.Builder request(String path) {
      HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10));
      if (!cookies.isEmpty()) {
        r.header("Cookie", cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("; ")));
      }
      return proxy.headers(r);
    }

    private HttpResponse<String> send(HttpRequest.Builder r) throws Exception {
      HttpResponse<String> response = CLIENT.send(r.build(), HttpResponse.BodyHandlers.ofString());
      for (String c : response.headers().allValues("Set-Cookie")) {
        String pair = c.substring(0, c.indexOf(';') < 0 ? c.length() : c.indexOf(';'));
        cookies.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
      }
      return response;
    }
  }

  abstract static class BehindAProxy {
    @LocalServerPort int port;
    @Autowired ApplicationContext context;

    /** The server this application must run on. */
    abstract Class<? extends WebServer> server();

    /** Whether this server and strategy read {@code Forwarded} (RFC 7239), not only {@code X-Forwarded-*}. */
    boolean readsRfc7239() {
      return true;
    }

    @Test
    void cookiesAreSecureAndTheWaitingPageStaysOnHttps() throws Exception {
      assertThat(((WebServerApplicationContext) context).getWebServer()).isInstanceOf(server());
      // The room's two slots: one visitor through each kind of proxy header.
      for (Proxy proxy : Proxy.values()) {
        HttpResponse<String> in = new Browser(port, proxy).get("/", "text/html,*/*;q=0.8");
        assertThat(in.body()).as(proxy + ": admitted").isEqualTo("shop home");
        assertSecure(in.headers().allValues("Set-Cookie"), "wr_shop=", https(proxy), proxy);
      }

      // The room is full: two more visitors post the order form from its public https page.
      for (Proxy proxy : Proxy.values()) {
        Browser visitor = new Browser(port, proxy);
        HttpResponse<String> queued = visitor.postForm("/orders", "https://" + PUBLIC_HOST + FORM_PAGE, "item=tea");
        assertThat(queued.body()).as(proxy + ": queued").contains("You are in line").doesNotContain("http://");
        assertSecure(queued.headers().allValues("Set-Cookie"), "wr_shop_q=", https(proxy), proxy);
        if (https(proxy)) {
          // Back to the form's page at this visitor's turn: a path on the page's own (https)
          // origin, in the no-script refresh and in the poll script alike.
          assertThat(queued.body()).contains("url=" + FORM_PAGE + "\"", "var back = \"" + FORM_PAGE + "\"");
        } else {
          // Seen as http://127.0.0.1:port, the https Referer is another origin: no way back by it.
          assertThat(queued.body()).doesNotContain(FORM_PAGE);
        }
        // The JSON status the page polls, with the place cookie: still in line, no absolute URL.
        HttpResponse<String> status = visitor.get("/?waitingRoomStatus=1", "application/json");
        assertThat(status.body()).contains("\"inWaitingRoom\":true").doesNotContain("http://");
      }

      // The dashboard's bare path redirects relative to the request's own URL: it stays on https.
      HttpResponse<String> dashboard = new Browser(port, Proxy.X_FORWARDED).get("/waitingroom/dashboard", "text/html");
      assertThat(dashboard.statusCode()).isEqualTo(302);
      assertThat(dashboard.headers().firstValue("Location")).hasValue("dashboard/");
    }

    private boolean https(Proxy proxy) {
      return proxy == Proxy.X_FORWARDED || readsRfc7239();
    }

    private static void assertSecure(List<String> setCookies, String ticket, boolean secure, Proxy proxy) {
      assertThat(setCookies).as(proxy + ": the ticket cookie").anySatisfy(c -> assertThat(c).startsWith(ticket));
      if (secure) {
        assertThat(setCookies).as(proxy + ": every cookie Secure").allSatisfy(c -> assertThat(c).containsIgnoringCase("; Secure"));
      } else {
        assertThat(setCookies).as(proxy + ": plain http to Tomcat's valve").noneSatisfy(c -> assertThat(c).containsIgnoringCase("; Secure"));
      }
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
        "waitingroom.total-active-users=2",
        "waitingroom.new-users-per-minute=2",
        "waitingroom.session-duration=5m",
        "waitingroom.dashboard.bearer-token=forwarded-https-operator-token"
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
        "waitingroom.total-active-users=2",
        "waitingroom.new-users-per-minute=2",
        "waitingroom.session-duration=5m",
        "waitingroom.dashboard.bearer-token=forwarded-https-operator-token"
      })
  class NativeStrategy extends BehindAProxy {
    @Override
    Class<? extends WebServer> server() {
      return TomcatWebServer.class;
    }

    @Override
    boolean readsRfc7239() {
      return false;
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
        "waitingroom.total-active-users=2",
        "waitingroom.new-users-per-minute=2",
        "waitingroom.session-duration=5m",
        "waitingroom.dashboard.bearer-token=forwarded-https-operator-token"
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
        "waitingroom.total-active-users=2",
        "waitingroom.new-users-per-minute=2",
        "waitingroom.session-duration=5m",
        "waitingroom.dashboard.bearer-token=forwarded-https-operator-token"
      })
  class ReactiveNativeStrategy extends BehindAProxy {
    @Override
    Class<? extends WebServer> server() {
      return NettyWebServer.class;
    }
  }
}
