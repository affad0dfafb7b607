package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.ResponseHeaders;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Revoke over real HTTP on a real Jetty 12: an admitted visitor "checks out" (the application sets
 * the {@value ResponseHeaders#REVOKE_HEADER} header, or calls {@code WaitingRoomSession.revoke()} on the
 * request attribute); the response deletes the session cookie and never carries the header, a
 * replay of the old cookie is not let through, and the visitor waiting in the full room gets in
 * within a bounded number of syncs. Off by default: the header then passes through untouched and
 * nothing is revoked. One node on a {@link ManualClock} without background sync.
 */
class RevokeTest {
  /** Syncs of a quarter second each: three epochs of one second, with room for the jitter. */
  static final int SYNCS = 16;

  @RegisterExtension final RoomFixture fixture = new RoomFixture();
  private final ManualClock clock = fixture.clock;

  private WaitingRoom room() {
    return fixture.room(
        RoomFixture.oneSlot(Duration.ofMinutes(10)).refreshInterval(Duration.ofSeconds(10)).waitingTimeout(Duration.ofMinutes(5)));
  }

  private TestServer serve(WaitingRoomFilter filter) throws Exception {
    return fixture.opened(TestServer.start(filter));
  }

  private static List<String> setCookies(HttpResponse<String> r) {
    return r.headers().allValues("Set-Cookie");
  }

  /** Syncs (a quarter second apart) until the waiting visitor's poll lets it in; how many it took, or -1. */
  private int syncsUntilIn(WaitingRoom room, Visitor waiting) throws Exception {
    for (int i = 1; i <= SYNCS; i++) {
      clock.advance(Duration.ofMillis(250));
      room.sync();
      if (waiting.getJson("/store?waitingRoomStatus=1").body().contains("\"inWaitingRoom\":false")) {
        return i;
      }
    }
    return -1;
  }

  private HttpResponse<String> checksOut(WaitingRoom room, TestServer s, String checkout) throws Exception {
    Visitor buyer = new Visitor(s);
    assertThat(buyer.get("/store").body()).contains("Welcome to the shop");
    String old = Objects.requireNonNull(buyer.ticket("wr_shop"));
    Visitor next = new Visitor(s);
    assertThat(next.get("/store").body()).contains("You are in line");
    waitOutTheRate(room, next);

    HttpResponse<String> out = buyer.get(checkout);
    assertThat(out.statusCode()).isEqualTo(200);
    assertThat(out.headers().firstValue(ResponseHeaders.REVOKE_HEADER)).as("never reaches the client").isEmpty();
    assertThat(setCookies(out)).anySatisfy(c -> assertThat(c).isEqualTo("wr_shop=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"));
    assertThat(buyer.ticket("wr_shop")).as("the browser drops it").isNull();

    Visitor replay = new Visitor(s);
    replay.setTicket("wr_shop", old);
    assertThat(replay.get("/store").body()).as("the old cookie").contains("You are in line").doesNotContain("Welcome");

    int syncs = syncsUntilIn(room, next);
    assertThat(syncs).as("the waiting visitor gets the freed place within %d syncs", SYNCS).isBetween(1, SYNCS);
    assertThat(next.get("/store").body()).contains("Welcome to the shop");
    return out;
  }

  /**
   * A minute on, polling as the waiting page does: the room admits one new user a minute, so only
   * the slot, not the rate, keeps the waiting visitor out from then on.
   */
  private void waitOutTheRate(WaitingRoom room, Visitor waiting) throws Exception {
    for (int i = 1; i <= 61 * 4; i++) {
      clock.advance(Duration.ofMillis(250));
      room.sync();
      if (i % 20 == 0) {
        assertThat(waiting.getJson("/store?waitingRoomStatus=1").body()).contains("\"inWaitingRoom\":true");
      }
    }
  }

  @Test
  void theRevokeHeaderEndsTheSessionDeletesTheCookieAndLetsTheNextVisitorIn() throws Exception {
    WaitingRoom room = room();
    TestServer s = serve(WaitingRoomFilter.builder(room).revoke(true).build());
    checksOut(room, s, "/store/checkout?appSetHeader=" + ResponseHeaders.REVOKE_HEADER + ":1");
  }

  @Test
  void theAddedOrIntHeaderWorksAlike() throws Exception {
    WaitingRoom room = room();
    TestServer s = serve(WaitingRoomFilter.builder(room).revoke(true).build());
    checksOut(room, s, "/store/checkout?appAddHeader=x-waitingroom-revoke:yes");
  }

  @Test
  void theRequestAttributeEndsTheSessionAlike() throws Exception {
    WaitingRoom room = room();
    TestServer s = serve(WaitingRoomFilter.builder(room).revoke(true).build());
    assertThat(checksOut(room, s, "/store?appRevoke=1").body()).isEqualTo("revoked:true");
  }

  @Test
  void offByDefaultTheHeaderPassesThroughAndNothingIsRevoked() throws Exception {
    WaitingRoom room = room();
    TestServer s = serve(WaitingRoomFilter.builder(room).build());
    Visitor buyer = new Visitor(s);
    assertThat(buyer.get("/store").body()).contains("Welcome to the shop");
    Visitor next = new Visitor(s);
    assertThat(next.get("/store").body()).contains("You are in line");
    waitOutTheRate(room, next);

    HttpResponse<String> out = buyer.get("/store/checkout?appSetHeader=" + ResponseHeaders.REVOKE_HEADER + ":1");
    assertThat(out.headers().firstValue(ResponseHeaders.REVOKE_HEADER)).hasValue("1");
    assertThat(setCookies(out)).noneSatisfy(c -> assertThat(c).contains("Max-Age=0"));
    assertThat(buyer.get("/store?appRevoke=1").body()).isEqualTo("revoked:no session");
    assertThat(syncsUntilIn(room, next)).as("the slot stays taken").isEqualTo(-1);
    assertThat(buyer.get("/store").body()).contains("Welcome to the shop");
  }

  @Test
  void theInitParamTurnsItOn() throws Exception {
    Map<String, String> params = new java.util.HashMap<>(InitParamsTest.minimal());
    params.put("revoke", "true");
    TestServer s = TestServer.startWithInitParams(params);
    fixture.opened(s);
    Visitor buyer = new Visitor(s);
    assertThat(buyer.get("/store").body()).contains("Welcome to the shop");
    HttpResponse<String> out = buyer.get("/store?appSetHeader=" + ResponseHeaders.REVOKE_HEADER + ":1");
    assertThat(out.headers().firstValue(ResponseHeaders.REVOKE_HEADER)).isEmpty();
    assertThat(setCookies(out)).anySatisfy(c -> assertThat(c).startsWith("wr_").contains("=; Path=/; Max-Age=0"));
  }
}
