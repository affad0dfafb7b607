package io.github.waitingroom;

import java.util.concurrent.atomic.LongAdder;

/**
 * What one node of a room has done since it started, as counters that only grow: the metrics SPI
 * that {@code waitingroom-micrometer} (or any other metrics library) reads when it is scraped. The
 * room keeps them itself, always: on the request path each is one {@link LongAdder} increment,
 * without a lock or an allocation, whoever reads them.
 *
 * <pre>{@code
 * RoomMetrics m = room.metrics();
 * long admitted = m.admittedFromLine() + m.admittedOnArrival();
 * double p90 = m.timeInLine().quantile(0.9); // seconds
 * }</pre>
 *
 * <p>Counters of this node only; the room's figures (active users, users waiting, free slots)
 * come from {@link WaitingRoom#status()}. Thread-safe; each value is read on its own, so two
 * values read one after the other may be a request apart.
 */
public final class RoomMetrics {
  /** Why a ticket that a request carried was not taken: the request arrived anew. */
  public enum Rejection {
    /** It opened, but its session or its place in line had run out. */
    EXPIRED,
    /**
     * Sealed with a key this node's keyset does not have (enabled): a retired key, or another
     * room's or application's keyset.
     */
    FOREIGN,
    /**
     * Not a ticket this node's keys sealed for this room: it does not decode or authenticate
     * (tampered, truncated, made up, or sealed for another room with the same keys), or its
     * fields contradict each other.
     */
    FORGED,
    /**
     * Used far faster than one browser would (a cookie shared by many clients), see {@link
     * WaitingRoom.Builder#maxRequestsPerTicket}.
     */
    TOO_FAST,
    /** Its session was ended by the application ({@link WaitingRoom#revoke}). */
    REVOKED
  }

  private final LongAdder[] decisions = adders(Decision.Outcome.values().length);
  private final LongAdder[] rejections = adders(Rejection.values().length);
  private final LongAdder admittedOnArrival = new LongAdder();
  private final LongAdder admittedFromLine = new LongAdder();
  private final LongAdder waitUnknown = new LongAdder();
  private final LongAdder revoked = new LongAdder();
  private final SecondsHistogram timeInLine = new SecondsHistogram();
  private final SecondsHistogram waitShown = new SecondsHistogram();
  private final LongAdder syncs = new LongAdder();
  private final LongAdder syncFailures = new LongAdder();
  private final LongAdder syncNanos = new LongAdder();
  private final LongAdder storeOutages = new LongAdder();

  RoomMetrics() {}

  private static LongAdder[] adders(int n) {
    LongAdder[] a = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      a[i] = new LongAdder();
    }
    return a;
  }

  /** Requests decided with this outcome. */
  public long decisions(Decision.Outcome outcome) {
    return decisions[outcome.ordinal()].sum();
  }

  /** Tickets not taken for this reason (their requests arrived anew). */
  public long rejected(Rejection reason) {
    return rejections[reason.ordinal()].sum();
  }

  /** New arrivals let in at once (the room had a slot for them). */
  public long admittedOnArrival() {
    return admittedOnArrival.sum();
  }

  /** Users let in from the line. */
  public long admittedFromLine() {
    return admittedFromLine.sum();
  }

  /** Sessions ended by the application ({@link WaitingRoom#revoke}) on this node. */
  public long revoked() {
    return revoked.sum();
  }

  void recordRevoke() {
    revoked.increment();
  }

  /** New arrivals: those let in at once and those put in line. */
  public long arrivals() {
    return admittedOnArrival() + decisions(Decision.Outcome.QUEUE);
  }

  /**
   * How long the users this node let in from the line had waited, in seconds, from their arrival
   * (on whichever node) to their admission here.
   */
  public SecondsHistogram timeInLine() {
    return timeInLine;
  }

  /**
   * The wait this node told new arrivals it put in line, in seconds; those told the wait is
   * unknown are in {@link #waitUnknown()} instead.
   */
  public SecondsHistogram waitShown() {
    return waitShown;
  }

  /** New arrivals put in line and told their wait is unknown (see {@link Decision#waitSeconds()}). */
  public long waitUnknown() {
    return waitUnknown.sum();
  }

  /** Syncs run (background or {@link WaitingRoom#sync()}), whether they reached the store or not. */
  public long syncs() {
    return syncs.sum();
  }

  /** Syncs that failed to reach the store. */
  public long syncFailures() {
    return syncFailures.sum();
  }

  /** The time all syncs took, in nanoseconds. */
  public long syncNanos() {
    return syncNanos.sum();
  }

  /** Store outages: how often a sync failed after one that had reached the store (or at start). */
  public long storeOutages() {
    return storeOutages.sum();
  }

  void recordDecision(Decision d) {
    decisions[d.outcome().ordinal()].increment();
  }

  void recordRejection(Rejection reason) {
    rejections[reason.ordinal()].increment();
  }

  void recordAdmissionOnArrival() {
    admittedOnArrival.increment();
  }

  void recordAdmissionFromLine(long waitedSeconds) {
    admittedFromLine.increment();
    timeInLine.record(waitedSeconds);
  }

  void recordQueued(Decision d) {
    if (d.waitKnown()) {
      waitShown.record(d.waitSeconds());
    } else {
      waitUnknown.increment();
    }
  }

  void recordSync(long nanos, boolean reachedStore) {
    syncs.increment();
    syncNanos.add(nanos);
    if (!reachedStore) {
      syncFailures.increment();
    }
  }

  void recordStoreOutage() {
    storeOutages.increment();
  }

  /**
   * A histogram of durations in whole seconds with fixed bucket bounds (from 1 s to 2 h, about
   * three per factor of ten), lock-free and allocation-free to record. Counts only grow: for the
   * figures of a recent window, subtract an earlier reading of {@link #countAtMost} (as a
   * dashboard or Prometheus' {@code rate} does).
   */
  public static final class SecondsHistogram {
    private static final long[] BOUNDS = {
      0, 1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 450, 600, 900, 1200, 1800, 2700, 3600, 5400, 7200
    };

    private final LongAdder[] buckets = adders(BOUNDS.length + 1);
    private final LongAdder sum = new LongAdder();

    SecondsHistogram() {}

    void record(long seconds) {
      long s = Math.max(0, seconds);
      int i = 0;
      while (i < BOUNDS.length && s > BOUNDS[i]) {
        i++;
      }
      buckets[i].increment();
      sum.add(s);
    }

    /** The upper bounds of the buckets, in seconds (the last bucket, above them, has none). */
    public static long[] bounds() {
      return BOUNDS.clone();
    }

    /** How many durations were recorded. */
    public long count() {
      long n = 0;
      for (LongAdder b : buckets) {
        n += b.sum();
      }
      return n;
    }

    /** The sum of all durations recorded, in seconds. */
    public long sumSeconds() {
      return sum.sum();
    }

    /**
     * How many durations of at most {@code bounds()[i]} seconds were recorded; {@code i ==
     * bounds().length} gives {@link #count()}.
     */
    public long countAtMost(int i) {
      if (i < 0 || i > BOUNDS.length) {
        throw new IndexOutOfBoundsException("bucket " + i + " of " + (BOUNDS.length + 1));
      }
      long n = 0;
      for (int b = 0; b <= i; b++) {
        n += buckets[b].sum();
      }
      return n;
    }

    /**
     * The duration below which a fraction {@code q} of those recorded lie, in seconds,
     * interpolated linearly within its bucket (a duration above the last bound counts as that
     * bound); {@code NaN} when nothing was recorded.
     *
     * @param q between 0 and 1
     */
    public double quantile(double q) {
      if (!(q >= 0 && q <= 1)) {
        throw new IllegalArgumentException("a quantile is between 0 and 1: " + q);
      }
      long[] counts = new long[buckets.length];
      long total = 0;
      for (int i = 0; i < counts.length; i++) {
        counts[i] = buckets[i].sum();
        total += counts[i];
      }
      if (total == 0) {
        return Double.NaN;
      }
      double rank = q * total;
      long below = 0;
      for (int i = 0; i < counts.length; i++) {
        if (counts[i] > 0 && below + counts[i] >= rank) {
          if (i == 0 || i == BOUNDS.length) {
            return BOUNDS[Math.min(i, BOUNDS.length - 1)];
          }
          double low = BOUNDS[i - 1];
          return low + (BOUNDS[i] - low) * Math.max(0, rank - below) / counts[i];
        }
        below += counts[i];
      }
      return BOUNDS[BOUNDS.length - 1];
    }
  }
}
