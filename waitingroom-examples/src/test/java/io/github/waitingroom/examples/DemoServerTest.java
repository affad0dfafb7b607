package io.github.waitingroom.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.RoomSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo over real HTTP: it starts from flags, prints its URL, queues the visitor after the limit. */
class DemoServerTest {
  private static HttpResponse<String> get(HttpClient client, int port, String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpClient browser() {
    return HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
  }

  @Test
  void startsFromFlagsPrintsItsUrlAndQueuesTheVisitorAfterTheLimit(@TempDir Path dir) throws Exception {
    Path keyset = dir.resolve("room-keyset.json");
    ByteArrayOutputStream banner = new ByteArrayOutputStream();
    String[] args = {"--port", "0", "--total=1", "--per-minute", "1", "--node", "web-1", "--dc", "eu", "--keyset", keyset.toString()};
    HttpClient first = browser();
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(args), new PrintStream(banner, true, StandardCharsets.UTF_8))) {
      String printed = banner.toString(StandardCharsets.UTF_8);
      assertThat(printed).contains("http://localhost:" + demo.port() + "/").contains("Wrote a new ticket keyset to");
      assertThat(Files.readString(keyset)).contains("primaryKeyId");
      assertThat(demo.room().config().totalActiveUsers()).isEqualTo(1);

      HttpResponse<String> shop = get(first, demo.port(), "/");
      assertThat(shop.body()).contains("<h1>Ticket shop</h1>").contains("node <code>web-1</code> (eu)");
      HttpResponse<String> line = get(browser(), demo.port(), "/concert/1");
      assertThat(line.body()).contains("<h1>You are in line</h1>");
      assertThat(get(browser(), demo.port(), "/health").body()).isEqualTo("ok");
    }

    // A second node of the room, started with the same --keyset, opens the tickets the first one sealed.
    ByteArrayOutputStream second = new ByteArrayOutputStream();
    String[] node2 = {"--port", "0", "--total", "1", "--per-minute", "1", "--node", "web-2", "--keyset", keyset.toString()};
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(node2), new PrintStream(second, true, StandardCharsets.UTF_8))) {
      assertThat(second.toString(StandardCharsets.UTF_8)).doesNotContain("Wrote a new ticket keyset").doesNotContain("EPHEMERAL");
      assertThat(get(first, demo.port(), "/").body()).contains("<h1>Ticket shop</h1>");
    }
  }

  @Test
  void withMetricsOnPrometheusScrapesTheRoomsMetersOverHttp() throws Exception {
    ByteArrayOutputStream banner = new ByteArrayOutputStream();
    String[] args = {"--port", "0", "--total", "1", "--per-minute", "1", "--node", "web-1", "--dc", "eu", "--metrics", "/metrics"};
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(args), new PrintStream(banner, true, StandardCharsets.UTF_8))) {
      assertThat(banner.toString(StandardCharsets.UTF_8)).contains("http://localhost:" + demo.port() + "/metrics");
      HttpClient first = browser();
      assertThat(get(first, demo.port(), "/").body()).contains("<h1>Ticket shop</h1>");
      get(first, demo.port(), "/concert/1");
      assertThat(get(browser(), demo.port(), "/").body()).contains("<h1>You are in line</h1>");
      HttpRequest forged = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + demo.port() + "/"))
          .header("Cookie", "wr_ticket-shop=AQAAAAB" + "x".repeat(79) + "w").GET().build();
      browser().send(forged, HttpResponse.BodyHandlers.discarding());

      HttpResponse<String> scrape = get(browser(), demo.port(), "/metrics");
      assertThat(scrape.statusCode()).isEqualTo(200);
      assertThat(scrape.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
      String tags = "dc=\"eu\",node=\"web-1\"";
      assertThat(scrape.body())
          .as("the scrape itself is not decided by the room")
          .contains("waitingroom_decisions_total{" + tags + ",outcome=\"admit\",room=\"ticket-shop\"} 1.0")
          .contains("waitingroom_decisions_total{" + tags + ",outcome=\"pass\",room=\"ticket-shop\"} 1.0")
          .contains("waitingroom_decisions_total{" + tags + ",outcome=\"queue\",room=\"ticket-shop\"} 2.0")
          .contains("waitingroom_arrivals_total{" + tags + ",room=\"ticket-shop\"} 3.0")
          .contains("waitingroom_tickets_rejected_total{" + tags + ",reason=\"foreign\",room=\"ticket-shop\"} 1.0")
          .contains("waitingroom_limit_active_users{" + tags + ",room=\"ticket-shop\"} 1.0")
          .contains("waitingroom_line_time_seconds_count{" + tags + ",room=\"ticket-shop\"} 0")
          .containsPattern("waitingroom_sync_seconds_count\\{" + tags.replace("\"", "\"") + ",room=\"ticket-shop\"} [1-9]");
    }
  }

  @Test
  void withProofOfWorkANewcomerOfAFullRoomSolvesAChallengeBeforeItGetsAPlace() throws Exception {
    String[] args = {"--port", "0", "--total", "1", "--per-minute", "1", "--proof-of-work", "8"};
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(args), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))) {
      assertThat(get(browser(), demo.port(), "/").body()).contains("<h1>Ticket shop</h1>"); // the room is full now
      HttpClient newcomer = browser();
      assertThat(get(newcomer, demo.port(), "/concert/1").body()).contains("<h1>Checking your browser</h1>");
      HttpResponse<String> challenged = newcomer.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + demo.port() + "/concert/1?waitingRoomStatus=1")).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(challenged.body()).contains("\"status\":\"challenge\"").contains("\"difficulty\":8");
      Matcher token = Pattern.compile("\"token\":\"([^\"]+)\"").matcher(challenged.body());
      assertThat(token.find()).isTrue();

      String proof = token.group(1) + "." + solve(token.group(1), 8);
      HttpResponse<String> placed = get(newcomer, demo.port(), "/concert/1?waitingRoomStatus=1&waitingRoomProof=" + proof);
      assertThat(placed.body()).contains("\"status\":\"queued\"");
      assertThat(get(newcomer, demo.port(), "/concert/1").body()).contains("<h1>You are in line</h1>");
    }
  }

  /** A nonce whose SHA-256 after the token's characters starts with {@code bits} zero bits, as the page's worker finds it. */
  private static String solve(String token, int bits) throws Exception {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (long n = 0; ; n++) {
      String nonce = Long.toString(n, 36);
      byte[] h = sha.digest((token + nonce).getBytes(StandardCharsets.US_ASCII));
      if (new BigInteger(1, h).bitLength() <= 256 - bits) {
        return nonce;
      }
    }
  }

  @Test
  void withADashboardTokenItServesTheDashboardOutsideTheRoomAndPrintsItsUrl() throws Exception {
    ByteArrayOutputStream banner = new ByteArrayOutputStream();
    String token = "demo-dashboard-token-0123";
    String[] args = {"--port", "0", "--total", "1", "--per-minute", "1", "--dashboard-token", token};
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(args), new PrintStream(banner, true, StandardCharsets.UTF_8))) {
      assertThat(banner.toString(StandardCharsets.UTF_8)).contains("http://localhost:" + demo.port() + "/waitingroom/dashboard/");
      assertThat(get(browser(), demo.port(), "/").body()).contains("<h1>Ticket shop</h1>"); // the room is full now
      // The next visitor waits in line for the shop, but not for the dashboard.
      HttpClient operator = browser();
      HttpResponse<String> page = get(operator, demo.port(), "/waitingroom/dashboard/");
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).contains("<title>Waiting room dashboard</title>");
      assertThat(get(operator, demo.port(), "/waitingroom/dashboard/data").statusCode()).isEqualTo(401);
      HttpResponse<String> data = operator.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + demo.port() + "/waitingroom/dashboard/data"))
              .header("Authorization", "Bearer " + token).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(data.statusCode()).isEqualTo(200);
      assertThat(data.body()).contains("\"roomId\":\"ticket-shop\"").contains("\"arrivals\":1,");
    }

    // Without the flag there is no dashboard: the path is the shop's like any other.
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(new String[] {"--port", "0"}), new PrintStream(plain, true, StandardCharsets.UTF_8))) {
      assertThat(plain.toString(StandardCharsets.UTF_8)).doesNotContain("dashboard");
      assertThat(get(browser(), demo.port(), "/waitingroom/dashboard/").body())
          .contains("<title>Ticket shop</title>")
          .doesNotContain("Waiting room dashboard");
    }
    String[] weak = {"--port", "0", "--dashboard-token", "too-short"};
    assertThatThrownBy(() -> DemoServer.start(DemoServer.Cli.parse(weak), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--dashboard-token")
        .hasMessageContaining("at least 16 characters")
        .hasMessageNotContaining("too-short");
  }

  private static HttpResponse<String> putSettings(int port, String token, String json) throws Exception {
    return browser().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/waitingroom/dashboard/settings?room=ticket-shop"))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(json))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void withLiveSettingsTheDashboardChangesTheRoomsSettingsAndPrintsHow() throws Exception {
    ByteArrayOutputStream banner = new ByteArrayOutputStream();
    String token = "demo-dashboard-token-0123";
    String[] args = {"--port", "0", "--dashboard-token", token, "--live-settings", "true", "--reject-status", "503"};
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(args), new PrintStream(banner, true, StandardCharsets.UTF_8))) {
      assertThat(banner.toString(StandardCharsets.UTF_8))
          .contains("curl -X PUT -H 'Authorization: Bearer TOKEN' -H 'Content-Type: application/json' -d '{\"suspended\":true}'"
              + " 'http://localhost:" + demo.port() + "/waitingroom/dashboard/settings?room=ticket-shop'");
      HttpResponse<String> changed = putSettings(demo.port(), token, "{\"queueingMethod\":\"reject\"}");
      assertThat(changed.statusCode()).isEqualTo(200);
      assertThat(changed.body()).contains("\"activeFrom\":");
      assertThat(demo.room().latestSettings().queueingMethod().jsonName()).isEqualTo("reject");
      assertThat(putSettings(demo.port(), token, "{\"queueingMethod\":\"lifo\"}").statusCode()).isEqualTo(400);
    }
    // Without the flag the dashboard only reads.
    String[] readOnly = {"--port", "0", "--dashboard-token", token};
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(readOnly), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))) {
      assertThat(putSettings(demo.port(), token, "{\"suspended\":true}").statusCode()).isEqualTo(403);
      assertThat(demo.room().latestSettings().version()).isZero();
    }
    String[] unprotected = {"--port", "0", "--live-settings", "true"};
    assertThatThrownBy(() -> DemoServer.start(DemoServer.Cli.parse(unprotected), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--dashboard-token");
  }

  @Test
  void withoutAKeysetFileItWarnsThatTheKeysetIsEphemeral() throws Exception {
    ByteArrayOutputStream banner = new ByteArrayOutputStream();
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(new String[] {"--port", "0"}), new PrintStream(banner, true, StandardCharsets.UTF_8))) {
      assertThat(banner.toString(StandardCharsets.UTF_8)).contains("WARNING").contains("EPHEMERAL").contains("--keyset");
      assertThat(demo.room().config().totalActiveUsers()).isEqualTo(2);
      assertThat(demo.room().config().sessionDuration().getSeconds()).isEqualTo(30);
    }
  }

  @Test
  void withEventInTheSalePrequeuesWithACountdownAndALottery() throws Exception {
    ByteArrayOutputStream banner = new ByteArrayOutputStream();
    String[] args = {"--port", "0", "--event-in", "120", "--lottery", "true"};
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(args), new PrintStream(banner, true, StandardCharsets.UTF_8))) {
      assertThat(banner.toString(StandardCharsets.UTF_8)).contains("Event 'sale'", "(in 120 s)", "drawn by lottery");
      RoomSettings.Event e = demo.room().latestSettings().events().get(0);
      assertThat(e.name()).isEqualTo("sale");
      assertThat(e.shuffleAtEventStart()).isTrue();
      assertThat(java.time.Duration.between(e.opens(), e.start()).getSeconds()).isEqualTo(120);
      // The change is in force within two sync intervals; then newcomers get the countdown page.
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
      while (!demo.room().eventPrequeueing() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(demo.room().eventPrequeueing()).isTrue();
      HttpResponse<String> page = get(browser(), demo.port(), "/");
      assertThat(page.body()).contains("<h1>The sale opens in</h1>", "drawn by lottery", "data-wr-countdown=");
    }
    String[] lotteryAlone = {"--port", "0", "--lottery", "true"};
    assertThatThrownBy(() -> DemoServer.start(DemoServer.Cli.parse(lotteryAlone), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--event-in");
  }

  @Test
  void withRevokeACheckoutEndsTheSession() throws Exception {
    // One a minute: a copy of the ended ticket arrives anew and must wait, not walk in again.
    String[] args = {"--port", "0", "--revoke", "true", "--total", "1", "--per-minute", "1"};
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(args), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))) {
      HttpClient visitor = browser();
      HttpResponse<String> in = get(visitor, demo.port(), "/");
      assertThat(in.body()).contains("You are in.");
      String session = in.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("wr_ticket-shop="))
          .findFirst().orElseThrow();
      String cookie = session.substring(0, session.indexOf(';'));
      HttpResponse<String> bought = visitor.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + demo.port() + "/checkout"))
              .POST(HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(bought.body()).contains("Your session has ended");
      assertThat(bought.headers().firstValue("X-WaitingRoom-Revoke")).as("the header never reaches the client").isEmpty();
      assertThat(bought.headers().allValues("Set-Cookie")).anyMatch(c -> c.startsWith("wr_ticket-shop=;") && c.contains("Max-Age=0"));
      assertThat(demo.room().metrics().revoked()).isEqualTo(1);
      // A copy of the old cookie is not let in again.
      HttpResponse<String> replay = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + demo.port() + "/")).header("Cookie", cookie).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(replay.body()).doesNotContain("You are in.");
    }
  }

  /**
   * Issue 42: the demo's servlet booked a ticket (and, with --revoke, ended the session) on any
   * method, an {@code OPTIONS} and a CORS preflight included. Now the filter answers preflights and
   * the shop books only on a {@code POST}.
   */
  @Test
  void anOptionsRequestNeverBooks() throws Exception {
    String[] args = {"--port", "0", "--revoke", "true", "--total", "1", "--per-minute", "1"};
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(args), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))) {
      HttpClient visitor = browser();
      assertThat(get(visitor, demo.port(), "/").body()).contains("You are in.");
      URI checkout = URI.create("http://127.0.0.1:" + demo.port() + "/checkout");
      HttpResponse<String> options = visitor.send(
          HttpRequest.newBuilder(checkout).method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(options.statusCode()).isEqualTo(204);
      assertThat(options.body()).doesNotContain("booked");
      HttpResponse<String> preflight = visitor.send(
          HttpRequest.newBuilder(checkout).method("OPTIONS", HttpRequest.BodyPublishers.noBody())
              .header("Origin", "").header("Access-Control-Request-Method", "").build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(preflight.statusCode()).isEqualTo(204);
      HttpResponse<String> stranger = browser().send(
          HttpRequest.newBuilder(checkout).method("OPTIONS", HttpRequest.BodyPublishers.noBody())
              .header("Origin", "https://elsewhere.example").header("Access-Control-Request-Method", "POST").build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(stranger.statusCode()).as("a preflight in a full room").isEqualTo(204);
      assertThat(stranger.body()).isEmpty();
      assertThat(get(visitor, demo.port(), "/checkout").statusCode()).as("a GET does not book either").isEqualTo(405);
      assertThat(demo.room().metrics().revoked()).as("nothing booked, no session ended").isZero();
      assertThat(get(visitor, demo.port(), "/").body()).as("the visitor is still in").contains("You are in.");
    }
  }
}
