package io.github.waitingroom.coordinator;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.github.waitingroom.internal.LongList;
import io.github.waitingroom.allocation.Tally;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Encodes {@link Report}s as compact JSON (jackson-core streaming) and decodes them. Thread-safe.
 *
 * <pre>{@code
 * {"v":3,"publisher":"node-1","nodes":1,"joined":e,"settings":n,
 *  "counted":[epoch,nodes,nodesHash,dataCenters,dataCentersHash],
 *  "tallies":[{"epoch":e,"active":n,"outstandingNew":n,"recent":n,"arrivals":n,"nodes":n,
 *              "line":[[second,count],...],"shared":[[second,count],...],"sharedUnknown":true,
 *              "admitted":[place,...],"checkIns":[[slice,place,...],...],
 *              "revokedPlaces":[place,...],"browsing":[stopped,idle,active,seconds],"cut":[place,holders],
 *              "origin":[failures,bucket,count,bucket,count,...]},...]}
 * }</pre>
 *
 * <p>{@code v} comes first. A reader rejects a version it does not know (the coordinator then
 * treats the publisher as present but unreadable, which blocks plans rather than counting it as
 * zero) and skips fields it does not know. Decoding is bounded: at most {@value #MAX_BYTES}
 * bytes, {@value #MAX_ENTRIES} line entries, admitted places or check-ins per tally, names of at most 64
 * characters, and counts between 0 and {@value #MAX_COUNT}; anything else is not a report.
 * {@code settings} (the highest settings version the publisher holds) is left out when 0; a reader
 * that does not know it skips it. {@code counted} (whom the publisher counted in the latest epoch
 * it settled, {@link Report.Counted}) is {@code []} before its first; a reader that does not know
 * it skips it, and a report without it (of an earlier release) says nothing of whom it counted. A tally's {@code nodes} is left out when it is 1 (a node's own tally). Version 3 added it: a
 * data center's weight in the split of slots for new arrivals counts its nodes, and a version 2
 * reader would weigh it otherwise than the others, so it does not read version 3 at all. {@code outstandingNew} is everything the publisher may
 * still admit ({@link Tally#outstanding}): earlier releases of version 3 split it into {@code
 * outstandingLine} and {@code outstandingNew} (and wrote {@code reserved}, {@code polling} and
 * {@code reservedPlaces}, which no reader needs): a reader adds the two, so each release counts
 * all that the other may still admit. {@code
 * shared}, {@code sharedUnknown}, {@code checkIns}, {@code
 * revokedPlaces}, {@code browsing} and {@code cut} are left out when empty (or false), and a reader
 * that does not know them skips them (a reader that skips {@code shared} counts holders whose polls
 * go to several nodes more than once: never fewer; one that skips {@code revokedPlaces} lets an
 * ended session's ticket through until it expires, and counts it if it checks in; a report of
 * an earlier release has no {@code browsing}, and a room's sum then holds only the others': it
 * moves wait estimates, never a limit; without {@code cut} a plan cuts the second it splits from
 * its start: who is eligible, never a limit). {@code origin} ({@link Tally.Origin}) is left out
 * when nothing was measured; a reader that does not know it skips it, and an adaptive limit then
 * goes by the others' measurements.
 */
public final class ReportCodec {
  /** The largest encoded report accepted. */
  public static final int MAX_BYTES = 1 << 20;

  /** The most line entries, the most admitted places and the most check-ins one tally may hold. */
  public static final int MAX_ENTRIES = 50_000;

  /** The largest count accepted. */
  public static final long MAX_COUNT = 1L << 40;

  private static final JsonFactory JSON = new JsonFactory();

  private ReportCodec() {}

  /** The report as UTF-8 JSON. */
  public static byte[] encode(Report report) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = JSON.createGenerator(out, JsonEncoding.UTF8)) {
      g.writeStartObject();
      g.writeNumberField("v", Report.FORMAT_VERSION);
      g.writeStringField("publisher", report.publisher());
      g.writeNumberField("nodes", report.nodes());
      g.writeNumberField("joined", report.joined());
      if (report.settings() > 0) {
        g.writeNumberField("settings", report.settings());
      }
      Report.Counted counted = report.counted();
      if (counted != null) {
        g.writeArrayFieldStart("counted");
        if (!counted.equals(Report.Counted.NONE)) {
          g.writeNumber(counted.epoch());
          g.writeNumber(counted.nodes());
          g.writeNumber(counted.nodesHash());
          g.writeNumber(counted.dataCenters());
          g.writeNumber(counted.dataCentersHash());
        }
        g.writeEndArray();
      }
      g.writeArrayFieldStart("tallies");
      for (Map.Entry<Long, Tally> e : report.tallies().entrySet()) {
        Tally t = e.getValue();
        g.writeStartObject();
        g.writeNumberField("epoch", e.getKey());
        g.writeNumberField("active", t.active());
        g.writeNumberField("outstandingNew", t.outstanding());
        g.writeNumberField("recent", t.recentAdmissions());
        g.writeNumberField("arrivals", t.arrivals());
        if (t.nodes() != 1) {
          g.writeNumberField("nodes", t.nodes());
        }
        writeSeconds(g, "line", t.line());
        if (!t.shared().isEmpty()) {
          writeSeconds(g, "shared", t.shared());
        }
        if (t.sharedUnknown()) {
          g.writeBooleanField("sharedUnknown", true);
        }
        writePlaces(g, "admitted", t.admittedPlaces());
        if (t.revokedPlaces().length > 0) {
          writePlaces(g, "revokedPlaces", t.revokedPlaces());
        }
        if (!t.cut().equals(Tally.Cut.NONE)) {
          g.writeArrayFieldStart("cut");
          g.writeNumber(t.cut().place());
          g.writeNumber(t.cut().holders());
          g.writeEndArray();
        }
        Tally.Browsing b = t.browsing();
        if (!b.equals(Tally.Browsing.NONE)) {
          g.writeArrayFieldStart("browsing");
          g.writeNumber(b.stopped());
          g.writeNumber(b.idle());
          g.writeNumber(b.active());
          g.writeNumber(b.seconds());
          g.writeEndArray();
        }
        Tally.Origin o = t.origin();
        if (!o.isEmpty()) {
          g.writeArrayFieldStart("origin");
          g.writeNumber(o.failures());
          for (long n : o.buckets()) {
            g.writeNumber(n);
          }
          g.writeEndArray();
        }
        long[] checkIns = t.checkIns();
        if (checkIns.length > 0) {
          // One array per slice: [slice, place, place, ...] (the pairs are sorted by slice).
          g.writeArrayFieldStart("checkIns");
          for (int i = 0; i < checkIns.length; i += 2) {
            if (i == 0 || checkIns[i] != checkIns[i - 2]) {
              if (i > 0) {
                g.writeEndArray();
              }
              g.writeStartArray();
              g.writeNumber(checkIns[i]);
            }
            g.writeNumber(checkIns[i + 1]);
          }
          g.writeEndArray();
          g.writeEndArray();
        }
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static void writeSeconds(JsonGenerator g, String field, Map<Long, Long> counts) throws IOException {
    g.writeArrayFieldStart(field);
    for (Map.Entry<Long, Long> l : counts.entrySet()) {
      g.writeStartArray();
      g.writeNumber(l.getKey());
      g.writeNumber(l.getValue());
      g.writeEndArray();
    }
    g.writeEndArray();
  }

  private static void writePlaces(JsonGenerator g, String field, long[] places) throws IOException {
    g.writeArrayFieldStart(field);
    for (long place : places) {
      g.writeNumber(place);
    }
    g.writeEndArray();
  }

  /**
   * Reads a report written by {@link #encode}.
   *
   * @throws IllegalArgumentException if the bytes are not a report of a known version, or break
   *     a bound
   */
  public static Report decode(byte[] bytes) {
    require(bytes.length <= MAX_BYTES, "larger than " + MAX_BYTES + " bytes");
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
      int nodes = -1;
      long joined = Long.MIN_VALUE;
      long settings = 0;
      Report.@Nullable Counted counted = null;
      TreeMap<Long, Tally> tallies = new TreeMap<>();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        switch (field) {
          case "publisher" -> {
            publisher = p.getValueAsString();
            require(publisher != null && publisher.length() <= 80, "publisher must be a short string");
          }
          case "nodes" -> {
            require(value == JsonToken.VALUE_NUMBER_INT, "nodes must be an integer");
            nodes = p.getIntValue();
            require(nodes >= 0 && nodes <= 1_000_000, "nodes out of range");
          }
          case "joined" -> joined = integer(p, value, Long.MIN_VALUE + 1, Long.MAX_VALUE);
          case "settings" -> settings = integer(p, value, 0, Long.MAX_VALUE);
          case "counted" -> counted = counted(p, value);
          case "tallies" -> {
            require(value == JsonToken.START_ARRAY, "tallies must be an array");
            while (p.nextToken() == JsonToken.START_OBJECT) {
              readTally(p, tallies);
              require(tallies.size() <= 2 * Report.EPOCHS_KEPT, "too many tallies");
            }
          }
          default -> p.skipChildren();
        }
      }
      if (publisher == null || nodes < 0 || joined == Long.MIN_VALUE) {
        throw new IllegalArgumentException("not a report: it lacks publisher, nodes or joined");
      }
      require(tallies.isEmpty() || tallies.firstKey() >= joined, "a tally before joining");
      return new Report(publisher, nodes, joined, tallies, settings, counted);
    } catch (IOException | RuntimeException e) {
      if (e instanceof IllegalArgumentException iae) {
        throw iae;
      }
      throw new IllegalArgumentException("not a report: " + e.getMessage(), e);
    }
  }

  private static void readTally(JsonParser p, TreeMap<Long, Tally> into) throws IOException {
    long epoch = Long.MIN_VALUE;
    long active = 0;
    long outstandingLine = 0;
    long outstandingNew = 0;
    long recent = 0;
    long arrivals = 0;
    long nodes = 1;
    TreeMap<Long, Long> line = new TreeMap<>();
    TreeMap<Long, Long> shared = new TreeMap<>();
    boolean sharedUnknown = false;
    long[] admitted = new long[0];
    LongList checkIns = new LongList();
    long[] revokedPlaces = new long[0];
    Tally.Browsing browsing = Tally.Browsing.NONE;
    Tally.Cut cut = Tally.Cut.NONE;
    Tally.Origin origin = Tally.Origin.NONE;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      switch (field) {
        case "epoch" -> epoch = integer(p, value, Long.MIN_VALUE + 1, Long.MAX_VALUE);
        case "active" -> active = integer(p, value, -MAX_COUNT, MAX_COUNT);
        case "outstandingLine" -> outstandingLine = integer(p, value, 0, MAX_COUNT);
        case "outstandingNew" -> outstandingNew = integer(p, value, 0, MAX_COUNT);
        case "recent" -> recent = integer(p, value, 0, MAX_COUNT);
        case "arrivals" -> arrivals = integer(p, value, 0, MAX_COUNT);
        case "nodes" -> nodes = integer(p, value, 0, 1_000_000);
        case "line" -> seconds(p, value, "line", line);
        case "shared" -> seconds(p, value, "shared", shared);
        case "sharedUnknown" -> {
          require(value == JsonToken.VALUE_TRUE || value == JsonToken.VALUE_FALSE, "sharedUnknown must be a boolean");
          sharedUnknown = value == JsonToken.VALUE_TRUE;
        }
        case "admitted" -> admitted = places(p, value, "admitted");
        case "revokedPlaces" -> revokedPlaces = places(p, value, "revokedPlaces");
        case "browsing" -> browsing = browsing(p, value);
        case "origin" -> origin = origin(p, value);
        case "cut" -> {
          require(value == JsonToken.START_ARRAY, "cut must be an array");
          long place = integer(p, p.nextToken(), Long.MIN_VALUE, Long.MAX_VALUE);
          long holders = integer(p, p.nextToken(), 0, MAX_COUNT);
          require(p.nextToken() == JsonToken.END_ARRAY, "cut holds a place and a count");
          cut = new Tally.Cut(place, holders);
        }
        case "checkIns" -> {
          require(value == JsonToken.START_ARRAY, "checkIns must be an array of slices");
          while (p.nextToken() == JsonToken.START_ARRAY) {
            long slice = integer(p, p.nextToken(), 0, 0xFFFF_FFFFL);
            while (p.nextToken() == JsonToken.VALUE_NUMBER_INT) {
              require(checkIns.size() < 2 * MAX_ENTRIES, "too many check-ins");
              checkIns.add(slice);
              checkIns.add(p.getLongValue());
            }
            require(p.currentToken() == JsonToken.END_ARRAY, "a slice of checkIns holds places");
          }
          require(p.currentToken() == JsonToken.END_ARRAY, "checkIns must be an array of slices");
        }
        default -> p.skipChildren();
      }
    }
    require(epoch != Long.MIN_VALUE, "a tally lacks its epoch");
    for (Map.Entry<Long, Long> e : shared.entrySet()) {
      require(e.getValue() <= line.getOrDefault(e.getKey(), 0L), "more shared than in line at " + e.getKey());
    }
    require(!sharedUnknown || shared.isEmpty(), "shared holders listed but unknown");
    into.put(epoch,
        new Tally(active, outstandingLine + outstandingNew, recent, arrivals, line, admitted, checkIns.toArray(), shared,
            sharedUnknown, revokedPlaces, nodes, browsing, cut, origin));
  }

  /** A tally's {@code browsing}: four integers, a node's share of the room's, so possibly negative. */
  private static Tally.Browsing browsing(JsonParser p, @Nullable JsonToken value) throws IOException {
    require(value == JsonToken.START_ARRAY, "browsing must be an array");
    long stopped = integer(p, p.nextToken(), -MAX_COUNT, MAX_COUNT);
    long idle = integer(p, p.nextToken(), -MAX_COUNT, MAX_COUNT);
    long active = integer(p, p.nextToken(), -MAX_COUNT, MAX_COUNT);
    long seconds = integer(p, p.nextToken(), -MAX_COUNT << 20, MAX_COUNT << 20);
    require(p.nextToken() == JsonToken.END_ARRAY, "browsing holds four integers");
    return new Tally.Browsing(stopped, idle, active, seconds);
  }

  /** A tally's {@code origin}: failures, then pairs of bucket and count (see {@link Tally.Origin}). */
  private static Tally.Origin origin(JsonParser p, @Nullable JsonToken value) throws IOException {
    require(value == JsonToken.START_ARRAY, "origin must be an array");
    long failures = integer(p, p.nextToken(), 0, MAX_COUNT);
    LongList buckets = new LongList();
    while (p.nextToken() == JsonToken.VALUE_NUMBER_INT) {
      require(buckets.size() < 2 * Tally.Origin.BUCKETS, "too many origin buckets");
      buckets.add(p.getLongValue());
    }
    require(p.currentToken() == JsonToken.END_ARRAY, "origin must hold integers");
    long[] pairs = buckets.toArray();
    for (int i = 1; i < pairs.length; i += 2) {
      require(pairs[i] <= MAX_COUNT, "origin count out of range");
    }
    try {
      return new Tally.Origin(failures, pairs);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a report: " + e.getMessage(), e);
    }
  }

  /** Whom a publisher counted: {@code []} for nobody yet, else five integers. */
  private static Report.Counted counted(JsonParser p, @Nullable JsonToken value) throws IOException {
    require(value == JsonToken.START_ARRAY, "counted must be an array");
    if (p.nextToken() == JsonToken.END_ARRAY) {
      return Report.Counted.NONE;
    }
    long epoch = integer(p, p.currentToken(), Long.MIN_VALUE + 1, Long.MAX_VALUE);
    int nodes = (int) integer(p, p.nextToken(), 0, 1_000_000);
    long nodesHash = integer(p, p.nextToken(), Long.MIN_VALUE, Long.MAX_VALUE);
    int dataCenters = (int) integer(p, p.nextToken(), 0, 1_000_000);
    long dataCentersHash = integer(p, p.nextToken(), Long.MIN_VALUE, Long.MAX_VALUE);
    expect(p, JsonToken.END_ARRAY);
    return new Report.Counted(epoch, nodes, nodesHash, dataCenters, dataCentersHash);
  }

  /** Pairs of an arrival second and a count, at most {@link #MAX_ENTRIES}, added into {@code into}. */
  private static void seconds(JsonParser p, @Nullable JsonToken value, String field, TreeMap<Long, Long> into)
      throws IOException {
    require(value == JsonToken.START_ARRAY, field + " must be an array of pairs");
    while (p.nextToken() == JsonToken.START_ARRAY) {
      long second = integer(p, p.nextToken(), 0, 0xFFFF_FFFFL);
      long count = integer(p, p.nextToken(), 0, MAX_COUNT);
      expect(p, JsonToken.END_ARRAY);
      into.merge(second, count, Long::sum);
      require(into.size() <= MAX_ENTRIES, field + " too long");
    }
  }

  /** An array of places, at most {@link #MAX_ENTRIES}. */
  private static long[] places(JsonParser p, @Nullable JsonToken value, String field) throws IOException {
    require(value == JsonToken.START_ARRAY, field + " must be an array");
    LongList places = new LongList();
    while (p.nextToken() == JsonToken.VALUE_NUMBER_INT) {
      require(places.size() < MAX_ENTRIES, "too many " + field);
      places.add(p.getLongValue());
    }
    require(p.currentToken() == JsonToken.END_ARRAY, field + " must hold places");
    return places.toArray();
  }

  private static long integer(JsonParser p, @Nullable JsonToken token, long min, long max) throws IOException {
    require(token == JsonToken.VALUE_NUMBER_INT, "expected an integer but found " + token);
    long v = p.getLongValue();
    require(v >= min && v <= max, "number out of range: " + v);
    return v;
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
