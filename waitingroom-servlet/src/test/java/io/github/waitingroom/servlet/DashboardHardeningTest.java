package io.github.waitingroom.servlet;

import static io.github.waitingroom.testsupport.JsonTree.at;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import io.github.waitingroom.testsupport.JsonTree;

/**
 * Issue 42's small doors of the dashboard, over real HTTP on a real Jetty 12: {@code TRACE} echoed
 * the bearer token, wrong tokens were never slowed, and a settings {@code PUT} with version {@code
 * Long.MAX_VALUE} was accepted and then blocked every later change. The dashboard's lockouts run
 * on the test's {@link ManualClock}: nothing here reads or waits for the wall clock.
 */
class DashboardHardeningTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final String TOKEN = "s3cret-dashboard-token-0123";
  private static final String DATA = DashboardServer.PATH + "/data";
  private static final String SETTINGS = DashboardServer.PATH + "/settings";
  private static final Map<String, String> RIGHT = Map.of("Authorization", "Bearer " + TOKEN);
  private static final Map<String, String> WRONG = Map.of("Authorization", "Bearer not-the-token-0123456789");

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private WaitingRoom room() {
    RoomConfig config =
        RoomConfig.builder("shop").totalActiveUsers(2).newUsersPerMinute(2).sessionDuration(Duration.ofSeconds(60)).build();
    WaitingRoom r = WaitingRoom.builder(config, KEYS).clock(clock).backgroundSync(false).build();
    open.add(r);
    return r;
  }

  private DashboardServer serve(WaitingRoom room, boolean changes) throws Exception {
    WaitingRoomDashboard d = WaitingRoomDashboard.builder(room).bearerToken(TOKEN).clock(clock).settingsChanges(changes).build();
    DashboardServer s = DashboardServer.start(d, List.of(WaitingRoomFilter.builder(room).ignorePaths("/ops/").build()), false);
    open.add(0, s);
    return s;
  }

  @Test
  void traceAndOtherMethodsAreRefusedAndNeverEchoTheToken() throws Exception {
    DashboardServer s = serve(room(), true);
    DashboardServer.Client c = s.client();
    for (String method : List.of("TRACE", "OPTIONS", "POST", "DELETE", "PATCH")) {
      for (String path : List.of(DATA, SETTINGS, DashboardServer.PATH + "/")) {
        HttpResponse<String> r = c.send(method, path, RIGHT);
        assertThat(r.statusCode()).as(method + " " + path).isEqualTo(405);
        assertThat(r.headers().firstValue("Allow")).as(method + " " + path).hasValue("GET, HEAD, PUT");
        assertThat(r.body()).as(method + " " + path).doesNotContain(TOKEN).doesNotContain("Authorization");
      }
    }
    assertThat(c.get(DATA, RIGHT).statusCode()).isEqualTo(200);
    assertThat(c.send("HEAD", DATA, RIGHT).statusCode()).isEqualTo(200);
  }

  @Test
  void repeatedWrongTokensAreSlowedWith429AndRetryAfter() throws Exception {
    DashboardServer s = serve(room(), false);
    DashboardServer.Client c = s.client();
    for (int i = 0; i < WaitingRoomDashboard.FREE_FAILURES; i++) {
      assertThat(c.get(DATA, WRONG).statusCode()).as("wrong token %d", i + 1).isEqualTo(401);
    }
    assertThat(c.get(DATA, RIGHT).statusCode()).as("a right token forgets the failures").isEqualTo(200);

    for (int i = 0; i <= WaitingRoomDashboard.FREE_FAILURES; i++) {
      assertThat(c.get(DATA, WRONG).statusCode()).isEqualTo(401);
    }
    // One past the free ones: locked out for a second, the right token too.
    HttpResponse<String> locked = c.get(DATA, RIGHT);
    assertThat(locked.statusCode()).isEqualTo(429);
    assertThat(locked.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(String.valueOf(at(JsonTree.object(locked.body()), "error"))).contains("too many wrong bearer tokens");
    HttpResponse<String> guess = c.get(DATA, WRONG);
    assertThat(guess.statusCode()).as("a guess in the lockout is not even checked").isEqualTo(429);
    clock.advance(Duration.ofSeconds(1));
    // The next wrong token doubles the lockout.
    assertThat(c.get(DATA, WRONG).statusCode()).isEqualTo(401);
    assertThat(c.get(DATA, RIGHT).headers().firstValue("Retry-After")).hasValue("2");
    for (int i = 0; i < 12; i++) {
      clock.advance(Duration.ofMinutes(10));
      assertThat(c.get(DATA, WRONG).statusCode()).isEqualTo(401);
    }
    assertThat(c.get(DATA, RIGHT).headers().firstValue("Retry-After"))
        .as("at most " + WaitingRoomDashboard.MAX_LOCKOUT_SECONDS + " s")
        .hasValue(Long.toString(WaitingRoomDashboard.MAX_LOCKOUT_SECONDS));
    clock.advance(Duration.ofSeconds(WaitingRoomDashboard.MAX_LOCKOUT_SECONDS));
    assertThat(c.get(DATA, RIGHT).statusCode()).as("after the lockout, the right token works").isEqualTo(200);
    // Without a token nothing is guessed, so nothing counts: the page's first poll is not slowed.
    for (int i = 0; i < 3 * WaitingRoomDashboard.FREE_FAILURES; i++) {
      assertThat(c.get(DATA).statusCode()).isEqualTo(401);
    }
    assertThat(c.get(DATA, RIGHT).statusCode()).isEqualTo(200);
  }

  @Test
  void aSettingsVersionFarAheadIsRefusedAndLaterChangesStillWork() throws Exception {
    WaitingRoom room = room();
    DashboardServer s = serve(room, true);
    DashboardServer.Client ops = s.client();
    Map<String, String> json = Map.of("Authorization", "Bearer " + TOKEN, "Content-Type", "application/json");
    HttpResponse<String> max = ops.send("PUT", SETTINGS, json, "{\"version\":" + Long.MAX_VALUE + ",\"suspended\":true}");
    assertThat(max.statusCode()).isEqualTo(400);
    assertThat(String.valueOf(at(JsonTree.object(max.body()), "error"))).contains("version must be at most 1000");
    long far = WaitingRoomDashboard.MAX_VERSION_STEP + 1;
    assertThat(ops.send("PUT", SETTINGS, json, "{\"version\":" + far + ",\"suspended\":true}").statusCode()).isEqualTo(400);
    assertThat(room.latestSettings().version()).isZero();

    HttpResponse<String> next = ops.send("PUT", SETTINGS, json, "{\"suspended\":true}");
    assertThat(next.statusCode()).isEqualTo(200);
    assertThat(room.latestSettings().version()).isEqualTo(1);
    HttpResponse<String> step = ops.send("PUT", SETTINGS, json,
        "{\"version\":" + (1 + WaitingRoomDashboard.MAX_VERSION_STEP) + ",\"suspended\":false}");
    assertThat(step.statusCode()).as("a step of the most allowed").isEqualTo(200);
    assertThat(ops.send("PUT", SETTINGS, json, "{\"suspended\":true}").statusCode()).as("and later changes still work")
        .isEqualTo(200);
  }
}
