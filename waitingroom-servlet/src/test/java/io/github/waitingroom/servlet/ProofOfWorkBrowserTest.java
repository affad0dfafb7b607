package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.ProofOfWork;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import io.github.waitingroom.testsupport.Chromium;

/**
 * The proof of work in a real headless Chromium: the challenge page starts the gate's worker
 * under the page's strict Content-Security-Policy, the worker solves, the page sends the proof
 * and lands on the waiting page with a place; without JavaScript the meta refresh gets the place
 * once the penalty is over (the room's {@link ManualClock} moves past it). A screenshot of the
 * challenge page is kept in {@code target/challenge-page.png} ({@code docs/images/challenge-page.png}
 * is a copy).
 *
 * <p>With {@code -Dwaitingroom.powCost=true} it also measures what solving costs: {@link
 * #measure} (see benchmarks/README.md, "Proof of work").
 */
class ProofOfWorkBrowserTest {
  private static final Duration PATIENCE = Duration.ofSeconds(30);
  @RegisterExtension final RoomFixture fixture = new RoomFixture();
  private final ManualClock clock = fixture.clock;
  private @Nullable WaitingRoom room;

  @BeforeEach
  void start() {
    Chromium.assumeInstalled();
  }

  /** A full room behind a filter with a proof of work of {@code bits}. */
  private TestServer fullRoom(int bits, Duration penalty) throws Exception {
    WaitingRoom r = fixture.room(RoomFixture.polledEverySecond());
    room = r;
    TestServer s =
        fixture.serve(
            WaitingRoomFilter.builder(r).ignorePaths("/static/").proofOfWork(bits).challengePenalty(penalty)
                .noScriptPlaces(60));
    assertThat(new Visitor(s).get("/").body()).startsWith("app:");
    return s;
  }

  private static WebDriverWait waitFor(ChromeDriver b) {
    return Chromium.waitFor(b, PATIENCE);
  }

  @Test
  void theWorkerSolvesUnderThePagePolicyAndThePageGetsAPlace(@TempDir Path profile) throws Exception {
    TestServer s = fullRoom(12, Duration.ofMinutes(5));
    ChromeDriver b = fixture.chromium(true, profile);
    b.get(s.uri("/store/checkout").toString());
    // The challenge page, then (the worker solved, the proof was taken) the waiting page.
    waitFor(b).until(d -> Chromium.heading(b).equals("You are in line"));
    assertThat(s.queries).anyMatch(q -> q.equals("waitingRoomStatus=pow-worker.js"));
    assertThat(s.queries).anyMatch(q -> q.contains("waitingRoomProof="));
    Cookie place = b.manage().getCookieNamed("wr_shop_q");
    assertThat(place).as("a place in line").isNotNull();
    assertThat(Objects.requireNonNull(place).isHttpOnly()).isTrue();
    assertThat(b.getCurrentUrl()).isEqualTo(s.uri("/store/checkout").toString());
    // The page polls as any waiting page, and the room counts it.
    waitFor(b).until(d -> s.queries.stream().filter(q -> q.equals("waitingRoomStatus=1")).count() >= 1);
    clock.advance(Duration.ofSeconds(3));
    Objects.requireNonNull(room).sync();
    clock.advance(Duration.ofSeconds(3));
    Objects.requireNonNull(room).sync();
    assertThat(Chromium.heading(b)).isEqualTo("You are in line");
  }

  /**
   * Tagged {@code slow} (-P full): every build runs the no-script path over HTTP ({@code
   * FrictionTest}) and the meta refresh in this Chromium ({@link WaitingPageBrowserTest}).
   */
  @Test
  @Tag("slow")
  void withoutJavaScriptTheMetaRefreshGetsThePlaceOnceThePenaltyIsOver(@TempDir Path profile) throws Exception {
    TestServer s = fullRoom(12, Duration.ofSeconds(2));
    ChromeDriver b = fixture.chromium(false, profile);
    b.get(s.uri("/store").toString());
    assertThat(Chromium.heading(b)).isEqualTo("Checking your browser");
    assertThat(b.manage().getCookieNamed("wr_shop_q")).isNull();
    Path shot = Path.of("target", "challenge-page.png");
    Files.createDirectories(shot.getParent());
    Files.copy(b.getScreenshotAs(org.openqa.selenium.OutputType.FILE).toPath(), shot,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    int before = s.queries.size();
    // The page reloads itself (meta refresh) and stays challenged while the room's clock stands.
    waitFor(b).until(d -> s.queries.size() >= before + 1);
    assertThat(Chromium.heading(b)).isEqualTo("Checking your browser");
    assertThat(b.manage().getCookieNamed("wr_shop_q")).isNull();
    clock.advance(Duration.ofSeconds(2));
    waitFor(b).until(d -> Chromium.heading(b).equals("You are in line"));
    assertThat(b.manage().getCookieNamed("wr_shop_q")).isNotNull();
    assertThat(s.queries).noneMatch(q -> q.contains("waitingRoomProof"));
  }

  /**
   * What solving costs in this Chromium, on this machine and as an emulated mid-range phone (CPU
   * throttled 6 times through the DevTools protocol: an emulation, not a real phone): for each
   * difficulty, {@code waitingroom.powCost.solves} (default 30) challenges solved by the gate's
   * worker, started from a page of the site; the median and 90th percentile of the time in the
   * worker. Written to {@code target/pow-cost.md}. Run with
   * {@code mvn -pl waitingroom-servlet -am verify -Dtest=ProofOfWorkBrowserTest#measure
   * -Dsurefire.failIfNoSpecifiedTests=false -Dwaitingroom.powCost=true}.
   */
  @Test
  void measure(@TempDir Path profile) throws Exception {
    Assumptions.assumeTrue(Boolean.getBoolean("waitingroom.powCost"), "-Dwaitingroom.powCost=true measures");
    int solves = Integer.getInteger("waitingroom.powCost.solves", 30);
    List<Integer> bits = new ArrayList<>();
    for (String b : System.getProperty("waitingroom.powCost.bits", "14,16,18,20").split(",")) {
      bits.add(Integer.parseInt(b.strip()));
    }
    TestServer s = fullRoom(1, Duration.ofMinutes(5));
    ProofOfWork pow = new ProofOfWork(Objects.requireNonNull(room).seal("pow"), 1, ProofOfWork.DEFAULT_TTL_SECONDS);
    ChromeDriver b = fixture.chromium(true, profile);
    b.get(s.uri("/static/blank").toString());
    b.manage().timeouts().scriptTimeout(Duration.ofMinutes(10));
    StringBuilder out = new StringBuilder();
    out.append("| where it runs | difficulty (bits) | expected hashes | median | p90 | max | hashes/s (all solves) |\n");
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    // The gate's worker as the page starts it; then the same code on the page's main thread, with
    // and without the DevTools CPU throttle (which slows the page's thread; how much it slows a
    // dedicated worker is what the second row shows).
    String inWorker =
        "var done = arguments[arguments.length - 1];"
            + "var w = new Worker('/?waitingRoomStatus=pow-worker.js');"
            + "var t0 = performance.now();"
            + "w.onmessage = function (e) { var t = performance.now() - t0; w.terminate();"
            + " done({ nonce: e.data.nonce, hashes: e.data.hashes, ms: Math.round(t) }); };"
            + "w.postMessage({ token: arguments[0], bits: arguments[1] });";
    String onPage =
        "var done = arguments[arguments.length - 1], token = arguments[0], bits = arguments[1];"
            + "var go = function () { var t0 = performance.now(); var r = window.wrSolve(token, bits);"
            + " done({ nonce: r.nonce, hashes: r.hashes, ms: Math.round(performance.now() - t0) }); };"
            + "if (window.wrSolve) { go(); } else {"
            + " fetch('/?waitingRoomStatus=pow-worker.js').then(function (r) { return r.text(); }).then(function (src) {"
            + "  window.wrSolve = new Function('self', src + '; return solve;')({}); go(); }); }";
    record Mode(String name, int rate, String script) {}
    List<Mode> modes = List.of(
        new Mode("desktop: the worker", 1, inWorker),
        new Mode("desktop: the worker, CPU throttle x6", 6, inWorker),
        new Mode("desktop: page thread", 1, onPage),
        new Mode("emulated phone: page thread, CPU throttle x6", 6, onPage));
    for (Mode mode : modes) {
      b.executeCdpCommand("Emulation.setCPUThrottlingRate", Map.of("rate", mode.rate()));
      for (int d : bits) {
        List<Long> ms = new ArrayList<>();
        List<Long> hashes = new ArrayList<>();
        for (int i = 0; i < solves; i++) {
          String token = pow.issue(clock.instant().getEpochSecond());
          @SuppressWarnings("unchecked")
          Map<String, Object> r = (Map<String, Object>) Objects.requireNonNull(b.executeAsyncScript(mode.script(), token, d));
          String nonce = (String) r.get("nonce");
          assertThat(new ProofOfWork(room.seal("pow"), d, 600).verify(token, nonce, clock.instant().getEpochSecond()))
              .as("the nonce solves it").isTrue();
          ms.add(((Number) Objects.requireNonNull(r.get("ms"))).longValue());
          hashes.add(((Number) Objects.requireNonNull(r.get("hashes"))).longValue());
        }
        List<Long> sorted = ms.stream().sorted().toList();
        long median = sorted.get(sorted.size() / 2);
        long p90 = sorted.get((int) Math.ceil(sorted.size() * 0.9) - 1);
        long max = sorted.get(sorted.size() - 1);
        double rateHps = hashes.stream().mapToLong(Long::longValue).sum() * 1000.0
            / Math.max(1, ms.stream().mapToLong(Long::longValue).sum());
        out.append(String.format(Locale.ROOT, "| %s | %d | %,d | %d ms | %d ms | %d ms | %,.0f |%n",
            mode.name(), d, 1L << d, median, p90, max, rateHps));
      }
    }
    b.executeCdpCommand("Emulation.setCPUThrottlingRate", Map.of("rate", 1));
    Path file = Path.of("target", "pow-cost.md");
    Files.writeString(file, out.toString());
    System.out.println(out);
  }
}
