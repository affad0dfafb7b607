package io.github.waitingroom.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the tests read from an answer over real HTTP of an application behind a waiting room (the
 * test application answers {@code app:<path>}; the built-in waiting page's heading is {@code You
 * are in line}). The JSON status is read with jackson-core's streaming parser, which the calling
 * module has.
 */
public final class Answers {
  private Answers() {}

  /** Whether the application answered: a 200 whose body starts with {@code app:}. */
  public static boolean inApp(HttpResponse<String> r) {
    return r.statusCode() == 200 && r.body().startsWith("app:");
  }

  /** Whether the answer is the built-in waiting page. */
  public static boolean onWaitingPage(HttpResponse<String> r) {
    return r.body().contains("<h1>You are in line</h1>");
  }

  /** Every {@code Set-Cookie} header of the answer. */
  public static List<String> setCookies(HttpResponse<String> r) {
    return r.headers().allValues("Set-Cookie");
  }

  /**
   * The fields of the JSON status a waiting room answers ({@code {"waitingRoom": {...}}}), once the
   * answer is checked to be JSON: whole numbers as longs, booleans as booleans, {@code null} as the
   * text {@code "null"}, anything else as its text.
   */
  public static Map<String, Object> status(HttpResponse<String> r) throws IOException {
    assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    Map<String, Object> fields = new HashMap<>();
    try (JsonParser p = new JsonFactory().createParser(r.body())) {
      assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
      assertThat(p.nextFieldName()).isEqualTo("waitingRoom");
      assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
      for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
        JsonToken t = p.nextToken();
        fields.put(
            name,
            switch (t) {
              case VALUE_NUMBER_INT -> p.getLongValue();
              case VALUE_TRUE, VALUE_FALSE -> p.getBooleanValue();
              case VALUE_NULL -> "null";
              default -> p.getText();
            });
      }
    }
    return fields;
  }
}
