package io.github.waitingroom.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomSettings;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The JSON status object, written with jackson-core's streaming generator. The fields are
 * documented in the README ("JSON status"); keep the two in step.
 */
final class StatusJson {
  private static final JsonFactory FACTORY = new JsonFactory();

  /**
   * The localized texts of a waiting answer, under {@code texts}: the template variables of these
   * names, which the page's poll script puts into its elements marked {@code data-wr="<name>"}.
   */
  static final List<String> TEXTS =
      List.of(
          "usersAheadFormatted", "waitTimeFormatted", "waitTimeRangeFormatted", "waitTimeLowFormatted",
          "waitTimeHighFormatted", "lastUpdatedFormatted", "text.lastUpdated", "text.usersAheadSentence",
          "text.refreshNote");

  private StatusJson() {}

  /**
   * Writes the status for one decision: with the additive fields {@code locale}, (while waiting)
   * {@code texts}, the challenge a newcomer is asked to meet ({@code status} {@code challenge}:
   * {@code challenge.token}, {@code challenge.difficulty} (0: no proof of work, only the penalty or
   * the human check) and {@code challenge.penaltySeconds} (after how long the challenge counts as met
   * without a proof)), and the room's live settings as hosted rooms name them ({@code
   * queueingMethod}, {@code isFIFO}, {@code isPassthrough}, {@code isReject}, {@code queueAll},
   * {@code suspended}, {@code settingsVersion}, {@code isRandom}) and the scheduled event's
   * ({@code isEventActive}, {@code isEventPrequeueing}, {@code eventName}, {@code
   * timeUntilEventStart} and {@code timeUntilEventEnd} in seconds (0 for none), their {@code
   * Formatted} English forms ({@code unavailable} for none), {@code shuffleAtEventStart}).
   *
   * @param viewTime the epoch second the figures stand at
   * @param locale the language of the texts, or {@code null} for none
   * @param texts the localized texts ({@link #TEXTS}), or {@code null} for none
   * @param settings the room's settings in force on this node
   */
  static String write(
      String roomId, Decision d, long viewTime, @Nullable String locale, @Nullable Map<String, String> texts,
      Friction.@Nullable Challenged challenge, RoomSettings settings, PageModel.EventNow event) {
    StringWriter out = new StringWriter(320);
    boolean waiting = !d.letsThrough();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.writeStartObject();
      g.writeObjectFieldStart("waitingRoom");
      g.writeStringField("roomId", roomId);
      g.writeBooleanField("inWaitingRoom", waiting);
      g.writeStringField("status", status(d.outcome()));
      g.writeNumberField("usersAhead", waiting ? d.usersAhead() : 0);
      // A rejected request has no place and no wait: it is not to poll again (refresh 0).
      boolean rejected = d.outcome() == Decision.Outcome.REJECT;
      boolean known = !waiting || !rejected && d.waitKnown();
      g.writeBooleanField("waitTimeKnown", known);
      if (known) {
        g.writeNumberField("waitTime", waiting ? d.waitMinutes() : 0);
        g.writeNumberField("waitTimeSeconds", waiting ? d.waitSeconds() : 0);
        g.writeArrayFieldStart("waitTimeRangeSeconds");
        g.writeNumber(waiting ? d.waitLowSeconds() : 0);
        g.writeNumber(waiting ? d.waitHighSeconds() : 0);
        g.writeEndArray();
      } else {
        g.writeNullField("waitTime");
        g.writeNullField("waitTimeSeconds");
        g.writeNullField("waitTimeRangeSeconds");
      }
      g.writeStringField("waitTimeFormatted", waiting && !rejected ? PageTemplate.formatWait(d.waitSeconds()) : "none");
      g.writeNumberField("refreshIntervalSeconds", waiting ? d.refreshSeconds() : 0);
      g.writeStringField("lastUpdated", Instant.ofEpochSecond(viewTime).toString());
      if (locale != null) {
        g.writeStringField("locale", locale);
      }
      if (challenge != null) {
        g.writeObjectFieldStart("challenge");
        g.writeStringField("token", challenge.token());
        g.writeNumberField("difficulty", challenge.difficulty());
        g.writeNumberField("penaltySeconds", challenge.remainingSeconds());
        g.writeEndObject();
      }
      if (texts != null) {
        g.writeObjectFieldStart("texts");
        for (Map.Entry<String, String> e : texts.entrySet()) {
          g.writeStringField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
      }
      RoomSettings.QueueingMethod method = settings.queueingMethod();
      g.writeStringField("queueingMethod", method.jsonName());
      g.writeBooleanField("isFIFO", method == RoomSettings.QueueingMethod.FIFO);
      g.writeBooleanField("isPassthrough", method == RoomSettings.QueueingMethod.PASSTHROUGH);
      g.writeBooleanField("isReject", method == RoomSettings.QueueingMethod.REJECT);
      g.writeBooleanField("isRandom", method == RoomSettings.QueueingMethod.RANDOM);
      g.writeBooleanField("queueAll", settings.queueAll());
      g.writeBooleanField("suspended", settings.suspended());
      g.writeNumberField("settingsVersion", settings.version());
      g.writeBooleanField("isEventActive", event.active());
      g.writeBooleanField("isEventPrequeueing", event.prequeueing());
      g.writeStringField("eventName", event.name());
      g.writeNumberField("timeUntilEventStart", event.untilStart());
      g.writeStringField("timeUntilEventStartFormatted", event.active() ? formatTime(event.untilStart()) : "unavailable");
      g.writeNumberField("timeUntilEventEnd", event.untilEnd());
      g.writeStringField("timeUntilEventEndFormatted", event.active() ? formatTime(event.untilEnd()) : "unavailable");
      g.writeBooleanField("shuffleAtEventStart", event.shuffle());
      g.writeEndObject();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /**
   * A time until an event's start or end in English, as Cloudflare writes its {@code
   * timeUntilEvent*Formatted}: {@code 12 minutes}, {@code 1 minute}, {@code 2 hours 5 minutes}
   * (minutes rounded up), {@code less than a minute} under a minute, and {@code 0 minutes} at zero.
   */
  static String formatTime(long seconds) {
    if (seconds <= 0) {
      return "0 minutes";
    }
    if (seconds < 60) {
      return "less than a minute";
    }
    long minutes = (seconds + 59) / 60;
    if (minutes < 120) {
      return minutes == 1 ? "1 minute" : minutes + " minutes";
    }
    long h = minutes / 60;
    long m = minutes % 60;
    return h + " hours" + (m == 0 ? "" : m == 1 ? " 1 minute" : " " + m + " minutes");
  }

  /** The {@code status} field: where the request stands after this decision. */
  static String status(Decision.Outcome outcome) {
    return switch (outcome) {
      case PASS -> "active";
      case ADMIT -> "admitted";
      case QUEUE -> "queued";
      case WAIT -> "waiting";
      case CHALLENGE -> "challenge";
      case REJECT -> "rejected";
    };
  }
}
