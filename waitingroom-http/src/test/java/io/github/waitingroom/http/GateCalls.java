package io.github.waitingroom.http;

import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/** The requests and the reading of answers that the tests calling a {@link Gate} directly share. */
final class GateCalls {
  private GateCalls() {}

  /** A browser's {@code GET} of a page, with the session cookie's value (if any) and an {@code Accept-Language}. */
  static GateRequest html(@Nullable String session, @Nullable String language) {
    return GateRequest.builder("", "GET").ticket(session).accept("text/html").acceptLanguage(language).build();
  }

  /** The answer's body as text. */
  static String body(GateResponse r) {
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  /** The value of the cookie the answer sets, or {@code null} without one. */
  static @Nullable String ticket(GateResponse r) {
    String c = r.setCookie();
    return c == null ? null : c.substring(c.indexOf('=') + 1, c.indexOf(';'));
  }
}
