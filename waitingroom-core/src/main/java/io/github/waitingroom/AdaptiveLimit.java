package io.github.waitingroom;

import io.github.waitingroom.allocation.Tally;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * measured in the settled epochs it goes by (rule 4 says which; the same sums on every node), and every
 * node puts the new limit in force at the same instant, as it does with live settings. With the
 * limit in force {@code L}, the room's active users {@code A}, the requests measured {@code n},
 * the failures among them {@code f} and their 90th percentile latency {@code p}:
 *
 * <ol>
 *   <li>{@code n < }{@value #MIN_REQUESTS}: the limit holds (the 90th percentile of fewer than ten
 *       requests is their slowest one).
 *   <li>The room is over its limit ({@code A > L}, after the limit fell): it admits nobody, so
 *       what was measured is the load of the {@code A} users in use, and the gradient of rule 5
 *       would lower the limit step after step on the latency of users who have not left yet, far
 *       below what the application serves. Little's law says instead how many users are too many:
 *       the application holds {@code X * R} requests at once on average ({@code X} requests
 *       answered a second, {@code R} their mean latency), of which it would hold {@code X *
 *       latency} at the same rate if it answered within the target, so {@code Q = X * (R -
 *       latency)} requests wait beyond it, each that of a user who waits for it before their next
 *       request. Without those users the queue is gone: {@code L' = max(L * (1 - step), A - Q)}
 *       when that is below {@code L}; otherwise the limit holds. The estimate errs on the high
 *       side, so the limit does not fall below what the application serves: {@code R} counts each
 *       request at the lower edge of its bucket (at most 11 % short), and at the load whose 90th
 *       percentile is the target the mean is below it. It assumes a user waits for one request at
 *       a time; pages that send {@code k} requests at once through the room count each user
 *       {@code k} times, and the step bounds what that costs. The decision goes by the last
 *       {@value #DECIDE_EVERY_EPOCHS} epochs (users leave while the room waits, so older epochs
 *       measured more of them).
 *   <li>{@code f / n > failureShare}: the application fails; {@code L' = B * (1 - step)}, where
 *       {@code B}, what the room uses, is {@code L} when the limit holds people back (see below:
 *       someone waits for it, so it is in use even while some of its slots wait for slow pollers)
 *       and {@code A} otherwise.
 *   <li>The 90th percentile {@code p} is known only within its error, and the limit holds unless
 *       the target lies outside the band {@code [p-, p+]} that holds the true one. Two errors
 *       widen it, and the band reaches as far as the wider of them either way. Sampling: of {@code n}
 *       requests, the one of rank {@code 0.9 n} lies between the ranks {@code (0.9 - e) n} and
 *       {@code (0.9 + e) n}, {@code e = sqrt(0.09 / n)} (the binomial spread of how many requests
 *       fall below the true percentile, for any distribution of latencies). Time: requests that
 *       come together wait together (a queue that builds slows every request behind it), so their
 *       latencies are not independent and the binomial spread understates the error, by about
 *       four times on the simulated origin. The error that includes this is measured, as the
 *       method of batch means does: the epochs measured are cut into batches of at least {@value
 *       #MIN_REQUESTS} requests, and the standard error of {@code p} is the spread of the
 *       batches' 90th percentiles over the square root of their number ({@link
 *       #standardError}); the band reaches {@value #BAND_STANDARD_ERRORS} of them either side
 *       (about 95 %: the limit moves on chance alone about once in twenty decisions while the
 *       application keeps the target exactly, not one in three). With fewer than two batches the
 *       error is unknown, and the limit holds. The room measures over every epoch since the plans
 *       made under the limit in force took over, while the limit holds people back (the load is
 *       then the limit, the same in every epoch, so each epoch is more evidence about it; at most
 *       a session's epochs, which measured other users); otherwise over the last {@value
 *       #DECIDE_EVERY_EPOCHS} epochs. So the band narrows while the limit holds, and a limit near
 *       the target moves only once the measurements can tell.
 *   <li>{@code p- > latency}: the application is slower than asked; {@code L' = B * max(1 - step,
 *       latency / p-)} (the gradient: as many users as would answer within the target if latency
 *       grew in step with them, never less than a step below what the room uses).
 *   <li>{@code p+ < latency} and the limit holds people back (someone waits, and the limit leaves
 *       less room than the per-minute limit, or raises it with itself, so the per-minute limit is
 *       not what keeps them waiting): the application keeps up; {@code L' = L * min(1 + step,
 *       latency / p+)}. Within a step of the target ({@code p+ * (1 + step) > latency}), only if
 *       the last raise has had a refresh interval to show: the users a raise lets in come in as
 *       they poll, within a refresh interval of the plan that lets them, so until then the
 *       latency measured is that of the limit before, and raising again would overshoot.
 *   <li>Otherwise the limit holds: nobody waits for it, so a higher one would let nobody more in.
 * </ol>
 *
 * {@code L'} is rounded away from {@code L} (so a step moves at least one user) and kept within
 * {@code [min, max]}. A decrease starts from what the room uses, not from a limit far above it, so
 * a limit set far too high comes down to where the application began to slow in one decision,
 * and while the room is over it, the limit comes down a step a decision to the users the
 * application serves within the target (rule 2). It never sends anyone away: the room admits
 * nobody until enough sessions end. Why every
 * {@value #DECIDE_EVERY_EPOCHS} epochs: a new limit takes effect at the start of the epoch after
 * next, and the first plan made under it takes over two epochs later, so no decision could see
 * the effect of the one before it sooner.
 *
 * <h2>New users a minute</h2>
 *
 * With {@code scaleNewUsersPerMinute}, the room's {@code newUsersPerMinute} moves with the limit:
 * the configured new users a minute times the limit in force over the configured {@code
 * totalActiveUsers} (rounded, at least 1), so the share of the room that may be new in a minute
 * (a new session costs the application a login, a cart: what it can serve of those shrinks and
 * grows with what it can serve at all) stays as the operator set it. Without it, {@code
 * newUsersPerMinute} stays as configured, and at most the limit in force.
 *
 * @param min the lowest the limit goes, at least 1
 * @param max the highest the limit goes, at least {@code min}
 * @param latency the 90th percentile latency the application should keep, at least a millisecond
 * @param step the largest relative change of one decision, above 0 and at most 0.5
 * @param failureShare the share of failed requests above which the limit falls, 0 to 1
 * @param scaleNewUsersPerMinute whether {@code newUsersPerMinute} moves with the limit (see above)
 */
public record AdaptiveLimit(int min, int max, Duration latency, double step, double failureShare,
    boolean scaleNewUsersPerMinute) {

  /** How many epochs apart the room decides (see the class comment). */
  public static final int DECIDE_EVERY_EPOCHS = 4;

  /** The fewest requests a decision goes by, and a batch holds (see the class comment). */
  public static final int MIN_REQUESTS = 10;

  /** How many standard errors the band of the 90th percentile reaches either side (see the class comment). */
  public static final double BAND_STANDARD_ERRORS = 2;

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

  /** A limit whose {@code newUsersPerMinute} stays as configured (see the class comment). */
  public AdaptiveLimit(int min, int max, Duration latency, double step, double failureShare) {
    this(min, max, latency, step, failureShare, false);
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
    return new AdaptiveLimit(min, max, latency, step, failureShare, scaleNewUsersPerMinute);
  }

  /** This limit with another {@link #failureShare()}. */
  public AdaptiveLimit withFailureShare(double share) {
    return new AdaptiveLimit(min, max, latency, step, share, scaleNewUsersPerMinute);
  }

  /** This limit, with {@code newUsersPerMinute} moving with it or not (see the class comment). */
  public AdaptiveLimit withScaleNewUsersPerMinute(boolean scale) {
    return new AdaptiveLimit(min, max, latency, step, failureShare, scale);
  }

  /**
   * The new users a minute in force under the limit {@code limit}: the configured ones scaled by
   * {@code limit / totalActiveUsers} where {@link #scaleNewUsersPerMinute()}, rounded half up and
   * at least 1, otherwise as configured; at most {@code limit} either way.
   *
   * @param limit the limit in force
   * @param totalActiveUsers the configured limit of active users
   * @param newUsersPerMinute the configured new users a minute
   */
  public int newUsersPerMinute(int limit, int totalActiveUsers, int newUsersPerMinute) {
    long perMinute = scaleNewUsersPerMinute
        ? Math.max(1, Math.floorDiv(2L * newUsersPerMinute * limit + totalActiveUsers, 2L * totalActiveUsers))
        : newUsersPerMinute;
    return (int) Math.min(perMinute, limit);
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
   * @param holdsBack whether the limit holds people back: someone waits, and the per-minute limit
   *     is not what keeps them waiting (see {@code LimitController})
   * @param raisedLately whether a raise took effect less than a refresh interval ago
   * @param measured what the room measured in the epochs the decision goes by
   * @param standardError the standard error of their 90th percentile, in µs, from the spread of
   *     their batches ({@link #standardError}): infinite when unknown
   * @param seconds how long the epochs of {@code measured} lasted, in seconds: 0 when not known
   */
  public Decision next(int limit, long activeUsers, boolean holdsBack, boolean raisedLately, Tally.Origin measured,
      double standardError, double seconds) {
    long n = measured.requests();
    if (n < MIN_REQUESTS) {
      return new Decision(clamp(limit), "held: " + n + " requests measured, fewer than " + MIN_REQUESTS);
    }
    double target = latency.toNanos() / 1000.0;
    String of = " the target " + millis(latency.toNanos() / 1000) + " ms";
    if (activeUsers > limit) {
      // Rule 2: Little's law counts the requests that queue beyond the target, one user each.
      double perSecond = seconds > 0 ? n / seconds : 0;
      double mean = measured.meanMicros();
      double queued = perSecond * (mean - target) / 1e6;
      if (queued > 0 && activeUsers - queued < limit) {
        return new Decision(down(limit, Math.max(limit * (1 - step), activeUsers - queued)), String.format(Locale.ROOT,
            "lowered: %d active over the limit, %.0f requests a second answered in %s ms on average, %.0f of them queued"
                + " beyond%s", activeUsers, perSecond, millis(Math.round(mean)), queued, of));
      }
      return new Decision(clamp(limit), "held: " + activeUsers + " active over the limit, admitting nobody");
    }
    double inUse = holdsBack ? limit : Math.max(0, activeUsers);
    double failed = (double) measured.failures() / n;
    if (failed > failureShare) {
      return new Decision(down(limit, inUse * (1 - step)),
          String.format(Locale.ROOT, "lowered: %.1f %% of %d requests failed", 100 * failed, n));
    }
    if (!(standardError < Double.POSITIVE_INFINITY)) {
      return new Decision(clamp(limit), "held: " + n + " requests in one batch, the spread of their latencies unknown");
    }
    double spread = Math.sqrt(0.9 * 0.1 / n);
    long p90 = measured.quantileMicros(0.9);
    double byTime = BAND_STANDARD_ERRORS * standardError;
    long low = Math.max(0, Math.min(measured.quantileMicros(0.9 - spread), (long) Math.floor(p90 - byTime)));
    long high = Math.max(measured.quantileMicros(Math.min(1, 0.9 + spread)), (long) Math.ceil(p90 + byTime));
    String p = "p90 " + millis(low) + "-" + millis(high) + " ms";
    if (low > target) {
      return new Decision(down(limit, inUse * Math.max(1 - step, target / low)), "lowered: " + p + " over" + of);
    }
    if (high >= target) {
      return new Decision(clamp(limit), "held: " + p + " of " + n + " requests, around" + of);
    }
    if (holdsBack && raisedLately && high * (1 + step) > target) {
      return new Decision(clamp(limit), "held: " + p + " within a step of" + of + ", the last raise not shown yet");
    }
    if (holdsBack) {
      return new Decision(up(limit, limit * Math.min(1 + step, target / Math.max(1, high))),
          "raised: " + p + " within" + of + ", people waiting");
    }
    return new Decision(clamp(limit), "held: " + p + " within" + of + ", nobody waiting for the limit");
  }

  /**
   * The standard error, in µs, of the 90th percentile of {@code epochs} taken together, by the
   * method of batch means (see the class comment): consecutive epochs are taken together into
   * batches of at least {@value #MIN_REQUESTS} requests (what is left at the end joins the last
   * batch), and the error is the sample standard deviation of the batches' 90th percentiles over
   * the square root of their number.
   *
   * @param epochs what the room measured in each epoch, oldest first
   * @return the error, or infinity with fewer than two batches
   */
  public static double standardError(List<Tally.Origin> epochs) {
    List<Tally.Origin> batches = new ArrayList<>();
    Tally.Origin batch = Tally.Origin.NONE;
    for (Tally.Origin o : epochs) {
      batch = batch.plus(o);
      if (batch.requests() >= MIN_REQUESTS) {
        batches.add(batch);
        batch = Tally.Origin.NONE;
      }
    }
    if (batch.requests() > 0 && !batches.isEmpty()) {
      batches.set(batches.size() - 1, batches.get(batches.size() - 1).plus(batch));
    }
    int k = batches.size();
    if (k < 2) {
      return Double.POSITIVE_INFINITY;
    }
    double[] p90s = batches.stream().mapToDouble(b -> b.quantileMicros(0.9)).toArray();
    double mean = 0;
    for (double p : p90s) {
      mean += p;
    }
    mean /= k;
    double squares = 0;
    for (double p : p90s) {
      squares += (p - mean) * (p - mean);
    }
    return Math.sqrt(squares / (k - 1) / k);
  }

  private int down(int limit, double next) {
    return clamp(Math.min(limit - 1L, (long) Math.floor(whole(next))));
  }

  private int up(int limit, double next) {
    return clamp(Math.max(limit + 1L, (long) Math.ceil(whole(next))));
  }

  /**
   * {@code x}, or the whole number it lies within floating point's error of: a product such as
   * {@code 100 * (1 + 0.1)} is 110.00000000000001, which rounded up would move a user more than
   * the step.
   */
  private static double whole(double x) {
    double w = Math.rint(x);
    return Math.abs(x - w) <= 1e-12 * Math.max(1, Math.abs(x)) ? w : x;
  }

  private static String millis(long micros) {
    return micros % 1000 == 0 || micros >= 100_000 ? String.valueOf(Math.round(micros / 1000.0))
        : String.format(Locale.ROOT, "%.1f", micros / 1000.0);
  }
}
