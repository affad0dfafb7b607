package io.github.waitingroom.http;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
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
 * HumanCheck.Verdict#FAILED failed}. Asynchronous ({@link java.net.http.HttpClient#sendAsync}).
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
  private final VerifyExchange exchange;
  private final Limits limits;
  private final VerdictCache verdicts;
  private final AtomicInteger inFlight = new AtomicInteger();

  /**
   * The bounds of the cache and of the questions in flight, and the clock of the cache: {@link
   * #DEFAULT} but in tests.
   */
  record Limits(int cacheSize, int maxInFlight, LongSupplier nanos) {
    static final Limits DEFAULT = new Limits(CACHE_SIZE, MAX_IN_FLIGHT, System::nanoTime);
  }

  private SiteVerify(Widget widget, VerifyExchange exchange, Limits limits) {
    this.widget = widget;
    this.exchange = exchange;
    this.limits = limits;
    this.verdicts = new VerdictCache(limits.cacheSize(), TimeUnit.SECONDS.toNanos(CACHE_SECONDS), limits.nanos());
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
    URI u = checked(verifyUrl);
    if (secretKey.isBlank()) {
      throw new IllegalArgumentException("humanCheck secretKey must not be blank");
    }
    return new SiteVerify(widget, new VerifyExchange(u, secretKey, HumanCheck.DEFAULT_TIMEOUT), Limits.DEFAULT);
  }

  /** A verify URL, checked: {@code https://}, or {@code http://} to a loopback address. */
  private static URI checked(String verifyUrl) {
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
    return u;
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
    String p = provider.trim().toLowerCase(Locale.ROOT);
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
    return new SiteVerify(widget, exchange.at(checked(url)), limits);
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
    return new SiteVerify(widget, exchange.within(t), limits);
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
    return new SiteVerify(widget, exchange.flaggingBelow(score), limits);
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
    return exchange.timeout();
  }

  /** The same check with other limits (and clock), for tests. */
  SiteVerify limits(Limits l) {
    return new SiteVerify(widget, exchange, l);
  }

  /**
   * Asks the service about a token, once per token (see the class comment): the verdict of a
   * token asked before is the one it got then, except that a pass is given out once only.
   * Completes within {@link #timeout()}, with {@link Verdict#FAILED} when the service has not
   * answered by then.
   */
  @Override
  public CompletionStage<Verdict> verify(String token, @Nullable String remoteAddress) {
    String key = VerdictCache.key(token);
    VerdictCache.Asked fresh = verdicts.fresh();
    VerdictCache.Asked a = verdicts.claim(key, fresh);
    if (a == fresh) {
      if (inFlight.incrementAndGet() > limits.maxInFlight()) {
        inFlight.decrementAndGet();
        verdicts.forget(key, fresh);
        log.warn("human check at {}: {} questions in flight already, this one failed unasked",
            exchange.verifyUrl(), limits.maxInFlight());
        fresh.verdict().complete(Verdict.FAILED);
      } else {
        exchange.ask(token, remoteAddress).whenComplete((v, e) -> {
          inFlight.decrementAndGet();
          if (e != null || v == null) {
            verdicts.forget(key, fresh);
          }
          fresh.verdict().complete(e != null || v == null ? Verdict.FAILED : v);
        });
      }
    }
    AtomicBoolean given = a.passGiven();
    return a.verdict().thenApply(v -> v != Verdict.PASSED || given.compareAndSet(false, true) ? v : Verdict.FAILED);
  }

  /** The number of tokens whose verdicts are kept, for tests. */
  int cached() {
    return verdicts.size();
  }
}
