package io.github.waitingroom.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link HumanCheck} for the {@code siteverify} protocol that Cloudflare Turnstile, hCaptcha and
 * Google reCAPTCHA share: a form POST of {@code secret}, {@code response} (the widget's token) and
 * {@code remoteip} to the service's verify URL, answered with JSON whose {@code success} says
 * whether the token was good. A token that is good but carries a {@code score} (reCAPTCHA v3,
 * hCaptcha Enterprise) below {@link #flagBelow} is {@link HumanCheck.Verdict#FLAGGED flagged}; a
 * bad token, an error status, a timeout or an answer that does not parse is {@link
 * HumanCheck.Verdict#FAILED failed}. Asynchronous ({@link HttpClient#sendAsync}).
 *
 * <p>Hardened against a slow, hostile or overloaded service and against clients that send junk:
 *
 * <ul>
 *   <li>the {@linkplain #timeout timeout} bounds the whole exchange, connecting, headers and body:
 *       the verdict is {@link HumanCheck.Verdict#FAILED FAILED} once it is over, however slowly the
 *       service drips its answer, and {@link #timeout()} tells the {@link Gate} how long it may wait;
 *   <li>an answer longer than {@value #MAX_BODY_BYTES} bytes is cut off and fails;
 *   <li>verdicts are kept per token for {@value #CACHE_SECONDS} s (at most {@value #CACHE_SIZE}
 *       tokens a generation, two generations): the same token is asked of the service once,
 *       however often it is sent, and a token that passed passes once only (a service also
 *       refuses a token the second time), so a copied token gets no second place;
 *   <li>at most {@value #MAX_IN_FLIGHT} questions are in flight at once; a token beyond fails
 *       unasked;
 *   <li>the verify URL is {@code https://}; plain {@code http://} only to a loopback address, for a
 *       local mimic in tests.
 * </ul>
 *
 * <pre>{@code
 * HumanCheck turnstile = SiteVerify.turnstile(siteKey, secretKey);
 * Gate.builder(room).humanCheck(turnstile)...
 * }</pre>
 */
public final class SiteVerify implements HumanCheck {
  private static final Logger log = LoggerFactory.getLogger(SiteVerify.class);
  private static final JsonFactory JSON = new JsonFactory();

  /** Cloudflare Turnstile's verify URL. */
  public static final String TURNSTILE_VERIFY = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
  /** hCaptcha's verify URL. */
  public static final String HCAPTCHA_VERIFY = "https://api.hcaptcha.com/siteverify";
  /** Google reCAPTCHA's verify URL. */
  public static final String RECAPTCHA_VERIFY = "https://www.google.com/recaptcha/api/siteverify";

  /** The longest answer read from the service; longer ones fail. */
  public static final int MAX_BODY_BYTES = 16 * 1024;

  /** How long a verdict is kept per token (about the life of a widget's token at the services). */
  public static final long CACHE_SECONDS = 300;

  /** The most tokens one generation of the verdict cache holds. */
  public static final int CACHE_SIZE = 50_000;

  /**
   * The most questions to the service at once; a token beyond fails unasked (and uncached), so a
   * flood of junk tokens costs the service, and this node, a bounded number of connections.
   */
  public static final int MAX_IN_FLIGHT = 256;

  private final Widget widget;
  private final String secret;
  private final URI verifyUrl;
  private final Duration timeout;
  private final double flagBelow;
  private final HttpClient client;
  private final Verdicts verdicts = new Verdicts();
  private final AtomicInteger inFlight = new AtomicInteger();

  private SiteVerify(Widget widget, String secret, URI verifyUrl, Duration timeout, double flagBelow, HttpClient client) {
    this.widget = widget;
    this.secret = secret;
    this.verifyUrl = verifyUrl;
    this.timeout = timeout;
    this.flagBelow = flagBelow;
    this.client = client;
  }

  /** A verdict asked for one token: the service's answer, and whether a pass was given out. */
  private record Asked(CompletableFuture<Verdict> verdict, AtomicBoolean passGiven, long born) {}

  /**
   * The verdicts of the last {@value #CACHE_SECONDS} to {@code 2 *} {@value #CACHE_SECONDS}
   * seconds, in two generations: lookups see both, new tokens go to the current one, which turns
   * over when it is full or old. Bounded, and no lock on a lookup.
   */
  private static final class Verdicts {
    private volatile ConcurrentHashMap<String, Asked> current = new ConcurrentHashMap<>();
    private volatile ConcurrentHashMap<String, Asked> previous = new ConcurrentHashMap<>();
    private volatile long currentBorn = System.nanoTime();
    private final AtomicInteger size = new AtomicInteger();

    @Nullable Asked find(String token) {
      Asked a = current.get(token);
      return a != null ? a : previous.get(token);
    }

    /** The entry for a token: the one kept, or {@code fresh}, now kept. */
    Asked keep(String token, Asked fresh, long now) {
      if (size.get() >= CACHE_SIZE || now - currentBorn > TimeUnit.SECONDS.toNanos(CACHE_SECONDS)) {
        synchronized (this) {
          if (size.get() >= CACHE_SIZE || now - currentBorn > TimeUnit.SECONDS.toNanos(CACHE_SECONDS)) {
            previous = current;
            current = new ConcurrentHashMap<>();
            currentBorn = now;
            size.set(0);
          }
        }
      }
      ConcurrentHashMap<String, Asked> c = current;
      Asked there = c.putIfAbsent(token, fresh);
      if (there == null) {
        size.incrementAndGet();
        return fresh;
      }
      if (now - there.born() > TimeUnit.SECONDS.toNanos(CACHE_SECONDS) && c.replace(token, there, fresh)) {
        return fresh;
      }
      Asked kept = c.get(token);
      return kept != null ? kept : fresh;
    }

    /** Forgets a token whose service gave no verdict (no answer in time, an error), so that it may be asked again. */
    void forget(String token, Asked asked) {
      current.remove(token, asked);
      previous.remove(token, asked);
    }
  }

  /**
   * A siteverify service with its widget and verify URL.
   *
   * @param widget what the page shows
   * @param secretKey the site's secret key for the service (never sent to the browser)
   * @param verifyUrl the service's verify URL: {@code https://}, or {@code http://} to a loopback
   *     address ({@code 127.0.0.1}, {@code ::1}, {@code localhost}) for a local mimic in tests
   * @return the check, with a 5-second timeout and no score threshold
   * @throws IllegalArgumentException for any other URL
   */
  public static SiteVerify of(Widget widget, String secretKey, String verifyUrl) {
    Objects.requireNonNull(widget, "widget");
    Objects.requireNonNull(secretKey, "secretKey");
    URI u;
    try {
      u = URI.create(Objects.requireNonNull(verifyUrl, "verifyUrl"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("humanCheck verifyUrl must be an https:// URL but was '" + verifyUrl + "'", e);
    }
    boolean https = "https".equalsIgnoreCase(u.getScheme()) && u.getHost() != null;
    if (!https && !("http".equalsIgnoreCase(u.getScheme()) && loopback(u.getHost()))) {
      throw new IllegalArgumentException("humanCheck verifyUrl must be an https:// URL (http:// only to a loopback"
          + " address, for a local mimic in tests) but was '" + verifyUrl + "'");
    }
    if (secretKey.isBlank()) {
      throw new IllegalArgumentException("humanCheck secretKey must not be blank");
    }
    Duration timeout = Duration.ofSeconds(5);
    return new SiteVerify(widget, secretKey, u, timeout, 0,
        HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build());
  }

  /** Whether a URL's host is a loopback address, by its literal form (no name is looked up but {@code localhost}). */
  static boolean loopback(@Nullable String host) {
    if (host == null) {
      return false;
    }
    String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    if (h.equalsIgnoreCase("localhost")) {
      return true;
    }
    if (!h.matches("[0-9.]+|[0-9A-Fa-f:]+")) {
      return false; // a name: never looked up, so never loopback
    }
    try {
      return InetAddress.getByName(h).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /**
   * The service of a name, for configuration: {@code turnstile}, {@code hcaptcha} or {@code
   * recaptcha}, in any case.
   *
   * @param provider the service's name
   * @param siteKey the site key
   * @param secretKey the secret key
   * @return the check
   * @throws IllegalArgumentException for another name (which is not shown: it may be a key pasted
   *     in the wrong place)
   */
  public static SiteVerify of(String provider, String siteKey, String secretKey) {
    return switch (provider(provider)) {
      case "turnstile" -> turnstile(siteKey, secretKey);
      case "hcaptcha" -> hcaptcha(siteKey, secretKey);
      default -> recaptcha(siteKey, secretKey);
    };
  }

  /**
   * A service's name as {@link #of} takes it, checked: for configuration that checks the name
   * before it reads the keys.
   *
   * @param provider {@code turnstile}, {@code hcaptcha} or {@code recaptcha}, in any case
   * @return the name in lower case
   * @throws IllegalArgumentException for another name
   */
  public static String provider(String provider) {
    String p = provider.trim().toLowerCase(java.util.Locale.ROOT);
    if (!p.equals("turnstile") && !p.equals("hcaptcha") && !p.equals("recaptcha")) {
      throw new IllegalArgumentException(
          "humanCheck must be turnstile, hcaptcha or recaptcha but was " + Keysets.shown(provider));
    }
    return p;
  }

  /**
   * Cloudflare Turnstile.
   *
   * @param siteKey the site key
   * @param secretKey the secret key
   * @return the check
   */
  public static SiteVerify turnstile(String siteKey, String secretKey) {
    return of(
        new Widget("https://challenges.cloudflare.com/turnstile/v0/api.js", "cf-turnstile", siteKey,
            List.of("https://challenges.cloudflare.com")),
        secretKey, TURNSTILE_VERIFY);
  }

  /**
   * hCaptcha.
   *
   * @param siteKey the site key
   * @param secretKey the secret key
   * @return the check
   */
  public static SiteVerify hcaptcha(String siteKey, String secretKey) {
    return of(
        new Widget("https://js.hcaptcha.com/1/api.js", "h-captcha", siteKey,
            List.of("https://hcaptcha.com", "https://*.hcaptcha.com")),
        secretKey, HCAPTCHA_VERIFY);
  }

  /**
   * Google reCAPTCHA v2 (the checkbox or invisible widget).
   *
   * @param siteKey the site key
   * @param secretKey the secret key
   * @return the check
   */
  public static SiteVerify recaptcha(String siteKey, String secretKey) {
    return of(
        new Widget("https://www.google.com/recaptcha/api.js", "g-recaptcha", siteKey,
            List.of("https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/",
                "https://recaptcha.google.com/recaptcha/")),
        secretKey, RECAPTCHA_VERIFY);
  }

  /**
   * The same service asked at another verify URL: a proxy, or a local mimic in tests.
   *
   * @param url the verify URL
   * @return a new check
   */
  public SiteVerify verifyUrl(String url) {
    SiteVerify s = of(widget, secret, url);
    return new SiteVerify(widget, secret, s.verifyUrl, timeout, flagBelow, client);
  }

  /**
   * How long to wait for the service: the whole exchange, from connecting to the last byte of the
   * answer. Default: 5 seconds.
   *
   * @param t the timeout, 100 ms to 30 s
   * @return a new check
   */
  public SiteVerify timeout(Duration t) {
    if (t.compareTo(Duration.ofMillis(100)) < 0 || t.compareTo(Duration.ofSeconds(30)) > 0) {
      throw new IllegalArgumentException("humanCheck timeout must be 100 ms to 30 s but was " + t);
    }
    return new SiteVerify(widget, secret, verifyUrl, t, flagBelow,
        HttpClient.newBuilder().connectTimeout(t).followRedirects(HttpClient.Redirect.NEVER).build());
  }

  /**
   * Flags (sends to the infinite queue) a client whose good token carries a {@code score} below
   * this (reCAPTCHA v3 and hCaptcha Enterprise score 0.0, a bot, to 1.0, a person). Default: 0,
   * flag none.
   *
   * @param score 0 to 1
   * @return a new check
   */
  public SiteVerify flagBelow(double score) {
    if (!(score >= 0 && score <= 1)) {
      throw new IllegalArgumentException("humanCheck flagBelow must be 0 to 1 but was " + score);
    }
    return new SiteVerify(widget, secret, verifyUrl, timeout, score, client);
  }

  @Override
  public Widget widget() {
    return widget;
  }

  /**
   * How long a verdict may take: {@link #verify} completes within it, and the {@link Gate} waits no
   * longer on a request thread.
   *
   * @return the timeout
   */
  @Override
  public Duration timeout() {
    return timeout;
  }

  /**
   * Asks the service about a token, once per token (see the class comment): the verdict of a
   * token asked before is the one it got then, except that a pass is given out once only.
   * Completes within {@link #timeout()}, with {@link Verdict#FAILED} when the service has not
   * answered by then.
   */
  @Override
  public CompletionStage<Verdict> verify(String token, @Nullable String remoteAddress) {
    long now = System.nanoTime();
    // Kept under the token's digest: a flood of long junk tokens costs the cache 44 characters each.
    String key = key(token);
    Asked a = verdicts.find(key);
    if (a == null || now - a.born() > TimeUnit.SECONDS.toNanos(CACHE_SECONDS)) {
      Asked fresh = new Asked(new CompletableFuture<>(), new AtomicBoolean(), now);
      a = verdicts.keep(key, fresh, now);
      if (a == fresh) {
        if (inFlight.incrementAndGet() > MAX_IN_FLIGHT) {
          inFlight.decrementAndGet();
          verdicts.forget(key, fresh);
          log.warn("human check at {}: {} questions in flight already, this one failed unasked", verifyUrl, MAX_IN_FLIGHT);
          fresh.verdict().complete(Verdict.FAILED);
        } else {
          ask(token, remoteAddress).whenComplete((v, e) -> {
            inFlight.decrementAndGet();
            if (e != null || v == null) {
              verdicts.forget(key, fresh);
            }
            fresh.verdict().complete(e != null || v == null ? Verdict.FAILED : v);
          });
        }
      }
    }
    AtomicBoolean given = a.passGiven();
    return a.verdict().thenApply(v -> v != Verdict.PASSED || given.compareAndSet(false, true) ? v : Verdict.FAILED);
  }

  /** The cache's key of a token: its SHA-256, base64. */
  private static String key(String token) {
    try {
      byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
      return java.util.Base64.getEncoder().encodeToString(d);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /**
   * One request to the service, completed within the timeout: the verdict of its answer, or {@code
   * null} when there was none to read (no answer in time, an error status, a body too long).
   */
  private CompletableFuture<@Nullable Verdict> ask(String token, @Nullable String remoteAddress) {
    StringBuilder form = new StringBuilder(token.length() + secret.length() + 64);
    form.append("secret=").append(URLEncoder.encode(secret, StandardCharsets.UTF_8));
    form.append("&response=").append(URLEncoder.encode(token, StandardCharsets.UTF_8));
    if (remoteAddress != null) {
      form.append("&remoteip=").append(URLEncoder.encode(remoteAddress, StandardCharsets.UTF_8));
    }
    HttpRequest request =
        HttpRequest.newBuilder(verifyUrl)
            .timeout(timeout)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(form.toString()))
            .build();
    CompletableFuture<HttpResponse<Optional<String>>> sent;
    try {
      sent = client.sendAsync(request, bounded());
    } catch (RuntimeException e) {
      log.warn("human check at {} could not be asked: {}", verifyUrl, e.toString());
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<@Nullable Verdict> verdict =
        sent.handle(
            (response, failure) -> {
              if (failure != null) {
                log.warn("human check at {} did not answer: {}", verifyUrl, failure.toString());
                return null;
              }
              if (response.statusCode() != 200) {
                log.warn("human check at {} answered HTTP {}", verifyUrl, response.statusCode());
                return null;
              }
              Optional<String> body = response.body();
              if (body.isEmpty()) {
                log.warn("human check at {} answered more than {} bytes", verifyUrl, MAX_BODY_BYTES);
                return null;
              }
              return verdict(body.get(), flagBelow);
            });
    // The request's own timeout ends with the response's headers; this one ends the whole exchange.
    CompletableFuture<@Nullable Verdict> bounded = new CompletableFuture<>();
    verdict.whenComplete((v, e) -> bounded.complete(e != null ? null : v));
    bounded.completeOnTimeout(null, timeout.toNanos(), TimeUnit.NANOSECONDS)
        .whenComplete((v, e) -> {
          if (!sent.isDone()) {
            log.warn("human check at {} did not answer within {}", verifyUrl, timeout);
            sent.cancel(true);
          }
        });
    return bounded;
  }

  /** Reads at most {@value #MAX_BODY_BYTES} bytes of the answer: empty when it is longer. */
  private static HttpResponse.BodyHandler<Optional<String>> bounded() {
    return info -> {
      long length = info.headers().firstValueAsLong("Content-Length").orElse(-1);
      if (length > MAX_BODY_BYTES) {
        return HttpResponse.BodySubscribers.replacing(Optional.empty());
      }
      return new BoundedBody();
    };
  }

  /** A body subscriber that keeps up to {@value #MAX_BODY_BYTES} bytes and cancels beyond. */
  private static final class BoundedBody implements HttpResponse.BodySubscriber<Optional<String>> {
    private final CompletableFuture<Optional<String>> result = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
    private Flow.@Nullable Subscription subscription;

    @Override
    public CompletionStage<Optional<String>> getBody() {
      return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      if (result.isDone()) {
        return;
      }
      for (ByteBuffer b : items) {
        if (bytes.size() + b.remaining() > MAX_BODY_BYTES) {
          result.complete(Optional.empty());
          Flow.Subscription s = subscription;
          if (s != null) {
            s.cancel();
          }
          return;
        }
        byte[] chunk = new byte[b.remaining()];
        b.get(chunk);
        bytes.write(chunk, 0, chunk.length);
      }
    }

    @Override
    public void onError(Throwable t) {
      result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
      result.complete(Optional.of(bytes.toString(StandardCharsets.UTF_8)));
    }
  }

  /** The verdict of a siteverify answer: {@code success}, and {@code score} against the threshold. */
  static Verdict verdict(String body, double flagBelow) {
    Boolean success = null;
    double score = Double.NaN;
    try (JsonParser p = JSON.createParser(body)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return Verdict.FAILED;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        if ("success".equals(name) && (v == JsonToken.VALUE_TRUE || v == JsonToken.VALUE_FALSE)) {
          success = v == JsonToken.VALUE_TRUE;
        } else if ("score".equals(name) && v.isNumeric()) {
          score = p.getDoubleValue();
        } else {
          p.skipChildren();
        }
      }
    } catch (IOException e) {
      return Verdict.FAILED;
    }
    if (!Boolean.TRUE.equals(success)) {
      return Verdict.FAILED;
    }
    return !Double.isNaN(score) && score < flagBelow ? Verdict.FLAGGED : Verdict.PASSED;
  }
}
