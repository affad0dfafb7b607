package io.github.waitingroom.servlet;

import static io.github.waitingroom.testsupport.Answers.inApp;
import static io.github.waitingroom.testsupport.Answers.onWaitingPage;
import static io.github.waitingroom.testsupport.Answers.setCookies;
import static io.github.waitingroom.testsupport.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.jspecify.annotations.Nullable;

/**
 * The filter over real HTTP: a real Jetty 12 on a free port, java.net.http clients with their own
 * cookie jars, and a {@link ManualClock} that the test moves (no sleeping, no wall clock).
 */
class WaitingRoomFilterTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final String COOKIE = "wr_shop";
  private static final String PLACE = "wr_shop_q";

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private @Nullable WaitingRoom room;
  private @Nullable TestServer server;

  private WaitingRoom room() {
    return Objects.requireNonNull(room, "room not started");
  }

  private TestServer server() {
    return Objects.requireNonNull(server, "server not started");
  }

  /** Two active users, two new users a minute, 60 s sessions, refresh every 10 s, places kept 5 min. */
  private static RoomConfig.Builder small() {
    return small(2, 2);
  }

  private static RoomConfig.Builder small(int totalActiveUsers, int newUsersPerMinute) {
    return RoomConfig.builder("shop")
        .totalActiveUsers(totalActiveUsers)
        .newUsersPerMinute(newUsersPerMinute)
        .sessionDuration(Duration.ofSeconds(60))
        .bucketWidth(Duration.ofSeconds(60))
        .sliceWidth(Duration.ofSeconds(10))
        .refreshInterval(Duration.ofSeconds(10))
        .waitingTimeout(Duration.ofMinutes(5));
  }

  private void start(RoomConfig config, UnaryOperator<WaitingRoomFilter.Builder> filter) throws Exception {
    WaitingRoom r = WaitingRoom.builder(config, KEYS).clock(clock).backgroundSync(false).build();
    room = r;
    server = TestServer.start(filter.apply(WaitingRoomFilter.builder(r)).build());
  }

  @AfterEach
  void stop() throws Exception {
    TestServer s = server;
    if (s != null) {
      s.close();
    }
    WaitingRoom r = room;
    if (r != null) {
      r.close();
    }
  }

  private void advance(int seconds) {
    clock.advance(Duration.ofSeconds(seconds));
  }

  @Test
  void admitsUpToTheLimitThenQueuesTheNextArrivals() throws Exception {
    start(small().build(), f -> f);
    Visitor a = new Visitor(server());
    Visitor b = new Visitor(server());
    Visitor c = new Visitor(server());

    assertThat(inApp(a.get("/tickets"))).isTrue();
    assertThat(inApp(b.get("/tickets"))).isTrue();
    HttpResponse<String> third = c.get("/tickets");

    assertThat(inApp(third)).isFalse();
    assertThat(onWaitingPage(third)).isTrue();
    assertThat(third.statusCode()).isEqualTo(200);
    assertThat(third.headers().firstValue("Cache-Control")).hasValue("private, no-store");
    assertThat(server().appHits.get()).isEqualTo(2);
    assertThat(c.ticket(PLACE)).as("a place in line, in the place cookie").isNotNull();
    assertThat(c.ticket(COOKIE)).as("no session").isNull();
    // The admitted keep passing.
    assertThat(inApp(a.get("/tickets/42"))).isTrue();
  }

  @Test
  void admitsTheLineInBucketOrderAsSessionsExpire() throws Exception {
    start(small().build(), f -> f);
    Visitor a = new Visitor(server());
    Visitor b = new Visitor(server());
    Visitor c = new Visitor(server());
    Visitor d = new Visitor(server());
    Visitor e = new Visitor(server());

    assertThat(inApp(a.get("/"))).isTrue(); // 10:00:00
    assertThat(inApp(b.get("/"))).isTrue();
    assertThat(onWaitingPage(c.get("/"))).isTrue(); // bucket 10:00
    advance(50);
    assertThat(inApp(b.get("/"))).isTrue(); // 10:00:50: b checks in, a stays idle
    // c's page polls; a user who stops polling would no longer count in anyone's estimate.
    assertThat(onWaitingPage(c.get("/"))).isTrue();
    advance(10);
    room().sync();
    Map<String, Object> dStatus = status(d.getJson("/")); // 10:01:00: bucket 10:01
    assertThat(dStatus.get("inWaitingRoom")).isEqualTo(true);
    assertThat(dStatus.get("usersAhead")).isEqualTo(1L);
    // Near the front the pages poll within seconds, as they are told (a holder who misses two
    // polls in a row leaves the line until it polls again).
    assertThat(onWaitingPage(c.get("/"))).isTrue();
    advance(5);
    assertThat(onWaitingPage(c.get("/"))).isTrue();
    assertThat(onWaitingPage(d.get("/"))).isTrue();
    advance(5);
    room().sync(); // 10:01:10: a's session has expired, b's has not: one slot, for bucket 10:00
    assertThat(room().status().activeUsers()).isEqualTo(1);
    assertThat(room().status().waitingUsers()).isEqualTo(2);
    assertThat(onWaitingPage(e.get("/"))).as("a newcomer does not jump the line").isTrue();
    assertThat(onWaitingPage(d.get("/"))).as("bucket 10:01 waits for bucket 10:00").isTrue();
    assertThat(inApp(c.get("/"))).as("bucket 10:00 goes first, without a click").isTrue();
    assertThat(onWaitingPage(d.get("/"))).isTrue();

    advance(50);
    room().sync(); // 10:02:00: b's session has expired; c's has not
    assertThat(room().status().activeUsers()).isEqualTo(1);
    assertThat(inApp(d.get("/"))).as("bucket 10:01 next").isTrue();
    assertThat(inApp(c.get("/"))).isTrue();
    assertThat(onWaitingPage(e.get("/"))).as("e arrived in bucket 10:01 after d, and the room is full again").isTrue();
  }

  @Test
  void answersJsonForAcceptApplicationJsonAndHtmlOtherwise() throws Exception {
    start(small().build(), f -> f);
    new Visitor(server()).get("/");
    new Visitor(server()).get("/");
    Visitor waiting = new Visitor(server());

    HttpResponse<String> json = waiting.getJson("/shop");
    Map<String, Object> s = status(json);
    assertThat(json.headers().firstValue("Cache-Control")).hasValue("private, no-store");
    assertThat(s)
        .containsEntry("roomId", "shop")
        .containsEntry("inWaitingRoom", true)
        .containsEntry("status", "queued")
        .containsEntry("usersAhead", 0L)
        .containsEntry("waitTimeKnown", false)
        .containsEntry("waitTime", "null")
        .containsEntry("waitTimeFormatted", "unknown")
        // Near the front of a full room the page asks again every 5 s, not every 10 s (the room's
        // refresh interval): see WaitingRoom's refresh rule.
        .containsEntry("refreshIntervalSeconds", 5L)
        .containsEntry("lastUpdated", "2026-11-30T10:00:00Z");

    HttpResponse<String> html = waiting.get("/shop");
    assertThat(html.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    assertThat(html.headers().firstValue("Cache-Control")).hasValue("private, no-store");
    assertThat(html.body())
        .contains("<html lang=\"en\" dir=\"ltr\">")
        .contains("<h1>You are in line</h1>")
        .contains("aria-live=\"polite\"")
        .contains("<meta http-equiv=\"refresh\" content=\"5\">")
        .contains("unknown")
        .doesNotContain("{{");

    // The query flag asks for the status only, whatever the Accept header says.
    assertThat(status(waiting.get("/shop?waitingRoomStatus=1"))).containsEntry("status", "waiting");
  }

  @Test
  void statusFlagAnswersAnAdmittedUserWithoutServingTheApplication() throws Exception {
    start(small().build(), f -> f);
    Visitor a = new Visitor(server());
    Map<String, Object> s = status(a.get("/page?x=1&waitingRoomStatus=1"));
    assertThat(s).containsEntry("inWaitingRoom", false).containsEntry("status", "admitted");
    assertThat(server().appHits.get()).isZero();
    assertThat(status(a.get("/page?waitingRoomStatus"))).containsEntry("status", "active");
    assertThat(server().appHits.get()).isZero();
    // A flag that merely starts with the same letters is not the flag.
    assertThat(inApp(a.get("/page?waitingRoomStatusX=1"))).isTrue();
  }

  @Test
  void tamperedForgedAndForeignTicketsGoToTheBackOfTheLine() throws Exception {
    start(small().build(), f -> f);
    Visitor a = new Visitor(server());
    Visitor b = new Visitor(server());
    Visitor c = new Visitor(server());
    Visitor mallory = new Visitor(server());
    Visitor forger = new Visitor(server());
    Visitor foreigner = new Visitor(server());
    assertThat(inApp(a.get("/"))).isTrue();
    assertThat(inApp(b.get("/"))).isTrue();
    assertThat(onWaitingPage(c.get("/"))).isTrue(); // bucket 10:00
    advance(50);
    assertThat(inApp(b.get("/"))).isTrue();
    assertThat(onWaitingPage(c.get("/"))).isTrue(); // c's page polls
    advance(10);
    room().sync(); // 10:01:00
    // c's page keeps polling at the interval it is told (2 s at the front): one who misses two
    // polls in a row leaves the line, and the bad tickets' holders below hold real places now (a
    // fresh place each, in the place cookie), so c must be in line to be first.
    assertThat(onWaitingPage(c.get("/"))).isTrue();

    String active = Objects.requireNonNull(a.ticket(COOKIE));
    char flipped = active.charAt(20) == 'A' ? 'B' : 'A';
    mallory.setTicket(COOKIE, active.substring(0, 20) + flipped + active.substring(21));
    forger.setTicket(COOKIE, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    // Same keys, another room: its tickets are bound to "elsewhere" and must not open here.
    RoomConfig elsewhereConfig =
        RoomConfig.builder("elsewhere").totalActiveUsers(5).newUsersPerMinute(5).sessionDuration(Duration.ofSeconds(60)).build();
    try (WaitingRoom elsewhere = WaitingRoom.builder(elsewhereConfig, KEYS).clock(clock).backgroundSync(false).build()) {
      String foreign = Objects.requireNonNull(elsewhere.decide(null).ticket());
      foreigner.setTicket(COOKIE, foreign);
    }

    for (Visitor v : List.of(mallory, forger, foreigner)) {
      Map<String, Object> s = status(v.getJson("/"));
      assertThat(s).containsEntry("inWaitingRoom", true).containsEntry("status", "queued");
      assertThat((Long) s.get("usersAhead")).isGreaterThanOrEqualTo(1L);
      assertThat(v.ticket(PLACE)).as("a fresh waiting ticket, in the place cookie").isNotNull().isNotEqualTo(active);
    }
    assertThat(server().appHits.get()).isEqualTo(3);

    advance(5);
    assertThat(onWaitingPage(c.get("/"))).isTrue(); // 10:01:05
    advance(5);
    room().sync(); // 10:01:10: one slot, for bucket 10:00 only
    assertThat(onWaitingPage(mallory.get("/"))).isTrue();
    assertThat(onWaitingPage(forger.get("/"))).isTrue();
    assertThat(onWaitingPage(foreigner.get("/"))).isTrue();
    assertThat(inApp(c.get("/"))).isTrue();
  }

  @Test
  void ignoredPathsPassThroughWithoutATicket() throws Exception {
    start(small().build(), f -> f.ignorePaths("/static/", "/health", "/img/*.png"));
    new Visitor(server()).get("/");
    new Visitor(server()).get("/");
    Visitor v = new Visitor(server());

    for (String path : List.of("/static/app.css", "/static", "/health", "/img/logo.png")) {
      HttpResponse<String> r = v.get(path);
      assertThat(inApp(r)).as(path).isTrue();
      assertThat(setCookies(r)).as(path).isEmpty();
    }
    assertThat(v.ticket(COOKIE)).isNull();
    assertThat(v.ticket(PLACE)).isNull();
    assertThat(onWaitingPage(v.get("/healthy"))).as("segment-aware: /healthy is not /health").isTrue();
    assertThat(onWaitingPage(v.get("/staticfile"))).isTrue();
  }

  @Test
  void corsPreflightsPassThroughAndNeverJoinTheLine() throws Exception {
    // Pass-through is the application's choice since issue 42 (by default the filter answers
    // preflights itself: GateContract.corsPreflightsNeverReachTheApplicationByDefault).
    start(small().build(), f -> f.corsPassThrough(true));
    new Visitor(server()).get("/");
    new Visitor(server()).get("/");
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> r = new Visitor(server()).options("/api/cart");
      assertThat(inApp(r)).isTrue();
      assertThat(setCookies(r)).isEmpty();
    }
    room().sync();
    assertThat(room().status().waitingUsers()).isZero();
    assertThat(onWaitingPage(new Visitor(server()).get("/"))).isTrue();
  }

  @Test
  void optionsThatIsNotARealPreflightIsDecidedLikeAGet() throws Exception {
    start(small().build(), f -> f.corsPassThrough(true));
    Visitor admitted = new Visitor(server());
    HttpResponse<String> first = admitted.send("OPTIONS", "/api/cart", Map.of());
    assertThat(inApp(first)).as("a free slot: admitted, as a GET would be").isTrue();
    assertThat(setCookies(first)).as("and it books a ticket like a GET").hasSize(1);
    new Visitor(server()).get("/");
    int hits = server().appHits.get();

    for (Map<String, String> headers :
        List.of(
            Map.<String, String>of(),
            Map.of("Origin", "https://elsewhere.example"),
            Map.of("Access-Control-Request-Method", "POST"))) {
      Visitor v = new Visitor(server());
      HttpResponse<String> r = v.send("OPTIONS", "/api/cart", headers);
      assertThat(onWaitingPage(r)).as("OPTIONS with %s", headers).isTrue();
      assertThat(v.ticket(PLACE)).as("OPTIONS with %s", headers).isNotNull();
    }
    assertThat(server().appHits.get()).as("none of them reached the application").isEqualTo(hits);
    assertThat(inApp(admitted.send("OPTIONS", "/api/cart", Map.of()))).as("the admitted still pass").isTrue();
    // A real preflight (both headers) still passes without a ticket.
    HttpResponse<String> preflight = new Visitor(server()).options("/api/cart");
    assertThat(inApp(preflight)).isTrue();
    assertThat(setCookies(preflight)).isEmpty();
  }

  @Test
  void ignoreRulesApplyOnlyToGetAndHeadOfCanonicalPaths() throws Exception {
    start(small().build(), f -> f.ignorePaths("/static/", "/css/*.css", "/assets/*.js"));
    new Visitor(server()).get("/");
    new Visitor(server()).get("/");
    Visitor v = new Visitor(server());

    for (String path : List.of("/static/app.css", "/static/img/logo.png", "/css/site.css", "/css/dir/site.min.css",
        "/assets/app.js", "/assets/lib/x.js")) {
      HttpResponse<String> r = v.get(path);
      assertThat(inApp(r)).as(path).isTrue();
      assertThat(setCookies(r)).as(path).isEmpty();
    }
    int hits = server().appHits.get();
    HttpResponse<String> head = v.send("HEAD", "/static/app.css", Map.of());
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(setCookies(head)).isEmpty();
    assertThat(server().appHits.get()).as("HEAD of an ignored path reaches the app").isEqualTo(hits + 1);
    assertThat(v.ticket(COOKIE)).isNull();
    assertThat(v.ticket(PLACE)).isNull();

    // Paths that only look like static assets once decoded, or that an application could route
    // elsewhere, and writes to ignored paths: all decided by the room.
    hits = server().appHits.get();
    for (String path : List.of("/css/buy%3B.css", "/css/buy%20.css", "/css/buy;x.css", "/css/buy;.css", "/css/bu%79.css",
        "/admin/x.css", "/static/%2e%2e/buy", "/static/../buy", "/static/./x.css", "/assets/x/../../buy.js", "/buy/x.js",
        "/static;x/app.css", "/static%2Fapp.css")) {
      HttpResponse<String> r = new Visitor(server()).get(path);
      assertThat(inApp(r)).as(path).isFalse();
    }
    for (String method : List.of("POST", "PUT", "DELETE", "PATCH")) {
      for (String path : List.of("/static/app.css", "/css/site.css", "/assets/app.js")) {
        HttpResponse<String> r = new Visitor(server()).send(method, path, Map.of());
        assertThat(onWaitingPage(r)).as(method + " " + path).isTrue();
      }
    }
    assertThat(server().appHits.get()).as("none of them reached the application").isEqualTo(hits);
  }

  @Test
  void guardsOnlyItsPathPrefixAndScopesTheCookieToIt() throws Exception {
    start(small().build(), f -> f.pathPrefix("/shop/"));
    Visitor v = new Visitor(server());
    HttpResponse<String> outside = v.get("/about");
    assertThat(inApp(outside)).isTrue();
    assertThat(setCookies(outside)).isEmpty();
    HttpResponse<String> inside = v.get("/shop/cart");
    assertThat(inApp(inside)).isTrue();
    assertThat(setCookies(inside)).singleElement().asString().contains("; Path=/shop;");
  }

  @Test
  void newUsersPerMinuteLimitHoldsWhileTotalSlotsAreFree() throws Exception {
    start(small(10, 2).build(), f -> f);
    List<Visitor> visitors = List.of(new Visitor(server()), new Visitor(server()), new Visitor(server()), new Visitor(server()));
    assertThat(inApp(visitors.get(0).get("/"))).isTrue();
    assertThat(inApp(visitors.get(1).get("/"))).isTrue();
    assertThat(onWaitingPage(visitors.get(2).get("/"))).isTrue();
    advance(30);
    room().sync();
    assertThat(room().status().activeUsers()).isEqualTo(2);
    assertThat(onWaitingPage(visitors.get(3).get("/"))).as("still within the same minute").isTrue();
    assertThat(onWaitingPage(visitors.get(2).get("/"))).isTrue();
    advance(40);
    room().sync(); // 10:01:10: the first two admissions are more than a minute old
    assertThat(inApp(visitors.get(2).get("/"))).isTrue();
    assertThat(inApp(visitors.get(3).get("/"))).isTrue();
    assertThat(onWaitingPage(new Visitor(server()).get("/"))).as("the next minute's two are spent").isTrue();
  }

  @Test
  void cookieIsPerRoomHttpOnlyAndReissuedOnlyWhenTheTicketChanges() throws Exception {
    start(small().build(), f -> f);
    Visitor a = new Visitor(server());
    HttpResponse<String> first = a.get("/");
    assertThat(setCookies(first)).singleElement().asString()
        .startsWith(COOKIE + "=")
        // The session (60 s) plus one slice (10 s): the ticket is re-issued at most once per slice.
        .contains("; Path=/;", "; Max-Age=70;", "; HttpOnly", "; SameSite=Lax")
        .doesNotContain("Secure");
    assertThat(first.headers().firstValue("Cache-Control")).hasValue("private, no-store");
    advance(5);
    HttpResponse<String> sameSlice = a.get("/");
    assertThat(setCookies(sameSlice)).as("same slice: nothing to write").isEmpty();
    assertThat(sameSlice.headers().firstValue("Cache-Control")).isEmpty();
    advance(5);
    assertThat(setCookies(a.get("/"))).as("a new slice moves the check-in").hasSize(1);
    assertThat(setCookies(a.get("/"))).isEmpty();

    new Visitor(server()).get("/");
    HttpResponse<String> queued = new Visitor(server()).get("/");
    // The waiting timeout (5 min) after the line stops counting the holder: two of the 5 s a
    // newcomer's first answer tells at most, and two seconds after this answer.
    assertThat(setCookies(queued)).singleElement().asString().contains("; Max-Age=312;");
  }

  @Test
  void waitingStatusAndCookieAttributesAreConfigurable() throws Exception {
    start(
        small().build(),
        f -> f.waitingStatus(429).cookieName("line").cookieSameSite(io.github.waitingroom.http.SameSite.STRICT)
            .cookieSecure(io.github.waitingroom.http.CookieSecure.ALWAYS));
    HttpResponse<String> admitted = new Visitor(server()).get("/");
    assertThat(setCookies(admitted)).singleElement().asString()
        .startsWith("line=").contains("; Secure", "; SameSite=Strict");
    new Visitor(server()).get("/");
    Visitor v = new Visitor(server());
    HttpResponse<String> page = v.get("/");
    assertThat(page.statusCode()).isEqualTo(429);
    assertThat(page.headers().firstValue("Retry-After")).hasValue("5"); // near the front: 5 s
    assertThat(v.getJson("/").statusCode()).isEqualTo(429);
  }

  @Test
  void rendersAUserTemplateWithNamedVariables() throws Exception {
    start(
        small().build(),
        f -> f.template(
            "<!DOCTYPE html><html lang=\"de\"><head><meta http-equiv=\"refresh\" content=\"{{refreshSeconds}}\">"
                + "</head><body><h1>Warteschlange {{roomId}}</h1><p>Vor Ihnen: {{ usersAhead }},"
                + " Wartezeit: {{waitMinutes}}</p></body></html>"));
    new Visitor(server()).get("/");
    new Visitor(server()).get("/");
    HttpResponse<String> r = new Visitor(server()).get("/");
    // The template of the first syntax renders as before; it has a meta refresh of its own, so the
    // filter only adds its poll script (which lets the visitor in without waiting for the reload).
    assertThat(r.body())
        .startsWith(
            "<!DOCTYPE html><html lang=\"de\"><head><meta http-equiv=\"refresh\" content=\"5\"></head>"
                + "<body><h1>Warteschlange shop</h1><p>Vor Ihnen: 0, Wartezeit: unknown</p><script nonce=\"")
        .contains("status.searchParams.set(\"waitingRoomStatus\", \"1\");")
        .endsWith("</script>\n</body></html>");
  }
}
