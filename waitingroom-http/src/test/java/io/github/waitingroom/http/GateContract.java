package io.github.waitingroom.http;

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
import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every adapter of the {@link Gate} must do over real HTTP: the servlet filter on Jetty and
 * the WebFlux filter on Reactor Netty each run this suite by extending it with {@link
 * #start(List, List)}, which puts the adapter, configured with {@link Options} (one room or
 * several, a bypass rule, a human check), in front of this application:
 *
 * <ul>
 *   <li>it answers any method on any path with 200, {@code text/plain}, body {@code app:} and the
 *       path as sent;
 *   <li>for each query parameter {@code appSetHeader=Name:Value} it <em>sets</em> (replaces) that
 *       response header, as an application that sets its own caching headers or cookies does;
 *   <li>it counts the requests it served ({@link Server#appHits()}).
 * </ul>
 *
 * <p>The room runs on a {@link ManualClock} that the tests move, without background sync: the
 * tests call {@link WaitingRoom#sync()} where a sync would have happened.
 */
public abstract class GateContract {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final String COOKIE = "wr_shop";
  private static final String PLACE_COOKIE = "wr_shop_q";

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private @Nullable WaitingRoom room;
  private final List<WaitingRoom> rooms = new ArrayList<>();
  private @Nullable Server server;

  /** A server running the adapter under test in front of the application described above. */
  public interface Server extends AutoCloseable {
    /**
     * The address of a path on this server.
     *
     * @param pathAndQuery a path, with a query if any, sent as written
     * @return an {@code http://} URI on the server's port
     */
    URI uri(String pathAndQuery);

    /**
     * How many requests reached the application.
     *
     * @return the count
     */
    int appHits();
  }

  /**
   * The adapter's settings, to be given to its builder one for one ({@link #applyTo}).
   *
   * @param pathPrefix the guarded prefix
   * @param ignorePaths the ignored paths
   * @param cookieName the cookie name, or {@code null} for the default
   * @param cookieSecure when the cookie is {@code Secure}
   * @param cookieSameSite the cookie's {@code SameSite}
   * @param waitingStatus the status of waiting answers
   * @param corsPassThrough whether CORS preflights pass on to the application
   * @param humanCheck the human check, or {@code null} for none
   * @param bypassHeader the request header whose presence makes the adapter's bypass rule let a
   *     request through ({@code bypassing}), or {@code null} for no rule
   * @param confirmNewcomers whether newcomers count only once they come back
   */
  public record Options(
      String pathPrefix,
      List<String> ignorePaths,
      @Nullable String cookieName,
      CookieSecure cookieSecure,
      SameSite cookieSameSite,
      int waitingStatus,
      boolean corsPassThrough,
      @Nullable HumanCheck humanCheck,
      @Nullable String bypassHeader,
      boolean confirmNewcomers) {

    static Options defaults() {
      return new Options("/", List.of(), null, CookieSecure.AUTO, SameSite.LAX, 200, false, null, null, false);
    }

    Options withPathPrefix(String prefix) {
      return new Options(prefix, ignorePaths, cookieName, cookieSecure, cookieSameSite, waitingStatus, corsPassThrough,
          humanCheck, bypassHeader, confirmNewcomers);
    }

    Options withIgnorePaths(String... paths) {
      return new Options(pathPrefix, List.of(paths), cookieName, cookieSecure, cookieSameSite, waitingStatus,
          corsPassThrough, humanCheck, bypassHeader, confirmNewcomers);
    }

    Options withCookie(String name, CookieSecure secure, SameSite sameSite) {
      return new Options(pathPrefix, ignorePaths, name, secure, sameSite, waitingStatus, corsPassThrough, humanCheck,
          bypassHeader, confirmNewcomers);
    }

    Options withWaitingStatus(int status) {
      return new Options(pathPrefix, ignorePaths, cookieName, cookieSecure, cookieSameSite, status, corsPassThrough,
          humanCheck, bypassHeader, confirmNewcomers);
    }

    Options withHumanCheck(HumanCheck check) {
      return new Options(pathPrefix, ignorePaths, cookieName, cookieSecure, cookieSameSite, waitingStatus,
          corsPassThrough, check, bypassHeader, confirmNewcomers);
    }

    Options withCorsPassThrough(boolean on) {
      return new Options(pathPrefix, ignorePaths, cookieName, cookieSecure, cookieSameSite, waitingStatus, on,
          humanCheck, bypassHeader, confirmNewcomers);
    }

    Options withBypassHeader(String header) {
      return new Options(pathPrefix, ignorePaths, cookieName, cookieSecure, cookieSameSite, waitingStatus,
          corsPassThrough, humanCheck, header, confirmNewcomers);
    }

    Options withConfirmNewcomers(boolean on) {
      return new Options(pathPrefix, ignorePaths, cookieName, cookieSecure, cookieSameSite, waitingStatus,
          corsPassThrough, humanCheck, bypassHeader, on);
    }

    /**
     * Gives these settings (all but the bypass rule, which belongs to the adapter) to a builder of
     * either stack.
     *
     * @param <B> the builder's type
     * @param b the builder
     * @return the builder
     */
    public <B extends GateOptions<B>> B applyTo(B b) {
      b.pathPrefix(pathPrefix)
          .ignorePaths(ignorePaths.toArray(String[]::new))
          .cookieSecure(cookieSecure)
          .cookieSameSite(cookieSameSite)
          .waitingStatus(waitingStatus)
          .corsPassThrough(corsPassThrough)
          .confirmNewcomers(confirmNewcomers);
      if (cookieName != null) {
        b.cookieName(cookieName);
      }
      if (humanCheck != null) {
        b.humanCheck(humanCheck);
      }
      return b;
    }
  }

  /**
   * Starts the adapter under test on a free port, guarding one application with the given rooms:
   * with one room, the adapter as its builder makes it; with several, as the stack guards several
   * rooms (a filter each in a servlet container, one filter over all of them in WebFlux). The bypass
   * rule is the first options'.
   *
   * @param rooms the rooms, owned and closed by the contract
   * @param options each room's settings, in the same order
   * @return the running server, closed by the contract
   * @throws Exception when the server cannot start
   */
  protected abstract Server start(List<WaitingRoom> rooms, List<Options> options) throws Exception;

  private WaitingRoom open(String roomId) {
    WaitingRoom r = WaitingRoom.builder(small(roomId), KEYS).clock(clock).backgroundSync(false).build();
    rooms.add(r);
    return r;
  }

  private void start(RoomConfig config, Options options) throws Exception {
    WaitingRoom r = WaitingRoom.builder(config, KEYS).clock(clock).backgroundSync(false).build();
    rooms.add(r);
    room = r;
    server = start(List.of(r), List.of(options));
  }

  private void start(Options options) throws Exception {
    start(small("shop"), options);
  }

  @AfterEach
  void stop() throws Exception {
    Server s = server;
    if (s != null) {
      s.close();
    }
    for (WaitingRoom r : rooms) {
      r.close();
    }
  }

  private WaitingRoom room() {
    return Objects.requireNonNull(room, "room not started");
  }

  private Server server() {
    return Objects.requireNonNull(server, "server not started");
  }

  /** Two active users, two new users a minute, 60 s sessions, refresh every 10 s, places kept 5 min. */
  private static RoomConfig small(String roomId) {
    return RoomConfig.builder(roomId)
        .totalActiveUsers(2)
        .newUsersPerMinute(2)
        .sessionDuration(Duration.ofSeconds(60))
        .bucketWidth(Duration.ofSeconds(60))
        .sliceWidth(Duration.ofSeconds(10))
        .refreshInterval(Duration.ofSeconds(10))
        .waitingTimeout(Duration.ofMinutes(5))
        .build();
  }

  private void advance(int seconds) {
    clock.advance(Duration.ofSeconds(seconds));
  }

  private static @Nullable String ticketCookie(HttpResponse<String> r, String name) {
    return setCookies(r).stream().filter(c -> c.startsWith(name + "=")).findFirst().orElse(null);
  }

  @Test
  void admitsTheFirstVisitorsWithACookieThenShowsTheWaitingPage() throws Exception {
    start(Options.defaults());
    Visitor a = new Visitor(server());
    Visitor b = new Visitor(server());
    Visitor c = new Visitor(server());

    HttpResponse<String> first = a.get("/tickets");
    assertThat(inApp(first)).isTrue();
    assertThat(first.body()).isEqualTo("app:/tickets");
    assertThat(ticketCookie(first, COOKIE)).isNotNull();
    assertThat(ticketCookie(first, PLACE_COOKIE)).as("an admitted visitor gets the session cookie only").isNull();
    assertThat(inApp(b.get("/tickets"))).isTrue();
    HttpResponse<String> third = c.get("/tickets");

    assertThat(inApp(third)).isFalse();
    assertThat(onWaitingPage(third)).isTrue();
    assertThat(third.statusCode()).isEqualTo(200);
    assertThat(third.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    assertThat(third.headers().firstValue("Cache-Control")).hasValue("private, no-store");
    assertThat(ticketCookie(third, PLACE_COOKIE)).as("the line place is kept in the place cookie").isNotNull();
    assertThat(ticketCookie(third, COOKIE)).as("a waiting answer never writes the session cookie").isNull();
    assertThat(server().appHits()).isEqualTo(2);
    // The admitted keep passing, the waiting keep waiting.
    assertThat(inApp(a.get("/tickets/42"))).isTrue();
    assertThat(onWaitingPage(c.get("/tickets"))).isTrue();
    assertThat(server().appHits()).isEqualTo(3);
  }

  /**
   * Issue 42: with {@code confirmNewcomers} on, requests that never bring the cookie of their first
   * answer back (a flood without a cookie jar) never reach the application, take no slot and count
   * as no user; a browser follows the {@code 307} with the cookie and is let in, the path and query
   * kept, as without the setting.
   */
  @Test
  void newcomersCountOnlyOnceTheyComeBackWhenTheRoomAsksForIt() throws Exception {
    start(Options.defaults().withConfirmNewcomers(true));
    HttpClient noJar = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    for (int i = 0; i < 50; i++) {
      HttpResponse<String> r = noJar.send(
          HttpRequest.newBuilder(server().uri("/tickets?id=" + i + "&q=a%20b")).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(307);
      assertThat(r.headers().firstValue("Location")).hasValue("/tickets?id=" + i + "&q=a%20b");
      assertThat(r.headers().firstValue("Cache-Control")).hasValue("private, no-store");
      assertThat(setCookies(r)).singleElement().satisfies(c -> assertThat(c).contains("Max-Age=30", "HttpOnly"));
    }
    advance(2);
    room().sync();
    assertThat(server().appHits()).as("the flood never reached the application").isZero();
    assertThat(room().status().activeUsers()).as("no slot taken").isZero();
    assertThat(room().status().waitingUsers()).as("no place given").isZero();
    Visitor a = new Visitor(server());
    HttpResponse<String> first = a.get("/tickets");
    assertThat(first.statusCode()).isEqualTo(307);
    assertThat(first.headers().firstValue("Location")).hasValue("/tickets");
    HttpResponse<String> back = a.get("/tickets");
    assertThat(inApp(back)).as("let in when it comes back").isTrue();
    assertThat(ticketCookie(back, COOKIE)).isNotNull();
    assertThat(inApp(a.get("/tickets/1"))).as("its session passes without a round trip").isTrue();
    Visitor b = new Visitor(server());
    b.get("/tickets");
    assertThat(inApp(b.get("/tickets"))).isTrue();
    Visitor c = new Visitor(server());
    assertThat(c.get("/tickets").statusCode()).isEqualTo(307);
    HttpResponse<String> waiting = c.get("/tickets");
    assertThat(onWaitingPage(waiting)).as("the room is full: a place, once it came back").isTrue();
    assertThat(onWaitingPage(c.get("/tickets"))).as("its place needs no round trip").isTrue();
    assertThat(server().appHits()).isEqualTo(3);
  }

  @Test
  void answersTheJsonStatusOnRequest() throws Exception {
    start(Options.defaults());
    Visitor a = new Visitor(server());
    new Visitor(server()).get("/");
    assertThat(inApp(a.get("/"))).isTrue();
    Visitor c = new Visitor(server());

    HttpResponse<String> json = c.getJson("/");
    assertThat(json.statusCode()).isEqualTo(200);
    Map<String, Object> s = status(json);
    assertThat(s).containsEntry("roomId", "shop").containsEntry("inWaitingRoom", true);
    assertThat(s.get("status")).isIn("queued", "waiting");
    assertThat(json.headers().firstValue("Content-Security-Policy")).hasValue("default-src 'none'");
    assertThat(status(c.get("/anything?waitingRoomStatus=1"))).containsEntry("status", "waiting");

    int hits = server().appHits();
    HttpResponse<String> admitted = a.get("/page?x=1&waitingRoomStatus=1");
    assertThat(admitted.statusCode()).isEqualTo(200);
    assertThat(status(admitted)).containsEntry("status", "active").containsEntry("inWaitingRoom", false);
    assertThat(server().appHits()).as("the status flag never reaches the application").isEqualTo(hits);
  }

  @Test
  void ignoredPathsNeverCount() throws Exception {
    start(Options.defaults().withIgnorePaths("/static/", "/favicon.ico"));
    for (int i = 0; i < 5; i++) {
      Visitor v = new Visitor(server());
      for (String path : List.of("/static/app.css", "/static", "/favicon.ico")) {
        HttpResponse<String> r = v.get(path);
        assertThat(inApp(r)).as(path).isTrue();
        assertThat(setCookies(r)).as(path).isEmpty();
      }
      assertThat(v.ticket(COOKIE)).isNull();
    }
    room().sync();
    assertThat(room().status().activeUsers()).isZero();
    assertThat(inApp(new Visitor(server()).get("/"))).as("both slots are still free").isTrue();
    assertThat(inApp(new Visitor(server()).get("/"))).isTrue();

    Visitor waiting = new Visitor(server());
    assertThat(onWaitingPage(waiting.get("/staticfile"))).as("segment-aware: /staticfile is not /static").isTrue();
    assertThat(inApp(waiting.get("/static/app.css"))).isTrue();
    assertThat(onWaitingPage(waiting.send("POST", "/static/app.css")))
        .as("an ignore applies to GET and HEAD only").isTrue();
    assertThat(onWaitingPage(waiting.get("/stat%69c/app.css")))
        .as("an escaped spelling of an ignored path is decided").isTrue();
  }

  /**
   * The gate's own answer to a request whose body it never reads (a newcomer's form, answered with
   * the waiting page) says {@code Connection: close}: servers close a connection whose request body
   * is left unread, and a client told nothing sends its next request on that connection now and
   * then, and gets no answer. The request sends its head only, so its body is surely unread.
   */
  @Test
  void anAnswerToARequestWhoseBodyIsNeverReadSaysTheConnectionCloses() throws Exception {
    start(Options.defaults());
    assertThat(inApp(new Visitor(server()).get("/"))).isTrue();
    assertThat(inApp(new Visitor(server()).get("/"))).isTrue();
    List<String> lines = HeadOnly.send("POST", server().uri("/checkout"),
        "Accept: text/html\r\nContent-Type: application/x-www-form-urlencoded\r\n");
    assertThat(lines).as("the waiting page's head").isNotEmpty();
    assertThat(lines.get(0)).startsWith("http/1.1 200");
    assertThat(lines).contains("connection: close");
    assertThat(server().appHits()).as("the form never reached the application").isEqualTo(2);
  }

  @Test
  void guardsOnlyItsPrefixWhateverItsSpelling() throws Exception {
    start(Options.defaults().withPathPrefix("/shop"));
    Visitor outside = new Visitor(server());
    HttpResponse<String> elsewhere = outside.get("/shopping");
    assertThat(inApp(elsewhere)).isTrue();
    assertThat(setCookies(elsewhere)).isEmpty();

    HttpResponse<String> first = new Visitor(server()).get("/shop/cart");
    assertThat(ticketCookie(first, COOKIE)).contains("; Path=/shop;");
    new Visitor(server()).get("/shop");
    Visitor c = new Visitor(server());
    assertThat(onWaitingPage(c.get("/shop/cart"))).isTrue();
    assertThat(onWaitingPage(c.get("/%73hop/cart"))).as("a percent-escaped prefix is still the prefix").isTrue();
    assertThat(onWaitingPage(c.get("/shop;x=1/cart"))).as("a path parameter does not hide the prefix").isTrue();
    assertThat(inApp(c.get("/elsewhere"))).isTrue();
  }

  @Test
  void letsAWaitingVisitorInOnceASlotFrees() throws Exception {
    start(Options.defaults());
    Visitor a = new Visitor(server());
    Visitor b = new Visitor(server());
    Visitor c = new Visitor(server());

    assertThat(inApp(a.get("/"))).isTrue(); // 10:00:00
    assertThat(inApp(b.get("/"))).isTrue();
    assertThat(onWaitingPage(c.get("/"))).isTrue(); // bucket 10:00
    advance(50);
    assertThat(inApp(b.get("/"))).isTrue(); // 10:00:50: b checks in, a stays idle
    assertThat(onWaitingPage(c.get("/"))).isTrue();
    advance(10);
    room().sync(); // 10:01:00
    assertThat(onWaitingPage(c.get("/"))).isTrue();
    advance(5);
    assertThat(onWaitingPage(c.get("/"))).isTrue();
    advance(5);
    room().sync(); // 10:01:10: a's session has expired, b's has not: one slot, for bucket 10:00
    assertThat(room().status().activeUsers()).isEqualTo(1);

    HttpResponse<String> in = c.get("/");
    assertThat(inApp(in)).as("the waiting visitor is let in without a click").isTrue();
    assertThat(ticketCookie(in, COOKIE)).as("with a new ticket, in the session cookie").isNotNull();
    assertThat(ticketCookie(in, PLACE_COOKIE)).isNull();
    assertThat(onWaitingPage(new Visitor(server()).get("/"))).as("and the room is full again").isTrue();
  }

  /**
   * Before there were two cookies, a waiting visitor's place was kept in the one cookie, which is
   * now the session cookie. After the upgrade such a visitor comes back with only that cookie, a
   * waiting ticket in it: they keep their place (ahead of someone who queued after them but before
   * they came back), and their answers go to the place cookie until they are let in.
   */
  @Test
  void aWaitingTicketInTheOldSingleCookieKeepsItsPlace() throws Exception {
    start(Options.defaults());
    Visitor a = new Visitor(server());
    Visitor b = new Visitor(server());
    assertThat(inApp(a.get("/"))).isTrue(); // 10:00:00
    assertThat(inApp(b.get("/"))).isTrue();
    Visitor before = new Visitor(server());
    assertThat(onWaitingPage(before.get("/"))).isTrue(); // 10:00:00: the first in line
    String place = Objects.requireNonNull(before.ticket(PLACE_COOKIE));

    advance(30);
    Visitor later = new Visitor(server());
    assertThat(onWaitingPage(later.get("/"))).isTrue(); // 10:00:30: second in line
    advance(10);
    // 10:00:40: the first comes back as a visitor of the one-cookie version did, the waiting
    // ticket in the session cookie and no place cookie.
    Visitor upgraded = new Visitor(server());
    upgraded.setCookie(COOKIE, place);
    HttpResponse<String> back = upgraded.get("/");
    assertThat(onWaitingPage(back)).isTrue();
    assertThat(ticketCookie(back, COOKIE)).as("a waiting answer leaves the session cookie alone").isNull();
    assertThat(ticketCookie(back, PLACE_COOKIE)).as("the place moves to the place cookie").isNotNull();

    advance(10);
    assertThat(inApp(b.get("/"))).isTrue(); // 10:00:50: b checks in, a stays idle
    for (int s = 0; s < 20; s += 5) { // until 10:01:10, syncing every 10 s
      assertThat(onWaitingPage(upgraded.get("/"))).isTrue();
      assertThat(onWaitingPage(later.get("/"))).isTrue();
      advance(5);
      if (s % 10 == 5) {
        room().sync();
      }
    }
    // 10:01:10: a's session has expired, b's has not: one slot, for the earliest place.
    HttpResponse<String> in = upgraded.get("/");
    assertThat(inApp(in)).as("the place from before the upgrade comes first").isTrue();
    assertThat(ticketCookie(in, COOKIE)).as("the session goes to the session cookie").isNotNull();
    assertThat(onWaitingPage(later.get("/"))).as("who queued after them still waits").isTrue();
  }

  @Test
  void cookieAttributesFollowTheSettings() throws Exception {
    start(Options.defaults());
    HttpResponse<String> first = new Visitor(server()).get("/");
    assertThat(setCookies(first)).singleElement().asString()
        .startsWith(COOKIE + "=")
        // The session (60 s) plus one slice (10 s).
        .contains("; Path=/;", "; Max-Age=70;", "; HttpOnly", "; SameSite=Lax")
        .doesNotContain("Secure");
    stop();

    start(
        Options.defaults().withCookie("line", CookieSecure.ALWAYS, SameSite.STRICT).withWaitingStatus(429));
    HttpResponse<String> admitted = new Visitor(server()).get("/");
    assertThat(setCookies(admitted)).singleElement().asString()
        .startsWith("line=").contains("; Path=/;", "; HttpOnly", "; Secure", "; SameSite=Strict");
    new Visitor(server()).get("/");
    Visitor v = new Visitor(server());
    HttpResponse<String> page = v.get("/");
    assertThat(setCookies(page)).singleElement().asString()
        .startsWith("line_q=")
        // A place is kept for the waiting timeout (5 min) after the line stops counting its
        // holder: two of the 5 s it was told and two seconds after this answer.
        .contains("; Path=/;", "; Max-Age=312;", "; HttpOnly", "; Secure", "; SameSite=Strict");
    assertThat(page.statusCode()).isEqualTo(429);
    assertThat(onWaitingPage(page)).isTrue();
    assertThat(page.headers().firstValue("Retry-After")).hasValue("5"); // near the front: 5 s
    assertThat(v.getJson("/").statusCode()).isEqualTo(429);
  }

  @Test
  void aResponseThatSetsATicketIsNeverCachedAndKeepsTheCookie() throws Exception {
    start(Options.defaults());
    Visitor a = new Visitor(server());
    HttpResponse<String> first =
        a.get("/?appSetHeader=Cache-Control:max-age=600&appSetHeader=Expires:0&appSetHeader=Set-Cookie:app=1");
    assertThat(inApp(first)).isTrue();
    assertThat(first.headers().allValues("Cache-Control")).containsExactly("private, no-store");
    assertThat(first.headers().allValues("Expires")).isEmpty();
    assertThat(ticketCookie(first, COOKIE)).isNotNull();
    assertThat(ticketCookie(first, "app")).isEqualTo("app=1");

    HttpResponse<String> again = a.get("/?appSetHeader=Cache-Control:max-age=600");
    assertThat(setCookies(again)).as("same slice: no new ticket").isEmpty();
    assertThat(again.headers().allValues("Cache-Control")).as("then the application's own").containsExactly("max-age=600");
  }

  /** Preflights as an attacker sends them: any values of the two headers, empty ones too. */
  private static final List<Map<String, String>> PREFLIGHTS =
      List.of(
          Map.of("Origin", "https://elsewhere.example", "Access-Control-Request-Method", "POST"),
          Map.of("Origin", "", "Access-Control-Request-Method", ""),
          Map.of("Origin", "null", "Access-Control-Request-Method", "DELETE"),
          Map.of("Origin", "x", "Access-Control-Request-Method", "x", "Accept", "text/html"));

  @Test
  void corsPreflightsPassUntouchedAndNeverJoinTheLineWhenTheApplicationOptsIn() throws Exception {
    start(Options.defaults().withCorsPassThrough(true));
    for (int i = 0; i < 4; i++) {
      HttpResponse<String> r = new Visitor(server()).preflight("/api/orders");
      assertThat(inApp(r)).isTrue();
      assertThat(setCookies(r)).isEmpty();
    }
    room().sync();
    assertThat(room().status().activeUsers()).isZero();
    assertThat(room().status().waitingUsers()).isZero();
    assertThat(inApp(new Visitor(server()).send("OPTIONS", "/api/orders")))
        .as("an OPTIONS that is no preflight is decided like a GET, and admitted").isTrue();
  }

  /**
   * Issue 42: a preflight with any two headers reached the application in a full room, and an
   * application that acts on any method (the demo's servlet) booked on it. By default the filter
   * answers every preflight itself, empty room or full, and the application never sees one.
   */
  @Test
  void corsPreflightsNeverReachTheApplicationByDefault() throws Exception {
    start(Options.defaults().withIgnorePaths("/static/"));
    HttpResponse<String> early = new Visitor(server()).preflight("/api/orders");
    assertThat(early.statusCode()).as("even with free slots").isEqualTo(204);
    new Visitor(server()).get("/");
    new Visitor(server()).get("/");
    int hits = server().appHits();
    assertThat(hits).isEqualTo(2);
    for (Map<String, String> headers : PREFLIGHTS) {
      for (String path : List.of("/api/orders", "/checkout", "/static/app.css", "/")) {
        HttpResponse<String> r = new Visitor(server()).send("OPTIONS", path, headers);
        assertThat(r.statusCode()).as(path + " " + headers).isEqualTo(204);
        assertThat(r.body()).isEmpty();
        assertThat(setCookies(r)).isEmpty();
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
        assertThat(r.headers().firstValue("Cache-Control")).hasValue("private, no-store");
      }
    }
    assertThat(server().appHits()).as("no preflight reached the application").isEqualTo(hits);
    room().sync();
    assertThat(room().status().waitingUsers()).as("and none joined the line").isZero();
    assertThat(onWaitingPage(new Visitor(server()).send("OPTIONS", "/api/orders")))
        .as("an OPTIONS that is no preflight is decided like a GET").isTrue();
  }

  @Test
  void theWaitingPageCarriesItsSecurityHeaders() throws Exception {
    start(Options.defaults());
    new Visitor(server()).get("/");
    new Visitor(server()).get("/");
    HttpResponse<String> page = new Visitor(server()).get("/");
    assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    String policy = page.headers().firstValue("Content-Security-Policy").orElseThrow();
    Matcher nonce = Pattern.compile("script-src 'nonce-([A-Za-z0-9_-]{22})'").matcher(policy);
    assertThat(nonce.find()).as(policy).isTrue();
    assertThat(page.body()).contains("nonce=\"" + nonce.group(1) + "\"");
    assertThat(page.headers().firstValue("Content-Length")).hasValue(
        Integer.toString(page.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length));
  }

  @Test
  void aFormSentWhileTheRoomIsFullSaysSoAndGoesBackToThePageItWasSentFrom() throws Exception {
    start(Options.defaults());
    new Visitor(server()).get("/");
    new Visitor(server()).get("/");
    String from = server().uri("/owners/new?step=2").toString();

    HttpResponse<String> sent =
        new Visitor(server()).send("POST", "/owners", Map.of("Accept", "text/html", "Referer", from));

    assertThat(onWaitingPage(sent)).isTrue();
    assertThat(sent.body()).contains("id=\"wr-form\"")
        .contains(";url=/owners/new?step=2\"></noscript>")
        .contains("var back = \"/owners/new?step=2\";");
    assertThat(server().appHits()).isEqualTo(2);
    HttpResponse<String> read = new Visitor(server()).send("GET", "/owners", Map.of("Accept", "text/html", "Referer", from));
    assertThat(read.body()).doesNotContain("id=\"wr-form\"").contains("var back = \"\";");
  }

  @Test
  void aBypassRuleLetsItsRequestsThroughUncountedBeforeAnythingElse() throws Exception {
    start(Options.defaults().withBypassHeader("X-Operator"));
    assertThat(inApp(new Visitor(server()).get("/"))).isTrue();
    assertThat(inApp(new Visitor(server()).get("/"))).isTrue();
    Visitor operator = new Visitor(server());
    Map<String, String> marked = Map.of("Accept", "text/html", "X-Operator", "yes");

    HttpResponse<String> passed = operator.send("POST", "/admin/refund", marked);
    assertThat(inApp(passed)).as("the room is full, the operator passes").isTrue();
    assertThat(setCookies(passed)).as("no ticket: not counted").isEmpty();
    HttpResponse<String> preflight = operator.send("OPTIONS", "/admin/refund",
        Map.of("Origin", "https://elsewhere.example", "Access-Control-Request-Method", "POST", "X-Operator", "yes"));
    assertThat(inApp(preflight)).as("the rule is asked before a preflight is answered").isTrue();
    assertThat(server().appHits()).isEqualTo(4);

    HttpResponse<String> unmarked = operator.get("/admin/refund");
    assertThat(onWaitingPage(unmarked)).as("without the mark, the operator is a visitor like any other").isTrue();
    assertThat(server().appHits()).isEqualTo(4);
  }

  @Test
  void aRequestBelongsToTheRoomWithTheMostSpecificPrefixAndOnlyThatOneDecidesIt() throws Exception {
    WaitingRoom shop = open("shop");
    WaitingRoom drop = open("drop");
    room = shop;
    server = start(List.of(shop, drop), List.of(Options.defaults(), Options.defaults().withPathPrefix("/drop")));
    Visitor a = new Visitor(server());
    assertThat(inApp(a.get("/tickets"))).isTrue();
    assertThat(inApp(new Visitor(server()).get("/tickets"))).isTrue();
    assertThat(onWaitingPage(new Visitor(server()).get("/tickets"))).as("the shop is full").isTrue();

    Visitor d = new Visitor(server());
    HttpResponse<String> dropped = d.get("/drop/sneakers");
    assertThat(inApp(dropped)).as("the drop room has its own slots").isTrue();
    assertThat(ticketCookie(dropped, "wr_drop")).isNotNull();
    assertThat(ticketCookie(dropped, COOKIE)).as("the shop never decides /drop").isNull();
    assertThat(inApp(new Visitor(server()).get("/drop/boots"))).isTrue();
    HttpResponse<String> full = new Visitor(server()).get("/drop/hats");
    assertThat(onWaitingPage(full)).isTrue();
    assertThat(ticketCookie(full, "wr_drop_q")).isNotNull();
    assertThat(ticketCookie(full, PLACE_COOKIE)).isNull();

    assertThat(onWaitingPage(a.get("/drop/sneakers"))).as("a shop session is no ticket for the drop").isTrue();
    assertThat(inApp(a.get("/tickets/42"))).as("nor does the drop touch it").isTrue();
    assertThat(inApp(d.get("/drop/sneakers/size-44"))).isTrue();
  }

  @Test
  void theHumanCheckIsAnsweredWhenTheServiceAnswersWithAPlaceOrAnotherTry() throws Exception {
    HandCheck check = new HandCheck("contract-key");
    start(Options.defaults().withHumanCheck(check));
    assertThat(inApp(new Visitor(server()).get("/"))).isTrue();
    assertThat(inApp(new Visitor(server()).get("/"))).isTrue();
    Visitor person = new Visitor(server());
    HttpResponse<String> page = person.get("/");
    assertThat(page.body()).contains("data-sitekey=\"contract-key\" data-callback=\"wrHumanCheck\"");
    assertThat(check.asked()).as("nobody asked the service yet").isEmpty();

    CompletableFuture<HttpResponse<String>> asked = person.getJsonLater("/?waitingRoomStatus=1&waitingRoomHuman=person");
    CompletableFuture<HumanCheck.Verdict> verdict = check.asked().take();
    assertThat(asked).as("answered only once the service has").isNotDone();
    verdict.complete(HumanCheck.Verdict.PASSED);
    HttpResponse<String> answer = asked.get(30, TimeUnit.SECONDS);
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.headers().firstValue("Cache-Control")).hasValue("private, no-store");
    assertThat(status(answer)).containsEntry("status", "queued");
    assertThat(ticketCookie(answer, PLACE_COOKIE)).as("the place the check gave").isNotNull();

    Visitor bot = new Visitor(server());
    bot.get("/");
    CompletableFuture<HttpResponse<String>> tried = bot.getJsonLater("/?waitingRoomStatus=1&waitingRoomHuman=bot");
    check.asked().take().completeExceptionally(new IllegalStateException("the service is down"));
    HttpResponse<String> again = tried.get(30, TimeUnit.SECONDS);
    assertThat(status(again)).containsEntry("status", "challenge");
    assertThat(ticketCookie(again, PLACE_COOKIE)).as("no place: another try").isNull();
    assertThat(server().appHits()).isEqualTo(2);
  }

  /** One browser-like visitor: a java.net.http client with its own cookie jar. */
  static final class Visitor {
    private final CookieManager jar = new CookieManager();
    private final HttpClient client;
    private final Server server;

    Visitor(Server server) {
      this.server = server;
      this.client = HttpClient.newBuilder().cookieHandler(jar).connectTimeout(Duration.ofSeconds(5)).build();
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
      return send("GET", path, Map.of("Accept", "text/html,application/xhtml+xml,*/*;q=0.8"));
    }

    HttpResponse<String> getJson(String path) throws IOException, InterruptedException {
      return send("GET", path, Map.of("Accept", "application/json"));
    }

    /** A {@code GET} asking for JSON whose answer the test waits for later. */
    CompletableFuture<HttpResponse<String>> getJsonLater(String path) {
      HttpRequest request = HttpRequest.newBuilder(server.uri(path)).header("Accept", "application/json").GET().build();
      return client.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> send(String method, String path) throws IOException, InterruptedException {
      return send(method, path, Map.of("Accept", "text/html"));
    }

    HttpResponse<String> preflight(String path) throws IOException, InterruptedException {
      return send(
          "OPTIONS", path, Map.of("Origin", "https://elsewhere.example", "Access-Control-Request-Method", "POST"));
    }

    HttpResponse<String> send(String method, String path, Map<String, String> headers)
        throws IOException, InterruptedException {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(server.uri(path))
              .method(method, HttpRequest.BodyPublishers.noBody())
              .timeout(Duration.ofSeconds(10));
      headers.forEach(b::header);
      return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Puts a cookie in the jar as if the server had set it ({@code Path=/}). */
    void setCookie(String name, String value) {
      HttpCookie c = new HttpCookie(name, value);
      c.setPath("/");
      c.setVersion(0);
      jar.getCookieStore().add(server.uri("/"), c);
    }

    @Nullable String ticket(String cookieName) {
      for (HttpCookie c : jar.getCookieStore().getCookies()) {
        if (c.getName().equals(cookieName)) {
          return c.getValue();
        }
      }
      return null;
    }
  }
}
