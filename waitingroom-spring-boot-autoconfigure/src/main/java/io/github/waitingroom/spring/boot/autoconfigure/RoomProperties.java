package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.http.AdaptiveLimitSettings;
import io.github.waitingroom.http.GateSettings;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The settings of one room: its limits, here (the core's {@code RoomConfig}), and the paths it
 * guards, its cookie, its waiting page and its friction, inherited from {@link GateProperties} (the
 * HTTP gate's settings, declared in {@link GateSettings}). The application's main room takes them
 * at {@code waitingroom.*} ({@link WaitingRoomProperties} extends this class), each further room
 * at {@code waitingroom.rooms.<name>.*}. The limits ({@code total-active-users}, {@code
 * new-users-per-minute}, {@code session-duration}) are required; everything else has a default,
 * and the {@linkplain AdaptiveLimitProperties adaptive limit} ({@code adaptive-limit.*}) is off
 * unless set.
 */
public class RoomProperties extends GateProperties {

  /**
   * The room's id: names its store keys and its ticket cookie. 1 to 64 characters out of A-Z a-z
   * 0-9 . _ -; every node of one room uses the same id. Default: "default" for the main room, the
   * room's name for waitingroom.rooms.NAME.
   */
  private @Nullable String roomId;

  /** How many users may be active (admitted, session not expired) at once, room-wide. Required. */
  private @Nullable Integer totalActiveUsers;

  /** How many new users the room admits per minute at most, room-wide. Required. */
  private @Nullable Integer newUsersPerMinute;

  /** How long an admitted user stays active after their last request, in whole seconds. Required. */
  private @Nullable Duration sessionDuration;

  /** The width of the buckets of arrival time the line is reported in (admission orders by arrival second). Default: 1 minute. */
  private @Nullable Duration bucketWidth;

  /**
   * The width of a counting slice: how often an active user's check-in moves forward, and how much
   * longer than the session a session may count. Default: 1 second.
   */
  private @Nullable Duration sliceWidth;

  /** How often the waiting page reloads itself. Default: 20 seconds. */
  private @Nullable Duration refreshInterval;

  /**
   * How long a waiting user keeps their place without the page polling (a tab in the background, a
   * phone away), from when the line stops counting them (two of the intervals they were told and
   * two seconds after their last poll). Default: ten minutes, or three refresh intervals plus one
   * slice width if longer.
   */
  private @Nullable Duration waitingTimeout;

  /**
   * The adaptive limit of active users ({@code adaptive-limit.*}): off unless its min, max and
   * latency are set.
   */
  private final AdaptiveLimitProperties adaptiveLimit = new AdaptiveLimitProperties();

  /** Creates a room's properties with the defaults; Spring's binder calls it. */
  public RoomProperties() {}

  /**
   * {@return the room's {@code adaptive-limit.*} properties} Declared by {@link
   * AdaptiveLimitSettings}.
   */
  public AdaptiveLimitProperties getAdaptiveLimit() {
    return adaptiveLimit;
  }

  public @Nullable String getRoomId() {
    return roomId;
  }

  public void setRoomId(@Nullable String roomId) {
    this.roomId = roomId;
  }

  public @Nullable Integer getTotalActiveUsers() {
    return totalActiveUsers;
  }

  public void setTotalActiveUsers(@Nullable Integer totalActiveUsers) {
    this.totalActiveUsers = totalActiveUsers;
  }

  public @Nullable Integer getNewUsersPerMinute() {
    return newUsersPerMinute;
  }

  public void setNewUsersPerMinute(@Nullable Integer newUsersPerMinute) {
    this.newUsersPerMinute = newUsersPerMinute;
  }

  public @Nullable Duration getSessionDuration() {
    return sessionDuration;
  }

  public void setSessionDuration(@Nullable Duration sessionDuration) {
    this.sessionDuration = sessionDuration;
  }

  public @Nullable Duration getBucketWidth() {
    return bucketWidth;
  }

  public void setBucketWidth(@Nullable Duration bucketWidth) {
    this.bucketWidth = bucketWidth;
  }

  public @Nullable Duration getSliceWidth() {
    return sliceWidth;
  }

  public void setSliceWidth(@Nullable Duration sliceWidth) {
    this.sliceWidth = sliceWidth;
  }

  public @Nullable Duration getRefreshInterval() {
    return refreshInterval;
  }

  public void setRefreshInterval(@Nullable Duration refreshInterval) {
    this.refreshInterval = refreshInterval;
  }

  public @Nullable Duration getWaitingTimeout() {
    return waitingTimeout;
  }

  public void setWaitingTimeout(@Nullable Duration waitingTimeout) {
    this.waitingTimeout = waitingTimeout;
  }
  /**
   * The {@code adaptive-limit.*} properties of a room: a limit of active users that follows how
   * the application answers (the core's {@code AdaptiveLimit}), declared by {@link
   * AdaptiveLimitSettings}. Setting {@code min}, {@code max} and {@code latency} turns it on;
   * setting only some of them, or only {@code step}, {@code failure-share} or {@code
   * scale-new-users-per-minute}, fails at start-up, naming what is missing.
   */
  public static class AdaptiveLimitProperties {
    /** Declared by {@link AdaptiveLimitSettings#MIN} (the IDE metadata's description). */
    private @Nullable Integer min;

    /** Declared by {@link AdaptiveLimitSettings#MAX} (the IDE metadata's description). */
    private @Nullable Integer max;

    /** Declared by {@link AdaptiveLimitSettings#LATENCY} (the IDE metadata's description). */
    private @Nullable Duration latency;

    /** Declared by {@link AdaptiveLimitSettings#STEP} (the IDE metadata's description and default). */
    private @Nullable Double step;

    /** Declared by {@link AdaptiveLimitSettings#FAILURE_SHARE} (the IDE metadata's description and default). */
    private @Nullable Double failureShare;

    /** Declared by {@link AdaptiveLimitSettings#SCALE_NEW_USERS_PER_MINUTE} (the IDE metadata's description and default). */
    private @Nullable Boolean scaleNewUsersPerMinute;

    /** Creates the properties, none set; Spring's binder calls it. */
    public AdaptiveLimitProperties() {}

    /** {@return the lowest the limit goes, or {@code null} when not set} */
    public @Nullable Integer getMin() {
      return min;
    }

    /**
     * Sets the min.
     *
     * @param min the lowest the limit goes, or {@code null} when not set
     */
    public void setMin(@Nullable Integer min) {
      this.min = min;
    }

    /** {@return the highest the limit goes, or {@code null} when not set} */
    public @Nullable Integer getMax() {
      return max;
    }

    /**
     * Sets the max.
     *
     * @param max the highest the limit goes, or {@code null} when not set
     */
    public void setMax(@Nullable Integer max) {
      this.max = max;
    }

    /** {@return the 90th percentile latency the application should keep, or {@code null} when not set} */
    public @Nullable Duration getLatency() {
      return latency;
    }

    /**
     * Sets the latency.
     *
     * @param latency the 90th percentile latency the application should keep, or {@code null} when not set
     */
    public void setLatency(@Nullable Duration latency) {
      this.latency = latency;
    }

    /** {@return the largest relative change of one decision, or {@code null} for the default} */
    public @Nullable Double getStep() {
      return step;
    }

    /**
     * Sets the step.
     *
     * @param step the largest relative change of one decision, or {@code null} for the default
     */
    public void setStep(@Nullable Double step) {
      this.step = step;
    }

    /** {@return the share of failed answers above which the limit falls, or {@code null} for the default} */
    public @Nullable Double getFailureShare() {
      return failureShare;
    }

    /**
     * Sets the failure share.
     *
     * @param failureShare the share of failed answers above which the limit falls, or {@code null} for the default
     */
    public void setFailureShare(@Nullable Double failureShare) {
      this.failureShare = failureShare;
    }

    /**
     * {@return whether {@code new-users-per-minute} moves with the limit, or {@code null} for the
     * default (it does not)}
     */
    public @Nullable Boolean getScaleNewUsersPerMinute() {
      return scaleNewUsersPerMinute;
    }

    /**
     * Sets whether {@code new-users-per-minute} moves with the limit: the configured new users a
     * minute times the limit in force over {@code total-active-users} (the core's {@code
     * AdaptiveLimit#scaleNewUsersPerMinute}).
     *
     * @param scaleNewUsersPerMinute whether it moves with the limit, or {@code null} for the default
     */
    public void setScaleNewUsersPerMinute(@Nullable Boolean scaleNewUsersPerMinute) {
      this.scaleNewUsersPerMinute = scaleNewUsersPerMinute;
    }
  }
}
