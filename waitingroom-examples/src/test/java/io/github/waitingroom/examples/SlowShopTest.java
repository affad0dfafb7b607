package io.github.waitingroom.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.AdaptiveLimit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The demo's slow shop ({@code --origin-servers N --origin-service-ms S}) on real Jetty and a real
 * port: N requests at once answer in S ms or more, the one after them waits for a server, and the
 * {@code --adaptive-*} flags turn the room's adaptive limit on. Lower bounds only: a busy machine
 * may be slower, never faster.
 */
class SlowShopTest {
  private static final int SERVERS = 2;
  private static final long SERVICE_MS = 300;

  @Test
  void nRequestsAtOnceAnswerInTheServiceTimeAndTheNextWaitsForAServer() throws Exception {
    String[] args = {"--port", "0", "--total", "5", "--per-minute", "5", "--origin-servers", String.valueOf(SERVERS),
        "--origin-service-ms", String.valueOf(SERVICE_MS)};
    ByteArrayOutputStream banner = new ByteArrayOutputStream();
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(args), new PrintStream(banner, true, StandardCharsets.UTF_8))) {
      assertThat(banner.toString(StandardCharsets.UTF_8)).contains("A slow shop: 2 servers of 300 ms per page");
      HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
      URI shop = URI.create("http://127.0.0.1:" + demo.port() + "/");
      // Let the visitor in first (one page, one server), so that every request below is a page of the shop.
      long first = timed(browser, shop).join();
      assertThat(first).isGreaterThanOrEqualTo(SERVICE_MS);
      URI health = URI.create("http://127.0.0.1:" + demo.port() + "/health");
      long start = System.nanoTime();
      browser.send(HttpRequest.newBuilder(health).GET().build(), HttpResponse.BodyHandlers.ofString());
      assertThat((System.nanoTime() - start) / 1_000_000).as("/health skips the slow servers").isLessThan(SERVICE_MS);

      List<CompletableFuture<Long>> pages = new ArrayList<>();
      for (int i = 0; i < SERVERS + 1; i++) {
        pages.add(timed(browser, shop));
      }
      List<Long> millis = pages.stream().map(CompletableFuture::join).sorted().toList();
      assertThat(millis).allSatisfy(ms -> assertThat(ms).isGreaterThanOrEqualTo(SERVICE_MS));
      // N servers for N + 1 requests: the last waits for one of the first N to finish.
      assertThat(millis.get(SERVERS)).isGreaterThanOrEqualTo(2 * SERVICE_MS);
    }
  }

  @Test
  void theAdaptiveFlagsTurnTheLimitOnTogetherAndNameWhatIsMissing() throws Exception {
    String[] args = {"--port", "0", "--total", "10", "--per-minute", "100", "--adaptive-min", "5", "--adaptive-max", "200",
        "--adaptive-latency", "300ms", "--adaptive-step", "0.2", "--dashboard-token", "demo-token-0123456789"};
    ByteArrayOutputStream banner = new ByteArrayOutputStream();
    try (DemoServer demo = DemoServer.start(DemoServer.Cli.parse(args), new PrintStream(banner, true, StandardCharsets.UTF_8))) {
      assertThat(demo.room().config().adaptiveLimit())
          .isEqualTo(AdaptiveLimit.between(5, 200, Duration.ofMillis(300)).withStep(0.2));
      assertThat(banner.toString(StandardCharsets.UTF_8)).contains("an adaptive limit from 10 within [5, 200]");
      // What the load generator's --csv reads from the operator status: the limit in force, active and waiting users.
      HttpResponse<String> data = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + demo.port() + "/waitingroom/dashboard/data"))
              .header("Authorization", "Bearer demo-token-0123456789").GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(data.statusCode()).isEqualTo(200);
      Recorder.RoomLine line = java.util.Objects.requireNonNull(Recorder.parse(data.body()), "the status parses");
      assertThat(line.limit()).isEqualTo(10);
      assertThat(line.activeUsers()).isZero();
      assertThat(line.waitingUsers()).isZero();
    }
    String[] some = {"--port", "0", "--adaptive-min", "5"};
    assertThatThrownBy(() -> DemoServer.start(DemoServer.Cli.parse(some), new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--adaptive-max and --adaptive-latency are missing");
  }

  @Test
  void theScaleNewUsersFlagScalesThemWithTheAdaptiveLimit() {
    String[] on = {"--total", "10", "--per-minute", "5", "--adaptive-min", "5", "--adaptive-max", "200",
        "--adaptive-latency", "300ms", "--adaptive-scale-new-users"};
    assertThat(DemoServer.adaptiveLimit(DemoServer.Cli.parse(on)))
        .isEqualTo(AdaptiveLimit.between(5, 200, Duration.ofMillis(300)).withScaleNewUsersPerMinute(true));
    String[] off = {"--adaptive-min", "5", "--adaptive-max", "200", "--adaptive-latency", "300ms",
        "--adaptive-scale-new-users", "false"};
    assertThat(DemoServer.adaptiveLimit(DemoServer.Cli.parse(off)))
        .isEqualTo(AdaptiveLimit.between(5, 200, Duration.ofMillis(300)));
    String[] unset = {"--adaptive-min", "5", "--adaptive-max", "200", "--adaptive-latency", "300ms"};
    assertThat(DemoServer.adaptiveLimit(DemoServer.Cli.parse(unset)))
        .isEqualTo(AdaptiveLimit.between(5, 200, Duration.ofMillis(300)));
    assertThatThrownBy(() -> DemoServer.adaptiveLimit(DemoServer.Cli.parse("--adaptive-scale-new-users", "--port", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--adaptive-min, --adaptive-max and --adaptive-latency are missing")
        .hasMessageEndingWith("and --adaptive-scale-new-users is given");
  }

  @Test
  void theFailureShareFlagSetsTheShareAboveWhichTheLimitFalls() {
    String[] given = {"--adaptive-min", "5", "--adaptive-max", "200", "--adaptive-latency", "300ms",
        "--adaptive-failure-share", "0.05"};
    assertThat(DemoServer.adaptiveLimit(DemoServer.Cli.parse(given)))
        .isEqualTo(AdaptiveLimit.between(5, 200, Duration.ofMillis(300)).withFailureShare(0.05));
    assertThatThrownBy(() -> DemoServer.adaptiveLimit(DemoServer.Cli.parse("--adaptive-failure-share", "0.05")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith("and --adaptive-failure-share is given");
    String[] outOfRange = {"--adaptive-min", "5", "--adaptive-max", "200", "--adaptive-latency", "300ms",
        "--adaptive-failure-share", "1.5"};
    assertThatThrownBy(() -> DemoServer.adaptiveLimit(DemoServer.Cli.parse(outOfRange)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("failureShare");
  }

  private static CompletableFuture<Long> timed(HttpClient client, URI uri) {
    long start = System.nanoTime();
    return client.sendAsync(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString())
        .thenApply(r -> {
          assertThat(r.body()).contains("<h1>Ticket shop</h1>");
          return (System.nanoTime() - start) / 1_000_000;
        });
  }
}
