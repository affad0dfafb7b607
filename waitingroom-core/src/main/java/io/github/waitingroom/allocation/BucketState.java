package io.github.waitingroom.allocation;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The room's waiting line as the published design keeps it: buckets of arrival time, oldest first,
 * each with how many users who arrived in it are waiting. The width of a bucket is the room's
 * {@code bucketWidth} ({@link io.github.waitingroom.RoomConfig#bucketWidth()}, a minute by default,
 * as the design's minute buckets). This is how the line is reported (see {@link Plan#line(long)}
 * and {@code WaitingRoom#line()}); admission orders the line more finely, by place (arrival second
 * and random tie-break bits), so a bucket never lets a later arrival in before an earlier one.
 * Implementations are immutable.
 */
public interface BucketState {

  /**
   * One bucket.
   *
   * @param startSecond the first arrival second of the bucket (epoch seconds, a multiple of the
   *     width)
   * @param waiting the users waiting who arrived in it, each counted once
   */
  record Bucket(long startSecond, long waiting) {}

  /** The width of every bucket, in seconds. */
  long bucketSeconds();

  /** The buckets that hold someone, oldest first. */
  List<Bucket> buckets();

  /** Everyone waiting. */
  default long waiting() {
    return buckets().stream().mapToLong(Bucket::waiting).sum();
  }

  /** Users waiting who arrived before {@code second}, by whole buckets: those that end by then. */
  default long waitingBefore(long second) {
    long n = 0;
    for (Bucket b : buckets()) {
      if (b.startSecond() + bucketSeconds() <= second) {
        n += b.waiting();
      }
    }
    return n;
  }

  /**
   * The line of a tally, by arrival second, in buckets of {@code bucketSeconds}, each count divided
   * by {@code countsPerHolder} (a line summed over nodes may count a holder more than once) and
   * rounded.
   */
  static BucketState of(NavigableMap<Long, Long> line, long bucketSeconds, double countsPerHolder) {
    if (bucketSeconds < 1) {
      throw new IllegalArgumentException("bucketSeconds must be at least 1, not " + bucketSeconds);
    }
    TreeMap<Long, Long> sums = new TreeMap<>();
    line.forEach((second, count) -> sums.merge(Math.floorDiv(second, bucketSeconds) * bucketSeconds, count, Long::sum));
    List<Bucket> out = new ArrayList<>(sums.size());
    sums.forEach((start, count) -> {
      long once = Math.round(count / Math.max(1.0, countsPerHolder));
      if (once > 0) {
        out.add(new Bucket(start, once));
      }
    });
    List<Bucket> buckets = List.copyOf(out);
    return new BucketState() {
      @Override
      public long bucketSeconds() {
        return bucketSeconds;
      }

      @Override
      public List<Bucket> buckets() {
        return buckets;
      }

      @Override
      public String toString() {
        return "BucketState[" + bucketSeconds + " s, " + buckets + "]";
      }
    };
  }
}
