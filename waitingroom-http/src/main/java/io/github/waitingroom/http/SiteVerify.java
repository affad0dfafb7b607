package io.github.waitingroom.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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
 * HumanCheck.Verdict#FAILED failed}. Asynchronous ({@link HttpClient#sendAsync}), with a timeout.
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

  private final Widget widget;
  private final String secret;
  private final URI verifyUrl;
  private final Duration timeout;
  private final double flagBelow;
  private final HttpClient client;

  private SiteVerify(Widget widget, String secret, URI verifyUrl, Duration timeout, double flagBelow, HttpClient client) {
    this.widget = widget;
    this.secret = secret;
    this.verifyUrl = verifyUrl;
    this.timeout = timeout;
    this.flagBelow = flagBelow;
    this.client = client;
  }

  /**
   * A siteverify service with its widget and verify URL.
   *
   * @param widget what the page shows
   * @param secretKey the site's secret key for the service (never sent to the browser)
   * @param verifyUrl the service's verify URL ({@code http://} only for tests against a local mimic)
   * @return the check, with a 5-second timeout and no score threshold
   */
  public static SiteVerify of(Widget widget, String secretKey, String verifyUrl) {
    Objects.requireNonNull(widget, "widget");
    Objects.requireNonNull(secretKey, "secretKey");
    URI u = URI.create(Objects.requireNonNull(verifyUrl, "verifyUrl"));
    if (!"https".equals(u.getScheme()) && !"http".equals(u.getScheme())) {
      throw new IllegalArgumentException("humanCheck verifyUrl must be an https:// URL but was '" + verifyUrl + "'");
    }
    if (secretKey.isBlank()) {
      throw new IllegalArgumentException("humanCheck secretKey must not be blank");
    }
    Duration timeout = Duration.ofSeconds(5);
    return new SiteVerify(widget, secretKey, u, timeout, 0,
        HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build());
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
   * How long to wait for the service. Default: 5 seconds.
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

  @Override
  public CompletionStage<Verdict> verify(String token, @Nullable String remoteAddress) {
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
    CompletableFuture<HttpResponse<String>> sent;
    try {
      sent = client.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    } catch (RuntimeException e) {
      log.warn("human check at {} could not be asked: {}", verifyUrl, e.toString());
      return CompletableFuture.completedFuture(Verdict.FAILED);
    }
    return sent.handle(
        (response, failure) -> {
          if (failure != null) {
            log.warn("human check at {} did not answer: {}", verifyUrl, failure.toString());
            return Verdict.FAILED;
          }
          if (response.statusCode() != 200) {
            log.warn("human check at {} answered HTTP {}", verifyUrl, response.statusCode());
            return Verdict.FAILED;
          }
          return verdict(response.body(), flagBelow);
        });
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
