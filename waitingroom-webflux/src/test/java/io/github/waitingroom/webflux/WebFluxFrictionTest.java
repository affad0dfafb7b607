package io.github.waitingroom.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.HumanCheck;
import io.github.waitingroom.http.ProofOfWork;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.netty.resources.LoopResources;

/**
 * Friction through the WebFlux filter on a real Reactor Netty server with one event-loop thread:
 * a proof of work gets a place, and a human check that takes its time never blocks the loop (an
 * admitted visitor is served while it is pending); a flagged client stays in the infinite queue.
 */
class WebFluxFrictionTest {
  private static final Pattern TOKEN = Pattern.compile("var token = \"([A-Za-z0-9_-]+)\"");
  @RegisterExtension final FluxFixture fixture = new FluxFixture();
  private final ManualClock clock = fixture.clock;
  private final WaitingRoom room = fixture.room(FluxFixture.oneSlot("flux", Duration.ofMinutes(5)));
  private final LoopResources loop = fixture.oneThreadLoop("friction");
  private final CompletableFuture<HumanCheck.Verdict> pending = new CompletableFuture<>();

  /** A human check whose verdict comes when the test says so, from another thread. */
  private final HumanCheck slow =
      new HumanCheck() {
        @Override
        public Widget widget() {
          return new Widget("https://captcha.example/api.js", "my-captcha", "key", List.of("https://captcha.example"));
        }

        @Override
        public CompletionStage<Verdict> verify(String token, @Nullable String remoteAddress) {
          return "bot".equals(token) ? CompletableFuture.completedFuture(Verdict.FLAGGED) : pending;
        }

        /** Longer than the test takes: the verdict is the test's to give (the gate waits no longer than this). */
        @Override
        public Duration timeout() {
          return Duration.ofSeconds(30);
        }
      };

  private void start(WaitingRoomWebFilter filter) {
    fixture.start(FluxFixture.APP, filter, loop);
  }

  private CompletableFuture<HttpResponse<String>> get(HttpClient client, String pathAndQuery) {
    HttpRequest r =
        HttpRequest.newBuilder(fixture.uri(pathAndQuery))
            .header("Accept", "text/html")
            .timeout(Duration.ofSeconds(20))
            .build();
    return client.sendAsync(r, HttpResponse.BodyHandlers.ofString());
  }

  private static HttpClient visitor(CookieManager jar) {
    return HttpClient.newBuilder().cookieHandler(jar).build();
  }

  private static @Nullable String cookie(CookieManager jar, String name) {
    for (HttpCookie c : jar.getCookieStore().getCookies()) {
      if (c.getName().equals(name)) {
        return c.getValue();
      }
    }
    return null;
  }

  @Test
  void aProofOfWorkGetsAPlaceAndAPendingHumanCheckNeverBlocksTheEventLoop() throws Exception {
    start(WaitingRoomWebFilter.builder(room).proofOfWork(8).humanCheck(slow).build());
    HttpClient admitted = visitor(new CookieManager());
    assertThat(get(admitted, "/").get(20, TimeUnit.SECONDS).body()).isEqualTo("app");

    CookieManager solverJar = new CookieManager();
    HttpClient solver = visitor(solverJar);
    String page = get(solver, "/").get(20, TimeUnit.SECONDS).body();
    assertThat(page).contains("Checking your browser").contains("class=\"my-captcha\"");
    Matcher m = TOKEN.matcher(page);
    assertThat(m.find()).isTrue();
    String token = m.group(1);
    assertThat(get(solver, "/?waitingRoomStatus=1&waitingRoomProof=" + token + "." + ProofOfWork.solve(token, 8))
            .get(20, TimeUnit.SECONDS).body())
        .contains("\"status\":\"queued\"");
    assertThat(cookie(solverJar, "wr_flux_q")).isNotNull();

    // A newcomer's human check is pending: the one event loop still serves everyone else.
    CookieManager humanJar = new CookieManager();
    HttpClient human = visitor(humanJar);
    get(human, "/").get(20, TimeUnit.SECONDS);
    CompletableFuture<HttpResponse<String>> checking = get(human, "/?waitingRoomStatus=1&waitingRoomHuman=tok");
    for (int i = 0; i < 5; i++) {
      assertThat(get(admitted, "/").get(5, TimeUnit.SECONDS).body()).isEqualTo("app");
    }
    assertThat(checking).isNotDone();
    pending.complete(HumanCheck.Verdict.PASSED);
    assertThat(checking.get(20, TimeUnit.SECONDS).body()).contains("\"status\":\"queued\"");
    assertThat(cookie(humanJar, "wr_flux_q")).isNotNull();

    // Flagged: the infinite queue, whatever the room does.
    CookieManager botJar = new CookieManager();
    HttpClient bot = visitor(botJar);
    get(bot, "/").get(20, TimeUnit.SECONDS);
    assertThat(get(bot, "/?waitingRoomStatus=1&waitingRoomHuman=bot").get(20, TimeUnit.SECONDS).body())
        .contains("\"status\":\"waiting\"");
    assertThat(cookie(botJar, "wr_flux_c")).startsWith("f.");
    clock.advance(Duration.ofMinutes(30));
    room.sync();
    clock.advance(Duration.ofSeconds(2));
    room.sync();
    assertThat(get(bot, "/").get(20, TimeUnit.SECONDS).body()).contains("You are in line");
    assertThat(get(visitor(new CookieManager()), "/").get(20, TimeUnit.SECONDS).body()).isEqualTo("app");
  }

  /**
   * Issue 42: a check that never answers kept the newcomer's request open for as long as it took.
   * Now the answer (a challenge again) comes at the check's timeout, well within the test's bound.
   */
  @Test
  void aCheckThatNeverAnswersFailsAtItsTimeout() throws Exception {
    HumanCheck stuck =
        new HumanCheck() {
          @Override
          public Widget widget() {
            return new Widget("https://captcha.example/api.js", "my-captcha", "key", List.of("https://captcha.example"));
          }

          @Override
          public CompletionStage<Verdict> verify(String token, @Nullable String remoteAddress) {
            return pending;
          }

          @Override
          public Duration timeout() {
            return Duration.ofMillis(200);
          }
        };
    start(WaitingRoomWebFilter.builder(room).humanCheck(stuck).build());
    assertThat(get(visitor(new CookieManager()), "/").get(20, TimeUnit.SECONDS).body()).isEqualTo("app");
    HttpClient newcomer = visitor(new CookieManager());
    get(newcomer, "/").get(20, TimeUnit.SECONDS);
    assertThat(get(newcomer, "/?waitingRoomStatus=1&waitingRoomHuman=tok").get(10, TimeUnit.SECONDS).body())
        .contains("\"status\":\"challenge\"");
    assertThat(pending).isNotDone();
  }
}
