package io.github.waitingroom;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The settings of a room that an operator changes while it runs: one versioned document that
 * {@link WaitingRoom#updateSettings} hands to every node of the room through the same store as the
 * reports, sealed with the room's keys. Immutable.
 *
 * <p>Version 0 is the {@link RoomConfig} a node starts with ({@link #of(RoomConfig)}); every change
 * has a higher version, and the highest version sealed with the room's keys wins on every node. A
 * node that never saw a change runs on its configuration; one that did keeps the last good
 * document whatever the store loses, and a restarted node picks it up at its first sync.
 *
 * <p>The JSON form, for operators and the servlet's operator endpoint (every field may be left
 * out, and keeps the value of the document it is applied to; see {@link #fromJson(String,
 * RoomSettings)}):
 *
 * <pre>{@code
 * {"version": 4, "totalActiveUsers": 500, "newUsersPerMinute": 100, "sessionDuration": "PT5M",
 *  "queueingMethod": "fifo", "queueAll": false, "suspended": false,
 *  "disableSessionRenewal": false, "texts": {"title": "The spring sale"},
 *  "events": [{"name": "drop", "prequeueStart": "2026-12-04T17:30:00Z", "start": "2026-12-04T18:00:00Z",
 *              "end": "2026-12-04T20:00:00Z", "shuffleAtEventStart": true, "totalActiveUsers": 2000,
 *              "queueingMethod": "fifo", "texts": {"title": "The drop"}}]},
 *  "adaptiveLimit": {"min": 100, "max": 2000, "latency": "PT0.5S", "step": 0.1, "failureShare": 0.01}}
 * }</pre>
 *
 * @param version the document's version: 0 for a node's own configuration, higher for each change
 * @param totalActiveUsers how many users may be active at once (see {@link RoomConfig})
 * @param newUsersPerMinute how many users may be admitted in any sliding minute
 * @param sessionDuration how long an admitted user stays counted after their last request (after
 *     their admission with {@code disableSessionRenewal}); at most the configured one, which sizes
 *     how long the store keeps reports, and at least the configured slice width
 * @param queueingMethod how the room lets people in
 * @param queueAll every newcomer waits, even while slots are free, and nobody is let in from the
 *     line (a controlled opening: switch it off and the line moves in order); active users go on
 * @param suspended the whole room waits, active users too, for maintenance: nobody reaches the
 *     application, newcomers get a place, and every session and place is kept (a session still
 *     ends once it has not been used for its duration)
 * @param disableSessionRenewal a session ends {@code sessionDuration} after admission, however
 *     active the user is
 * @param texts page texts that replace the built-in ones, by message key ({@code title}, {@code
 *     text.queued}, ...; see {@code waitingroom-http}'s messages), in every language: at most
 *     {@value #MAX_TEXTS} entries, keys of letters, digits, dots and dashes, values of at most
 *     {@value #MAX_TEXT_LENGTH} characters
 * @param events scheduled events, by start, at most {@value #MAX_EVENTS}, none overlapping
 *     another (from its pre-queue start, or its start, to its end)
 * @param adaptiveLimit how the limit of active users follows the application ({@link
 *     AdaptiveLimit}), or {@code null} (JSON {@code null}) for the fixed {@code totalActiveUsers}:
 *     an operator pins the limit by publishing it with {@code null}. While it is set, {@code
 *     totalActiveUsers} is where the limit starts from when the document takes effect, and an
 *     event's limits give way to it
 */
public record RoomSettings(
    long version,
    int totalActiveUsers,
    int newUsersPerMinute,
    Duration sessionDuration,
    QueueingMethod queueingMethod,
    boolean queueAll,
    boolean suspended,
    boolean disableSessionRenewal,
    Map<String, String> texts,
    List<Event> events,
    @Nullable AdaptiveLimit adaptiveLimit) {

  /** Settings without an adaptive limit. */
  public RoomSettings(long version, int totalActiveUsers, int newUsersPerMinute, Duration sessionDuration,
      QueueingMethod queueingMethod, boolean queueAll, boolean suspended, boolean disableSessionRenewal,
      Map<String, String> texts, List<Event> events) {
    this(version, totalActiveUsers, newUsersPerMinute, sessionDuration, queueingMethod, queueAll, suspended,
        disableSessionRenewal, texts, events, null);
  }

  /** The most page texts a document may replace. */
  public static final int MAX_TEXTS = 64;

  /** The longest page text accepted. */
  public static final int MAX_TEXT_LENGTH = 2000;

  /** The most events a room may have scheduled. */
  public static final int MAX_EVENTS = 5;

  /** The longest JSON document accepted. */
  public static final int MAX_JSON_LENGTH = 1 << 16;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern TEXT_KEY = Pattern.compile("[A-Za-z0-9.-]{1,64}");

  /** How a room lets people in (Cloudflare's names). */
  public enum QueueingMethod {
    /** First in, first out: the line moves in arrival order (the default). */
    FIFO,
    /**
     * Everyone waiting has the same chance whenever a slot frees, however long they have waited:
     * each plan lets in holders drawn at random among all who wait. People who were already in line
     * when the room switched to it go first.
     */
    RANDOM,
    /**
     * Nobody queues: everyone goes in, whatever the limits, and is still counted, so the status and
     * the metrics stay true.
     */
    PASSTHROUGH,
    /**
     * No new users at all: newcomers and everyone waiting get a static "sold out" page; active
     * users go on until their sessions end.
     */
    REJECT;

    /** The name in JSON: {@code fifo}, {@code passthrough}, {@code reject}. */
    public String jsonName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The method with this JSON name.
     *
     * @throws IllegalArgumentException naming {@code queueingMethod} and the methods known
     */
    public static QueueingMethod ofJsonName(String name) {
      for (QueueingMethod m : values()) {
        if (m.jsonName().equals(name)) {
          return m;
        }
      }
      throw new IllegalArgumentException(
          "queueingMethod must be one of fifo, random, passthrough, reject but was '" + printable(name) + "'");
    }
  }

  /**
   * Checks every field on its own; {@link #checkAgainst(RoomConfig)} checks them against a room's
   * configuration.
   *
   * @throws IllegalArgumentException naming the first field that is out of range
   */
  public RoomSettings {
    Objects.requireNonNull(sessionDuration, "sessionDuration");
    Objects.requireNonNull(queueingMethod, "queueingMethod");
    Objects.requireNonNull(texts, "texts");
    Objects.requireNonNull(events, "events");
    if (version < 0) {
      throw new IllegalArgumentException("version must not be negative but was " + version);
    }
    if (totalActiveUsers <= 0) {
      throw new IllegalArgumentException("totalActiveUsers must be positive but was " + totalActiveUsers);
    }
    if (newUsersPerMinute <= 0) {
      throw new IllegalArgumentException("newUsersPerMinute must be positive but was " + newUsersPerMinute);
    }
    if (adaptiveLimit == null && newUsersPerMinute > totalActiveUsers) {
      throw new IllegalArgumentException("newUsersPerMinute (" + newUsersPerMinute
          + ") must not exceed totalActiveUsers (" + totalActiveUsers + ")");
    }
    if (adaptiveLimit != null && newUsersPerMinute > adaptiveLimit.max()) {
      // The limit moves: new users a minute are at most the limit in force (RoomConfig#withTotalActiveUsers).
      throw new IllegalArgumentException("newUsersPerMinute (" + newUsersPerMinute
          + ") must not exceed adaptiveLimit.max (" + adaptiveLimit.max() + ")");
    }
    if (sessionDuration.isNegative() || sessionDuration.isZero() || sessionDuration.getNano() != 0) {
      throw new IllegalArgumentException(
          "sessionDuration must be a positive whole number of seconds but was " + sessionDuration);
    }
    texts = checkTexts(texts, "texts");
    events = List.copyOf(events);
    if (events.size() > MAX_EVENTS) {
      throw new IllegalArgumentException("events may hold at most " + MAX_EVENTS + " events but held " + events.size());
    }
    for (int i = 1; i < events.size(); i++) {
      Event before = events.get(i - 1);
      Event e = events.get(i);
      if (e.opens().isBefore(before.end())) {
        throw new IllegalArgumentException("events '" + before.name() + "' and '" + e.name()
            + "' overlap (sort events by start; one must end before the next opens, with its pre-queue)");
      }
    }
    for (Event e : events) {
      int active = e.totalActiveUsers() != null ? e.totalActiveUsers() : totalActiveUsers;
      int perMinute = e.newUsersPerMinute() != null ? e.newUsersPerMinute() : newUsersPerMinute;
      if (perMinute > active) {
        throw new IllegalArgumentException("events '" + e.name() + "': newUsersPerMinute (" + perMinute
            + ") must not exceed totalActiveUsers (" + active + ")");
      }
    }
  }

  private static Map<String, String> checkTexts(Map<String, String> texts, String field) {
    if (texts.size() > MAX_TEXTS) {
      throw new IllegalArgumentException(field + " may hold at most " + MAX_TEXTS + " entries but held " + texts.size());
    }
    TreeMap<String, String> copy = new TreeMap<>();
    texts.forEach(
        (k, v) -> {
          Objects.requireNonNull(k, field + " key");
          Objects.requireNonNull(v, field + "." + k);
          if (!TEXT_KEY.matcher(k).matches()) {
            throw new IllegalArgumentException(
                field + " keys must be 1 to 64 letters, digits, dots or dashes but one was '" + printable(k) + "'");
          }
          if (v.length() > MAX_TEXT_LENGTH) {
            throw new IllegalArgumentException(
                field + "." + k + " must be at most " + MAX_TEXT_LENGTH + " characters but had " + v.length());
          }
          copy.put(k, v);
        });
    return Collections.unmodifiableMap(copy);
  }

  /**
   * A scheduled event: from {@code start} to {@code end} its fields override the room's; from
   * {@code prequeueStart} to {@code start} the room pre-queues: newcomers get a place and a
   * countdown, nobody is let in, and at the start the line moves. With {@code
   * shuffleAtEventStart}, the places of everyone who pre-queued are drawn at random (a fair
   * lottery: each has the same chance of every rank, whatever node or data center they came to),
   * and everyone who arrives after the start queues behind them in arrival order.
   *
   * @param name 1 to 64 characters out of {@code A-Z a-z 0-9 . _ -}
   * @param prequeueStart when the pre-queue opens, or {@code null} for none
   * @param start when the event starts (whole seconds, like every instant here)
   * @param end when it ends, after its start
   * @param totalActiveUsers the event's limit of active users, or {@code null} for the room's
   * @param newUsersPerMinute the event's limit of new users a minute, or {@code null} for the room's
   * @param sessionDuration the event's session, or {@code null} for the room's
   * @param queueingMethod the event's queueing method, or {@code null} for the room's
   * @param shuffleAtEventStart whether the pre-queue is a lottery (needs {@code prequeueStart})
   * @param texts page texts of the event, over the room's
   */
  public record Event(
      String name,
      @Nullable Instant prequeueStart,
      Instant start,
      Instant end,
      @Nullable Integer totalActiveUsers,
      @Nullable Integer newUsersPerMinute,
      @Nullable Duration sessionDuration,
      @Nullable QueueingMethod queueingMethod,
      boolean shuffleAtEventStart,
      Map<String, String> texts) {

    /**
     * Checks every field.
     *
     * @throws IllegalArgumentException naming the event and the field that is wrong
     */
    public Event {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(start, "start");
      Objects.requireNonNull(end, "end");
      Objects.requireNonNull(texts, "texts");
      if (!NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "events: name must be 1 to 64 characters out of A-Z a-z 0-9 . _ - but was '" + printable(name) + "'");
      }
      String where = "events '" + name + "': ";
      for (Instant i : new Instant[] {prequeueStart, start, end}) {
        if (i != null && i.getNano() != 0) {
          throw new IllegalArgumentException(where + "times must be whole seconds but one was " + i);
        }
      }
      if (!end.isAfter(start)) {
        throw new IllegalArgumentException(where + "end (" + end + ") must be after start (" + start + ")");
      }
      if (prequeueStart != null && prequeueStart.isAfter(start)) {
        throw new IllegalArgumentException(
            where + "prequeueStart (" + prequeueStart + ") must not be after start (" + start + ")");
      }
      if (shuffleAtEventStart && (prequeueStart == null || !prequeueStart.isBefore(start))) {
        throw new IllegalArgumentException(where + "shuffleAtEventStart needs a prequeueStart before start");
      }
      if (totalActiveUsers != null && totalActiveUsers <= 0) {
        throw new IllegalArgumentException(where + "totalActiveUsers must be positive but was " + totalActiveUsers);
      }
      if (newUsersPerMinute != null && newUsersPerMinute <= 0) {
        throw new IllegalArgumentException(where + "newUsersPerMinute must be positive but was " + newUsersPerMinute);
      }
      if (sessionDuration != null
          && (sessionDuration.isNegative() || sessionDuration.isZero() || sessionDuration.getNano() != 0)) {
        throw new IllegalArgumentException(
            where + "sessionDuration must be a positive whole number of seconds but was " + sessionDuration);
      }
      texts = checkTexts(texts, where + "texts");
    }

    /** When the event opens: its pre-queue start, or its start. */
    public Instant opens() {
      return prequeueStart != null ? prequeueStart : start;
    }
  }

  /** The settings a node starts with: version 0, its configuration's limits and session, FIFO. */
  public static RoomSettings of(RoomConfig config) {
    return new RoomSettings(0, config.totalActiveUsers(), config.newUsersPerMinute(), config.sessionDuration(),
        QueueingMethod.FIFO, false, false, false, Map.of(), List.of(), config.adaptiveLimit());
  }

  /**
   * Checks these settings against the configuration of the room they are for.
   *
   * @throws IllegalArgumentException naming the field that the configuration does not allow
   */
  public RoomSettings checkAgainst(RoomConfig config) {
    if (sessionDuration.compareTo(config.sessionDuration()) > 0) {
      throw new IllegalArgumentException("sessionDuration (" + sessionDuration
          + ") must not exceed the room's configured sessionDuration (" + config.sessionDuration()
          + "), which sizes how long the store keeps what each node counts");
    }
    if (sessionDuration.compareTo(config.sliceWidth()) < 0) {
      throw new IllegalArgumentException("sessionDuration (" + sessionDuration
          + ") must not be shorter than the room's sliceWidth (" + config.sliceWidth() + ")");
    }
    for (Event e : events) {
      Duration session = e.sessionDuration();
      if (session != null && (session.compareTo(config.sessionDuration()) > 0 || session.compareTo(config.sliceWidth()) < 0)) {
        throw new IllegalArgumentException("events '" + e.name() + "': sessionDuration (" + session
            + ") must lie between the room's sliceWidth (" + config.sliceWidth() + ") and its configured"
            + " sessionDuration (" + config.sessionDuration() + ")");
      }
    }
    return this;
  }

  /**
   * These settings as they stand during an event: its limits, session, queueing method and texts
   * over the room's (same version, same events).
   */
  public RoomSettings forEvent(Event e) {
    Map<String, String> merged = new TreeMap<>(texts);
    merged.putAll(e.texts());
    try {
      return new RoomSettings(version,
          e.totalActiveUsers() != null ? e.totalActiveUsers() : totalActiveUsers,
          e.newUsersPerMinute() != null ? e.newUsersPerMinute() : newUsersPerMinute,
          e.sessionDuration() != null ? e.sessionDuration() : sessionDuration,
          e.queueingMethod() != null ? e.queueingMethod() : queueingMethod,
          queueAll, suspended, disableSessionRenewal, merged, events, adaptiveLimit);
    } catch (IllegalArgumentException ex) {
      throw new IllegalArgumentException("events '" + e.name() + "': " + ex.getMessage(), ex);
    }
  }

  /** The configuration with this document's limits and session: what plans and sessions run on. */
  RoomConfig applyTo(RoomConfig config) {
    if (config.totalActiveUsers() == totalActiveUsers && config.newUsersPerMinute() == newUsersPerMinute
        && config.sessionDuration().equals(sessionDuration) && Objects.equals(config.adaptiveLimit(), adaptiveLimit)) {
      return config;
    }
    return new RoomConfig(config.roomId(), totalActiveUsers, newUsersPerMinute, sessionDuration,
        config.bucketWidth(), config.sliceWidth(), config.refreshInterval(), config.waitingTimeout(), adaptiveLimit);
  }

  /**
   * Whether newcomers and people waiting may be let in now: not while {@code queueAll} or {@code
   * suspended} holds or the room rejects newcomers.
   */
  public boolean admitting() {
    return !queueAll && !suspended && queueingMethod != QueueingMethod.REJECT;
  }

  /** These settings under another version. */
  public RoomSettings withVersion(long newVersion) {
    return new RoomSettings(newVersion, totalActiveUsers, newUsersPerMinute, sessionDuration, queueingMethod,
        queueAll, suspended, disableSessionRenewal, texts, events, adaptiveLimit);
  }

  /** The JSON form (see the class comment), every field written. */
  public String toJson() {
    return SettingsJson.write(this);
  }

  /**
   * A document read from JSON, every field it leaves out taken from {@code base}; {@code version}
   * left out means {@code base}'s version plus one. Unknown fields are refused (a misspelt field
   * must not be silently ignored during a sale).
   *
   * @throws IllegalArgumentException naming the field that is wrong, or saying where the JSON is
   *     malformed
   */
  public static RoomSettings fromJson(String json, RoomSettings base) {
    return SettingsJson.read(json, base);
  }

  /** At most 64 printable ASCII characters of a value from outside, for an error message. */
  static String printable(String s) {
    return printable(s, 64);
  }

  /** At most {@code max} printable ASCII characters of {@code s}, each other character a '?'. */
  static String printable(String s, int max) {
    StringBuilder b = new StringBuilder(Math.min(s.length(), max));
    for (int i = 0; i < s.length() && b.length() < max; i++) {
      char c = s.charAt(i);
      b.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return b.toString();
  }
}
