package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import jakarta.servlet.Filter;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The security-relevant headers of every kind of response, checked over real HTTP against a real
 * Jetty 12: the waiting page's Content-Security-Policy and {@code nosniff}, responses that carry the
 * room's cookie never cacheable by a shared cache whatever the application sets, the {@code
 * __Host-} cookie prefix, and {@code Secure} behind a TLS-terminating proxy.
 */
class HttpHeaderChecksTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final String COOKIE = "wr_shop";
  private static final Pattern NONCE = Pattern.compile("script-src 'nonce-([A-Za-z0-9_-]{22,})'");

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private @Nullable WaitingRoom room;
  private @Nullable TestServer server;

  private TestServer server() {
    return Objects.requireNonNull(server, "server not started");
  }

  /** One active user at most, so the second visitor waits. */
  private static RoomConfig config() {
    return config(1);
  }

  private static RoomConfig config(int users) {
    return RoomConfig.builder("shop")
        .totalActiveUsers(users)
        .newUsersPerMinute(users)
        .sessionDuration(Duration.ofSeconds(60))
        .bucketWidth(Duration.ofSeconds(60))
        .sliceWidth(Duration.ofSeconds(10))
        .refreshInterval(Duration.ofSeconds(10))
        .waitingTimeout(Duration.ofMinutes(5))
        .build();
  }

  private WaitingRoomFilter filter(UnaryOperator<WaitingRoomFilter.Builder> settings) {
    return filter(config(), settings);
  }

  private WaitingRoomFilter filter(RoomConfig config, UnaryOperator<WaitingRoomFilter.Builder> settings) {
    WaitingRoom r = WaitingRoom.builder(config, KEYS).clock(clock).backgroundSync(false).build();
    room = r;
    return settings.apply(WaitingRoomFilter.builder(r)).build();
  }

  private void start(UnaryOperator<WaitingRoomFilter.Builder> settings) throws Exception {
    server = TestServer.start(filter(settings));
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (room != null) {
      room.close();
    }
  }

  private static @Nullable String header(HttpResponse<String> r, String name) {
    return r.headers().firstValue(name).orElse(null);
  }

  private static String cookieOf(HttpResponse<String> r) {
    List<String> cookies = r.headers().allValues("Set-Cookie");
    return cookies.stream().filter(c -> c.startsWith(COOKIE + "=") || c.startsWith("__Host-")).findFirst()
        .orElseThrow(() -> new AssertionError("no room cookie in " + cookies));
  }

  private HttpResponse<String> waitingPage() throws Exception {
    new Visitor(server()).get("/");
    HttpResponse<String> page = new Visitor(server()).get("/");
    assertThat(page.body()).contains("<h1>You are in line</h1>");
    return page;
  }

  @Test
  void waitingPageHasANonceBasedContentSecurityPolicyAndNosniff() throws Exception {
    start(f -> f);
    HttpResponse<String> page = waitingPage();
    String csp = Objects.requireNonNull(header(page, "Content-Security-Policy"), "no Content-Security-Policy");
    List<String> directives = Arrays.stream(csp.split(";")).map(String::trim).toList();
    assertThat(directives).contains("default-src 'none'", "base-uri 'none'", "connect-src 'self'");
    assertThat(csp).as("nothing may load from elsewhere").doesNotContain("http:", "https:", "*", "unsafe-inline",
        "unsafe-eval", "data:");
    Matcher m = NONCE.matcher(csp);
    assertThat(m.find()).as(csp).isTrue();
    String nonce = m.group(1);
    assertThat(directives).contains("style-src 'nonce-" + nonce + "'");
    // Every script and style element of the page carries the nonce; nothing is loaded by URL.
    assertThat(page.body()).contains("<script nonce=\"" + nonce + "\">", "<style nonce=\"" + nonce + "\">");
    assertThat(page.body().split("<script", -1)).hasSize(page.body().split("<script nonce=\"" + nonce + "\">", -1).length);
    assertThat(page.body().split("<style", -1)).hasSize(page.body().split("<style nonce=\"" + nonce + "\">", -1).length);
    assertThat(page.body()).doesNotContain(" src=", "<link");
    assertThat(header(page, "X-Content-Type-Options")).isEqualTo("nosniff");
    assertThat(header(page, "Cache-Control")).isEqualTo("private, no-store");

    HttpResponse<String> again = new Visitor(server()).get("/");
    Matcher m2 = NONCE.matcher(Objects.requireNonNull(header(again, "Content-Security-Policy")));
    assertThat(m2.find()).isTrue();
    assertThat(m2.group(1)).as("a fresh nonce for every page").isNotEqualTo(nonce);
  }

  @Test
  void jsonStatusHasNosniffAndALockedDownPolicy() throws Exception {
    start(f -> f);
    new Visitor(server()).get("/");
    HttpResponse<String> json = new Visitor(server()).getJson("/");
    assertThat(header(json, "Content-Type")).startsWith("application/json");
    assertThat(header(json, "X-Content-Type-Options")).isEqualTo("nosniff");
    assertThat(header(json, "Content-Security-Policy")).isEqualTo("default-src 'none'");
    assertThat(header(json, "Cache-Control")).isEqualTo("private, no-store");
  }

  @Test
  void aResponseCarryingTheRoomCookieIsNeverCacheableWhateverTheApplicationSets() throws Exception {
    start(f -> f);
    String appCaching =
        "?appSetHeader=Cache-Control:public,%20max-age=43200"
            + "&appAddHeader=Cache-Control:s-maxage=600"
            + "&appSetHeader=Expires:Thu,%2001%20Dec%202099%2016:00:00%20GMT"
            + "&appSetHeader=CDN-Cache-Control:max-age=3600"
            + "&appAddHeader=Cloudflare-CDN-Cache-Control:max-age=3600"
            + "&appSetHeader=Surrogate-Control:max-age=3600"
            + "&appSetHeader=X-App:kept";
    Visitor v = new Visitor(server());
    HttpResponse<String> admitted = v.get("/static/app.css" + appCaching);
    assertThat(admitted.body()).startsWith("app:");
    assertThat(cookieOf(admitted)).startsWith(COOKIE + "=");
    assertThat(admitted.headers().allValues("Cache-Control")).containsExactly("private, no-store");
    for (String name : List.of("Expires", "CDN-Cache-Control", "Cloudflare-CDN-Cache-Control", "Surrogate-Control")) {
      assertThat(admitted.headers().allValues(name)).as(name).isEmpty();
    }
    assertThat(header(admitted, "X-App")).as("other headers are the application's business").isEqualTo("kept");

    // Within the same slice the ticket needs no new cookie: the application's caching stands.
    HttpResponse<String> noCookie = v.get("/static/app.css" + appCaching);
    assertThat(noCookie.headers().allValues("Set-Cookie")).isEmpty();
    assertThat(noCookie.headers().allValues("Cache-Control")).containsExactly("public, max-age=43200", "s-maxage=600");
  }

  @Test
  void theRoomCookieAndNoStoreSurviveAResetAndAnApplicationSetCookie() throws Exception {
    start(f -> f);
    HttpResponse<String> reset = new Visitor(server())
        .get("/x?appReset=1&appSetHeader=Set-Cookie:app=1;%20Path=/&appSetHeader=Cache-Control:max-age=60");
    assertThat(reset.body()).startsWith("app:");
    assertThat(reset.headers().allValues("Set-Cookie")).hasSize(2).anyMatch(c -> c.startsWith("app=1"));
    assertThat(cookieOf(reset)).startsWith(COOKIE + "=");
    assertThat(reset.headers().allValues("Cache-Control")).containsExactly("private, no-store");
  }

  @Test
  void aHostPrefixedCookieIsSecureHostWideAndChecked() throws Exception {
    start(f -> f.cookieName("__Host-shop"));
    HttpResponse<String> admitted = new Visitor(server()).get("/cart");
    String cookie = cookieOf(admitted);
    assertThat(cookie).startsWith("__Host-shop=").contains("; Path=/;", "; Secure").doesNotContainIgnoringCase("domain");

    assertThatThrownBy(() -> filter(f -> f.cookieName("__Host-shop").cookieSecure(io.github.waitingroom.http.CookieSecure.NEVER)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cookieName '__Host-shop'")
        .hasMessageContaining("Secure")
        .hasMessageContaining("cookieSecure was NEVER");
    assertThatThrownBy(() -> filter(f -> f.cookieName("__Host-shop").pathPrefix("/shop")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cookieName '__Host-shop'")
        .hasMessageContaining("Path=/")
        .hasMessageContaining("pathPrefix was '/shop'");
    assertThatThrownBy(() -> filter(f -> f.cookieName("__secure-shop").cookieSecure(io.github.waitingroom.http.CookieSecure.NEVER)))
        .as("browsers match the prefixes case-insensitively")
        .hasMessageContaining("cookieSecure was NEVER");
  }

  @Test
  void autoSecureFollowsTheContainersForwardedRequestHandling() throws Exception {
    Filter f = filter(config(2), b -> b);
    server = TestServer.startBehindProxy(f);
    HttpResponse<String> viaTls =
        new Visitor(server()).send("GET", "/", Map.of("X-Forwarded-Proto", "https"));
    assertThat(viaTls.body()).startsWith("app:");
    assertThat(cookieOf(viaTls)).contains("; Secure");
    HttpResponse<String> plain = new Visitor(server()).send("GET", "/", Map.of());
    assertThat(plain.body()).startsWith("app:");
    assertThat(cookieOf(plain)).doesNotContain("Secure");
  }

  @Test
  void autoSecureDoesNotTrustForwardedHeadersTheContainerIgnores() throws Exception {
    start(f -> f);
    HttpResponse<String> r = new Visitor(server()).send("GET", "/", Map.of("X-Forwarded-Proto", "https"));
    assertThat(r.body()).startsWith("app:");
    assertThat(cookieOf(r)).doesNotContain("Secure");
  }
}
