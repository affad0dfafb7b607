package io.github.waitingroom;

import io.github.waitingroom.allocation.Tally;
import java.time.Duration;
import java.util.Objects;

/**
 * A limit of active users that follows the application: the room measures how the application
 * answers the requests it lets through ({@link WaitingRoom#originAnswered}) and sets its {@code
 * totalActiveUsers} by it, within {@code [min, max]}. Off unless a room's configuration or live
 * settings carry one ({@link RoomConfig.Builder#adaptiveLimit}).
 *
 * <h2>The control law</h2>
 *
 * One node of the room decides, every {@link #DECIDE_EVERY_EPOCHS} epochs, from what every node
 * measured in the settled epochs since its last decision (the same sums on every node), and every
 * node puts the new limit in force at the same instant, as it does with live settings. With the
 * limit in force {@code L}, the room's active users {@code A}, the requests measured {@code n},
 * the failures among them {@code f} and their 90th percentile latency {@code p}:
 *
 * <ol>
 *   <li>{@code n < }{@value #MIN_REQUESTS}: the limit holds (the 90th percentile of fewer than ten
 *       requests is their slowest one).
 *   <li>{@code f / n > failureShare}: the application fails; {@code L' = min(L, A) * (1 - step)}.
 *   <li>{@code p > latency}: the application is slower than asked; {@code L' = min(L, A) *
 *       max(1 - step, latency / p)} (the gradient: as many users as would answer within the
 *       target if latency grew in step with them, never less than a step below those in use).
 *   <li>{@code p <= latency} and {@code A >= L * (1 - step)}: the limit binds and the application
 *       keeps up; {@code L' = L * min(1 + step, latency / p)}.
 *   <li>Otherwise the limit holds: the room does not use it, so its latency says nothing about
 *       a higher one.
 * </ol>
 *
 * {@code L'} is rounded away from {@code L} (so a step moves at least one user) and kept within
 * {@code [min, max]}. A decrease starts from the users in use, not from a limit far above them, so
 * a limit set far too high comes down to where the application began to slow in one decision;
 * it never sends anyone away: the room admits nobody until enough sessions end. Why every
 * {@value #DECIDE_EVERY_EPOCHS} epochs: a new limit takes effect at the start of the epoch after
 * next, and the first plan made under it takes over two epochs later, so no decision could see
 * the effect of the one before it sooner.
 *
 * @param min the lowest the limit goes, at least 1
 * @param max the highest the limit goes, at least {@code min}
 * @param latency the 90th percentile latency the application should keep, at least a millisecond
 * @param step the largest relative change of one decision, above 0 and at most 0.5
 * @param failureShare the share of failed requests above which the limit falls, 0 to 1
 */
public record AdaptiveLimit(int min, int max, Duration latency, double step, double failureShare) {

  /** How many epochs apart the room decides (see the class comment). */
  public static final int DECIDE_EVERY_EPOCHS = 4;

  /** The fewest requests a decision goes by (see the class comment). */
  public static final int MIN_REQUESTS = 10;

  /** The default {@link #step()}: a tenth. */
  public static final double DEFAULT_STEP = 0.1;

  /** The default {@link #failureShare()}: one request in a hundred. */
  public static final double DEFAULT_FAILURE_SHARE = 0.01;

  /**
   * Checks every parameter.
   *
   * @throws IllegalArgumentException naming the first parameter out of range
   */
  public AdaptiveLimit {
    Objects.requireNonNull(latency, "latency");
    if (min < 1) {
      throw new IllegalArgumentException("adaptiveLimit.min must be at least 1 but was " + min);
    }
    if (max < min) {
      throw new IllegalArgumentException("adaptiveLimit.max (" + max + ") must not be below adaptiveLimit.min (" + min + ")");
    }
    if (latency.compareTo(Duration.ofMillis(1)) < 0 || latency.compareTo(Duration.ofMinutes(10)) > 0) {
      throw new IllegalArgumentException("adaptiveLimit.latency must be between 1 ms and 10 minutes but was " + latency);
    }
    if (!(step > 0 && step <= 0.5)) {
      throw new IllegalArgumentException("adaptiveLimit.step must be above 0 and at most 0.5 but was " + step);
    }
    if (!(failureShare >= 0 && failureShare <= 1)) {
      throw new IllegalArgumentException("adaptiveLimit.failureShare must be between 0 and 1 but was " + failureShare);
    }
  }

  /**
   * A limit between {@code min} and {@code max} that keeps the application's 90th percentile
   * latency within {@code latency}, with the default {@link #step()} and {@link #failureShare()}.
   */
  public static AdaptiveLimit between(int min, int max, Duration latency) {
    return new AdaptiveLimit(min, max, latency, DEFAULT_STEP, DEFAULT_FAILURE_SHARE);
  }

  /** This limit with another {@link #step()}. */
  public AdaptiveLimit withStep(double step) {
    return new AdaptiveLimit(min, max, latency, step, failureShare);
  }

  /** This limit with another {@link #failureShare()}. */
  public AdaptiveLimit withFailureShare(double share) {
    return new AdaptiveLimit(min, max, latency, step, share);
  }

  /** {@code limit} kept within {@code [min, max]}. */
  public int clamp(long limit) {
    return (int) Math.max(min, Math.min(max, limit));
  }

  /**
   * A decision of the control law: the next limit, and why.
   *
   * @param limit the limit from now on
   * @param reason why, in a few words, for the status and the log
   */
  public record Decision(int limit, String reason) {}

  /**
   * The control law (see the class comment).
   *
   * @param limit the limit in force
   * @param activeUsers the room's active users
   * @param measured what the room measured since the last decision
   */
  public Decision next(int limit, long activeUsers, Tally.Origin measured) {
    long n = measured.requests();
    if (n < MIN_REQUESTS) {
      return new Decision(clamp(limit), "held: " + n + " requests measured, fewer than " + MIN_REQUESTS);
    }
    double inUse = Math.min(limit, Math.max(0, activeUsers));
    double failed = (double) measured.failures() / n;
    long p90 = measured.quantileMicros(0.9);
    double target = latency.toNanos() / 1000.0;
    String p = "p90 " + millis(p90) + " ms";
    if (failed > failureShare) {
      return new Decision(down(limit, inUse * (1 - step)),
          String.format(java.util.Locale.ROOT, "lowered: %.1f %% of %d requests failed", 100 * failed, n));
    }
    if (p90 > target) {
      return new Decision(down(limit, inUse * Math.max(1 - step, target / p90)),
          "lowered: " + p + " over the target " + millis(latency.toNanos() / 1000) + " ms");
    }
    if (activeUsers >= limit * (1 - step)) {
      return new Decision(up(limit, limit * Math.min(1 + step, target / Math.max(1, p90))),
          "raised: " + p + " within the target, the limit in use");
    }
    return new Decision(clamp(limit), "held: " + p + " within the target, " + activeUsers + " active of " + limit);
  }

  private int down(int limit, double next) {
    return clamp(Math.min(limit - 1L, (long) Math.floor(next)));
  }

  private int up(int limit, double next) {
    return clamp(Math.max(limit + 1L, (long) Math.ceil(next)));
  }

  private static String millis(long micros) {
    return micros % 1000 == 0 || micros >= 100_000 ? String.valueOf(Math.round(micros / 1000.0))
        : String.format(java.util.Locale.ROOT, "%.1f", micros / 1000.0);
  }
}
