package io.github.waitingroom.coordinator;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.allocation.RoomView;
import io.github.waitingroom.coordinator.Report;
import java.time.Duration;
import java.util.Objects;

/**
 * How long a node waits before its next sync: a pure function of what the last sync saw, so that
 * it can be tested without threads or clocks. Immutable.
 *
 * <ul>
 *   <li><b>Changing</b> room (the number of live nodes or data centers changed, or the room-wide
 *       traffic of the last complete slice differs from the slice before by more than half and by
 *       at least {@value #TRAFFIC_CHANGE_FLOOR} requests): sync at the fastest cadence, so budgets
 *       follow a spike or a node joining or leaving within a fraction of the base interval.
 *   <li><b>Idle</b> room (nobody waits, nobody was admitted in the last minute, no traffic in the
 *       last two slices): stretch the previous delay by half, up to the slowest cadence.
 *   <li><b>Failing</b> transport: the base interval, never slower, so that a node is back in touch
 *       within two base intervals of the store answering again.
 *   <li>Otherwise the base interval.
 * </ul>
 *
 * Every delay gets a jitter of ±{@value #JITTER_PERCENT}% so that nodes started together do not
 * sync in lock step; it never goes below the fastest cadence or above the slowest.
 */
public final class SyncCadence {
  /** The jitter, in percent of the delay either way. */
  public static final int JITTER_PERCENT = 10;

  /** A traffic change smaller than this many requests per slice is noise, not a change. */
  public static final long TRAFFIC_CHANGE_FLOOR = 10;

  private final Duration base;
  private final Duration fastest;
  private final Duration slowest;

  /**
   * A cadence around {@code base}.
   *
   * @throws IllegalArgumentException unless {@code fastest <= base <= slowest}, all positive
   */
  public SyncCadence(Duration base, Duration fastest, Duration slowest) {
    Objects.requireNonNull(base, "syncInterval");
    Objects.requireNonNull(fastest, "fastest sync interval");
    Objects.requireNonNull(slowest, "slowest sync interval");
    if (fastest.isNegative() || fastest.isZero()) {
      throw new IllegalArgumentException("the fastest sync interval must be positive but was " + fastest);
    }
    if (fastest.compareTo(base) > 0 || base.compareTo(slowest) > 0) {
      throw new IllegalArgumentException(
          "sync intervals must satisfy fastest <= syncInterval <= slowest but were "
              + fastest + ", " + base + ", " + slowest);
    }
    this.base = base;
    this.fastest = fastest;
    this.slowest = slowest;
  }

  /** The base interval. */
  public Duration base() {
    return base;
  }

  /** The fastest cadence. */
  public Duration fastest() {
    return fastest;
  }

  /** The slowest cadence. */
  public Duration slowest() {
    return slowest;
  }

  /**
   * The delay before the next sync.
   *
   * @param previous the delay before the sync that just ran (without its jitter)
   * @param signal what that sync saw
   * @param random a number in {@code [0, 1)} for the jitter
   * @return the delay without jitter (to pass back as {@code previous}) and with it
   */
  public Delay next(Duration previous, Signal signal, double random) {
    Duration plain;
    if (signal == Signal.FAILING) {
      plain = base;
    } else if (signal == Signal.CHANGING) {
      plain = fastest;
    } else if (signal == Signal.IDLE) {
      Duration from = previous.compareTo(base) < 0 ? base : previous;
      plain = min(slowest, from.plus(from.dividedBy(2)));
    } else {
      plain = base;
    }
    long millis = plain.toMillis();
    long jitter = Math.round((random * 2 - 1) * millis * JITTER_PERCENT / 100.0);
    long jittered = Math.max(fastest.toMillis(), Math.min(slowest.toMillis(), millis + jitter));
    return new Delay(plain, Duration.ofMillis(Math.max(1, jittered)));
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /**
   * What a sync saw, reduced to what the cadence needs.
   *
   * @param previous the view of the sync before, or {@code null} for the first
   * @param previousNodes the live nodes of this data center at the sync before
   * @param failing whether this sync failed to reach the transport
   */
  public static Signal classify(
      RoomConfig config,
      @org.jspecify.annotations.Nullable RoomView previous,
      int previousNodes,
      RoomView current,
      int currentNodes,
      boolean failing) {
    if (failing) {
      return Signal.FAILING;
    }
    if (previous == null) {
      return Signal.CHANGING;
    }
    if (previousNodes != currentNodes
        || !previous.dataCenterNames().equals(current.dataCenterNames())) {
      return Signal.CHANGING;
    }
    long slice = config.sliceSeconds();
    long lastComplete = config.sliceOf(current.now()) - slice;
    long last = traffic(current, lastComplete);
    long before = traffic(current, lastComplete - slice);
    long change = Math.abs(last - before);
    if (change >= TRAFFIC_CHANGE_FLOOR && change * 2 > Math.max(last, before)) {
      return Signal.CHANGING;
    }
    if (current.waitingUsers() == 0 && current.admittedLastMinute() == 0 && last == 0 && before == 0) {
      return Signal.IDLE;
    }
    return Signal.STEADY;
  }

  private static long traffic(RoomView view, long slice) {
    long sum = 0;
    for (Report r : view.dataCenters().values()) {
      sum += r.traffic().getOrDefault(slice, 0L);
    }
    return sum;
  }

  /** The state of the room as far as the cadence cares. */
  public enum Signal {
    /** Traffic or membership is changing: sync fast. */
    CHANGING,
    /** Nothing happens: sync ever more slowly, up to the slowest cadence. */
    IDLE,
    /** Business as usual: the base interval. */
    STEADY,
    /** The transport failed: the base interval, to be back soon after it recovers. */
    FAILING
  }

  /**
   * A delay.
   *
   * @param plain without jitter
   * @param jittered what to wait
   */
  public record Delay(Duration plain, Duration jittered) {}
}
