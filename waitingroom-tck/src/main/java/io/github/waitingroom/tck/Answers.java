package io.github.waitingroom.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.coordinator.Transport.Publication;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * How the kit writes publications and reads a transport's answers: its role is to turn an answer
 * into what a test asserts on, failing with a message that names the scope, the publisher or the
 * store's clock that is missing.
 */
final class Answers {
  private Answers() {}

  /** A publication of a UTF-8 text. */
  static Publication pub(String scope, String publisher, String payload) {
    return new Publication(scope, publisher, payload.getBytes(StandardCharsets.UTF_8));
  }

  /** The values of a scope, which must be in the answer. */
  static Map<String, byte[]> in(Map<String, Map<String, byte[]>> answer, String scope) {
    Map<String, byte[]> values = answer.get(scope);
    if (values == null) {
      throw new AssertionError("the answer lacks scope '" + scope + "', which was published to: " + answer.keySet());
    }
    return values;
  }

  /** The value of a publisher in a scope, both of which must be in the answer. */
  static byte[] value(Map<String, Map<String, byte[]>> answer, String scope, String publisher) {
    byte[] v = in(answer, scope).get(publisher);
    if (v == null) {
      throw new AssertionError("scope '" + scope + "' lacks publisher '" + publisher + "'");
    }
    return v;
  }

  /** The values of a scope as UTF-8 texts, by publisher in order. */
  static Map<String, String> text(Map<String, Map<String, byte[]>> answer, String scope) {
    Map<String, String> out = new TreeMap<>();
    in(answer, scope).forEach((k, v) -> out.put(k, new String(v, StandardCharsets.UTF_8)));
    return out;
  }

  /** The store's clock of an answer, which must carry it: epoch milliseconds. */
  static long clock(Map<String, Map<String, byte[]>> answer) {
    Map<String, byte[]> clock = answer.get(Transport.CLOCK_SCOPE);
    if (clock == null) {
      throw new AssertionError("the answer lacks the store's clock (scope Transport.CLOCK_SCOPE, \""
          + Transport.CLOCK_SCOPE + "\"), which every answer must carry: " + answer.keySet());
    }
    byte[] now = clock.get("now");
    assertThat(now).as("the store's clock is 8 bytes (epoch milliseconds, big-endian) under publisher \"now\"")
        .isNotNull().hasSize(8);
    return ByteBuffer.wrap(now).getLong();
  }

  /** The answer without the store's clock: the scopes published to. */
  static Map<String, Map<String, byte[]>> scopes(Map<String, Map<String, byte[]>> answer) {
    Map<String, Map<String, byte[]>> copy = new HashMap<>(answer);
    copy.remove(Transport.CLOCK_SCOPE);
    return copy;
  }
}
