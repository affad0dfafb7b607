package io.github.waitingroom;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The limits and timings of one waiting room. Immutable; build it with {@link #builder(String)}.
 *
 * <p>Every duration is a whole number of seconds, because tickets and counters work in seconds.
 * Every setting is checked when it is given and again, in combination, by {@link Builder#build()};
 * an error names the setting and the value that was rejected.
 *
 * <pre>{@code
 * RoomConfig config = RoomConfig.builder("ticket-shop")
 *     .totalActiveUsers(500)
 *     .newUsersPerMinute(100)
 *     .sessionDuration(Duration.ofMinutes(5))
 *     .build();
 * }</pre>
 *
 * @param roomId the room's name: 1 to 64 characters out of {@code A-Z a-z 0-9 . _ -}; tickets of
 *     one room never open in another
 * @param totalActiveUsers how many users may be active (admitted, session not expired) at once
 * @param newUsersPerMinute how many users may be admitted in any sliding minute
 * @param sessionDuration how long an admitted user stays counted after their last request
 * @param bucketWidth the width of the buckets of arrival time the line is reported in ({@link
 *     io.github.waitingroom.allocation.BucketState}, {@link WaitingRoom#line()}): a minute by
 *     default, as the published design's buckets. Admission orders the line more finely, by place
 *     (arrival second and random tie-break bits), so no bucket lets a later arrival in first
 * @param sliceWidth the resolution of the counters: a check-in moves a ticket from one slice to
 *     the next at most once per slice, so this is also how often an active ticket is re-issued,
 *     and a session counts up to one slice longer than {@code sessionDuration} (its last request
 *     may fall anywhere in the slice it is counted in). The default, one second, counts a session
 *     for its configured length rounded up to the whole second (tickets work in seconds), at the
 *     cost of re-issuing an active ticket on the first request of every second it makes requests
 *     in; a wider slice re-issues less often and counts sessions longer
 * @param refreshInterval how often a waiting user's page polls, and how often a waiting ticket is
 *     checked against the plan
 * @param waitingTimeout how long a waiting user who stops polling keeps their place: a tab in the
 *     background, a phone that switched apps, a laptop that slept. The line stops counting a
 *     silent holder within two of the refresh intervals it was told and two seconds (its due),
 *     and counts it again, at its old place, when it comes back within this time after that due
 *     (so a tab silent for this whole time from any moment between two polls keeps its place; the
 *     place cookie lives as long); after it, it arrives anew
 * @param adaptiveLimit how the limit of active users follows the application, or {@code null}
 *     (the default) for the fixed {@code totalActiveUsers}; with one, {@code totalActiveUsers} is
 *     the limit the room starts from (see {@link AdaptiveLimit})
 */
public record RoomConfig(
    String roomId,
    int totalActiveUsers,
    int newUsersPerMinute,
    Duration sessionDuration,
    Duration bucketWidth,
    Duration sliceWidth,
    Duration refreshInterval,
    Duration waitingTimeout,
    @Nullable AdaptiveLimit adaptiveLimit) {

  /** The default {@link #bucketWidth()}: one minute, as in the published design. */
  public static final Duration DEFAULT_BUCKET_WIDTH = Duration.ofMinutes(1);

  /**
   * The default {@link #waitingTimeout()}: ten minutes (at least three refresh intervals and a
   * slice), so that a hidden tab, which browsers let poll once a minute, or a phone away for a few
   * minutes keeps its place.
   */
  public static final Duration DEFAULT_WAITING_TIMEOUT = Duration.ofMinutes(10);

  /** The default {@link #refreshInterval()}: 20 seconds. */
  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(20);

  /** The default {@link #sliceWidth()}: one second, so that a session counts for its configured length. */
  public static final Duration DEFAULT_SLICE_WIDTH = Duration.ofSeconds(1);

  /** The longest session or timeout accepted: one day. */
  public static final Duration MAX_DURATION = Duration.ofDays(1);

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  /**
   * Checks every setting; prefer {@link #builder(String)}, which also fills in defaults.
   *
   * @throws IllegalArgumentException naming the first setting that is out of range
   */
  public RoomConfig {
    Objects.requireNonNull(sessionDuration, "sessionDuration");
    Objects.requireNonNull(bucketWidth, "bucketWidth");
    Objects.requireNonNull(sliceWidth, "sliceWidth");
    Objects.requireNonNull(refreshInterval, "refreshInterval");
    Objects.requireNonNull(waitingTimeout, "waitingTimeout");
    checkName("roomId", roomId);
    checkPositive("totalActiveUsers", totalActiveUsers);
    checkPositive("newUsersPerMinute", newUsersPerMinute);
    checkSeconds("sessionDuration", sessionDuration, MAX_DURATION);
    checkSeconds("bucketWidth", bucketWidth, Duration.ofHours(1));
    checkSeconds("sliceWidth", sliceWidth, Duration.ofHours(1));
    checkSeconds("refreshInterval", refreshInterval, Duration.ofMinutes(10));
    checkSeconds("waitingTimeout", waitingTimeout, MAX_DURATION);
    if (adaptiveLimit == null && newUsersPerMinute > totalActiveUsers) {
      throw new IllegalArgumentException(
          "newUsersPerMinute (" + newUsersPerMinute + ") must not exceed totalActiveUsers ("
              + totalActiveUsers + ")");
    }
    if (adaptiveLimit != null && newUsersPerMinute > adaptiveLimit.max()) {
      // The limit moves: new users a minute are at most the limit in force (see withTotalActiveUsers).
      throw new IllegalArgumentException("newUsersPerMinute (" + newUsersPerMinute
          + ") must not exceed adaptiveLimit.max (" + adaptiveLimit.max() + ")");
    }
    if (bucketWidth.getSeconds() % sliceWidth.getSeconds() != 0) {
      throw new IllegalArgumentException(
          "bucketWidth (" + bucketWidth + ") must be a whole multiple of sliceWidth (" + sliceWidth
              + ")");
    }
    if (sliceWidth.compareTo(sessionDuration) > 0) {
      throw new IllegalArgumentException(
          "sliceWidth (" + sliceWidth + ") must not exceed sessionDuration (" + sessionDuration
              + ")");
    }
    if (waitingTimeout.compareTo(refreshInterval.plus(sliceWidth)) <= 0) {
      throw new IllegalArgumentException(
          "waitingTimeout (" + waitingTimeout + ") must exceed refreshInterval + sliceWidth ("
              + refreshInterval.plus(sliceWidth)
              + "), or users who keep polling would lose their place");
    }
  }

  /**
   * Starts a configuration for the room with the given id.
   *
   * @param roomId 1 to 64 characters out of {@code A-Z a-z 0-9 . _ -}
   * @throws IllegalArgumentException if the id is not of that form
   */
  public static Builder builder(String roomId) {
    return new Builder(roomId);
  }

  /**
   * Returns a builder holding every setting of this configuration, to derive a variant: each
   * setting may be given once more on it.
   */
  public Builder toBuilder() {
    Builder b = new Builder(roomId);
    b.totalActiveUsers = totalActiveUsers;
    b.newUsersPerMinute = newUsersPerMinute;
    b.sessionDuration = sessionDuration;
    b.bucketWidth = bucketWidth;
    b.sliceWidth = sliceWidth;
    b.refreshInterval = refreshInterval;
    b.waitingTimeout = waitingTimeout;
    b.adaptiveLimit = adaptiveLimit;
    return b;
  }

  /**
   * This configuration with the limit of active users {@code limit} (an {@link AdaptiveLimit}'s),
   * and at most as many new users a minute, or, where its adaptive limit {@linkplain
   * AdaptiveLimit#scaleNewUsersPerMinute() scales them}, its new users a minute scaled with it
   * ({@link AdaptiveLimit#newUsersPerMinute}).
   */
  public RoomConfig withTotalActiveUsers(int limit) {
    int perMinute = adaptiveLimit != null ? adaptiveLimit.newUsersPerMinute(limit, totalActiveUsers, newUsersPerMinute)
        : Math.min(newUsersPerMinute, limit);
    return limit == totalActiveUsers && perMinute == newUsersPerMinute ? this : new RoomConfig(roomId, limit, perMinute,
        sessionDuration, bucketWidth, sliceWidth, refreshInterval, waitingTimeout, adaptiveLimit);
  }

  /** {@link #sliceWidth()} in seconds. */
  public long sliceSeconds() {
    return sliceWidth.getSeconds();
  }

  /** {@link #bucketWidth()} in seconds. */
  public long bucketSeconds() {
    return bucketWidth.getSeconds();
  }

  /** {@link #sessionDuration()} in seconds. */
  public long sessionSeconds() {
    return sessionDuration.getSeconds();
  }

  /** {@link #refreshInterval()} in seconds. */
  public long refreshSeconds() {
    return refreshInterval.getSeconds();
  }

  /** {@link #waitingTimeout()} in seconds. */
  public long waitingTimeoutSeconds() {
    return waitingTimeout.getSeconds();
  }

  /** The start (epoch second) of the slice holding the given epoch second. */
  public long sliceOf(long epochSecond) {
    return Math.floorDiv(epochSecond, sliceSeconds()) * sliceSeconds();
  }

  /** The bucket id (epoch second of the bucket's start) of a user arriving at the given second. */
  public long bucketOf(long epochSecond) {
    return Math.floorDiv(epochSecond, bucketSeconds()) * bucketSeconds();
  }

  /**
   * The first slice whose counts still fall within a window of {@code windowSeconds} at {@code
   * now}. A count in slice {@code s} stands for an event somewhere in {@code [s, s + slice)}, so
   * it counts while {@code s + slice + window > now}: windows are rounded up to whole slices,
   * which never forgets a user early.
   */
  public long firstSliceWithin(long now, long windowSeconds) {
    return sliceOf(now - windowSeconds - sliceSeconds()) + sliceSeconds();
  }

  /** The first slice whose active users still count at {@code now}. */
  public long firstActiveSlice(long now) {
    return firstSliceWithin(now, sessionSeconds());
  }

  /** The first slice whose waiting users still hold their place at {@code now}. */
  public long firstWaitingSlice(long now) {
    return firstSliceWithin(now, waitingTimeoutSeconds());
  }

  /**
   * Checks a name that ends up in keys, tickets and logs (room id, node id, data center): 1 to 64
   * characters out of {@code A-Z a-z 0-9 . _ -}.
   */
  static String checkName(String setting, String value) {
    Objects.requireNonNull(value, setting);
    if (!NAME.matcher(value).matches()) {
      throw new IllegalArgumentException(
          setting + " must be 1 to 64 characters out of A-Z a-z 0-9 . _ - but was '" + value + "'");
    }
    return value;
  }

  private static void checkPositive(String name, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive but was " + value);
    }
  }

  private static void checkSeconds(String name, Duration value, Duration max) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive but was " + value);
    }
    if (value.getNano() != 0) {
      throw new IllegalArgumentException(
          name + " must be a whole number of seconds but was " + value);
    }
    if (value.compareTo(max) > 0) {
      throw new IllegalArgumentException(name + " must be at most " + max + " but was " + value);
    }
  }

  /**
   * Builds a {@link RoomConfig}. {@code totalActiveUsers}, {@code newUsersPerMinute} and {@code
   * sessionDuration} are required; each other setting has a documented default. A setting given
   * twice on one builder is rejected, because that is almost always a mistake in wiring (the values
   * copied by {@link RoomConfig#toBuilder()} do not count as given).
   */
  public static final class Builder {
    private final String roomId;
    private final java.util.Set<String> given = new java.util.HashSet<>();
    private int totalActiveUsers;
    private int newUsersPerMinute;
    private @Nullable Duration sessionDuration;
    private @Nullable Duration bucketWidth;
    private @Nullable Duration sliceWidth;
    private @Nullable Duration refreshInterval;
    private @Nullable Duration waitingTimeout;
    private @Nullable AdaptiveLimit adaptiveLimit;

    private Builder(String roomId) {
      checkName("roomId", roomId);
      this.roomId = roomId;
    }

    /** Required: how many users may be active at once (at least 1). */
    public Builder totalActiveUsers(int value) {
      requireUnset("totalActiveUsers");
      checkPositive("totalActiveUsers", value);
      totalActiveUsers = value;
      return this;
    }

    /** Required: how many users may be admitted in any sliding minute (1..totalActiveUsers). */
    public Builder newUsersPerMinute(int value) {
      requireUnset("newUsersPerMinute");
      checkPositive("newUsersPerMinute", value);
      newUsersPerMinute = value;
      return this;
    }

    /** Required: how long an admitted user stays counted after their last request (1 s..1 day). */
    public Builder sessionDuration(Duration value) {
      requireUnset("sessionDuration");
      checkSeconds("sessionDuration", Objects.requireNonNull(value, "sessionDuration"), MAX_DURATION);
      sessionDuration = value;
      return this;
    }

    /**
     * The width of the buckets of arrival time the line is reported in ({@link WaitingRoom#line()}).
     * Admission orders the line by place (arrival second and tie-break), never by bucket. Default:
     * one minute.
     */
    public Builder bucketWidth(Duration value) {
      requireUnset("bucketWidth");
      checkSeconds("bucketWidth", Objects.requireNonNull(value, "bucketWidth"), Duration.ofHours(1));
      bucketWidth = value;
      return this;
    }

    /**
     * Counter resolution, and how often an active ticket is re-issued at most (see {@link
     * RoomConfig#sliceWidth()}). Default: {@link RoomConfig#DEFAULT_SLICE_WIDTH one second}.
     */
    public Builder sliceWidth(Duration value) {
      requireUnset("sliceWidth");
      checkSeconds("sliceWidth", Objects.requireNonNull(value, "sliceWidth"), Duration.ofHours(1));
      sliceWidth = value;
      return this;
    }

    /** How often a waiting page polls. Default: 20 seconds. */
    public Builder refreshInterval(Duration value) {
      requireUnset("refreshInterval");
      checkSeconds(
          "refreshInterval", Objects.requireNonNull(value, "refreshInterval"), Duration.ofMinutes(10));
      refreshInterval = value;
      return this;
    }

    /**
     * How long a waiting user who stops polling keeps their place (see {@link
     * RoomConfig#waitingTimeout()}). Default: {@link #DEFAULT_WAITING_TIMEOUT ten minutes}, or
     * three refresh intervals and a slice if that is longer.
     */
    public Builder waitingTimeout(Duration value) {
      requireUnset("waitingTimeout");
      checkSeconds("waitingTimeout", Objects.requireNonNull(value, "waitingTimeout"), MAX_DURATION);
      waitingTimeout = value;
      return this;
    }

    /**
     * Lets the limit of active users follow the application (see {@link AdaptiveLimit}): the room
     * starts from {@code totalActiveUsers} (kept within the limit's bounds) and moves it by how the
     * application answers. Default: none, the limit stays {@code totalActiveUsers}.
     */
    public Builder adaptiveLimit(AdaptiveLimit value) {
      requireUnset("adaptiveLimit");
      adaptiveLimit = Objects.requireNonNull(value, "adaptiveLimit");
      return this;
    }

    /**
     * Checks the combination and returns the configuration.
     *
     * @throws IllegalStateException if a required setting is missing
     * @throws IllegalArgumentException if settings contradict each other
     */
    public RoomConfig build() {
      if (totalActiveUsers == 0) {
        throw new IllegalStateException("totalActiveUsers is required for room '" + roomId + "'");
      }
      if (newUsersPerMinute == 0) {
        throw new IllegalStateException("newUsersPerMinute is required for room '" + roomId + "'");
      }
      Duration session = sessionDuration;
      if (session == null) {
        throw new IllegalStateException("sessionDuration is required for room '" + roomId + "'");
      }
      Duration bucket = bucketWidth == null ? DEFAULT_BUCKET_WIDTH : bucketWidth;
      Duration slice = sliceWidth == null ? DEFAULT_SLICE_WIDTH : sliceWidth;
      Duration refresh = refreshInterval == null ? DEFAULT_REFRESH_INTERVAL : refreshInterval;
      Duration least = refresh.multipliedBy(3).plus(slice);
      Duration timeout = waitingTimeout != null ? waitingTimeout
          : DEFAULT_WAITING_TIMEOUT.compareTo(least) > 0 ? DEFAULT_WAITING_TIMEOUT : least;
      return new RoomConfig(
          roomId, totalActiveUsers, newUsersPerMinute, session, bucket, slice, refresh, timeout, adaptiveLimit);
    }

    private void requireUnset(String name) {
      if (!given.add(name)) {
        throw new IllegalStateException(name + " was already set on this builder");
      }
    }
  }
}
