package io.github.waitingroom.servlet;

import static io.github.waitingroom.testsupport.JsonTree.at;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.WaitingRoom;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import io.github.waitingroom.testsupport.JsonTree;

/**
 * The dashboard's operator endpoints over real HTTP on a real Jetty 12, and what the guarded site
 * answers in each state they put the room in: a change through {@code PUT <mapping>/settings},
 * refused without the token, with another content type, a bad field or an old version; then
 * {@code reject} (the "sold out" page and its status), {@code suspended} (an active user waits
 * with the session kept, and goes on after the room resumes), {@code passthrough} (newcomers go in
 * with the room full). One node on a {@link ManualClock} without background sync: the test syncs
 * it until a change is in force.
 */
class LiveSettingsOperatorTest {
  private static final String TOKEN = "s3cret-operator-token-0123";
  private static final Map<String, String> AUTH = Map.of("Authorization", "Bearer " + TOKEN);
  private static final String SETTINGS = DashboardServer.PATH + "/settings?room=shop";

  @RegisterExtension final RoomFixture fixture = new RoomFixture();
  private final ManualClock clock = fixture.clock;

  private WaitingRoom room() {
    return fixture.room(
        RoomFixture.oneSlot(Duration.ofSeconds(60))
            .sliceWidth(Duration.ofSeconds(10))
            .refreshInterval(Duration.ofSeconds(10))
            .waitingTimeout(Duration.ofMinutes(5)));
  }

  private DashboardServer serve(WaitingRoom room, WaitingRoomDashboard dashboard) throws Exception {
    return fixture.opened(
        DashboardServer.start(dashboard, List.of(WaitingRoomFilter.builder(room).ignorePaths("/ops/").build()), false));
  }

  private static HttpResponse<String> put(DashboardServer.Client c, Map<String, String> headers, String body) throws Exception {
    return c.send("PUT", SETTINGS, headers, body);
  }

  private static Map<String, String> json(Map<String, String> headers) {
    Map<String, String> all = new java.util.HashMap<>(headers);
    all.put("Content-Type", "application/json");
    return all;
  }

  /** Syncs (a quarter second apart) until the version is in force; at most 40 syncs. */
  private void syncUntil(WaitingRoom room, long version) {
    for (int i = 0; i < 40 && room.settings().version() < version; i++) {
      clock.advance(Duration.ofMillis(250));
      room.sync();
    }
    assertThat(room.settings().version()).as("in force within 40 syncs").isEqualTo(version);
  }

  private static String error(HttpResponse<String> r) throws Exception {
    return String.valueOf(at(JsonTree.object(r.body()), "error"));
  }

  @Test
  void settingsChangeThroughTheEndpointAndTheSiteAnswersPerState() throws Exception {
    WaitingRoom room = room();
    DashboardServer s = serve(room, WaitingRoomDashboard.builder(room).bearerToken(TOKEN).settingsChanges(true).build());
    DashboardServer.Client ops = s.client();
    DashboardServer.Client a = s.client();
    assertThat(a.get("/buy").body()).isEqualTo("app:/buy"); // takes the room's only slot
    String session = a.cookie("wr_shop");
    assertThat(session).isNotNull();

    // Refused: no token, another content type (a form cannot send it), bad fields, unknown fields.
    HttpResponse<String> noToken = put(ops, Map.of("Content-Type", "application/json"), "{\"suspended\":true}");
    assertThat(noToken.statusCode()).isEqualTo(401);
    assertThat(noToken.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
    assertThat(put(ops, Map.of("Content-Type", "application/x-www-form-urlencoded", "Authorization", AUTH.get("Authorization")),
        "{\"suspended\":true}").statusCode()).isEqualTo(415);
    assertThat(put(ops, AUTH, "{\"suspended\":true}").statusCode()).isEqualTo(415);
    HttpResponse<String> badMethod = put(ops, json(AUTH), "{\"queueingMethod\":\"lifo\"}");
    assertThat(badMethod.statusCode()).isEqualTo(400);
    assertThat(error(badMethod)).contains("queueingMethod", "lifo");
    HttpResponse<String> badLimit = put(ops, json(AUTH), "{\"totalActiveUsers\":0}");
    assertThat(badLimit.statusCode()).isEqualTo(400);
    assertThat(error(badLimit)).contains("totalActiveUsers");
    HttpResponse<String> longer = put(ops, json(AUTH), "{\"sessionDuration\":\"PT2M\"}");
    assertThat(longer.statusCode()).isEqualTo(400);
    assertThat(error(longer)).contains("sessionDuration");
    HttpResponse<String> typo = put(ops, json(AUTH), "{\"suspend\":true}");
    assertThat(typo.statusCode()).isEqualTo(400);
    assertThat(error(typo)).contains("'suspend'");
    assertThat(put(ops, json(AUTH), "{\"suspended\":").statusCode()).isEqualTo(400);
    HttpResponse<String> tooLong = put(ops, json(AUTH), "{\"texts\":{\"title\":\"" + "x".repeat(70_000) + "\"}}");
    assertThat(tooLong.statusCode()).isEqualTo(413);
    assertThat(ops.send("PUT", DashboardServer.PATH + "/settings?room=nope", json(AUTH), "{}").statusCode()).isEqualTo(404);
    assertThat(room.latestSettings().version()).as("nothing was published").isZero();

    // Reject: 200 with the document and when it takes effect.
    HttpResponse<String> ok = put(ops, json(AUTH), "{\"queueingMethod\":\"reject\"}");
    assertThat(ok.statusCode()).isEqualTo(200);
    Map<String, Object> okJson = JsonTree.object(ok.body());
    assertThat(at(okJson, "settings", "version")).isEqualTo(1L);
    assertThat(at(okJson, "settings", "queueingMethod")).isEqualTo("reject");
    assertThat(at(okJson, "versionInForce")).isEqualTo(0L);
    Instant from = Instant.parse(String.valueOf(at(okJson, "activeFrom")));
    assertThat(from).isAfter(clock.instant());
    assertThat(ok.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(ok.headers().firstValue("Content-Security-Policy")).hasValue("default-src 'none'; frame-ancestors 'none'");
    // The same version again: another operator was first.
    HttpResponse<String> conflict = put(ops, json(AUTH), "{\"version\":1,\"suspended\":true}");
    assertThat(conflict.statusCode()).isEqualTo(409);
    assertThat(error(conflict)).contains("version 1");

    HttpResponse<String> read = ops.get(SETTINGS, AUTH);
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(at(JsonTree.object(read.body()), "settings", "queueingMethod")).isEqualTo("reject");
    assertThat(ops.get(SETTINGS).statusCode()).isEqualTo(401);
    syncUntil(room, 1);
    assertThat(at(JsonTree.object(ops.get(SETTINGS, AUTH).body()), "versionInForce")).isEqualTo(1L);

    HttpResponse<String> status = ops.get(DashboardServer.PATH + "/status", AUTH);
    assertThat(status.statusCode()).isEqualTo(200);
    Object shop = JsonTree.node(JsonTree.object(status.body()), "rooms", 0);
    assertThat(at(shop, "roomId")).isEqualTo("shop");
    assertThat(at(shop, "status")).isEqualTo(room.status().queueingStatus());
    assertThat(at(shop, "estimatedTotalActiveUsers")).isEqualTo(1L);
    assertThat(at(shop, "estimatedQueuedUsers")).isEqualTo(0L);
    assertThat(at(shop, "maxEstimatedTimeMinutes")).isEqualTo(-1L); // the room admits nobody new
    assertThat(at(shop, "settingsVersion")).isEqualTo(1L);
    assertThat(at(JsonTree.object(ops.get(DashboardServer.PATH + "/status?room=shop", AUTH).body()), "settingsVersion"))
        .isEqualTo(1L);
    assertThat(ops.get(DashboardServer.PATH + "/status").statusCode()).isEqualTo(401);

    // The site: newcomers get the sold-out page with its status, the active user goes on.
    HttpResponse<String> soldOut = s.client().get("/buy", Map.of("Accept", "text/html"));
    assertThat(soldOut.statusCode()).isEqualTo(403);
    assertThat(soldOut.body()).contains("<h1>Sold out</h1>").doesNotContain("<script", "You are in line");
    HttpResponse<String> soldOutJson = s.client().get("/buy", Map.of("Accept", "application/json"));
    assertThat(soldOutJson.statusCode()).isEqualTo(403);
    assertThat(at(JsonTree.object(soldOutJson.body()), "waitingRoom", "status")).isEqualTo("rejected");
    assertThat(at(JsonTree.object(soldOutJson.body()), "waitingRoom", "isReject")).isEqualTo(true);
    assertThat(a.get("/buy").body()).isEqualTo("app:/buy");

    // Suspended: the active user is not let through, and keeps the session.
    assertThat(put(ops, json(AUTH), "{\"queueingMethod\":\"fifo\",\"suspended\":true}").statusCode()).isEqualTo(200);
    syncUntil(room, 2);
    HttpResponse<String> paused = a.get("/buy", Map.of("Accept", "text/html"));
    assertThat(paused.statusCode()).isEqualTo(200);
    assertThat(paused.body()).contains("<h1>The site is paused for maintenance</h1>").doesNotStartWith("app:");
    Map<String, Object> pausedJson = JsonTree.object(a.get("/buy?waitingRoomStatus=1").body());
    assertThat(at(pausedJson, "waitingRoom", "suspended")).isEqualTo(true);
    assertThat(at(pausedJson, "waitingRoom", "waitTimeKnown")).isEqualTo(false);
    assertThat(at(pausedJson, "waitingRoom", "settingsVersion")).isEqualTo(2L);
    assertThat(at(JsonTree.object(ops.get(DashboardServer.PATH + "/status?room=shop", AUTH).body()), "status"))
        .isEqualTo("suspended");
    assertThat(a.cookie("wr_shop")).as("the session cookie is kept").isEqualTo(session);
    assertThat(put(ops, json(AUTH), "{\"suspended\":false}").statusCode()).isEqualTo(200);
    syncUntil(room, 3);
    assertThat(a.get("/buy").body()).as("the same session goes on").isEqualTo("app:/buy");

    // Passthrough: newcomers go straight in with the room full.
    assertThat(s.client().get("/buy", Map.of("Accept", "text/html")).body()).contains("You are in line");
    assertThat(put(ops, json(AUTH), "{\"queueingMethod\":\"passthrough\"}").statusCode()).isEqualTo(200);
    syncUntil(room, 4);
    for (int i = 0; i < 3; i++) {
      assertThat(s.client().get("/buy").body()).isEqualTo("app:/buy");
    }
  }

  @Test
  void aDashboardWithoutSettingsChangesOnlyReadsThem() throws Exception {
    WaitingRoom room = room();
    WaitingRoomDashboard dashboard = WaitingRoomDashboard.builder(room).bearerToken(TOKEN).build();
    assertThat(dashboard.settingsChanges()).isFalse();
    DashboardServer s = serve(room, dashboard);
    DashboardServer.Client ops = s.client();
    HttpResponse<String> refused = put(ops, json(AUTH), "{\"suspended\":true}");
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(error(refused)).contains("settingsChanges");
    assertThat(put(ops, Map.of("Content-Type", "application/json"), "{}").statusCode()).isEqualTo(401);
    assertThat(room.latestSettings().version()).isZero();
    assertThat(at(JsonTree.object(ops.get(SETTINGS, AUTH).body()), "settings", "version")).isEqualTo(0L);
    assertThat(ops.send("PUT", DashboardServer.PATH + "/data", json(AUTH), "{}").statusCode()).isEqualTo(405);
  }
}
