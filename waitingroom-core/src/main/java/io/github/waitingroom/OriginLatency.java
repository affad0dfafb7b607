package io.github.waitingroom;

import io.github.waitingroom.allocation.Tally;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What this node measured of the application's answers since its last tally: a latency histogram
 * of the requests it let through and how many failed ({@link Tally.Origin}). Request threads
 * {@link #record} without a lock or an allocation (one atomic add in an array); the sync thread
 * {@link #drain}s it into each tally. A request recorded while a tally drains counts in that tally
 * or the next, never in both or neither.
 */
final class OriginLatency {
  /** The counts by bucket, then the failures. */
  private final AtomicLongArray counts = new AtomicLongArray(Tally.Origin.BUCKETS + 1);

  /** Records one request the application answered in {@code nanos}, failed or not. */
  void record(long nanos, boolean failed) {
    counts.getAndIncrement(Tally.Origin.bucket(nanos / 1000));
    if (failed) {
      counts.getAndIncrement(Tally.Origin.BUCKETS);
    }
  }

  /** Everything recorded since the last drain, which this one takes. */
  Tally.Origin drain() {
    long[] taken = new long[Tally.Origin.BUCKETS];
    for (int i = 0; i < taken.length; i++) {
      if (counts.get(i) != 0) {
        taken[i] = counts.getAndSet(i, 0);
      }
    }
    long failures = counts.get(Tally.Origin.BUCKETS) != 0 ? counts.getAndSet(Tally.Origin.BUCKETS, 0) : 0;
    return Tally.Origin.of(failures, taken);
  }
}
