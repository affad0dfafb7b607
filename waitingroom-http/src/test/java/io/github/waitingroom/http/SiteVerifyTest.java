package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The siteverify client against a local service on a real port (the JDK's HTTP server) that
 * misbehaves as issue 42 found: it drips its answer, sends an endless body, or is asked again and
 * again about the same junk token. No assertion reads a clock: a verdict that does not come is
 * caught by a generous bound on the test's own wait (10 s against a drip of a minute).
 */
class SiteVerifyTest {
  private static final String PASS = "{\"success\":true}";
  private static final String FAIL = "{\"success\":false,\"error-codes\":[\"invalid-input-response\"]}";

  private @Nullable HttpServer server;
  private final AtomicInteger asked = new AtomicInteger();
  private final Map<String, AtomicInteger> askedFor = new ConcurrentHashMap<>();
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void stop() {
    release.countDown();
    HttpServer s = server;
    if (s != null) {
      s.stop(0);
    }
  }

  private interface Answer {
    void write(HttpExchange exchange, String token) throws IOException, InterruptedException;
  }

  /** A local siteverify at {@code http://127.0.0.1:<port>/siteverify} that answers with {@code answer}. */
  private SiteVerify service(Answer answer, Duration timeout) throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    s.setExecutor(Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "siteverify-mimic");
      t.setDaemon(true);
      return t;
    }));
    s.createContext("/siteverify", exchange -> {
      String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String token = "";
      for (String pair : form.split("&")) {
        if (pair.startsWith("response=")) {
          token = URLDecoder.decode(pair.substring(9), StandardCharsets.UTF_8);
        }
      }
      asked.incrementAndGet();
      askedFor.computeIfAbsent(token, k -> new AtomicInteger()).incrementAndGet();
      try {
        answer.write(exchange, token);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (IOException e) {
        // the client hung up: what a bounded client does
      } finally {
        exchange.close();
      }
    });
    s.start();
    server = s;
    return SiteVerify.turnstile("site-key", "s3cret")
        .verifyUrl("http://127.0.0.1:" + s.getAddress().getPort() + "/siteverify")
        .timeout(timeout);
  }

  private static void json(HttpExchange exchange, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, b.length);
    exchange.getResponseBody().write(b);
  }

  private static HumanCheck.Verdict verdict(SiteVerify check, String token) throws Exception {
    return check.verify(token, "192.0.2.1").toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void theTimeoutBoundsTheWholeExchangeWhenTheServiceDripsItsBody() throws Exception {
    // Headers at once, then a byte every 100 ms for a minute: each read is quick, the answer is not.
    SiteVerify check = service((exchange, token) -> {
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      String body = "{\"success\":true" + " ".repeat(600) + "}";
      for (int i = 0; i < body.length(); i++) {
        out.write(body.charAt(i));
        out.flush();
        if (release.await(100, TimeUnit.MILLISECONDS)) {
          return;
        }
      }
    }, Duration.ofMillis(300));
    assertThat(check.timeout()).isEqualTo(Duration.ofMillis(300));
    assertThat(verdict(check, "drip")).isEqualTo(HumanCheck.Verdict.FAILED);
  }

  @Test
  void aLongAnswerIsCutOffAndFails() throws Exception {
    // A "success" padded to a megabyte, with and without Content-Length.
    String huge = "{\"success\":true,\"pad\":\"" + "x".repeat(1 << 20) + "\"}";
    SiteVerify check = service((exchange, token) -> {
      if (token.equals("chunked")) {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        exchange.getResponseBody().write(huge.getBytes(StandardCharsets.UTF_8));
      } else if (token.equals("small")) {
        json(exchange, PASS);
      } else {
        json(exchange, huge);
      }
    }, Duration.ofSeconds(5));
    assertThat(verdict(check, "chunked")).isEqualTo(HumanCheck.Verdict.FAILED);
    assertThat(verdict(check, "sized")).isEqualTo(HumanCheck.Verdict.FAILED);
    assertThat(verdict(check, "small")).as("an answer of ordinary size still passes").isEqualTo(HumanCheck.Verdict.PASSED);
  }

  @Test
  void aTokenIsAskedOnceAndAPassIsGivenOnce() throws Exception {
    SiteVerify check = service((exchange, token) -> json(exchange, token.equals("good") ? PASS : FAIL), Duration.ofSeconds(5));
    for (int i = 0; i < 50; i++) {
      assertThat(verdict(check, "junk")).isEqualTo(HumanCheck.Verdict.FAILED);
    }
    assertThat(askedFor.get("junk")).as("the same junk token, asked once").hasValue(1);
    assertThat(verdict(check, "good")).isEqualTo(HumanCheck.Verdict.PASSED);
    for (int i = 0; i < 5; i++) {
      assertThat(verdict(check, "good")).as("a copied token gets no second pass").isEqualTo(HumanCheck.Verdict.FAILED);
    }
    assertThat(askedFor.get("good")).hasValue(1);
    assertThat(asked).hasValue(2);
  }

  @Test
  void aTokenWithoutAnAnswerMayBeAskedAgain() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    SiteVerify check = service((exchange, token) -> {
      if (calls.incrementAndGet() == 1) {
        exchange.sendResponseHeaders(503, -1);
      } else {
        json(exchange, PASS);
      }
    }, Duration.ofSeconds(5));
    assertThat(verdict(check, "retry")).as("the service was down").isEqualTo(HumanCheck.Verdict.FAILED);
    assertThat(verdict(check, "retry")).as("no verdict was kept for it").isEqualTo(HumanCheck.Verdict.PASSED);
  }

  @Test
  void aVerdictIsKeptForTheLifeOfATokenAndNoLonger() throws Exception {
    AtomicLong nanos = new AtomicLong();
    SiteVerify check = service((exchange, token) -> json(exchange, FAIL), Duration.ofSeconds(5))
        .limits(new SiteVerify.Limits(SiteVerify.CACHE_SIZE, SiteVerify.MAX_IN_FLIGHT, nanos::get));
    assertThat(verdict(check, "junk")).isEqualTo(HumanCheck.Verdict.FAILED);
    nanos.addAndGet(TimeUnit.SECONDS.toNanos(SiteVerify.CACHE_SECONDS));
    assertThat(verdict(check, "junk")).isEqualTo(HumanCheck.Verdict.FAILED);
    assertThat(askedFor.get("junk")).as("within the life of a token, not asked again").hasValue(1);
    nanos.addAndGet(1);
    assertThat(verdict(check, "junk")).isEqualTo(HumanCheck.Verdict.FAILED);
    assertThat(askedFor.get("junk")).as("once its life is over, asked again").hasValue(2);
  }

  @Test
  void theCacheKeepsTwoGenerationsAtMost() throws Exception {
    AtomicLong nanos = new AtomicLong();
    SiteVerify check = service((exchange, token) -> json(exchange, FAIL), Duration.ofSeconds(5))
        .limits(new SiteVerify.Limits(4, SiteVerify.MAX_IN_FLIGHT, nanos::get));
    for (int i = 0; i < 40; i++) {
      assertThat(verdict(check, "junk-" + i)).isEqualTo(HumanCheck.Verdict.FAILED);
      assertThat(check.cached()).as("after %d tokens", i + 1).isLessThanOrEqualTo(8);
    }
    assertThat(verdict(check, "junk-39")).isEqualTo(HumanCheck.Verdict.FAILED);
    assertThat(askedFor.get("junk-39")).as("a token of the current generation is kept").hasValue(1);
    assertThat(verdict(check, "junk-0")).isEqualTo(HumanCheck.Verdict.FAILED);
    assertThat(askedFor.get("junk-0")).as("a token two generations old is dropped, and asked again").hasValue(2);
    assertThat(asked).hasValue(41);
  }

  @Test
  void theTimeoutBoundsAServiceThatNeverAnswers() throws Exception {
    // The connection is taken and the form read, but no status line ever comes.
    SiteVerify check = service((exchange, token) -> release.await(60, TimeUnit.SECONDS), Duration.ofMillis(300));
    assertThat(verdict(check, "silence")).isEqualTo(HumanCheck.Verdict.FAILED);
    assertThat(asked).hasValue(1);
  }

  @Test
  void questionsBeyondTheLimitFailUnaskedAndMayBeAskedLater() throws Exception {
    CountDownLatch answer = new CountDownLatch(1);
    SiteVerify check = service((exchange, token) -> {
      if (!token.equals("later")) {
        answer.await(10, TimeUnit.SECONDS);
      }
      json(exchange, PASS);
    }, Duration.ofSeconds(5)).limits(new SiteVerify.Limits(SiteVerify.CACHE_SIZE, 2, System::nanoTime));
    var first = check.verify("first", null).toCompletableFuture();
    var second = check.verify("second", null).toCompletableFuture();
    assertThat(verdict(check, "later")).as("a third question while two are in flight").isEqualTo(HumanCheck.Verdict.FAILED);
    answer.countDown();
    assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(HumanCheck.Verdict.PASSED);
    assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(HumanCheck.Verdict.PASSED);
    assertThat(askedFor.get("later")).as("failed unasked").isNull();
    assertThat(verdict(check, "later")).as("and not kept: asked once there is room").isEqualTo(HumanCheck.Verdict.PASSED);
    assertThat(askedFor.get("later")).hasValue(1);
  }

  @Test
  void plainHttpOnlyToALoopbackAddress() {
    SiteVerify t = SiteVerify.turnstile("site-key", "s3cret");
    for (String url : new String[] {"http://challenges.cloudflare.com/turnstile/v0/siteverify", "http://10.0.0.1/siteverify",
        "http://example.com/siteverify", "HTTP://192.0.2.1/x", "ftp://127.0.0.1/x", "http:///nohost", "//127.0.0.1/x",
        "http://127.0.0.1.example.com/x"}) {
      assertThatThrownBy(() -> t.verifyUrl(url)).as(url).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("https://");
    }
    for (String url : new String[] {"https://example.com/siteverify", "http://127.0.0.1:8080/siteverify",
        "http://localhost/siteverify", "http://[::1]:9000/siteverify", "http://127.1.2.3/siteverify"}) {
      assertThat(t.verifyUrl(url)).as(url).isNotNull();
    }
  }
}
