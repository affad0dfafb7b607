package io.github.waitingroom;

import static io.github.waitingroom.RoomSettings.MAX_EVENTS;
import static io.github.waitingroom.RoomSettings.MAX_JSON_LENGTH;
import static io.github.waitingroom.RoomSettings.MAX_TEXTS;
import static io.github.waitingroom.RoomSettings.printable;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.github.waitingroom.RoomSettings.Event;
import io.github.waitingroom.RoomSettings.QueueingMethod;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The JSON form of {@link RoomSettings} (see its class comment), written and read with
 * jackson-core's streaming generator and parser; {@link RoomSettings#toJson()} and {@link
 * RoomSettings#fromJson(String, RoomSettings)} hand over to it. Reading checks the document's
 * shape and the type of every field, refuses unknown fields and names the field that is wrong;
 * the constructors of {@link RoomSettings} and {@link Event} then check the values. Stateless and
 * thread-safe.
 */
final class SettingsJson {

  private static final JsonFactory JSON = new JsonFactory();

  private SettingsJson() {}

  /** {@code s} as JSON, every field written (see {@link RoomSettings#toJson()}). */
  static String write(RoomSettings s) {
    StringWriter out = new StringWriter(256);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeNumberField("version", s.version());
      g.writeNumberField("totalActiveUsers", s.totalActiveUsers());
      g.writeNumberField("newUsersPerMinute", s.newUsersPerMinute());
      g.writeStringField("sessionDuration", s.sessionDuration().toString());
      g.writeStringField("queueingMethod", s.queueingMethod().jsonName());
      g.writeBooleanField("queueAll", s.queueAll());
      g.writeBooleanField("suspended", s.suspended());
      g.writeBooleanField("disableSessionRenewal", s.disableSessionRenewal());
      writeTexts(g, s.texts());
      g.writeArrayFieldStart("events");
      for (Event e : s.events()) {
        writeEvent(g, e);
      }
      g.writeEndArray();
      AdaptiveLimit a = s.adaptiveLimit();
      if (a == null) {
        g.writeNullField("adaptiveLimit");
      } else {
        g.writeObjectFieldStart("adaptiveLimit");
        g.writeNumberField("min", a.min());
        g.writeNumberField("max", a.max());
        g.writeStringField("latency", a.latency().toString());
        g.writeNumberField("step", a.step());
        g.writeNumberField("failureShare", a.failureShare());
        g.writeBooleanField("scaleNewUsersPerMinute", a.scaleNewUsersPerMinute());
        g.writeEndObject();
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void writeEvent(JsonGenerator g, Event e) throws IOException {
    g.writeStartObject();
    g.writeStringField("name", e.name());
    if (e.prequeueStart() != null) {
      g.writeStringField("prequeueStart", e.prequeueStart().toString());
    }
    g.writeStringField("start", e.start().toString());
    g.writeStringField("end", e.end().toString());
    if (e.totalActiveUsers() != null) {
      g.writeNumberField("totalActiveUsers", e.totalActiveUsers());
    }
    if (e.newUsersPerMinute() != null) {
      g.writeNumberField("newUsersPerMinute", e.newUsersPerMinute());
    }
    if (e.sessionDuration() != null) {
      g.writeStringField("sessionDuration", e.sessionDuration().toString());
    }
    if (e.queueingMethod() != null) {
      g.writeStringField("queueingMethod", e.queueingMethod().jsonName());
    }
    g.writeBooleanField("shuffleAtEventStart", e.shuffleAtEventStart());
    writeTexts(g, e.texts());
    g.writeEndObject();
  }

  private static void writeTexts(JsonGenerator g, Map<String, String> texts) throws IOException {
    g.writeObjectFieldStart("texts");
    for (Map.Entry<String, String> e : texts.entrySet()) {
      g.writeStringField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
  }

  /**
   * A document read from JSON, every field it leaves out taken from {@code base} (see {@link
   * RoomSettings#fromJson(String, RoomSettings)}).
   *
   * @throws IllegalArgumentException naming the field that is wrong, or saying where the JSON is
   *     malformed
   */
  static RoomSettings read(String json, RoomSettings base) {
    Objects.requireNonNull(json, "json");
    Objects.requireNonNull(base, "base");
    if (json.length() > MAX_JSON_LENGTH) {
      throw new IllegalArgumentException("settings must be at most " + MAX_JSON_LENGTH + " characters of JSON");
    }
    long version = base.version() + 1;
    int active = base.totalActiveUsers();
    int perMinute = base.newUsersPerMinute();
    Duration session = base.sessionDuration();
    QueueingMethod method = base.queueingMethod();
    boolean queueAll = base.queueAll();
    boolean suspended = base.suspended();
    boolean noRenewal = base.disableSessionRenewal();
    Map<String, String> texts = base.texts();
    List<Event> events = base.events();
    AdaptiveLimit adaptive = base.adaptiveLimit();
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("settings must be a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        switch (field) {
          case "version" -> version = longField(p, value, field);
          case "totalActiveUsers" -> active = intField(p, value, field);
          case "newUsersPerMinute" -> perMinute = intField(p, value, field);
          case "sessionDuration" -> session = durationField(p, value, field);
          case "queueingMethod" -> method = QueueingMethod.ofJsonName(stringField(p, value, field));
          case "queueAll" -> queueAll = booleanField(value, field);
          case "suspended" -> suspended = booleanField(value, field);
          case "disableSessionRenewal" -> noRenewal = booleanField(value, field);
          case "texts" -> texts = textsField(p, value, "texts");
          case "events" -> events = eventsField(p, value);
          case "adaptiveLimit" -> adaptive = adaptiveField(p, value, adaptive);
          default -> throw new IllegalArgumentException(
              "settings have no field '" + printable(field) + "' (known: version, totalActiveUsers,"
                  + " newUsersPerMinute, sessionDuration, queueingMethod, queueAll, suspended,"
                  + " disableSessionRenewal, texts, events, adaptiveLimit)");
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new IllegalArgumentException("settings must be one JSON object");
      }
    } catch (JsonParseException e) {
      throw new IllegalArgumentException("settings are not valid JSON: " + e.getOriginalMessage()
          + " at character " + e.getLocation().getCharOffset(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new RoomSettings(version, active, perMinute, session, method, queueAll, suspended, noRenewal, texts, events,
        adaptive);
  }

  /**
   * {@code adaptiveLimit}: {@code null} for none, or an object whose fields left out keep the
   * values of {@code base}'s (and {@code step} and {@code failureShare} their defaults when
   * {@code base} has none; {@code min}, {@code max} and {@code latency} are then required).
   */
  private static @Nullable AdaptiveLimit adaptiveField(JsonParser p, JsonToken t, @Nullable AdaptiveLimit base) throws IOException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.START_OBJECT) {
      throw new IllegalArgumentException("adaptiveLimit must be null or an object");
    }
    @Nullable Integer min = base != null ? base.min() : null;
    @Nullable Integer max = base != null ? base.max() : null;
    @Nullable Duration latency = base != null ? base.latency() : null;
    double step = base != null ? base.step() : AdaptiveLimit.DEFAULT_STEP;
    double failureShare = base != null ? base.failureShare() : AdaptiveLimit.DEFAULT_FAILURE_SHARE;
    boolean scale = base != null && base.scaleNewUsersPerMinute();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      switch (field) {
        case "min" -> min = intField(p, value, "adaptiveLimit.min");
        case "max" -> max = intField(p, value, "adaptiveLimit.max");
        case "latency" -> latency = durationField(p, value, "adaptiveLimit.latency");
        case "step" -> step = numberField(p, value, "adaptiveLimit.step");
        case "failureShare" -> failureShare = numberField(p, value, "adaptiveLimit.failureShare");
        case "scaleNewUsersPerMinute" -> scale = booleanField(value, "adaptiveLimit.scaleNewUsersPerMinute");
        default -> throw new IllegalArgumentException("adaptiveLimit has no field '" + printable(field)
            + "' (known: min, max, latency, step, failureShare, scaleNewUsersPerMinute)");
      }
    }
    if (min == null || max == null || latency == null) {
      throw new IllegalArgumentException("adaptiveLimit needs min, max and latency");
    }
    return new AdaptiveLimit(min, max, latency, step, failureShare, scale);
  }

  private static double numberField(JsonParser p, JsonToken t, String field) throws IOException {
    if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
      throw new IllegalArgumentException(field + " must be a number");
    }
    return p.getDoubleValue();
  }

  private static List<Event> eventsField(JsonParser p, JsonToken t) throws IOException {
    if (t != JsonToken.START_ARRAY) {
      throw new IllegalArgumentException("events must be an array of events");
    }
    List<Event> out = new ArrayList<>();
    while (p.nextToken() == JsonToken.START_OBJECT) {
      if (out.size() == MAX_EVENTS) {
        throw new IllegalArgumentException("events may hold at most " + MAX_EVENTS + " events");
      }
      out.add(event(p, out.size()));
    }
    if (p.currentToken() != JsonToken.END_ARRAY) {
      throw new IllegalArgumentException("events must be an array of event objects");
    }
    return out;
  }

  /** The event at {@code index} of the events array, its opening brace just read. */
  private static Event event(JsonParser p, int index) throws IOException {
    String where = "events[" + index + "].";
    String name = null;
    Instant prequeue = null;
    Instant start = null;
    Instant end = null;
    Integer active = null;
    Integer perMinute = null;
    Duration session = null;
    QueueingMethod method = null;
    boolean shuffle = false;
    Map<String, String> texts = Map.of();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      switch (field) {
        case "name" -> name = stringField(p, value, where + field);
        case "prequeueStart" -> prequeue = instantField(p, value, where + field);
        case "start" -> start = instantField(p, value, where + field);
        case "end" -> end = instantField(p, value, where + field);
        case "totalActiveUsers" -> active = intField(p, value, where + field);
        case "newUsersPerMinute" -> perMinute = intField(p, value, where + field);
        case "sessionDuration" -> session = durationField(p, value, where + field);
        case "queueingMethod" -> method = QueueingMethod.ofJsonName(stringField(p, value, where + field));
        case "shuffleAtEventStart" -> shuffle = booleanField(value, where + field);
        case "texts" -> texts = textsField(p, value, where + field);
        default -> throw new IllegalArgumentException("events[" + index + "] has no field '" + printable(field)
            + "' (known: name, prequeueStart, start, end, totalActiveUsers, newUsersPerMinute,"
            + " sessionDuration, queueingMethod, shuffleAtEventStart, texts)");
      }
    }
    if (name == null || start == null || end == null) {
      throw new IllegalArgumentException(where + "name, " + where + "start and " + where + "end are required");
    }
    return new Event(name, prequeue, start, end, active, perMinute, session, method, shuffle, texts);
  }

  private static Instant instantField(JsonParser p, JsonToken t, String field) throws IOException {
    return isoField(p, t, field, Instant::parse, "instant such as 2026-12-04T18:00:00Z");
  }

  private static Duration durationField(JsonParser p, JsonToken t, String field) throws IOException {
    return isoField(p, t, field, Duration::parse, "duration such as PT5M");
  }

  /** A string field parsed as an ISO-8601 {@code kind} (what it is, with an example). */
  private static <T> T isoField(JsonParser p, JsonToken t, String field, Function<String, T> parse, String kind)
      throws IOException {
    String text = stringField(p, t, field);
    try {
      return parse.apply(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          field + " must be an ISO-8601 " + kind + " but was '" + printable(text) + "'", e);
    }
  }

  private static long longField(JsonParser p, JsonToken t, String field) throws IOException {
    if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
      throw new IllegalArgumentException(field + " must be a whole number but was " + describe(p, t));
    }
    return p.getLongValue();
  }

  private static int intField(JsonParser p, JsonToken t, String field) throws IOException {
    long v = longField(p, t, field);
    if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
      throw new IllegalArgumentException(field + " must be at most " + Integer.MAX_VALUE + " but was " + v);
    }
    return (int) v;
  }

  private static String stringField(JsonParser p, JsonToken t, String field) throws IOException {
    if (t != JsonToken.VALUE_STRING) {
      throw new IllegalArgumentException(field + " must be a string but was " + describe(p, t));
    }
    return p.getText();
  }

  private static boolean booleanField(JsonToken t, String field) {
    if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
      throw new IllegalArgumentException(field + " must be true or false");
    }
    return t == JsonToken.VALUE_TRUE;
  }

  private static Map<String, String> textsField(JsonParser p, JsonToken t, String field) throws IOException {
    if (t != JsonToken.START_OBJECT) {
      throw new IllegalArgumentException(field + " must be an object of message key to text");
    }
    Map<String, String> out = new TreeMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      out.put(key, stringField(p, p.nextToken(), field + "." + printable(key)));
      if (out.size() > MAX_TEXTS) {
        throw new IllegalArgumentException(field + " may hold at most " + MAX_TEXTS + " entries");
      }
    }
    return out;
  }

  private static String describe(JsonParser p, JsonToken t) throws IOException {
    return t == JsonToken.VALUE_STRING ? "'" + printable(p.getText()) + "'" : t.isScalarValue() ? p.getText() : "a " + t;
  }
}
