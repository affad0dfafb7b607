package io.github.waitingroom.testsupport.boot;

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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * HTTPS behind a TLS-terminating reverse proxy, on real embedded servers over real HTTP: the
 * requests arrive in plain HTTP from the proxy, some with {@code X-Forwarded-Proto: https}, {@code
 * X-Forwarded-Host} and {@code X-Forwarded-Port} (nginx, most load balancers), some with the
 * standard {@code Forwarded: proto=https;host=...} (RFC 7239), and Spring's {@code
 * server.forward-headers-strategy} (each of its two values) makes them HTTPS requests again; in a
 * servlet application (Tomcat) and a reactive one (Reactor Netty) alike, each checked to run on its
 * server. With the default {@code waitingroom.cookie.secure=auto}, both ticket cookies are {@code
 * Secure}; the waiting page sends a visitor who posted a form back to the page of that form by a
 * path on the same origin (so it stays on https); the page, the JSON status it polls and the
 * dashboard's redirect name no {@code http://} URL.
 *
 * <p>The application serves {@code shop home} at {@code GET /} and takes {@code POST /orders}. A
 * subclass per Boot version starts it, as a servlet application on Tomcat or a reactive one on
 * Reactor Netty.
 */
public abstract class ForwardedHttpsScenario {
  private static final String PUBLIC_HOST = "shop.example";
  private static final String FORM_PAGE = "/order-form?item=tea";
  private static final String ROOM = "shop";
  private static final String QUEUED = "You are in line";

  /** Creates the scenario; a subclass per Boot version. */
  protected ForwardedHttpsScenario() {}

  /**
   * Starts the application with these command-line arguments on port 0: a servlet application,
   * which must run on Tomcat, or a reactive one, which must run on Reactor Netty. Fails unless it
   * runs on that server.
   */
  protected abstract RunningApp start(boolean reactive, String... args);

  /** Checks that the test runs on the Boot version its module is for; called by each test. */
  protected abstract void checkBootVersion();

  /** How the proxy says that the client spoke https to {@link #PUBLIC_HOST}. */
  private enum Proxy {
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
  private static final class Browser {
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

  /**
   * {@code framework}: Spring's {@code ForwardedHeaderFilter} (servlet) or {@code
   * ForwardedHeaderTransformer} (reactive); {@code native}: Tomcat's {@code RemoteIpValve}, which
   * trusts a proxy on 127.0.0.1, or Reactor Netty's own forwarded-header support.
   */
  @ParameterizedTest(name = "reactive={0}, server.forward-headers-strategy={1}")
  @CsvSource({"false, framework", "false, native", "true, framework", "true, native"})
  void cookiesAreSecureAndTheWaitingPageStaysOnHttps(boolean reactive, String strategy) throws Exception {
    checkBootVersion();
    try (RunningApp app = start(
        reactive,
        "--server.forward-headers-strategy=" + strategy,
        "--waitingroom.room-id=" + ROOM,
        "--waitingroom.total-active-users=2",
        "--waitingroom.new-users-per-minute=2",
        "--waitingroom.session-duration=5m",
        "--waitingroom.keyset.generate-ephemeral=true",
        "--waitingroom.dashboard.bearer-token=forwarded-https-operator-token")) {
      int port = app.port();
      // Every server reads X-Forwarded-*; all but Tomcat's RemoteIpValve read Forwarded as well.
      boolean readsRfc7239 = reactive || !strategy.equals("native");

      // The room's two slots: one visitor through each kind of proxy header.
      for (Proxy proxy : Proxy.values()) {
        boolean https = proxy == Proxy.X_FORWARDED || readsRfc7239;
        HttpResponse<String> in = new Browser(port, proxy).get("/", "text/html,*/*;q=0.8");
        assertThat(in.body()).as(proxy + ": admitted").isEqualTo("shop home");
        assertSecure(in.headers().allValues("Set-Cookie"), "wr_" + ROOM + "=", https, proxy);
      }

      // The room is full: two more visitors post the order form from its public https page.
      for (Proxy proxy : Proxy.values()) {
        boolean https = proxy == Proxy.X_FORWARDED || readsRfc7239;
        Browser visitor = new Browser(port, proxy);
        HttpResponse<String> queued = visitor.postForm("/orders", "https://" + PUBLIC_HOST + FORM_PAGE, "item=tea");
        assertThat(queued.body()).as(proxy + ": queued").contains(QUEUED).doesNotContain("http://");
        assertSecure(queued.headers().allValues("Set-Cookie"), "wr_" + ROOM + "_q=", https, proxy);
        if (https) {
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
