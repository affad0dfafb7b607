package io.github.waitingroom.coordinator;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Encodes {@link Report}s as compact JSON (jackson-core streaming) and decodes them. Thread-safe.
 *
 * <pre>{@code
 * {"v":1,"publisher":"node-1","at":1700000000,"nodes":1,
 *  "active":[[slice,count],...],"admitted":[...],"traffic":[...],
 *  "waiting":[[bucket,[[slice,count],...]],...]}
 * }</pre>
 *
 * <p>{@code v} comes first. A reader rejects a version newer than it knows and skips fields it
 * does not know, so nodes of two releases can run side by side.
 */
public final class ReportCodec {
  private static final JsonFactory JSON = new JsonFactory();

  private ReportCodec() {}

  /** The report as UTF-8 JSON. */
  public static byte[] encode(Report report) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
      g.writeStartObject();
      g.writeNumberField("v", Report.FORMAT_VERSION);
      g.writeStringField("publisher", report.publisher());
      g.writeNumberField("at", report.at());
      g.writeNumberField("nodes", report.nodes());
      writeCounts(g, "active", report.active());
      writeCounts(g, "admitted", report.admitted());
      writeCounts(g, "traffic", report.traffic());
      g.writeArrayFieldStart("waiting");
      for (Map.Entry<Long, NavigableMap<Long, Long>> bucket : report.waiting().entrySet()) {
        g.writeStartArray();
        g.writeNumber(bucket.getKey());
        writePairs(g, bucket.getValue());
        g.writeEndArray();
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * Reads a report written by {@link #encode}.
   *
   * @throws IllegalArgumentException if the bytes are not a report of a known version
   */
  public static Report decode(byte[] bytes) {
    try (JsonParser p = JSON.createParser(bytes)) {
      expect(p, JsonToken.START_OBJECT);
      if (p.nextToken() != JsonToken.FIELD_NAME || !"v".equals(p.currentName())) {
        throw new IllegalArgumentException("report must start with its version field \"v\"");
      }
      expect(p, JsonToken.VALUE_NUMBER_INT);
      int version = p.getIntValue();
      if (version != Report.FORMAT_VERSION) {
        throw new IllegalArgumentException(
            "report version " + version + " is not supported (this release reads "
                + Report.FORMAT_VERSION + ")");
      }
      @Nullable String publisher = null;
      long at = -1;
      int nodes = -1;
      TreeMap<Long, Long> active = new TreeMap<>();
      TreeMap<Long, Long> admitted = new TreeMap<>();
      TreeMap<Long, Long> traffic = new TreeMap<>();
      TreeMap<Long, NavigableMap<Long, Long>> waiting = new TreeMap<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        switch (field) {
          case "publisher" -> publisher = p.getValueAsString();
          case "at" -> at = p.getLongValue();
          case "nodes" -> nodes = p.getIntValue();
          case "active" -> readPairs(p, active);
          case "admitted" -> readPairs(p, admitted);
          case "traffic" -> readPairs(p, traffic);
          case "waiting" -> {
            require(value == JsonToken.START_ARRAY, "waiting must be an array");
            while (p.nextToken() == JsonToken.START_ARRAY) {
              expect(p, JsonToken.VALUE_NUMBER_INT);
              long bucket = p.getLongValue();
              p.nextToken();
              TreeMap<Long, Long> slices = new TreeMap<>();
              readPairs(p, slices);
              expect(p, JsonToken.END_ARRAY);
              if (!slices.isEmpty()) {
                waiting.put(bucket, slices);
              }
            }
          }
          default -> p.skipChildren();
        }
      }
      if (publisher == null || at < 0 || nodes < 0) {
        throw new IllegalArgumentException("not a report: it lacks publisher, at or nodes");
      }
      return new Report(publisher, at, nodes, active, admitted, traffic, waiting);
    } catch (IOException | RuntimeException e) {
      if (e instanceof IllegalArgumentException iae) {
        throw iae;
      }
      throw new IllegalArgumentException("not a report: " + e.getMessage(), e);
    }
  }

  private static void writeCounts(JsonGenerator g, String name, Map<Long, Long> counts)
      throws IOException {
    g.writeFieldName(name);
    writePairs(g, counts);
  }

  private static void writePairs(JsonGenerator g, Map<Long, Long> counts) throws IOException {
    g.writeStartArray();
    for (Map.Entry<Long, Long> e : counts.entrySet()) {
      g.writeStartArray();
      g.writeNumber(e.getKey());
      g.writeNumber(e.getValue());
      g.writeEndArray();
    }
    g.writeEndArray();
  }

  /** Reads {@code [[k,v],...]}; the parser stands on its START_ARRAY and ends on its END_ARRAY. */
  private static void readPairs(JsonParser p, TreeMap<Long, Long> into) throws IOException {
    require(p.currentToken() == JsonToken.START_ARRAY, "counts must be an array of pairs");
    while (p.nextToken() == JsonToken.START_ARRAY) {
      expect(p, JsonToken.VALUE_NUMBER_INT);
      long key = p.getLongValue();
      expect(p, JsonToken.VALUE_NUMBER_INT);
      long count = p.getLongValue();
      expect(p, JsonToken.END_ARRAY);
      into.merge(key, count, Long::sum);
    }
    require(p.currentToken() == JsonToken.END_ARRAY, "counts must be an array of pairs");
  }

  private static void expect(JsonParser p, JsonToken token) throws IOException {
    JsonToken got = p.nextToken();
    require(got == token, "expected " + token + " but found " + got);
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException("not a report: " + message);
    }
  }
}
