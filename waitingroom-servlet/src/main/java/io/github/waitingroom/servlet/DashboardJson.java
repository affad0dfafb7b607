package io.github.waitingroom.servlet;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.RoomMetrics;
import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.WaitingRoom;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;

/**
 * The dashboard's data, written with jackson-core's streaming generator: per room its limits,
 * {@link WaitingRoom#status()} and {@link WaitingRoom#metrics()}, histograms as cumulative bucket
 * counts so that the page can take differences between two polls. The fields are described in
 * the dashboard's documentation; keep the two in step.
 */
final class DashboardJson {
  private static final JsonFactory FACTORY = new JsonFactory();
  private static final long[] BOUNDS = RoomMetrics.SecondsHistogram.bounds();

  private DashboardJson() {}

  /**
   * Writes the data of the given rooms.
   *
   * @param timeMillis the time stamp of the reading, which the page's rates are computed over
   */
  static byte[] write(List<WaitingRoom> rooms, long timeMillis) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(2048 * rooms.size());
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.writeStartObject();
      g.writeNumberField("timeMillis", timeMillis);
      // Live settings (another issue) will give each room's settings a version; until then there is none.
      g.writeNullField("settingsVersion");
      g.writeArrayFieldStart("histogramBounds");
      for (long b : BOUNDS) {
        g.writeNumber(b);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("rooms");
      for (WaitingRoom room : rooms) {
        room(g, room);
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static void room(JsonGenerator g, WaitingRoom room) throws IOException {
    RoomConfig c = room.config();
    g.writeStartObject();
    g.writeStringField("roomId", c.roomId());
    g.writeStringField("dataCenter", room.dataCenter());
    g.writeStringField("nodeId", room.nodeId());

    g.writeObjectFieldStart("limits");
    g.writeNumberField("totalActiveUsers", c.totalActiveUsers());
    g.writeNumberField("newUsersPerMinute", c.newUsersPerMinute());
    g.writeNumberField("sessionSeconds", c.sessionSeconds());
    g.writeNumberField("refreshSeconds", c.refreshSeconds());
    g.writeNumberField("waitingTimeoutSeconds", c.waitingTimeoutSeconds());
    g.writeNumberField("sliceSeconds", c.sliceSeconds());
    g.writeEndObject();

    RoomStatus s = room.status();
    g.writeObjectFieldStart("status");
    g.writeNumberField("now", s.now());
    nullable(g, "planEpoch", s.planEpoch());
    g.writeNumberField("viewAgeMillis", s.viewAgeMillis());
    g.writeNumberField("activeUsers", s.activeUsers());
    g.writeNumberField("waitingUsers", s.waitingUsers());
    g.writeNumberField("freeSlots", s.freeSlots());
    g.writeNumberField("admissionsPerMinute", s.admissionsPerMinute());
    nullable(g, "cutoffSecond", s.cutoffSecond());
    g.writeNumberField("localActiveUsers", s.localActiveUsers());
    g.writeArrayFieldStart("dataCenters");
    for (String dc : s.dataCenters()) {
      g.writeString(dc);
    }
    g.writeEndArray();
    g.writeNumberField("roomNodes", s.roomNodes());
    g.writeBooleanField("transportFailing", s.transportFailing());
    shares(g, "dataCenterShares", s.dataCenterShares());
    shares(g, "nodeShares", s.nodeShares());
    g.writeEndObject();

    RoomMetrics m = room.metrics();
    g.writeObjectFieldStart("metrics");
    g.writeObjectFieldStart("decisions");
    for (Decision.Outcome o : Decision.Outcome.values()) {
      g.writeNumberField(o.name().toLowerCase(Locale.ROOT), m.decisions(o));
    }
    g.writeEndObject();
    g.writeNumberField("arrivals", m.arrivals());
    g.writeNumberField("admittedOnArrival", m.admittedOnArrival());
    g.writeNumberField("admittedFromLine", m.admittedFromLine());
    g.writeObjectFieldStart("rejected");
    for (RoomMetrics.Rejection r : RoomMetrics.Rejection.values()) {
      g.writeNumberField(r.name().toLowerCase(Locale.ROOT), m.rejected(r));
    }
    g.writeEndObject();
    g.writeNumberField("waitUnknown", m.waitUnknown());
    histogram(g, "timeInLine", m.timeInLine());
    histogram(g, "waitShown", m.waitShown());
    g.writeNumberField("syncs", m.syncs());
    g.writeNumberField("syncFailures", m.syncFailures());
    g.writeNumberField("syncNanos", m.syncNanos());
    g.writeNumberField("storeOutages", m.storeOutages());
    g.writeEndObject();

    g.writeEndObject();
  }

  private static void nullable(JsonGenerator g, String name, long value) throws IOException {
    if (value == Long.MIN_VALUE) {
      g.writeNullField(name);
    } else {
      g.writeNumberField(name, value);
    }
  }

  private static void shares(JsonGenerator g, String name, List<RoomStatus.Share> shares) throws IOException {
    g.writeArrayFieldStart(name);
    for (RoomStatus.Share sh : shares) {
      g.writeStartObject();
      g.writeStringField("name", sh.name());
      g.writeNumberField("activeUsers", sh.activeUsers());
      g.writeNumberField("waitingUsers", sh.waitingUsers());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  /**
   * A histogram as {@code count}, {@code sumSeconds} and {@code cumulative}: for each bound of
   * {@code histogramBounds} the durations at most that long, then all of them. The counts are read
   * from the lowest bucket up, and only grow, so they never decrease along the array; {@code count}
   * is the last of them.
   */
  private static void histogram(JsonGenerator g, String name, RoomMetrics.SecondsHistogram h) throws IOException {
    long[] cumulative = new long[BOUNDS.length + 1];
    for (int i = 0; i < cumulative.length; i++) {
      cumulative[i] = h.countAtMost(i);
    }
    g.writeObjectFieldStart(name);
    g.writeNumberField("count", cumulative[BOUNDS.length]);
    g.writeNumberField("sumSeconds", h.sumSeconds());
    g.writeArrayFieldStart("cumulative");
    for (long n : cumulative) {
      g.writeNumber(n);
    }
    g.writeEndArray();
    g.writeEndObject();
  }
}
