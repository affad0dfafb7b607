package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.coordinator.Transport.Publication;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Passwords in Redis URIs never reach a message, a log line or {@code toString()}. */
class RedisUriRedactionTest {
  /** A password with the characters that break naive redaction: {@code @}, {@code :} and {@code /}. */
  private static final String PASSWORD = "s3cr@t:p/ss@w0rd";

  private static String allMessages(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      out.append(t).append('\n');
    }
    return out.toString();
  }

  private static void assertNoPassword(String text) {
    assertThat(text).doesNotContain(PASSWORD);
    for (String part : List.of("s3cr", "t:p", "p/ss", "ss@w0rd", "w0rd")) {
      assertThat(text).as("leaks '%s'", part).doesNotContain(part);
    }
  }

  @Test
  void redactsUpToTheLastAtSign() {
    assertThat(RedisConnection.redact("redis://:" + PASSWORD + "@cache.internal:6379/0"))
        .isEqualTo("redis://***@cache.internal:6379/0");
    assertThat(RedisConnection.redact("rediss://default:" + PASSWORD + "@cache.internal"))
        .isEqualTo("rediss://***@cache.internal");
    assertThat(RedisConnection.redact("redis-sentinel://" + PASSWORD + "@h1:26379,h2:26379/?sentinelMasterId=m"))
        .isEqualTo("redis-sentinel://***@h1:26379,h2:26379/?sentinelMasterId=m");
    assertThat(RedisConnection.redact("cache.internal:" + PASSWORD + "@host")).as("no scheme").isEqualTo("***@host");
    assertThat(RedisConnection.redact("redis://cache.internal:6379")).isEqualTo("redis://cache.internal:6379");
  }

  @Test
  void noErrorOrDescriptionShowsAPasswordWithAtSigns() {
    for (String uri : List.of(
        "http://:" + PASSWORD + "@host:6379",
        "redis://:" + PASSWORD + "@",
        "redis://:" + PASSWORD + "@host:notaport",
        "redis-cluster://:" + PASSWORD + "@host:notaport")) {
      try (RedisTransport t = RedisTransport.create(uri)) {
        assertNoPassword(t.toString());
      } catch (IllegalArgumentException e) {
        assertNoPassword(allMessages(e));
      }
    }
  }

  @Test
  void aFailedConnectionDoesNotShowThePassword() throws Exception {
    // Percent-encoded, as a URI needs it, so that the client accepts it and tries to connect.
    String encoded = "s3cr%40t%3Ap%2Fss%40w0rd";
    String uri = "redis://:" + encoded + "@127.0.0.1:1/0"; // nothing listens on port 1
    try (RedisTransport t = RedisTransport.builder(uri).commandTimeout(Duration.ofMillis(500)).build()) {
      assertThat(t.toString()).doesNotContain(encoded).doesNotContain("s3cr");
      try {
        t.exchange("shop", List.of(new Publication("global", "n1", "r".getBytes(StandardCharsets.UTF_8))),
            Duration.ofSeconds(30));
        throw new AssertionError("expected the exchange to fail");
      } catch (IOException e) {
        assertNoPassword(allMessages(e));
        assertThat(allMessages(e)).doesNotContain(encoded).doesNotContain("s3cr");
      }
    }
  }
}
