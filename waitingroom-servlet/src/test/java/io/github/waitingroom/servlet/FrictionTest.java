package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.Gate;
import io.github.waitingroom.http.HumanCheck;
import io.github.waitingroom.http.ProofOfWork;
import io.github.waitingroom.http.SiteVerify;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import io.github.waitingroom.testsupport.JsonTree;

/**
 * Friction for newcomers over real HTTP (Jetty on a real port, the room on a {@link ManualClock}):
 * the proof of work (a wrong nonce, a forged or expired challenge and a replay on the same node get
 * no place; a solution does), the penalty for a client that solves nothing (a place only once it is
 * over, behind those who solved), and the human check against a local server that speaks
 * siteverify (a pass gets a place, a failure or an unreachable service another try, a flag the
 * infinite queue, which never admits and never counts in the line).
 */
class FrictionTest {
  private static final int BITS = 8;
  private static final Pattern TOKEN = Pattern.compile("var token = \"([A-Za-z0-9_-]+)\"");

  @RegisterExtension final RoomFixture fixture = new RoomFixture();
  private final ManualClock clock = fixture.clock;
  private @Nullable WaitingRoom room;
  private @Nullable TestServer server;
  private final Queue<Map<String, String[]>> asked = new ConcurrentLinkedQueue<>();

  private WaitingRoom room() {
    WaitingRoom r =
        fixture.room(
            RoomFixture.oneSlot(Duration.ofSeconds(60))
                .sliceWidth(Duration.ofSeconds(10))
                .refreshInterval(Duration.ofSeconds(5))
                .waitingTimeout(Duration.ofMinutes(20)));
    room = r;
    return r;
  }

  /** A full room (the first visitor holds its only slot) behind a filter with friction; returns that visitor. */
  private Visitor fullRoom(WaitingRoomFilter.Builder filter) throws Exception {
    return fullRoom(TestServer.start(filter.build()));
  }

  /**
   * The same behind a proxy: the container takes the client's address from {@code
   * X-Forwarded-For}, so that {@link Visitor#Visitor(TestServer, String)} can come from many.
   */
  private Visitor fullRoomBehindProxy(WaitingRoomFilter.Builder filter) throws Exception {
    return fullRoom(TestServer.startBehindProxy(filter.build()));
  }

  private Visitor fullRoom(TestServer s) throws Exception {
    server = fixture.opened(s);
    Visitor first = new Visitor(s);
    assertThat(first.get("/").body()).as("a free slot: no friction").startsWith("app:");
    return first;
  }

  private TestServer srv() {
    return java.util.Objects.requireNonNull(server);
  }

  private static Map<String, Object> status(HttpResponse<String> r) throws IOException {
    @SuppressWarnings("unchecked")
    Map<String, Object> s = (Map<String, Object>) JsonTree.object(r.body()).get("waitingRoom");
    return java.util.Objects.requireNonNull(s);
  }

  private static String token(HttpResponse<String> page) {
    Matcher m = TOKEN.matcher(page.body());
    assertThat(m.find()).as("the challenge page carries its token").isTrue();
    return m.group(1);
  }

  private void sync(Duration by) {
    clock.advance(by);
    java.util.Objects.requireNonNull(room).sync();
  }

  /** Moves the clock to the start of a minute (the no-script budget's), the holder keeping its slot. */
  private void toMinuteStart(Visitor holder) throws Exception {
    while (clock.instant().getEpochSecond() % 60 != 0) {
      sync(Duration.ofSeconds(Math.min(20, 60 - clock.instant().getEpochSecond() % 60)));
      assertThat(holder.get("/").body()).startsWith("app:");
    }
  }

  @Test
  void aSolvedChallengeGetsAPlaceOnceAndAWrongForgedOrExpiredOneNone() throws Exception {
    WaitingRoom r = room();
    Visitor first = fullRoom(WaitingRoomFilter.builder(r).proofOfWork(BITS));
    ProofOfWork check = new ProofOfWork(r.seal("pow"), BITS, ProofOfWork.DEFAULT_TTL_SECONDS);

    Visitor v = new Visitor(srv());
    HttpResponse<String> page = v.get("/buy");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("Checking your browser").contains("new Worker(\"?waitingRoomStatus=pow-worker.js\")")
        .contains("<noscript><meta http-equiv=\"refresh\" content=\"30\"></noscript>");
    assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow()).contains("worker-src 'self'");
    assertThat(v.ticket("wr_shop_c")).as("the challenge, kept for the penalty").startsWith("c.");
    assertThat(v.ticket("wr_shop_q")).as("no place yet").isNull();
    String token = token(page);
    Map<String, Object> json = status(v.getJson("/buy?waitingRoomStatus=1"));
    assertThat(json).containsEntry("status", "challenge").containsEntry("inWaitingRoom", true);
    @SuppressWarnings("unchecked")
    Map<String, Object> challenge = (Map<String, Object>) json.get("challenge");
    assertThat(challenge).containsEntry("token", token).containsEntry("difficulty", (long) BITS);

    // The worker script, served by the gate under the guarded path.
    HttpResponse<String> worker = v.get("/buy?waitingRoomStatus=pow-worker.js");
    assertThat(worker.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/javascript");
    assertThat(worker.body()).contains("self.onmessage");

    long now = r.nowSecond();
    String nonce = ProofOfWork.solve(token, BITS);
    assertThat(check.verify(token, nonce, now)).isTrue();
    String wrong = "0";
    for (int n = 0; check.verify(token, wrong, now); n++) {
      wrong = Long.toString(n, 36) + "z";
    }
    assertThat(status(v.getJson("/buy?waitingRoomStatus=1&waitingRoomProof=" + token + "." + wrong)))
        .as("a wrong nonce").containsEntry("status", "challenge");
    String forged = (token.charAt(5) == 'A' ? "B" : "A");
    forged = token.substring(0, 5) + forged + token.substring(6);
    assertThat(status(v.getJson("/buy?waitingRoomStatus=1&waitingRoomProof=" + forged + "." + ProofOfWork.solve(forged, BITS))))
        .as("a forged challenge, solved").containsEntry("status", "challenge");
    assertThat(v.ticket("wr_shop_q")).isNull();
    long arrivals = r.metrics().arrivals();

    Map<String, Object> placed = status(v.getJson("/buy?waitingRoomStatus=1&waitingRoomProof=" + token + "." + nonce));
    assertThat(placed).containsEntry("status", "queued").doesNotContainKey("challenge");
    assertThat(v.ticket("wr_shop_q")).as("a place").isNotNull();
    assertThat(r.metrics().arrivals()).isEqualTo(arrivals + 1);
    assertThat(status(v.getJson("/buy?waitingRoomStatus=1"))).containsEntry("status", "waiting");

    // The same solution on the same node: no second place.
    Visitor copy = new Visitor(srv());
    assertThat(status(copy.getJson("/buy?waitingRoomStatus=1&waitingRoomProof=" + token + "." + nonce)))
        .as("a replay").containsEntry("status", "challenge");
    assertThat(copy.ticket("wr_shop_q")).isNull();
    assertThat(r.metrics().arrivals()).isEqualTo(arrivals + 1);

    // A challenge solved after it expired.
    Visitor late = new Visitor(srv());
    String old = token(late.get("/buy"));
    for (long t = 0; t < ProofOfWork.DEFAULT_TTL_SECONDS; t += 30) {
      sync(Duration.ofSeconds(30));
      assertThat(first.get("/buy").body()).as("the room stays full").startsWith("app:");
    }
    assertThat(check.verify(old, ProofOfWork.solve(old, BITS), r.nowSecond())).isFalse();
    assertThat(status(late.getJson("/buy?waitingRoomStatus=1&waitingRoomProof=" + old + "." + ProofOfWork.solve(old, BITS))))
        .as("an expired challenge").containsEntry("status", "challenge");
    assertThat(late.ticket("wr_shop_q")).isNull();

  }

  @Test
  void withoutJavaScriptANewcomerGetsItsPlaceAfterThePenaltyBehindThoseWhoSolved() throws Exception {
    WaitingRoom r = room();
    // The no-script path is the application's choice (issue 42): a budget of places a minute.
    fullRoom(WaitingRoomFilter.builder(r).proofOfWork(BITS).challengePenalty(Duration.ofSeconds(40)).noScriptPlaces(10));
    Visitor plain = new Visitor(srv()); // follows the meta refresh, runs no script
    Visitor solver = new Visitor(srv());
    HttpResponse<String> first = plain.get("/");
    assertThat(first.body()).contains("content=\"40\"");
    String cookie = plain.ticket("wr_shop_c");
    String token = token(solver.get("/"));
    assertThat(status(solver.getJson("/?waitingRoomStatus=1&waitingRoomProof=" + token + "." + ProofOfWork.solve(token, BITS))))
        .containsEntry("status", "queued");

    for (int i = 0; i < 5; i++) {
      sync(Duration.ofSeconds(5));
      assertThat(status(solver.getJson("/?waitingRoomStatus=1"))).containsEntry("status", "waiting");
    }
    HttpResponse<String> again = plain.get("/");
    assertThat(again.body()).as("the penalty counts from the first challenge").contains("Checking your browser")
        .contains("content=\"15\"");
    assertThat(plain.ticket("wr_shop_c")).as("the same challenge").isEqualTo(cookie);
    for (int i = 0; i < 2; i++) {
      sync(Duration.ofSeconds(5));
      solver.getJson("/?waitingRoomStatus=1");
    }
    sync(Duration.ofSeconds(4));
    assertThat(plain.get("/").body()).contains("Checking your browser");
    assertThat(plain.ticket("wr_shop_q")).isNull();
    sync(Duration.ofSeconds(1));
    HttpResponse<String> placed = plain.get("/");
    assertThat(placed.body()).as("the penalty is over").contains("You are in line");
    assertThat(plain.ticket("wr_shop_q")).isNotNull();

    // The same challenge cookie in another client: spent on this node.
    Visitor copy = new Visitor(srv());
    copy.setTicket("wr_shop_c", java.util.Objects.requireNonNull(cookie));
    HttpResponse<String> spent = copy.get("/");
    assertThat(spent.body()).contains("Checking your browser");
    assertThat(spent.headers().firstValue("Set-Cookie").orElseThrow()).as("a fresh challenge")
        .startsWith("wr_shop_c=c.").doesNotContain(cookie);

    // The one who solved is let in first, when the session of the one admitted runs out.
    String admitted = null;
    for (int i = 0; i < 60 && admitted == null; i++) {
      sync(Duration.ofSeconds(3));
      if (Boolean.FALSE.equals(status(solver.getJson("/?waitingRoomStatus=1")).get("inWaitingRoom"))) {
        admitted = "solver";
      }
      if (Boolean.FALSE.equals(status(plain.getJson("/?waitingRoomStatus=1")).get("inWaitingRoom"))) {
        admitted = admitted == null ? "plain" : admitted + " and plain";
      }
    }
    assertThat(admitted).isEqualTo("solver");
    assertThat(status(plain.getJson("/?waitingRoomStatus=1"))).containsEntry("status", "waiting");
  }

  /** A local server that answers like siteverify: token "good" passes, "bot" scores 0.1, anything else fails. */
  private String siteVerify() throws Exception {
    Server s = new Server();
    ServerConnector c = new ServerConnector(s);
    c.setHost("127.0.0.1");
    c.setPort(0);
    s.addConnector(c);
    ServletContextHandler context = new ServletContextHandler("/");
    context.addServlet(
        new ServletHolder(
            new HttpServlet() {
              @Override
              protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
                asked.add(Map.copyOf(req.getParameterMap()));
                String token = req.getParameter("response");
                boolean secret = "s3cret".equals(req.getParameter("secret"));
                res.setContentType("application/json");
                res.getWriter().write(
                    !secret ? "{\"success\":false,\"error-codes\":[\"invalid-input-secret\"]}"
                        : "good".equals(token) ? "{\"success\":true,\"hostname\":\"localhost\",\"score\":0.9}"
                        : "bot".equals(token) ? "{\"success\":true,\"score\":0.1,\"action\":\"queue\"}"
                        : "{\"success\":false,\"error-codes\":[\"invalid-input-response\"]}");
              }
            }),
        "/siteverify");
    s.setHandler(context);
    s.start();
    fixture.opened(s::stop);
    return "http://127.0.0.1:" + c.getLocalPort() + "/siteverify";
  }

  @Test
  void theHumanCheckGivesAPlaceOnAPassAndAnotherTryOnAFailure() throws Exception {
    WaitingRoom r = room();
    HumanCheck turnstile = SiteVerify.turnstile("site-key-1", "s3cret").verifyUrl(siteVerify()).flagBelow(0.5);
    fullRoom(WaitingRoomFilter.builder(r).humanCheck(turnstile));
    Visitor v = new Visitor(srv());
    HttpResponse<String> page = v.get("/");
    assertThat(page.body())
        .contains("<script nonce=")
        .contains("src=\"https://challenges.cloudflare.com/turnstile/v0/api.js\" async defer></script>")
        .contains("<div class=\"cf-turnstile\" data-sitekey=\"site-key-1\" data-callback=\"wrHumanCheck\"></div>")
        .contains("confirm below that you are a person")
        .doesNotContain("s3cret");
    String csp = page.headers().firstValue("Content-Security-Policy").orElseThrow();
    assertThat(csp).contains("script-src 'nonce-").contains("https://challenges.cloudflare.com")
        .contains("frame-src https://challenges.cloudflare.com");
    assertThat(asked).as("nobody asked the service yet").isEmpty();

    assertThat(status(v.getJson("/?waitingRoomStatus=1&waitingRoomHuman=expired"))).containsEntry("status", "challenge");
    assertThat(v.ticket("wr_shop_q")).isNull();
    assertThat(status(v.getJson("/?waitingRoomStatus=1&waitingRoomHuman=good"))).containsEntry("status", "queued");
    assertThat(v.ticket("wr_shop_q")).isNotNull();
    assertThat(asked).hasSize(2);
    Map<String, String[]> form = asked.peek();
    assertThat(form.get("secret")).containsExactly("s3cret");
    assertThat(form.get("response")).containsExactly("expired");
    assertThat(form.get("remoteip")).containsExactly("127.0.0.1");

    // Once it has a place, a token is not even looked at: verified once per newcomer.
    assertThat(status(v.getJson("/?waitingRoomStatus=1&waitingRoomHuman=good"))).containsEntry("status", "waiting");
    assertThat(asked).hasSize(2);
  }

  @Test
  void aServiceThatDoesNotAnswerFailsTheCheckAndThePenaltyStillLetsTheNewcomerQueue() throws Exception {
    WaitingRoom r = room();
    // A port nobody listens on.
    int port = io.github.waitingroom.testsupport.FreePorts.closed();
    HumanCheck down = SiteVerify.hcaptcha("site-key-2", "s3cret").verifyUrl("http://127.0.0.1:" + port + "/siteverify")
        .timeout(Duration.ofSeconds(2));
    fullRoom(WaitingRoomFilter.builder(r).humanCheck(down).noScriptPlaces(10));
    Visitor v = new Visitor(srv());
    assertThat(v.get("/").body()).contains("class=\"h-captcha\"").contains("bits = 0,");
    assertThat(status(v.getJson("/?waitingRoomStatus=1&waitingRoomHuman=good"))).containsEntry("status", "challenge");
    sync(Duration.ofSeconds(30));
    assertThat(status(v.getJson("/?waitingRoomStatus=1"))).containsEntry("status", "queued");
  }

  @Test
  void aFlaggedClientStaysInTheInfiniteQueueAndIsNeverCountedOrAdmitted() throws Exception {
    WaitingRoom r = room();
    HumanCheck recaptcha = SiteVerify.recaptcha("site-key-3", "s3cret").verifyUrl(siteVerify()).flagBelow(0.5);
    fullRoom(WaitingRoomFilter.builder(r).humanCheck(recaptcha).proofOfWork(BITS));
    Visitor bot = new Visitor(srv());
    String token = token(bot.get("/"));
    Map<String, Object> flagged = status(bot.getJson("/?waitingRoomStatus=1&waitingRoomHuman=bot"));
    assertThat(flagged).containsEntry("status", "waiting").containsEntry("inWaitingRoom", true);
    assertThat(bot.ticket("wr_shop_c")).as("the infinite queue's marker").startsWith("f.");
    assertThat(bot.ticket("wr_shop_q")).isNull();
    // A proof of work does not get it out, nor does another try at the check.
    assertThat(status(bot.getJson("/?waitingRoomStatus=1&waitingRoomProof=" + token + "." + ProofOfWork.solve(token, BITS))))
        .containsEntry("status", "waiting");
    assertThat(status(bot.getJson("/?waitingRoomStatus=1&waitingRoomHuman=good"))).containsEntry("status", "waiting");
    assertThat(asked).hasSize(1);
    assertThat(bot.get("/").body()).contains("You are in line");

    // The room empties: the session of the one admitted runs out and slots are free again.
    long arrivals = r.metrics().arrivals();
    for (int i = 0; i < 40; i++) {
      sync(Duration.ofSeconds(5));
      assertThat(status(bot.getJson("/?waitingRoomStatus=1"))).as("never admitted").containsEntry("inWaitingRoom", true);
      assertThat(r.status().waitingUsers()).as("never in the line").isZero();
    }
    assertThat(r.metrics().arrivals()).as("never counted as an arrival").isEqualTo(arrivals);
    Visitor person = new Visitor(srv());
    assertThat(person.get("/").body()).as("a newcomer gets the free slot").startsWith("app:");
    assertThat(bot.get("/").body()).contains("You are in line");
    // A forged marker is no marker: that client is a newcomer like any other.
    Visitor other = new Visitor(srv());
    other.setTicket("wr_shop_c", "f.forged");
    sync(Duration.ofSeconds(1));
    assertThat(other.get("/").body()).doesNotContain("You are in line");
  }

  /**
   * Issue 42: a challenge older than the penalty passed without a proof of work, and challenges
   * were free to fetch: 10,000 harvested, redeemed 31 s later with no work, got 10,000 places. Now
   * waiting gets no place unless the application grants a no-script budget, and then no more a
   * minute than the budget, however many challenges a bot holds.
   */
  @Test
  void harvestedChallengesGetNoPlaceWithoutWorkAndTheNoScriptPathIsABudget() throws Exception {
    WaitingRoom r = room();
    Visitor first = fullRoom(WaitingRoomFilter.builder(r).proofOfWork(BITS));
    List<Visitor> harvested = new java.util.ArrayList<>();
    for (int i = 0; i < 100; i++) {
      Visitor bot = new Visitor(srv());
      assertThat(bot.get("/").body()).contains("Checking your browser");
      harvested.add(bot);
    }
    long arrivals = r.metrics().arrivals();
    sync(Duration.ofSeconds(31));
    assertThat(first.get("/").body()).as("the room stays full").startsWith("app:");
    for (Visitor bot : harvested) {
      HttpResponse<String> again = bot.get("/");
      assertThat(again.body()).as("past the penalty, no work: no place").contains("Checking your browser")
          .contains("content=\"30\"");
      assertThat(bot.ticket("wr_shop_q")).isNull();
    }
    for (int i = 0; i < 10; i++) {
      sync(Duration.ofSeconds(30));
      assertThat(first.get("/").body()).startsWith("app:");
    }
    for (Visitor bot : harvested) {
      assertThat(status(bot.getJson("/?waitingRoomStatus=1"))).containsEntry("status", "challenge");
      assertThat(bot.ticket("wr_shop_q")).isNull();
    }
    assertThat(r.metrics().arrivals()).as("none counted").isEqualTo(arrivals);
    srv().close();
    server = null;
    r.close();
    room = null;

    // With a budget of 3 a minute, 20 harvested challenges get 3 places a minute, no more, even
    // from 20 addresses (one address gets one a minute: see the test below).
    WaitingRoom budgeted = room();
    Visitor holder = fullRoomBehindProxy(WaitingRoomFilter.builder(budgeted).proofOfWork(BITS).noScriptPlaces(3));
    List<Visitor> bots = new java.util.ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Visitor bot = new Visitor(srv(), "203.0.113." + (i + 1));
      bot.get("/");
      bots.add(bot);
    }
    sync(Duration.ofSeconds(31));
    assertThat(holder.get("/").body()).startsWith("app:");
    toMinuteStart(holder);
    int placed = 0;
    for (Visitor bot : bots) {
      bot.get("/");
      placed += bot.ticket("wr_shop_q") != null ? 1 : 0;
    }
    assertThat(placed).isEqualTo(3);
    sync(Duration.ofSeconds(30));
    assertThat(holder.get("/").body()).startsWith("app:");
    placed += placeUnplaced(bots);
    assertThat(placed).as("the same minute: no more").isEqualTo(3);
    sync(Duration.ofSeconds(30));
    assertThat(holder.get("/").body()).startsWith("app:");
    placed += placeUnplaced(bots);
    assertThat(placed).as("three more the next minute").isEqualTo(6);
  }

  /**
   * Issue 42: challenges were not bound to the client that fetched them. A solution counts only
   * for the challenge in the solver's own cookie: a challenge solved elsewhere, or sent by a client
   * that holds another challenge or none, gets no place.
   */
  @Test
  void aSolutionCountsOnlyForTheChallengeInTheSolversOwnCookie() throws Exception {
    WaitingRoom r = room();
    fullRoom(WaitingRoomFilter.builder(r).proofOfWork(BITS));
    Visitor harvester = new Visitor(srv());
    String token = token(harvester.get("/"));
    String proof = token + "." + ProofOfWork.solve(token, BITS);

    Visitor bare = new Visitor(srv());
    assertThat(status(bare.getJson("/?waitingRoomStatus=1&waitingRoomProof=" + proof)))
        .as("no challenge cookie").containsEntry("status", "challenge");
    Visitor other = new Visitor(srv());
    assertThat(token(other.get("/"))).isNotEqualTo(token);
    assertThat(status(other.getJson("/?waitingRoomStatus=1&waitingRoomProof=" + proof)))
        .as("another challenge in its cookie").containsEntry("status", "challenge");
    assertThat(bare.ticket("wr_shop_q")).isNull();
    assertThat(other.ticket("wr_shop_q")).isNull();

    assertThat(status(harvester.getJson("/?waitingRoomStatus=1&waitingRoomProof=" + proof)))
        .as("the client that fetched it").containsEntry("status", "queued");
    assertThat(harvester.ticket("wr_shop_q")).isNotNull();
  }

  /**
   * Issue 42: with the human check on, 1,000 of 1,000 bots got places without answering it, by
   * waiting. A failed check, or one never answered by a client that never loads the widget, stays
   * failed however long the client waits.
   */
  @Test
  void aFailedHumanCheckStaysFailedHoweverLongTheClientWaits() throws Exception {
    WaitingRoom r = room();
    HumanCheck turnstile = SiteVerify.turnstile("site-key-1", "s3cret").verifyUrl(siteVerify());
    Visitor first = fullRoom(WaitingRoomFilter.builder(r).humanCheck(turnstile));
    Visitor failed = new Visitor(srv());
    Visitor silent = new Visitor(srv());
    assertThat(failed.get("/").body()).contains("cf-turnstile");
    silent.get("/");
    assertThat(status(failed.getJson("/?waitingRoomStatus=1&waitingRoomHuman=forged"))).containsEntry("status", "challenge");
    for (int i = 0; i < 10; i++) {
      sync(Duration.ofSeconds(30));
      assertThat(first.get("/").body()).as("the room stays full").startsWith("app:");
      assertThat(status(failed.getJson("/?waitingRoomStatus=1"))).containsEntry("status", "challenge");
      assertThat(status(silent.getJson("/?waitingRoomStatus=1"))).containsEntry("status", "challenge");
    }
    assertThat(failed.ticket("wr_shop_q")).isNull();
    assertThat(silent.ticket("wr_shop_q")).isNull();
    assertThat(status(silent.getJson("/?waitingRoomStatus=1&waitingRoomHuman=good"))).as("a pass still works")
        .containsEntry("status", "queued");
  }

  /**
   * Issue 42, with a no-script budget granted: clients that never load the human check's widget,
   * or fail it, get no more than what waiting alone gets anyone, one place a minute per address
   * within the budget, however many of them one address runs; a pass still gets a place at once.
   */
  @Test
  void withABudgetClientsThatNeverPassTheHumanCheckGetOnlyTheirAddresssPlaceAMinute() throws Exception {
    WaitingRoom r = room();
    HumanCheck turnstile = SiteVerify.turnstile("site-key-1", "s3cret").verifyUrl(siteVerify());
    Visitor holder = fullRoomBehindProxy(WaitingRoomFilter.builder(r).humanCheck(turnstile).noScriptPlaces(5));
    List<Visitor> bots = new java.util.ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Visitor bot = new Visitor(srv(), "203.0.113.7");
      assertThat(bot.get("/").body()).contains("cf-turnstile");
      if (i % 2 == 0) {
        assertThat(status(bot.getJson("/?waitingRoomStatus=1&waitingRoomHuman=forged"))).containsEntry("status", "challenge");
      }
      bots.add(bot);
    }
    sync(Duration.ofSeconds(31));
    toMinuteStart(holder);
    int placed = 0;
    for (int minute = 0; minute < 3; minute++) {
      for (Visitor bot : bots) {
        if (bot.ticket("wr_shop_q") == null) {
          bot.get("/");
          placed += bot.ticket("wr_shop_q") != null ? 1 : 0;
        }
      }
      assertThat(placed).as("minute %d: one a minute for the address", minute).isEqualTo(minute + 1);
      sync(Duration.ofSeconds(30));
      assertThat(holder.get("/").body()).startsWith("app:");
      sync(Duration.ofSeconds(30));
      assertThat(holder.get("/").body()).startsWith("app:");
    }
    Visitor person = new Visitor(srv(), "203.0.113.7");
    person.get("/");
    assertThat(status(person.getJson("/?waitingRoomStatus=1&waitingRoomHuman=good"))).as("a pass, same address")
        .containsEntry("status", "queued");
  }

  /**
   * Issue 42: the servlet filter kept the request thread for 30 s against a check configured for
   * 2 s. A check that never answers holds the request no longer than its timeout: the answer (a
   * challenge again) comes within the test's bound of 10 s, while the check would never complete.
   */
  @Test
  void aCheckThatNeverAnswersHoldsTheRequestThreadNoLongerThanItsTimeout() throws Exception {
    WaitingRoom r = room();
    java.util.concurrent.CompletableFuture<HumanCheck.Verdict> never = new java.util.concurrent.CompletableFuture<>();
    HumanCheck stuck = new HumanCheck() {
      @Override
      public Widget widget() {
        return new Widget("https://challenges.example/api.js", "stuck", "site-key", List.of("https://challenges.example"));
      }

      @Override
      public java.util.concurrent.CompletionStage<Verdict> verify(String token, @Nullable String remoteAddress) {
        return never;
      }

      @Override
      public Duration timeout() {
        return Duration.ofMillis(200);
      }
    };
    fullRoom(WaitingRoomFilter.builder(r).humanCheck(stuck));
    Visitor v = new Visitor(srv());
    assertThat(status(v.getJson("/?waitingRoomStatus=1&waitingRoomHuman=anything")))
        .as("failed at the timeout: asked again").containsEntry("status", "challenge");
    assertThat(never).isNotDone();
  }

  /** Issue 42: the token was sent to the service still percent-encoded, then encoded again. */
  @Test
  void theTokenReachesTheServiceAsTheWidgetGaveIt() throws Exception {
    WaitingRoom r = room();
    HumanCheck turnstile = SiteVerify.turnstile("site-key-1", "s3cret").verifyUrl(siteVerify());
    fullRoom(WaitingRoomFilter.builder(r).humanCheck(turnstile));
    Visitor v = new Visitor(srv());
    v.get("/");
    // What the page's URLSearchParams sends for the token "0.a+b/c=d e".
    v.getJson("/?waitingRoomStatus=1&waitingRoomHuman=0.a%2Bb%2Fc%3Dd+e");
    assertThat(asked).hasSize(1);
    assertThat(asked.peek().get("response")).containsExactly("0.a+b/c=d e");
  }

  /**
   * Issue 42: the no-script budget was the node's, shared: one client holding 20 harvested
   * challenges took all 3 places of a minute, and visitors without JavaScript got none. Now one
   * address gets at most one place a minute however many challenges it holds, and the rest of
   * the budget is left to other addresses.
   */
  @Test
  void oneAddressGetsOneNoScriptPlaceAMinuteHoweverManyChallengesItHarvested() throws Exception {
    WaitingRoom r = room();
    Visitor holder = fullRoomBehindProxy(WaitingRoomFilter.builder(r).proofOfWork(BITS).noScriptPlaces(3));
    List<Visitor> bots = new java.util.ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Visitor bot = new Visitor(srv(), "203.0.113.7");
      assertThat(bot.get("/").body()).contains("Checking your browser");
      bots.add(bot);
    }
    Visitor plainA = new Visitor(srv(), "198.51.100.1");
    Visitor plainB = new Visitor(srv(), "2001:db8:1:2::a");
    plainA.get("/");
    plainB.get("/");
    sync(Duration.ofSeconds(31));
    toMinuteStart(holder);
    int placed = 0;
    for (Visitor bot : bots) {
      bot.get("/");
      placed += bot.ticket("wr_shop_q") != null ? 1 : 0;
    }
    assertThat(placed).as("one place for the address, however many challenges").isEqualTo(1);
    assertThat(plainA.get("/").body()).as("another address still gets its place").contains("You are in line");
    assertThat(plainB.get("/").body()).contains("You are in line");
    sync(Duration.ofSeconds(30));
    assertThat(holder.get("/").body()).startsWith("app:");
    placed += placeUnplaced(bots);
    assertThat(placed).as("the same minute: no second place").isEqualTo(1);
    sync(Duration.ofSeconds(30));
    assertThat(holder.get("/").body()).startsWith("app:");
    placed += placeUnplaced(bots);
    assertThat(placed).as("one more the next minute").isEqualTo(2);
  }

  /**
   * Issue 42: a challenge was bound only to the cookie that carried it, which the harvester holds:
   * a challenge cookie fetched through one address, copied with its solution (or after the
   * penalty) to a client at another address, got a place. Now a challenge is bound to the address
   * it was issued to (an IPv6 address by its /64): from another, the client gets a fresh
   * challenge and no place.
   */
  @Test
  void aHarvestedChallengeIsWorthNothingFromAnotherAddress() throws Exception {
    WaitingRoom r = room();
    Visitor holder = fullRoomBehindProxy(WaitingRoomFilter.builder(r).proofOfWork(BITS).noScriptPlaces(10));
    Visitor harvester = new Visitor(srv(), "203.0.113.7");
    String token = token(harvester.get("/"));
    String cookie = java.util.Objects.requireNonNull(harvester.ticket("wr_shop_c"));
    String proof = token + "." + ProofOfWork.solve(token, BITS);

    Visitor elsewhere = new Visitor(srv(), "198.51.100.9");
    elsewhere.setTicket("wr_shop_c", cookie);
    HttpResponse<String> refused = elsewhere.getJson("/?waitingRoomStatus=1&waitingRoomProof=" + proof);
    assertThat(status(refused)).as("solved, but from another address").containsEntry("status", "challenge");
    assertThat(refused.headers().firstValue("Set-Cookie").orElseThrow()).as("a fresh challenge for this address")
        .startsWith("wr_shop_c=c.").doesNotContain(cookie);
    assertThat(elsewhere.ticket("wr_shop_q")).isNull();

    // Past the penalty, the no-script path does not take it from another address either.
    Visitor waited = new Visitor(srv(), "203.0.113.8");
    waited.get("/");
    String waitedCookie = java.util.Objects.requireNonNull(waited.ticket("wr_shop_c"));
    sync(Duration.ofSeconds(31));
    assertThat(holder.get("/").body()).startsWith("app:");
    Visitor carried = new Visitor(srv(), "198.51.100.10");
    carried.setTicket("wr_shop_c", waitedCookie);
    HttpResponse<String> carriedPage = carried.get("/");
    assertThat(carriedPage.body()).contains("Checking your browser").contains("content=\"30\"");
    assertThat(carried.ticket("wr_shop_q")).isNull();
    assertThat(carriedPage.headers().firstValue("Set-Cookie").orElseThrow()).as("a fresh challenge, its penalty from now")
        .startsWith("wr_shop_c=c.").doesNotContain(waitedCookie);

    // The clients that fetched them still get their places; an IPv6 client anywhere in its /64.
    assertThat(status(harvester.getJson("/?waitingRoomStatus=1&waitingRoomProof=" + proof))).containsEntry("status", "queued");
    assertThat(waited.get("/").body()).contains("You are in line");
    Visitor six = new Visitor(srv(), "2001:db8:1:2::a");
    String sixToken = token(six.get("/"));
    Visitor sameBlock = new Visitor(srv(), "2001:db8:1:2:ffff:1:2:3");
    sameBlock.setTicket("wr_shop_c", java.util.Objects.requireNonNull(six.ticket("wr_shop_c")));
    assertThat(status(sameBlock.getJson("/?waitingRoomStatus=1&waitingRoomProof=" + sixToken + "." + ProofOfWork.solve(sixToken, BITS))))
        .as("the same /64").containsEntry("status", "queued");
  }

  @Test
  void frictionIsOffByDefault() throws Exception {
    WaitingRoom r = room();
    fullRoom(WaitingRoomFilter.builder(r));
    Visitor v = new Visitor(srv());
    assertThat(status(v.getJson("/?waitingRoomStatus=1"))).containsEntry("status", "queued");
    assertThat(v.get("/?waitingRoomStatus=pow-worker.js").headers().firstValue("Content-Type").orElseThrow())
        .startsWith("application/json");
    assertThat(Gate.builder(r).build().frictionOn()).isFalse();
    assertThat(List.of(ProofOfWork.PARAM, HumanCheck.PARAM)).containsExactly("waitingRoomProof", "waitingRoomHuman");
  }

  /** Each visitor without a place asks again; how many got one. */
  private static int placeUnplaced(java.util.List<Visitor> bots) throws Exception {
    int placed = 0;
    for (Visitor bot : bots) {
      if (bot.ticket("wr_shop_q") == null) {
        bot.get("/");
        placed += bot.ticket("wr_shop_q") != null ? 1 : 0;
      }
    }
    return placed;
  }
}
