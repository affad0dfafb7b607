package io.github.waitingroom.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.github.waitingroom.http.HumanCheck.Verdict;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One question to a {@code siteverify} service ({@link SiteVerify}): the form POST of {@code
 * secret}, {@code response} and {@code remoteip}, its answer read to at most {@value
 * SiteVerify#MAX_BODY_BYTES} bytes, the whole exchange (connecting, headers, body) bounded by the
 * timeout, and the verdict of the JSON it answered. Redirects are never followed. Immutable: each
 * setting changed is a new exchange. Not a record, so that no {@code toString} shows the secret.
 */
final class VerifyExchange {
  private static final Logger log = LoggerFactory.getLogger(SiteVerify.class);
  private static final JsonFactory JSON = new JsonFactory();

  private final URI verifyUrl;
  private final String secret;
  private final Duration timeout;
  /** The score below which a good token is {@linkplain Verdict#FLAGGED flagged}. */
  private final double flagBelow;
  /** Its connect timeout is {@link #timeout}'s. */
  private final HttpClient client;

  private VerifyExchange(URI verifyUrl, String secret, Duration timeout, double flagBelow, HttpClient client) {
    this.verifyUrl = verifyUrl;
    this.secret = secret;
    this.timeout = timeout;
    this.flagBelow = flagBelow;
    this.client = client;
  }

  /** An exchange with {@code secret} at {@code verifyUrl} (checked by {@link SiteVerify#of}), flagging none. */
  VerifyExchange(URI verifyUrl, String secret, Duration timeout) {
    this(verifyUrl, secret, timeout, 0, client(timeout));
  }

  private static HttpClient client(Duration timeout) {
    return HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
  }

  /** The same question at another URL. */
  VerifyExchange at(URI url) {
    return new VerifyExchange(url, secret, timeout, flagBelow, client);
  }

  /** The same question within another timeout, with a client connecting within it. */
  VerifyExchange within(Duration t) {
    return new VerifyExchange(verifyUrl, secret, t, flagBelow, client(t));
  }

  /** The same question, flagging a good token whose score is below {@code score}. */
  VerifyExchange flaggingBelow(double score) {
    return new VerifyExchange(verifyUrl, secret, timeout, score, client);
  }

  URI verifyUrl() {
    return verifyUrl;
  }

  Duration timeout() {
    return timeout;
  }

  /**
   * One request to the service, completed within the timeout: the verdict of its answer, or {@code
   * null} when there was none to read (no answer in time, an error status, a body too long).
   */
  CompletableFuture<@Nullable Verdict> ask(String token, @Nullable String remoteAddress) {
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
                log.warn("human check at {} answered more than {} bytes", verifyUrl, SiteVerify.MAX_BODY_BYTES);
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

  /** Reads at most {@value SiteVerify#MAX_BODY_BYTES} bytes of the answer: empty when it is longer. */
  private static HttpResponse.BodyHandler<Optional<String>> bounded() {
    return info -> {
      long length = info.headers().firstValueAsLong("Content-Length").orElse(-1);
      if (length > SiteVerify.MAX_BODY_BYTES) {
        return HttpResponse.BodySubscribers.replacing(Optional.empty());
      }
      return new BoundedBody();
    };
  }

  /** A body subscriber that keeps up to {@value SiteVerify#MAX_BODY_BYTES} bytes and cancels beyond. */
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
        if (bytes.size() + b.remaining() > SiteVerify.MAX_BODY_BYTES) {
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
