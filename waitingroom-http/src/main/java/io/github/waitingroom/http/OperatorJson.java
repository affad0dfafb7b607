package io.github.waitingroom.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.RoomMetrics;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.WaitingRoom;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The dashboard's data, written with jackson-core's streaming generator: per room its limits,
 * {@link WaitingRoom#status()} and {@link WaitingRoom#metrics()}, histograms as cumulative bucket
 * counts so that the page can take differences between two polls. The fields are described in
 * the dashboard's documentation; keep the two in step.
 */
final class OperatorJson {
  private static final JsonFactory FACTORY = new JsonFactory();
  private static final long[] BOUNDS = RoomMetrics.SecondsHistogram.bounds();

  private OperatorJson() {}

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
      // The highest version of the rooms' settings in force (each room has its own, below).
      long version = 0;
      for (WaitingRoom room : rooms) {
        version = Math.max(version, room.settings().version());
      }
      g.writeNumberField("settingsVersion", version);
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
    RoomStatus s = room.status();
    RoomSettings live = s.settings();
    g.writeStartObject();
    g.writeStringField("roomId", c.roomId());
    g.writeStringField("dataCenter", room.dataCenter());
    g.writeStringField("nodeId", room.nodeId());
    g.writeNumberField("settingsVersion", live.version());
    g.writeStringField("queueingMethod", live.queueingMethod().jsonName());
    g.writeBooleanField("queueAll", live.queueAll());
    g.writeBooleanField("suspended", live.suspended());

    // The limits in force: the live settings' (the configuration's until an operator changes them),
    // or the adaptive limit's, with its bounds and the reason for its last move, and the new users
    // a minute under it.
    g.writeObjectFieldStart("limits");
    g.writeNumberField("totalActiveUsers", s.totalActiveUsers());
    io.github.waitingroom.AdaptiveLimit adaptive = live.adaptiveLimit();
    if (adaptive != null) {
      g.writeObjectFieldStart("adaptive");
      g.writeNumberField("min", adaptive.min());
      g.writeNumberField("max", adaptive.max());
      g.writeNumberField("latencyMillis", adaptive.latency().toMillis());
      g.writeBooleanField("scaleNewUsersPerMinute", adaptive.scaleNewUsersPerMinute());
      g.writeNumberField("startedAt", live.totalActiveUsers());
      g.writeStringField("reason", s.limitReason());
      g.writeEndObject();
    }
    g.writeNumberField("newUsersPerMinute", s.newUsersPerMinute());
    g.writeNumberField("sessionSeconds", live.sessionDuration().toSeconds());
    g.writeNumberField("refreshSeconds", c.refreshSeconds());
    g.writeNumberField("waitingTimeoutSeconds", c.waitingTimeoutSeconds());
    g.writeNumberField("sliceSeconds", c.sliceSeconds());
    g.writeEndObject();

    g.writeObjectFieldStart("status");
    g.writeNumberField("now", s.now());
    g.writeStringField("queueingStatus", s.queueingStatus());
    g.writeNumberField("maxWaitSeconds", s.maxWaitSeconds());
    nullable(g, "planEpoch", s.planEpoch());
    g.writeNumberField("viewAgeMillis", s.viewAgeMillis());
    g.writeNumberField("epochMillis", s.epochMillis());
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

  /** {@code GET <mapping>/status}: every room's {@link #status(WaitingRoom)}, under {@code rooms}. */
  static byte[] statuses(List<WaitingRoom> rooms) {
    return json(g -> {
      g.writeStartObject();
      g.writeArrayFieldStart("rooms");
      for (WaitingRoom room : rooms) {
        status(g, room);
      }
      g.writeEndArray();
      g.writeEndObject();
    });
  }

  /** {@code GET <mapping>/status?room=<id>}: one room's status in the words of Cloudflare's status API. */
  static byte[] status(WaitingRoom room) {
    return json(g -> status(g, room));
  }

  private static void status(JsonGenerator g, WaitingRoom room) throws IOException {
    RoomStatus s = room.status();
    long wait = s.maxWaitSeconds();
    g.writeStartObject();
    g.writeStringField("roomId", room.config().roomId());
    g.writeStringField("status", s.queueingStatus());
    // Cloudflare's event_id: the event pre-queueing or running now, "" when none.
    RoomSettings.Event event = s.event();
    g.writeStringField("eventId", event == null ? "" : event.name());
    g.writeNumberField("estimatedQueuedUsers", s.waitingUsers());
    g.writeNumberField("estimatedTotalActiveUsers", s.activeUsers());
    g.writeNumberField("maxEstimatedTimeMinutes", wait < 0 ? -1 : (wait + 59) / 60);
    g.writeNumberField("settingsVersion", s.settingsVersion());
    g.writeEndObject();
  }

  /**
   * {@code <mapping>/settings}: a room's settings document, the version in force on this node,
   * and (after a change) when the document takes effect.
   */
  static byte[] settings(WaitingRoom room, RoomSettings settings, @Nullable Instant activeFrom) {
    return json(g -> {
      g.writeStartObject();
      g.writeStringField("roomId", room.config().roomId());
      g.writeFieldName("settings");
      g.writeRawValue(settings.toJson());
      g.writeNumberField("versionInForce", room.settings().version());
      if (activeFrom != null) {
        g.writeStringField("activeFrom", activeFrom.toString());
      }
      g.writeEndObject();
    });
  }

  /** {@code {"error": message}}. */
  static byte[] error(String message) {
    return json(g -> {
      g.writeStartObject();
      g.writeStringField("error", message);
      g.writeEndObject();
    });
  }

  private interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  private static byte[] json(Body body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      body.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
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
