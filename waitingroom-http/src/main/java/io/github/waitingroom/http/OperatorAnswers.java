package io.github.waitingroom.http;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The operator API's answers, for {@link OperatorApi} and {@link OperatorAuth}: the response
 * headers every one carries, its JSON and error bodies, and what the API reads of a request's
 * headers and values before it answers.
 */
final class OperatorAnswers {
  /** The Content-Security-Policy of every answer but the page: nothing may load. */
  static final String DATA_POLICY = "default-src 'none'; frame-ancestors 'none'";

  /** The media type of the JSON answers. */
  static final String JSON = "application/json";

  private OperatorAnswers() {}

  /** {@code application/json}, with any parameters ({@code ; charset=UTF-8}), in any case. */
  static boolean isJson(@Nullable String contentType) {
    if (contentType == null) {
      return false;
    }
    int semi = contentType.indexOf(';');
    String type = (semi < 0 ? contentType : contentType.substring(0, semi)).strip();
    return type.equalsIgnoreCase("application/json");
  }

  /** At most 64 printable ASCII characters of a value from the request, for an error message. */
  static String printable(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length() && b.length() < 64; i++) {
      char c = s.charAt(i);
      b.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return b.toString();
  }

  /** The body of an error answer: {@code {"error": ...}}. */
  static byte[] error(String message) {
    return OperatorJson.error(message);
  }

  /** A JSON answer of the API. */
  static GateResponse json(int status, byte[] body) {
    return answer(status, JSON, DATA_POLICY, body, Map.of());
  }

  /**
   * An answer of the API with the headers every one carries: {@code Cache-Control: no-store},
   * {@code X-Content-Type-Options: nosniff}, {@code Referrer-Policy: no-referrer}, the given
   * Content-Security-Policy and {@code X-Frame-Options: DENY}, then {@code more}.
   */
  static GateResponse answer(int status, String type, String policy, byte[] body, Map<String, String> more) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Cache-Control", "no-store");
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("Referrer-Policy", "no-referrer");
    headers.put("Content-Security-Policy", policy);
    headers.put("X-Frame-Options", "DENY");
    headers.putAll(more);
    return GateResponse.answer(status, type, headers, body);
  }
}
