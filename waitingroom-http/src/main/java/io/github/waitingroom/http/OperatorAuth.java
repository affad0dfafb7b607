package io.github.waitingroom.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may use the {@link OperatorApi}: the holder of its bearer token (compared in constant time,
 * wrong ones slowed per client address) or a user the application's security put in its role.
 */
final class OperatorAuth {
  private static final Logger log = LoggerFactory.getLogger(OperatorAuth.class);

  /** The most client addresses whose wrong tokens are counted apart; beyond, they share one count. */
  static final int MAX_CLIENTS = 10_000;

  /** How long a client's wrong tokens are remembered after its last one, in milliseconds. */
  private static final long FORGET_MILLIS = 15 * 60 * 1000L;

  private final @Nullable String tokenDigest;
  private final @Nullable String role;
  private final InstantSource clock;
  /** Wrong tokens by client address ({@code ""}: the shared count when the map is full). */
  private final ConcurrentHashMap<String, Failures> failures = new ConcurrentHashMap<>();

  /** A client's wrong tokens: how many, the last one's time, and until when it is locked out (epoch ms). */
  private record Failures(int count, long last, long lockedUntil) {}

  /** With the SHA-256 digest of a bearer token, or else a required role. */
  OperatorAuth(@Nullable String tokenDigest, @Nullable String role, InstantSource clock) {
    this.tokenDigest = tokenDigest;
    this.role = role;
    this.clock = clock;
  }

  /** Whether the API asks for a bearer token (else for a role). */
  boolean bearer() {
    return tokenDigest != null;
  }

  /**
   * {@code null} when the request may see the data; else the refusal: 401 (or 403 for the role),
   * or 429 while the client is locked out for wrong tokens.
   */
  @Nullable GateResponse refusal(OperatorRequest r) {
    String expected = tokenDigest;
    if (expected == null) {
      return r.userInRole(Objects.requireNonNull(role)) ? null : refused();
    }
    String header = r.header("Authorization");
    if (header == null) {
      return refused();
    }
    long now = clock.millis();
    String client = clientKey(r.remoteAddress());
    Failures f = failures.get(client);
    if (f != null && now < f.lockedUntil()) {
      long seconds = Math.max(1, (f.lockedUntil() - now + 999) / 1000);
      return OperatorAnswers.answer(429, OperatorAnswers.JSON, OperatorAnswers.DATA_POLICY,
          OperatorAnswers.error("too many wrong bearer tokens from this client: try again in " + seconds + " s"),
          Map.of("Retry-After", Long.toString(seconds)));
    }
    // Digests of equal length, compared in constant time: neither the token's length nor its
    // characters show in how long a refusal takes.
    boolean right = header.length() >= 7 && header.regionMatches(true, 0, "Bearer ", 0, 7)
        && MessageDigest.isEqual(
            digest(header.substring(7).trim()).getBytes(StandardCharsets.US_ASCII),
            expected.getBytes(StandardCharsets.US_ASCII));
    if (right) {
      if (f != null) {
        failures.remove(client, f);
      }
      return null;
    }
    Failures counted = failures.compute(client, (k, old) -> failed(old, now));
    if (counted != null && now < counted.lockedUntil()) {
      log.warn("dashboard: {} wrong bearer tokens from {}, locked out for {} ms", counted.count(),
          client.isEmpty() ? "many clients" : client, counted.lockedUntil() - now);
    }
    return refused();
  }

  /** One more wrong token on top of {@code old}: counted, and past the free ones, a lockout twice as long as the last. */
  private static Failures failed(@Nullable Failures old, long now) {
    int count = old == null || now - old.last() > FORGET_MILLIS ? 1 : old.count() + 1;
    long locked = 0;
    if (count > OperatorApi.FREE_FAILURES) {
      int doublings = Math.min(count - OperatorApi.FREE_FAILURES - 1, 30);
      locked = now + Math.min(OperatorApi.MAX_LOCKOUT_SECONDS * 1000, 1000L << doublings);
    }
    return new Failures(count, now, locked);
  }

  /** The client's address, or the shared key when too many clients are counted already. */
  private String clientKey(@Nullable String address) {
    String key = address == null ? "" : address;
    if (failures.size() >= MAX_CLIENTS && !failures.containsKey(key)) {
      long now = clock.millis();
      failures.entrySet().removeIf(e -> now >= e.getValue().lockedUntil() && now - e.getValue().last() > 60_000);
      if (failures.size() >= MAX_CLIENTS) {
        return "";
      }
    }
    return key;
  }

  private GateResponse refused() {
    if (tokenDigest != null) {
      return OperatorAnswers.answer(401, OperatorAnswers.JSON, OperatorAnswers.DATA_POLICY,
          "{\"error\":\"a valid bearer token is required\"}".getBytes(StandardCharsets.UTF_8),
          Map.of("WWW-Authenticate", "Bearer realm=\"waitingroom-dashboard\""));
    }
    // The application's own security authenticates; the dashboard only checks the role.
    return OperatorAnswers.answer(403, OperatorAnswers.JSON, OperatorAnswers.DATA_POLICY,
        "{\"error\":\"the dashboard's role is required\"}".getBytes(StandardCharsets.UTF_8), Map.of());
  }


  static String digest(String token) {
    return ProofOfWork.sha256Base64(token);
  }
}
