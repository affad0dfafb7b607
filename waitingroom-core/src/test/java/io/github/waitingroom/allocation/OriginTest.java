package io.github.waitingroom.allocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * {@link Tally.Origin}, the application's answers as a mergeable histogram: its buckets cover
 * every latency once and are at most 12.5 % wide, sums are exact, and its quantiles are never
 * below the true ones and at most a bucket's width above them.
 */
class OriginTest {
  private static final long MAX_MICROS = 1L << 33;

  @Provide
  Arbitrary<Long> latencies() {
    // Small latencies, the ones around bucket edges and octaves, and any up to 2^33 µs.
    return Arbitraries.oneOf(
        Arbitraries.longs().between(0, 100),
        Arbitraries.integers().between(0, 33).map(k -> 1L << k),
        Arbitraries.integers().between(0, 33).map(k -> (1L << k) - 1),
        Arbitraries.longs().between(0, MAX_MICROS));
  }

  @Provide
  Arbitrary<Tally.Origin> origins() {
    return Arbitraries.longs().between(0, 1000).list().ofMaxSize(10)
        .flatMap(samples -> Arbitraries.longs().between(0, 50).map(failures -> {
          long[] counts = new long[Tally.Origin.BUCKETS];
          for (long s : samples) {
            counts[Tally.Origin.bucket(s * s * 37)]++;
          }
          return Tally.Origin.of(failures, counts);
        }));
  }

  @Property(tries = 3000)
  void everyLatencyLiesInItsBucket(@ForAll("latencies") long v) {
    int b = Tally.Origin.bucket(v);
    assertThat(b).isBetween(0, Tally.Origin.BUCKETS - 1);
    assertThat(Tally.Origin.lowerMicros(b)).isLessThanOrEqualTo(v);
    assertThat(Tally.Origin.lowerMicros(b + 1)).isGreaterThan(v);
  }

  @Test
  void bucketsAscendWithoutGapsAndAreAtMostAnEighthWideAbove8Micros() {
    for (int i = 0; i < Tally.Origin.BUCKETS; i++) {
      long lower = Tally.Origin.lowerMicros(i);
      long upper = Tally.Origin.lowerMicros(i + 1);
      assertThat(upper).as("bucket %s", i).isGreaterThan(lower);
      assertThat(Tally.Origin.bucket(lower)).as("the lower edge of bucket %s", i).isEqualTo(i);
      assertThat(Tally.Origin.bucket(upper - 1)).as("the last latency of bucket %s", i).isEqualTo(i);
      if (lower >= 8) {
        assertThat((upper - lower) * 8).as("width of bucket %s from %s µs", i, lower).isLessThanOrEqualTo(lower);
      } else {
        assertThat(upper - lower).as("a bucket per microsecond below 8").isEqualTo(1);
      }
    }
    assertThat(Tally.Origin.lowerMicros(0)).isZero();
    assertThat(Tally.Origin.lowerMicros(Tally.Origin.BUCKETS)).as("over 4.7 hours").isGreaterThan(MAX_MICROS);
    assertThat(Tally.Origin.bucket(-5)).as("negative counts as 0").isZero();
    assertThat(Tally.Origin.bucket(Long.MAX_VALUE)).as("beyond the last bucket: the last").isEqualTo(Tally.Origin.BUCKETS - 1);
  }

  @Property(tries = 500)
  void sumsAddFailuresAndEveryBucketsCountExactly(
      @ForAll("origins") Tally.Origin a, @ForAll("origins") Tally.Origin b, @ForAll("origins") Tally.Origin c) {
    Tally.Origin ab = a.plus(b);
    assertThat(ab.failures()).isEqualTo(a.failures() + b.failures());
    assertThat(ab.requests()).isEqualTo(a.requests() + b.requests());
    long[] expected = new long[Tally.Origin.BUCKETS];
    for (Tally.Origin o : List.of(a, b)) {
      for (int i = 0; i < o.buckets().length; i += 2) {
        expected[(int) o.buckets()[i]] += o.buckets()[i + 1];
      }
    }
    assertThat(ab).isEqualTo(Tally.Origin.of(a.failures() + b.failures(), expected));
    assertThat(ab).as("commutative").isEqualTo(b.plus(a));
    assertThat(ab.plus(c)).as("associative").isEqualTo(a.plus(b.plus(c)));
    assertThat(a.plus(Tally.Origin.NONE)).isEqualTo(a);
    assertThat(Tally.Origin.NONE.plus(a)).isEqualTo(a);
    assertThat(ab.hashCode()).isEqualTo(b.plus(a).hashCode());
  }

  @Test
  void aSumOfTalliesSumsTheirOrigins() {
    Tally.Origin x = Tally.Origin.of(1, counts(5, 3L));
    Tally.Origin y = Tally.Origin.of(2, counts(5, 4L));
    Tally a = new Tally(1, 0, 0, 0, new java.util.TreeMap<>(), new long[0], new long[0], new java.util.TreeMap<>(),
        false, new long[0], 1, Tally.Browsing.NONE, Tally.Cut.NONE, x);
    Tally b = new Tally(1, 0, 0, 0, new java.util.TreeMap<>(), new long[0], new long[0], new java.util.TreeMap<>(),
        false, new long[0], 1, Tally.Browsing.NONE, Tally.Cut.NONE, y);
    assertThat(Tally.sum(List.of(a, b, Tally.EMPTY)).origin()).isEqualTo(Tally.Origin.of(3, counts(5, 7L)));
    assertThat(a.silent(60).origin()).as("a silent publisher measured nothing").isEqualTo(Tally.Origin.NONE);
    assertThat(a).isNotEqualTo(b);
  }

  /**
   * Against the sorted samples: the quantile is the upper edge of the bucket of the sample of
   * rank {@code ceil(q * n)}, so never below it and at most an eighth above it (above 8 µs; one
   * microsecond above it below).
   */
  @Property(tries = 2000)
  void aQuantileIsNeverBelowTheTrueOneAndAtMostAnEighthAbove(
      @ForAll @Size(min = 1, max = 300) List<@LongRange(min = 0, max = 1L << 33) Long> samples,
      @ForAll @IntRange(min = 1, max = 100) int percent) {
    double q = percent / 100.0;
    long[] counts = new long[Tally.Origin.BUCKETS];
    for (long s : samples) {
      counts[Tally.Origin.bucket(s)]++;
    }
    Tally.Origin o = Tally.Origin.of(0, counts);
    long[] sorted = samples.stream().mapToLong(Long::longValue).sorted().toArray();
    // ceil(percent * n / 100) in integers.
    int rank = (int) ((percent * (long) sorted.length + 99) / 100);
    long truth = sorted[Math.max(1, rank) - 1];
    long quantile = o.quantileMicros(q);
    assertThat(quantile).as("the %s %% quantile of %s", percent, Arrays.toString(sorted)).isGreaterThanOrEqualTo(truth);
    assertThat(quantile).as("at most an eighth above %s", truth).isLessThanOrEqualTo(truth + Math.max(1, truth / 8));
  }

  /**
   * Samples one a bucket, so that the bucket of each rank is known: for every share of whole
   * percents and every count up to 256, the quantile is the upper edge of the bucket of rank
   * {@code ceil(percent * n / 100)}, exactly, whatever floating point makes of {@code q * n}.
   */
  @Property(tries = 25_600, generation = GenerationMode.EXHAUSTIVE)
  void theQuantileOfAWholePercentIsTheUpperEdgeOfItsRanksBucket(
      @ForAll @IntRange(min = 1, max = 100) int percent, @ForAll @IntRange(min = 1, max = 256) int n) {
    long[] counts = new long[Tally.Origin.BUCKETS];
    java.util.Arrays.fill(counts, 0, n, 1);
    long rank = (percent * (long) n + 99) / 100;
    assertThat(Tally.Origin.of(0, counts).quantileMicros(percent / 100.0)).isEqualTo(Tally.Origin.lowerMicros((int) rank));
  }

  @Test
  void theSevenPercentQuantileOfAHundredIsTheSeventhRequest() {
    // 0.07 * 100 is 7.000000000000001 in floating point: rounded up, the eighth request, a second.
    Tally.Origin o = Tally.Origin.of(0, counts(10, 7L, Tally.Origin.bucket(1_000_000), 93L));
    assertThat(o.quantileMicros(0.07)).isEqualTo(11);
    assertThat(o.quantileMicros(0.08)).isEqualTo(Tally.Origin.lowerMicros(Tally.Origin.bucket(1_000_000) + 1));
  }

  @Property(tries = 200)
  void anyQuantileOfAnyShareStaysWithinTheMeasuredRange(
      @ForAll @Size(min = 1, max = 50) List<@LongRange(min = 0, max = 10_000_000) Long> samples,
      @ForAll @DoubleRange(min = 0, max = 1) double q) {
    long[] counts = new long[Tally.Origin.BUCKETS];
    for (long s : samples) {
      counts[Tally.Origin.bucket(s)]++;
    }
    Tally.Origin o = Tally.Origin.of(0, counts);
    long least = samples.stream().mapToLong(Long::longValue).min().orElseThrow();
    long most = samples.stream().mapToLong(Long::longValue).max().orElseThrow();
    assertThat(o.quantileMicros(q)).isGreaterThan(least).isLessThanOrEqualTo(most + Math.max(1, most / 8));
  }

  @Test
  void quantilesOfKnownCounts() {
    // 90 requests in bucket 10 (10 µs), 10 in bucket 100 (from 24,576 µs).
    Tally.Origin o = Tally.Origin.of(0, counts(10, 90L, 100, 10L));
    assertThat(o.requests()).isEqualTo(100);
    assertThat(o.quantileMicros(0.9)).as("rank 90 is the last in bucket 10").isEqualTo(11);
    assertThat(o.quantileMicros(0.91)).isEqualTo(Tally.Origin.lowerMicros(101));
    assertThat(o.quantileMicros(0)).as("the least").isEqualTo(11);
    assertThat(o.quantileMicros(1)).as("the most").isEqualTo(Tally.Origin.lowerMicros(101));
    assertThat(Tally.Origin.NONE.quantileMicros(0.9)).as("nothing measured").isZero();
    assertThat(Tally.Origin.of(3, new long[Tally.Origin.BUCKETS])).as("failures only").isEqualTo(new Tally.Origin(3, new long[0]));
    assertThat(Tally.Origin.NONE.isEmpty()).isTrue();
    assertThat(new Tally.Origin(1, new long[0]).isEmpty()).as("a failure counts").isFalse();
  }

  @Test
  @SuppressWarnings("NullAway") // the null a caller without null checks could pass
  void aSummaryRefusesAnythingButAscendingBucketsWithPositiveCounts() {
    List<long[]> bad = List.of(
        new long[] {1},
        new long[] {1, 2, 3},
        new long[] {-1, 1},
        new long[] {Tally.Origin.BUCKETS, 1},
        new long[] {3, 0},
        new long[] {3, -2},
        new long[] {3, 1, 3, 1},
        new long[] {5, 1, 4, 1});
    for (long[] pairs : bad) {
      assertThatThrownBy(() -> new Tally.Origin(0, pairs)).as(Arrays.toString(pairs))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> new Tally.Origin(-1, new long[0])).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Tally.Origin(0, null)).isInstanceOf(NullPointerException.class);
    long[] good = {0, 1, Tally.Origin.BUCKETS - 1, 7};
    Tally.Origin o = new Tally.Origin(2, good);
    good[1] = 100;
    assertThat(o.requests()).as("the buckets are copied").isEqualTo(8);
  }

  private static long[] counts(Object... bucketAndCount) {
    long[] counts = new long[Tally.Origin.BUCKETS];
    for (int i = 0; i < bucketAndCount.length; i += 2) {
      counts[(Integer) bucketAndCount[i]] = (Long) bucketAndCount[i + 1];
    }
    return counts;
  }
}
