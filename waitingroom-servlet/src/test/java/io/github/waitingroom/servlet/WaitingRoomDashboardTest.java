package io.github.waitingroom.servlet;

import static io.github.waitingroom.testsupport.JsonTree.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.Decision;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.RoomMetrics;
import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import io.github.waitingroom.testsupport.JsonTree;

/**
 * {@link WaitingRoomDashboard} over real HTTP on a real Jetty 12: how it is built and protected,
 * its headers, and that its data are the room's own figures after real traffic through the
 * filter. The room runs on a {@link ManualClock} without background sync, so nothing moves
 * between the request for the data and the test's own reading of the room.
 */
class WaitingRoomDashboardTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final String TOKEN = "s3cret-dashboard-token-0123";
  private static final String DATA = DashboardServer.PATH + "/data";

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final List<AutoCloseable> open = new ArrayList<>();

  private WaitingRoom room(String id, int total, int perMinute) {
    RoomConfig config =
        RoomConfig.builder(id)
            .totalActiveUsers(total)
            .newUsersPerMinute(perMinute)
            .sessionDuration(Duration.ofSeconds(60))
            .sliceWidth(Duration.ofSeconds(10))
            .refreshInterval(Duration.ofSeconds(10))
            .waitingTimeout(Duration.ofMinutes(5))
            .build();
    WaitingRoom r = WaitingRoom.builder(config, KEYS).clock(clock).backgroundSync(false).nodeId("web-1").dataCenter("eu").build();
    open.add(r);
    return r;
  }

  private DashboardServer serve(WaitingRoomDashboard dashboard, List<WaitingRoomFilter> filters, boolean fakeLogin)
      throws Exception {
    DashboardServer s = DashboardServer.start(dashboard, filters, fakeLogin);
    open.add(0, s);
    return s;
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  @Test
  void cannotBeBuiltUnprotectedOrWithAWeakToken() {
    WaitingRoom shop = room("shop", 2, 2);
    assertThatThrownBy(() -> WaitingRoomDashboard.builder(shop).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("must be protected")
        .hasMessageContaining("bearerToken")
        .hasMessageContaining("requireRole");
    assertThatThrownBy(() -> WaitingRoomDashboard.builder(shop).bearerToken("fifteen-chars-x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 16 characters")
        .hasMessageContaining("has 15")
        .hasMessageNotContaining("fifteen-chars-x");
    assertThatThrownBy(() -> WaitingRoomDashboard.builder(shop).bearerToken("sixteen chars ok"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("printable ASCII")
        .hasMessageNotContaining("sixteen");
    assertThatThrownBy(() -> WaitingRoomDashboard.builder(shop).bearerToken(TOKEN).requireRole("ops").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not both");
    assertThatThrownBy(() -> WaitingRoomDashboard.builder(shop).requireRole(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("role");
    assertThatThrownBy(() -> WaitingRoomDashboard.builder(List.of()).bearerToken(TOKEN).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one room");
    WaitingRoom again = room("shop", 5, 5);
    assertThatThrownBy(() -> WaitingRoomDashboard.builder(shop, again).bearerToken(TOKEN).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'shop'");

    // Sixteen characters is enough; a role alone is an explicit choice.
    assertThat(WaitingRoomDashboard.builder(shop).bearerToken("sixteen-chars-ok").build().rooms()).containsExactly(shop);
    assertThat(WaitingRoomDashboard.builder(shop).requireRole("ops").build().rooms()).containsExactly(shop);
  }

  @Test
  void theDataNeedTheTokenAndEveryAnswerIsNotStoredNorSniffedAndLocksDownScripts() throws Exception {
    WaitingRoom shop = room("shop", 2, 2);
    WaitingRoomDashboard dashboard = WaitingRoomDashboard.builder(shop).bearerToken(TOKEN).build();
    DashboardServer s = serve(dashboard, List.of(WaitingRoomFilter.builder(shop).ignorePaths("/ops/").build()), false);
    DashboardServer.Client c = s.client();

    List<HttpResponse<String>> refused =
        List.of(
            c.get(DATA),
            c.get(DATA, Map.of("Authorization", "Bearer " + TOKEN + "x")),
            c.get(DATA, Map.of("Authorization", "Bearer " + TOKEN.substring(1))),
            c.get(DATA, Map.of("Authorization", "Bearer ")),
            c.get(DATA, Map.of("Authorization", "Basic " + TOKEN)),
            c.get(DATA, Map.of("Authorization", TOKEN)));
    for (HttpResponse<String> r : refused) {
      assertThat(r.statusCode()).isEqualTo(401);
      assertThat(r.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
      assertThat(r.body()).doesNotContain("shop").doesNotContain("activeUsers");
      lockedDown(r);
    }

    HttpResponse<String> ok = c.get(DATA, Map.of("Authorization", "Bearer " + TOKEN));
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    assertThat(at(JsonTree.object(ok.body()), "rooms", 0, "roomId")).isEqualTo("shop");
    lockedDown(ok);
    // The scheme is case-insensitive (RFC 7235).
    assertThat(c.get(DATA, Map.of("Authorization", "bearer " + TOKEN)).statusCode()).isEqualTo(200);

    // The page itself is served to anyone and holds no data; its CSP allows exactly its own inline
    // script and style, by hash, and nothing from elsewhere.
    HttpResponse<String> page = c.get(DashboardServer.PATH + "/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    assertThat(page.body()).contains("data-auth=\"bearer\"").contains("<form id=\"login\"").doesNotContain("shop");
    assertThat(page.body()).doesNotContainPattern("(?i)(src|href)\\s*=\\s*[\"']?(https?:)?//");
    lockedDown(page);
    String csp = page.headers().firstValue("Content-Security-Policy").orElseThrow();
    assertThat(csp)
        .contains("default-src 'none'")
        .contains("script-src " + sha256(inline(page.body(), "script")) + ";")
        .contains("style-src " + sha256(inline(page.body(), "style")) + ";")
        .contains("connect-src 'self'")
        .contains("frame-ancestors 'none'")
        .doesNotContain("unsafe-inline")
        .doesNotContain("http");
    assertThat(page.body().getBytes(StandardCharsets.UTF_8).length).isLessThan(30 * 1024);

    // Without the trailing slash the page's relative fetch would miss: redirected.
    HttpResponse<String> bare = c.get(DashboardServer.PATH);
    assertThat(bare.statusCode()).isEqualTo(302);
    String location = bare.headers().firstValue("Location").orElseThrow();
    assertThat(s.uri(DashboardServer.PATH).resolve(location)).isEqualTo(s.uri(DashboardServer.PATH + "/"));
    HttpResponse<String> other = c.get(DashboardServer.PATH + "/other", Map.of("Authorization", "Bearer " + TOKEN));
    assertThat(other.statusCode()).isEqualTo(404);
    lockedDown(other);
    assertThat(c.send("POST", DATA, Map.of("Authorization", "Bearer " + TOKEN)).statusCode()).isEqualTo(405);
    assertThat(dashboard.warned()).isFalse();
  }

  private static void lockedDown(HttpResponse<String> r) {
    assertThat(r.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(r.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(v -> assertThat(v).startsWith("default-src 'none'"));
  }

  private static String inline(String html, String tag) {
    Matcher m = Pattern.compile("<" + tag + ">(.*?)</" + tag + ">", Pattern.DOTALL).matcher(html);
    assertThat(m.find()).as("an inline <%s>", tag).isTrue();
    String body = m.group(1);
    assertThat(m.find()).as("only one inline <%s>", tag).isFalse();
    return body;
  }

  private static String sha256(String text) throws Exception {
    byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    return "'sha256-" + Base64.getEncoder().encodeToString(d) + "'";
  }

  @Test
  void withARequiredRoleTheApplicationsSecurityDecides() throws Exception {
    WaitingRoom shop = room("shop", 2, 2);
    WaitingRoomDashboard dashboard = WaitingRoomDashboard.builder(shop).requireRole("ops").build();
    DashboardServer s = serve(dashboard, List.of(WaitingRoomFilter.builder(shop).ignorePaths("/ops/").build()), true);
    DashboardServer.Client c = s.client();

    for (String path : List.of(DATA, DashboardServer.PATH + "/")) {
      assertThat(c.get(path).statusCode()).as("nobody logged in: %s", path).isEqualTo(403);
      assertThat(c.get(path, Map.of("X-Test-User", "eve", "X-Test-Roles", "shopper")).statusCode()).isEqualTo(403);
      assertThat(c.get(path, Map.of("Authorization", "Bearer " + TOKEN)).statusCode()).isEqualTo(403);
    }
    Map<String, String> operator = Map.of("X-Test-User", "olga", "X-Test-Roles", "shopper,ops");
    HttpResponse<String> data = c.get(DATA, operator);
    assertThat(data.statusCode()).isEqualTo(200);
    assertThat(at(JsonTree.object(data.body()), "rooms", 0, "roomId")).isEqualTo("shop");
    lockedDown(data);
    HttpResponse<String> page = c.get(DashboardServer.PATH + "/", operator);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("data-auth=\"role\"");
  }

  @Test
  void theDataAreTheRoomsStatusAndMetricsAfterRealTrafficThroughTheFilter() throws Exception {
    WaitingRoom shop = room("shop", 2, 2);
    WaitingRoom drop = room("drop", 5, 5);
    WaitingRoomDashboard dashboard = WaitingRoomDashboard.builder(shop, drop).bearerToken(TOKEN).clock(clock).build();
    DashboardServer s =
        serve(
            dashboard,
            List.of(
                WaitingRoomFilter.builder(shop).ignorePaths("/ops/").build(),
                WaitingRoomFilter.builder(drop).pathPrefix("/drop").build()),
            false);
    DashboardServer.Client a = s.client();
    DashboardServer.Client b = s.client();
    DashboardServer.Client c = s.client();
    DashboardServer.Client d = s.client();
    DashboardServer.Client e = s.client();

    assertThat(a.get("/").body()).startsWith("app:"); // 10:00:00, admitted on arrival
    assertThat(b.get("/").body()).startsWith("app:");
    assertThat(c.get("/").body()).contains("You are in line"); // queued, wait unknown
    assertThat(s.client().get("/drop/x").body()).startsWith("app:/drop/x");
    assertThat(s.client().get("/", Map.of("Cookie", "wr_shop=not-a-ticket")).body()).contains("You are in line");
    clock.advance(Duration.ofSeconds(50));
    assertThat(b.get("/").body()).startsWith("app:");
    assertThat(c.get("/").body()).contains("You are in line");
    clock.advance(Duration.ofSeconds(10));
    shop.sync();
    drop.sync();
    assertThat(d.get("/").body()).contains("You are in line");
    for (int i = 0; i < 2; i++) {
      clock.advance(Duration.ofSeconds(5));
      assertThat(c.get("/").body()).contains("You are in line");
      assertThat(d.get("/").body()).contains("You are in line");
    }
    shop.sync(); // 10:01:10: a's session has expired: one slot, for c
    drop.sync();
    assertThat(c.get("/").body()).startsWith("app:"); // admitted from the line after 70 s
    assertThat(e.get("/").body()).contains("You are in line"); // queued, its wait unknown
    clock.advance(Duration.ofSeconds(1));
    shop.sync();
    drop.sync();

    HttpResponse<String> r = s.client().get(DATA, Map.of("Authorization", "Bearer " + TOKEN));
    assertThat(r.statusCode()).isEqualTo(200);
    Map<String, Object> json = JsonTree.object(r.body());
    assertThat(at(json, "timeMillis")).isEqualTo(clock.millis());
    assertThat(at(json, "settingsVersion")).isEqualTo(0L); // no operator has changed the settings
    List<Long> bounds = new ArrayList<>();
    for (long bound : RoomMetrics.SecondsHistogram.bounds()) {
      bounds.add(bound);
    }
    assertThat(at(json, "histogramBounds")).isEqualTo(bounds);
    assertThat((List<?>) at(json, "rooms")).hasSize(2);
    matches(JsonTree.node(json, "rooms", 0), shop);
    matches(JsonTree.node(json, "rooms", 1), drop);

    // The traffic left its marks, so the comparison above compared something.
    RoomMetrics m = shop.metrics();
    assertThat(m.admittedOnArrival()).isEqualTo(2);
    assertThat(m.admittedFromLine()).isEqualTo(1);
    assertThat(m.timeInLine().count()).isEqualTo(1);
    // Every wait told here is unknown: the room is full and has not seen users leave (see the
    // core's Turnover), so the histogram of waits shown is compared empty.
    assertThat(m.waitUnknown()).isPositive();
    assertThat(m.rejected(RoomMetrics.Rejection.FORGED)).isEqualTo(1);
    assertThat(shop.status().waitingUsers()).isPositive();
    assertThat(drop.metrics().admittedOnArrival()).isEqualTo(1);
    // The dashboard's own requests were not decided by any room.
    assertThat(m.arrivals()).isEqualTo(6);
    assertThat(dashboard.warned()).isFalse();
  }

  /** Every figure of one room's data equals what the room itself says. */
  private static void matches(Object json, WaitingRoom room) {
    RoomConfig c = room.config();
    assertThat(at(json, "roomId")).isEqualTo(c.roomId());
    assertThat(at(json, "nodeId")).isEqualTo("web-1");
    assertThat(at(json, "dataCenter")).isEqualTo("eu");
    assertThat(at(json, "settingsVersion")).isEqualTo(room.settings().version());
    assertThat(at(json, "queueingMethod")).isEqualTo("fifo");
    assertThat(at(json, "limits", "totalActiveUsers")).isEqualTo((long) c.totalActiveUsers());
    assertThat(at(json, "limits", "newUsersPerMinute")).isEqualTo((long) c.newUsersPerMinute());
    assertThat(at(json, "limits", "sessionSeconds")).isEqualTo(c.sessionSeconds());
    assertThat(at(json, "limits", "refreshSeconds")).isEqualTo(c.refreshSeconds());
    assertThat(at(json, "limits", "waitingTimeoutSeconds")).isEqualTo(c.waitingTimeoutSeconds());

    RoomStatus s = room.status();
    assertThat(s.planEpoch()).isNotEqualTo(Long.MIN_VALUE);
    assertThat(at(json, "status", "now")).isEqualTo(s.now());
    assertThat(at(json, "status", "queueingStatus")).isEqualTo(s.queueingStatus());
    assertThat(at(json, "status", "maxWaitSeconds")).isEqualTo(s.maxWaitSeconds());
    assertThat(at(json, "status", "planEpoch")).isEqualTo(s.planEpoch());
    assertThat(at(json, "status", "viewAgeMillis")).isEqualTo(s.viewAgeMillis());
    assertThat(at(json, "status", "activeUsers")).isEqualTo(s.activeUsers());
    assertThat(at(json, "status", "waitingUsers")).isEqualTo(s.waitingUsers());
    assertThat(at(json, "status", "freeSlots")).isEqualTo(s.freeSlots());
    assertThat(at(json, "status", "admissionsPerMinute")).isEqualTo(s.admissionsPerMinute());
    assertThat(at(json, "status", "cutoffSecond")).isEqualTo(s.cutoffSecond() == Long.MIN_VALUE ? null : s.cutoffSecond());
    assertThat(at(json, "status", "localActiveUsers")).isEqualTo(s.localActiveUsers());
    assertThat(at(json, "status", "dataCenters")).isEqualTo(s.dataCenters());
    assertThat(at(json, "status", "roomNodes")).isEqualTo((long) s.roomNodes());
    assertThat(at(json, "status", "epochMillis")).isEqualTo(s.epochMillis());
    assertThat(at(json, "status", "transportFailing")).isEqualTo(s.transportFailing());
    assertThat(at(json, "status", "dataCenterShares")).isEqualTo(shares(s.dataCenterShares()));
    assertThat(at(json, "status", "nodeShares")).isEqualTo(shares(s.nodeShares()));

    RoomMetrics m = room.metrics();
    for (Decision.Outcome o : Decision.Outcome.values()) {
      assertThat(at(json, "metrics", "decisions", o.name().toLowerCase(Locale.ROOT))).as("%s", o).isEqualTo(m.decisions(o));
    }
    for (RoomMetrics.Rejection why : RoomMetrics.Rejection.values()) {
      assertThat(at(json, "metrics", "rejected", why.name().toLowerCase(Locale.ROOT))).as("%s", why).isEqualTo(m.rejected(why));
    }
    assertThat(at(json, "metrics", "arrivals")).isEqualTo(m.arrivals());
    assertThat(at(json, "metrics", "admittedOnArrival")).isEqualTo(m.admittedOnArrival());
    assertThat(at(json, "metrics", "admittedFromLine")).isEqualTo(m.admittedFromLine());
    assertThat(at(json, "metrics", "waitUnknown")).isEqualTo(m.waitUnknown());
    histogram(JsonTree.node(json, "metrics", "timeInLine"), m.timeInLine());
    histogram(JsonTree.node(json, "metrics", "waitShown"), m.waitShown());
    assertThat(at(json, "metrics", "syncs")).isEqualTo(m.syncs());
    assertThat(at(json, "metrics", "syncFailures")).isEqualTo(m.syncFailures());
    assertThat(at(json, "metrics", "syncNanos")).isEqualTo(m.syncNanos());
    assertThat(at(json, "metrics", "storeOutages")).isEqualTo(m.storeOutages());
  }

  private static List<Map<String, Object>> shares(List<RoomStatus.Share> shares) {
    return shares.stream()
        .map(sh -> Map.<String, Object>of("name", sh.name(), "activeUsers", sh.activeUsers(), "waitingUsers", sh.waitingUsers()))
        .toList();
  }

  private static void histogram(Object json, RoomMetrics.SecondsHistogram h) {
    assertThat(at(json, "count")).isEqualTo(h.count());
    assertThat(at(json, "sumSeconds")).isEqualTo(h.sumSeconds());
    List<Long> cumulative = new ArrayList<>();
    for (int i = 0; i <= RoomMetrics.SecondsHistogram.bounds().length; i++) {
      cumulative.add(h.countAtMost(i));
    }
    assertThat(at(json, "cumulative")).isEqualTo(cumulative);
  }

  @Test
  void warnsOnceWhenAWaitingRoomDecidesTheDashboardsOwnPath() throws Exception {
    // Ignored: the room marks the request but does not decide it, and nobody is warned.
    WaitingRoom shop = room("shop", 2, 2);
    WaitingRoomDashboard ignored = WaitingRoomDashboard.builder(shop).bearerToken(TOKEN).build();
    DashboardServer s1 = serve(ignored, List.of(WaitingRoomFilter.builder(shop).ignorePaths(DashboardServer.PATH).build()), false);
    assertThat(s1.client().get(DashboardServer.PATH + "/").statusCode()).isEqualTo(200);
    assertThat(s1.client().get(DATA, Map.of("Authorization", "Bearer " + TOKEN)).statusCode()).isEqualTo(200);
    assertThat(ignored.warned()).isFalse();
    assertThat(shop.metrics().arrivals()).isZero();

    // Under the guarded prefix, not ignored: the filter sees that the container sends the request
    // to the dashboard and leaves it alone, a PUT of the settings (which no ignorePaths covers) too.
    WaitingRoom under = room("under", 2, 2);
    WaitingRoomDashboard own = WaitingRoomDashboard.builder(under).bearerToken(TOKEN).build();
    DashboardServer s3 = serve(own, List.of(WaitingRoomFilter.builder(under).build()), false);
    assertThat(s3.client().get(DashboardServer.PATH + "/").statusCode()).isEqualTo(200);
    assertThat(s3.client().send("PUT", DashboardServer.PATH + "/settings", Map.of("Authorization", "Bearer " + TOKEN)).statusCode())
        .isEqualTo(403); // this dashboard does not change settings: answered by the dashboard, not the room
    assertThat(under.metrics().arrivals()).isZero();
    assertThat(own.warned()).isFalse();

    // Guarded, behind a servlet the filter cannot tell from the application: the operator is an
    // arrival like any other (let in here, as the room is empty), and the dashboard warns.
    WaitingRoom other = room("other", 2, 2);
    WaitingRoomDashboard guarded = WaitingRoomDashboard.builder(other).bearerToken(TOKEN).build();
    DashboardServer s2 = DashboardServer.start(guarded, List.of(WaitingRoomFilter.builder(other).build()), false, true);
    open.add(0, s2);
    assertThat(s2.client().get(DashboardServer.PATH + "/").statusCode()).isEqualTo(200);
    assertThat(other.metrics().arrivals()).isEqualTo(1);
    assertThat(guarded.warned()).isTrue();
  }
}
