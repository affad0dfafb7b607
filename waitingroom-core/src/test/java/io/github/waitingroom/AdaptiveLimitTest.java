package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.allocation.Tally;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * The control law of {@link AdaptiveLimit#next}: each of its rules on its own, its rounding, its
 * bounds, and for any inputs a result within {@code [min, max]} that never moves more than a step.
 * Latencies are chosen on bucket edges of {@link Tally.Origin}, so that the measured 90th
 * percentile (the upper edge of its bucket) is known exactly.
 */
class AdaptiveLimitTest {
  /** Between 10 and 1000 users, a 90th percentile within 500 ms, steps of a tenth, 1 % failures. */
  private static final AdaptiveLimit LAW = AdaptiveLimit.between(10, 1000, Duration.ofMillis(500));

  /** 589,824 µs (9 << 16): the lower edge of a bucket, so a request of 600 ms has a p90 of 655,360 µs (10 << 16). */
  private static final long MICROS_600MS_P90 = 655_360;

  /** {@code n} requests answered in {@code micros} each, {@code failures} of them failed. */
  private static Tally.Origin answered(long n, long failures, long micros) {
    long[] counts = new long[Tally.Origin.BUCKETS];
    counts[Tally.Origin.bucket(micros)] = n;
    return Tally.Origin.of(failures, counts);
  }

  /** Fast answers: a p90 of 50 ms or so, a tenth of the target. */
  private static Tally.Origin fast(long n) {
    return answered(n, 0, 50_000);
  }

  @Test
  void fewerThanTenRequestsHoldTheLimitHoweverSlowOrFailedTheyAre() {
    AdaptiveLimit.Decision held = LAW.next(100, 100, answered(9, 9, 10_000_000));
    assertThat(held.limit()).isEqualTo(100);
    assertThat(held.reason()).isEqualTo("held: 9 requests measured, fewer than 10");
    assertThat(LAW.next(100, 100, Tally.Origin.NONE).limit()).as("nothing measured").isEqualTo(100);
    assertThat(LAW.next(100, 100, answered(AdaptiveLimit.MIN_REQUESTS, 10, 10_000_000)).limit())
        .as("ten requests decide").isLessThan(100);
  }

  @Test
  void failuresOverTheShareLowerTheLimitByAStepFromTheUsersInUse() {
    // 2 % of 100 requests failed (over 1 %), however fast they were answered.
    Tally.Origin failing = answered(100, 2, 50_000);
    AdaptiveLimit.Decision d = LAW.next(200, 100, failing);
    assertThat(d.limit()).as("a tenth below the 100 in use, not below the limit of 200").isEqualTo(90);
    assertThat(d.reason()).isEqualTo("lowered: 2.0 % of 100 requests failed");
    assertThat(LAW.next(200, 300, failing).limit()).as("more in use than the limit: from the limit").isEqualTo(180);
    assertThat(LAW.next(200, 0, failing).limit()).as("nobody in use: down to min").isEqualTo(10);
    assertThat(LAW.next(200, 200, answered(100, 1, 50_000)).limit())
        .as("exactly the share (1 of 100) is not over it: fast and in use, raised").isEqualTo(220);
    assertThat(LAW.withFailureShare(0.05).next(200, 200, failing).limit())
        .as("under a larger share, 2 % do not lower it").isEqualTo(220);
  }

  @Test
  void aP90OverTheTargetLowersTheLimitByTheGradientButNeverMoreThanAStep() {
    // A target of 524,288 µs (8 << 16) and a measured p90 of 655,360 µs: target / p90 = 0.8.
    AdaptiveLimit law = new AdaptiveLimit(10, 1000, Duration.ofNanos(524_288_000), 0.3, 0.01);
    Tally.Origin slow = answered(100, 0, 600_000);
    assertThat(slow.quantileMicros(0.9)).isEqualTo(MICROS_600MS_P90);
    assertThat(law.next(200, 100, slow).limit()).as("100 in use * 0.8").isEqualTo(80);
    assertThat(law.next(90, 100, slow).limit()).as("the limit of 90 in use * 0.8").isEqualTo(72);
    assertThat(law.withStep(0.1).next(200, 100, slow).limit()).as("a step of a tenth at most: 100 * 0.9").isEqualTo(90);
    AdaptiveLimit.Decision d = LAW.next(200, 100, answered(100, 0, 2_000_000));
    assertThat(d.limit()).as("four times too slow, still a step at most").isEqualTo(90);
    assertThat(d.reason()).startsWith("lowered: p90 ").endsWith(" ms over the target 500 ms");
    assertThat(LAW.next(200, 100, answered(100, 0, 600_000)).reason())
        .isEqualTo("lowered: p90 655 ms over the target 500 ms");
  }

  @Test
  void aP90WithinTheTargetRaisesALimitInUseByTheGradientButNeverMoreThanAStep() {
    // p90 50 ms or so, target 500 ms: the gradient is near 10, the step of a tenth bounds it.
    AdaptiveLimit.Decision d = LAW.next(200, 200, fast(100));
    assertThat(d.limit()).isEqualTo(220);
    assertThat(d.reason()).startsWith("raised: p90 ").endsWith(" ms within the target, the limit in use");
    // A target of 655,360 µs and a p90 of 589,824 µs (9 << 16): target / p90 = 10 / 9.
    AdaptiveLimit law = new AdaptiveLimit(10, 1000, Duration.ofNanos(655_360_000), 0.2, 0.01);
    Tally.Origin near = answered(100, 0, 550_000);
    assertThat(near.quantileMicros(0.9)).isEqualTo(589_824);
    assertThat(law.next(90, 90, near).limit()).as("90 * 10 / 9").isEqualTo(100);
    assertThat(law.next(100, 100, near).limit()).as("100 * 10 / 9 = 111.1, rounded up").isEqualTo(112);
    assertThat(law.next(100, 100, answered(100, 0, 100_000)).limit()).as("a step of a fifth at most").isEqualTo(120);
  }

  @Test
  void aLimitInUseIsOneWithAtLeastAllButAStepOfItsUsersActive() {
    assertThat(LAW.next(100, 90, fast(100)).limit()).as("90 of 100 active").isEqualTo(110);
    assertThat(LAW.next(100, 250, fast(100)).limit()).as("more active than the limit").isEqualTo(110);
    AdaptiveLimit.Decision held = LAW.next(100, 89, fast(100));
    assertThat(held.limit()).as("89 of 100 active: the limit is not in use").isEqualTo(100);
    assertThat(held.reason()).startsWith("held: p90 ").endsWith(" ms within the target, 89 active of 100");
    assertThat(LAW.next(100, 0, fast(100)).limit()).as("an empty room").isEqualTo(100);
  }

  @Test
  void aStepRoundsAwayFromTheLimitSoThatItMovesAtLeastOneUser() {
    assertThat(LAW.next(11, 11, fast(100)).limit()).as("11 * 1.1 = 12.1").isEqualTo(13);
    assertThat(LAW.next(12, 12, answered(100, 50, 50_000)).limit()).as("12 * 0.9 = 10.8").isEqualTo(10);
    AdaptiveLimit small = new AdaptiveLimit(1, 100, Duration.ofMillis(500), 0.1, 0.01);
    assertThat(small.next(5, 5, fast(100)).limit()).as("5 * 1.1 = 5.5").isEqualTo(6);
    assertThat(small.next(3, 3, fast(100)).limit()).as("3 * 1.1 = 3.3").isEqualTo(4);
    assertThat(small.next(5, 5, answered(100, 50, 50_000)).limit()).as("5 * 0.9 = 4.5").isEqualTo(4);
    assertThat(small.next(2, 2, answered(100, 50, 50_000)).limit()).as("2 * 0.9 = 1.8").isEqualTo(1);
  }

  /**
   * A step of a tenth from a limit of 100 is 10 users, exactly: 110, not 111. In floating point
   * 100 * 1.1 is 110.00000000000001, which rounded up away from the limit is 111.
   */
  @Test
  void aStepThatComesToAWholeNumberOfUsersMovesExactlyThatMany() {
    assertThat(LAW.next(100, 100, fast(100)).limit()).isEqualTo(110);
    assertThat(LAW.next(50, 50, fast(100)).limit()).isEqualTo(55);
    assertThat(LAW.next(200, 200, fast(100)).limit()).isEqualTo(220);
    assertThat(LAW.withStep(0.3).next(20, 20, answered(100, 50, 50_000)).limit()).as("20 * 0.7").isEqualTo(14);
    assertThat(LAW.withStep(0.3).next(100, 100, answered(100, 50, 50_000)).limit()).as("100 * 0.7").isEqualTo(70);
  }

  @Test
  void theResultStaysWithinMinAndMax() {
    AdaptiveLimit law = AdaptiveLimit.between(20, 50, Duration.ofMillis(500));
    assertThat(law.next(50, 50, fast(100)).limit()).as("at max, raised").isEqualTo(50);
    assertThat(law.next(48, 48, fast(100)).limit()).as("48 * 1.1 = 52.8").isEqualTo(50);
    assertThat(law.next(20, 20, answered(100, 100, 50_000)).limit()).as("at min, lowered").isEqualTo(20);
    assertThat(law.next(21, 21, answered(100, 100, 50_000)).limit()).as("21 * 0.9 = 18.9").isEqualTo(20);
    assertThat(law.next(500, 0, Tally.Origin.NONE).limit()).as("a limit above max, held").isEqualTo(50);
    assertThat(law.next(5, 5, Tally.Origin.NONE).limit()).as("a limit below min, held").isEqualTo(20);
    assertThat(law.clamp(Long.MAX_VALUE)).isEqualTo(50);
    assertThat(law.clamp(Long.MIN_VALUE)).isEqualTo(20);
  }

  @Test
  @SuppressWarnings("NullAway") // the null a caller without null checks could pass
  void aBadParameterIsRefusedByName() {
    Duration ms500 = Duration.ofMillis(500);
    assertThatThrownBy(() -> new AdaptiveLimit(0, 10, ms500, 0.1, 0.01)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("adaptiveLimit.min must be at least 1 but was 0");
    assertThatThrownBy(() -> new AdaptiveLimit(10, 9, ms500, 0.1, 0.01)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("adaptiveLimit.max (9) must not be below adaptiveLimit.min (10)");
    assertThatThrownBy(() -> new AdaptiveLimit(1, 10, null, 0.1, 0.01)).isInstanceOf(NullPointerException.class)
        .hasMessage("latency");
    for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofNanos(999_999), Duration.ofMillis(-5),
        Duration.ofMinutes(10).plusNanos(1)}) {
      assertThatThrownBy(() -> new AdaptiveLimit(1, 10, bad, 0.1, 0.01)).as("%s", bad)
          .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("adaptiveLimit.latency must be");
    }
    for (double bad : new double[] {0, -0.1, 0.5000001, 1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> new AdaptiveLimit(1, 10, ms500, bad, 0.01)).as("step %s", bad)
          .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("adaptiveLimit.step must be");
    }
    for (double bad : new double[] {-0.01, 1.01, Double.NaN}) {
      assertThatThrownBy(() -> new AdaptiveLimit(1, 10, ms500, 0.1, bad)).as("failureShare %s", bad)
          .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("adaptiveLimit.failureShare must be");
    }
    // The extremes are allowed.
    new AdaptiveLimit(1, 1, Duration.ofMillis(1), 0.5, 0);
    new AdaptiveLimit(1, Integer.MAX_VALUE, Duration.ofMinutes(10), Double.MIN_VALUE, 1);
  }

  @Provide
  Arbitrary<Integer> limits() {
    // Any limit, and round ones, where a step of whole percents comes to whole users.
    return Arbitraries.oneOf(Arbitraries.integers().between(1, 5000), Arbitraries.integers().between(1, 500).map(l -> l * 10));
  }

  /**
   * For any inputs (a limit in force inside or outside the bounds, active users around it,
   * requests at any latency, some failed, steps of whole percents as operators write them), the
   * next limit lies in {@code [min, max]}; it falls at most a step below {@code min(limit,
   * active)} (rounded down to a whole user) and rises at most a step above the limit (rounded up,
   * at least one user); it rises only by the fourth rule, and falls only by the second and third.
   */
  @Property(tries = 5000)
  void theNextLimitLiesWithinTheBoundsAndMovesAtMostAStep(
      @ForAll @IntRange(min = 1, max = 2000) int min,
      @ForAll @IntRange(min = 0, max = 2000) int span,
      @ForAll("limits") int limit,
      @ForAll @IntRange(min = 0, max = 150) int activePercent,
      @ForAll @IntRange(min = -2, max = 2) int activeOffset,
      @ForAll @LongRange(min = 0, max = 500) long requests,
      @ForAll @IntRange(min = 0, max = 30) int failedPermille,
      @ForAll @LongRange(min = 0, max = 1_000_000) long micros,
      @ForAll @IntRange(min = 1, max = 50) int stepPercent,
      @ForAll @IntRange(min = 0, max = 5) int sharePercent) {
    int max = min + span;
    AdaptiveLimit law = new AdaptiveLimit(min, max, Duration.ofMillis(500), stepPercent / 100.0, sharePercent / 100.0);
    long active = (long) limit * activePercent / 100 + activeOffset;
    long failures = requests * failedPermille / 1000;
    // Half the requests at the latency drawn, half at a tenth of it: the p90 is the former's.
    long[] counts = new long[Tally.Origin.BUCKETS];
    counts[Tally.Origin.bucket(micros)] += requests - requests / 2;
    counts[Tally.Origin.bucket(micros / 10)] += requests / 2;
    Tally.Origin measured = Tally.Origin.of(failures, counts);

    int next = law.next(limit, active, measured).limit();

    assertThat(next).isBetween(min, max);
    BigDecimal step = BigDecimal.valueOf(stepPercent, 2);
    long inUse = Math.min(limit, Math.max(0, active));
    long lowest = BigDecimal.valueOf(inUse).multiply(BigDecimal.ONE.subtract(step))
        .setScale(0, RoundingMode.FLOOR).longValueExact();
    long highest = Math.max(limit + 1L, BigDecimal.valueOf(limit).multiply(BigDecimal.ONE.add(step))
        .setScale(0, RoundingMode.CEILING).longValueExact());
    assertThat(next).as("at most a step below min(limit, active) = %s", inUse).isGreaterThanOrEqualTo(law.clamp(lowest));
    assertThat(next).as("at most a step above the limit %s", limit).isLessThanOrEqualTo(law.clamp(highest));
    boolean decides = measured.requests() >= AdaptiveLimit.MIN_REQUESTS;
    boolean failing = decides && failures * 100L > (long) sharePercent * measured.requests();
    boolean slow = decides && measured.quantileMicros(0.9) > 500_000;
    boolean limitInUse = BigDecimal.valueOf(active)
        .compareTo(BigDecimal.valueOf(limit).multiply(BigDecimal.ONE.subtract(step))) >= 0;
    if (next > law.clamp(limit)) {
      assertThat(decides && !failing && !slow && limitInUse).as("raised only when fast and in use").isTrue();
    }
    if (next < law.clamp(limit)) {
      assertThat(failing || slow).as("lowered only when failing or slow").isTrue();
    }
    if (decides && !failing && !slow && limitInUse && limit >= min && limit < max) {
      assertThat(next).as("fast and %s active of %s: in use, raised", active, limit).isGreaterThan(limit);
    }
    if ((failing || slow) && limit > min && limit <= max) {
      assertThat(next).as("failing or slow: lowered").isLessThan(limit);
    }
    if (!decides) {
      assertThat(next).as("too few requests: held").isEqualTo(law.clamp(limit));
    }
  }

  /**
   * Every limit up to 1000 and every step of whole percents: a step up is the limit times {@code
   * 1 + step} rounded up, a step down the users in use times {@code 1 - step} rounded down (each
   * at least one user), and a limit with all but a step of its users active is in use, exactly,
   * whatever floating point makes of the products.
   */
  @Property(tries = 50_000, generation = GenerationMode.EXHAUSTIVE)
  void aStepIsExactlyTheStepOfTheLimitRoundedAwayFromIt(
      @ForAll @IntRange(min = 1, max = 1000) int limit, @ForAll @IntRange(min = 1, max = 50) int stepPercent) {
    AdaptiveLimit law = new AdaptiveLimit(1, Integer.MAX_VALUE, Duration.ofMillis(500), stepPercent / 100.0, 0.01);
    long up = Math.max(limit + 1L, ceilDiv((long) limit * (100 + stepPercent), 100));
    long down = Math.max(1, Math.min(limit - 1L, (long) limit * (100 - stepPercent) / 100));
    long leastInUse = ceilDiv((long) limit * (100 - stepPercent), 100);
    assertThat(law.next(limit, limit, fast(100)).limit()).as("raised").isEqualTo(up);
    assertThat(law.next(limit, leastInUse, fast(100)).limit()).as("%s active: in use, raised", leastInUse).isEqualTo(up);
    assertThat(law.next(limit, leastInUse - 1, fast(100)).limit()).as("one fewer: held").isEqualTo(limit);
    assertThat(law.next(limit, limit, answered(100, 50, 50_000)).limit()).as("lowered").isEqualTo(down);
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }
}
