package io.github.waitingroom.testsupport;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * JSON read into maps, lists, strings, longs, doubles, booleans and nulls, with jackson-core's
 * streaming parser (which the calling module has: the core depends on it): enough for a test to
 * read an answer and look up a path in it.
 */
public final class JsonTree {
  private static final JsonFactory FACTORY = new JsonFactory();

  private JsonTree() {}

  /** Reads a JSON object, and nothing after it. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> object(String json) throws IOException {
    try (JsonParser p = FACTORY.createParser(json)) {
      p.nextToken();
      Object v = value(p);
      if (p.nextToken() != null) {
        throw new IOException("trailing content after the JSON value");
      }
      return (Map<String, Object>) java.util.Objects.requireNonNull(v);
    }
  }

  private static @Nullable Object value(JsonParser p) throws IOException {
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT -> {
        Map<String, Object> m = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          p.nextToken();
          m.put(name, value(p));
        }
        return m;
      }
      case START_ARRAY -> {
        List<@Nullable Object> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          l.add(value(p));
        }
        return l;
      }
      case VALUE_STRING -> {
        return p.getText();
      }
      case VALUE_NUMBER_INT -> {
        return p.getLongValue();
      }
      case VALUE_NUMBER_FLOAT -> {
        return p.getDoubleValue();
      }
      case VALUE_TRUE -> {
        return true;
      }
      case VALUE_FALSE -> {
        return false;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new IOException("unexpected " + t);
    }
  }

  /** The value at a path of field names and list indexes, which must not be null. */
  public static Object node(Object root, Object... path) {
    return java.util.Objects.requireNonNull(at(root, path), "null at " + java.util.Arrays.toString(path));
  }

  /** The value at a path of field names and list indexes. */
  @SuppressWarnings("unchecked")
  public static @Nullable Object at(Object root, Object... path) {
    Object v = root;
    for (Object step : path) {
      if (step instanceof Integer i) {
        v = ((List<Object>) java.util.Objects.requireNonNull(v)).get(i);
      } else {
        Map<String, Object> m = (Map<String, Object>) java.util.Objects.requireNonNull(v);
        if (!m.containsKey((String) step)) {
          throw new AssertionError("no field '" + step + "' in " + m.keySet());
        }
        v = m.get((String) step);
      }
    }
    return v;
  }
}
