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
 * The control law of {@link AdaptiveLimit#next}: each of its rules on its own and at its edges
 * (among them the edges of the 90th percentile's band, {@code p-} and {@code p+}), its rounding,
 * its bounds, and for any inputs a result within {@code [min, max]} that never moves more than a
 * step, and moves only by the rule that allows it. Latencies are chosen on bucket edges of {@link
 * Tally.Origin} ({@link Tally.Origin#lowerMicros}), so that every measured quantile (the upper
 * edge of its bucket) is known exactly: a request answered in {@code edge - 1} µs has a quantile
 * of {@code edge}.
 */
class AdaptiveLimitTest {
  /** Between 10 and 1000 users, a 90th percentile within 500 ms, steps of a tenth, 1 % failures. */
  private static final AdaptiveLimit LAW = AdaptiveLimit.between(10, 1000, Duration.ofMillis(500));

  /** 589,824 µs (9 << 16): the lower edge of a bucket, so a request of 600 ms has a p90 of 655,360 µs (10 << 16). */
  private static final long MICROS_600MS_P90 = 655_360;

  /** Bucket edges around the target of 500 ms, in µs: 458,752 (14 << 15), 491,520 (15 << 15), 524,288 (8 << 16), 589,824 (9 << 16). */
  private static final long E459 = Tally.Origin.lowerMicros(134);
  private static final long E492 = Tally.Origin.lowerMicros(135);
  private static final long E524 = Tally.Origin.lowerMicros(136);
  private static final long E590 = Tally.Origin.lowerMicros(137);

  /** A target of 524,288 µs (8 << 16), on a bucket edge. */
  private static final Duration TARGET_524 = Duration.ofNanos(E524 * 1000);

  /** Fast answers, 50 ms: a quantile of 53,248 µs (13 << 12), a tenth of the target. */
  private static final long FAST_MICROS = 50_000;

  /** Slow answers, 600 ms: a quantile of 655,360 µs, over the target of 500 ms. */
  private static final long SLOW_MICROS = 600_000;

  /** {@code n} requests answered in {@code micros} each, {@code failures} of them failed. */
  private static Tally.Origin answered(long n, long failures, long micros) {
    return requests(failures, n, micros);
  }

  /** Requests by latency, {@code failures} of them failed: pairs of a count and a latency in µs. */
  private static Tally.Origin requests(long failures, long... countsAndMicros) {
    long[] counts = new long[Tally.Origin.BUCKETS];
    for (int i = 0; i < countsAndMicros.length; i += 2) {
      counts[Tally.Origin.bucket(countsAndMicros[i + 1])] += countsAndMicros[i];
    }
    return Tally.Origin.of(failures, counts);
  }

  /** {@code n} requests each answered within the bucket whose upper edge is {@code edge}. */
  private static long[] upTo(long n, long edge) {
    return new long[] {n, edge - 1};
  }

  private static long[] concat(long[]... parts) {
    int length = 0;
    for (long[] p : parts) {
      length += p.length;
    }
    long[] all = new long[length];
    int i = 0;
    for (long[] p : parts) {
      System.arraycopy(p, 0, all, i, p.length);
      i += p.length;
    }
    return all;
  }

  /** Of 100 requests, 87 answered within {@code low}, 6 within {@code high} and 7 within {@code slowest}: {@code p- = low}, {@code p+ = high}. */
  private static Tally.Origin band(long low, long high, long slowest) {
    return requests(0, concat(upTo(87, low), upTo(6, high), upTo(7, slowest)));
  }

  /** Fast answers: a p90 of 50 ms or so, a tenth of the target. */
  private static Tally.Origin fast(long n) {
    return answered(n, 0, FAST_MICROS);
  }

  /**
   * The law's decision when people wait for the limit and no raise took effect lately, from
   * batches that agree (a standard error of 0: the binomial band alone).
   */
  private static AdaptiveLimit.Decision waiting(AdaptiveLimit law, int limit, long active, Tally.Origin measured) {
    return law.next(limit, active, true, false, measured, 0, 0);
  }

  @Test
  void fewerThanTenRequestsHoldTheLimitHoweverSlowOrFailedTheyAre() {
    AdaptiveLimit.Decision held = LAW.next(100, 100, true, false, answered(9, 9, 10_000_000), 0, 0);
    assertThat(held.limit()).isEqualTo(100);
    assertThat(held.reason()).isEqualTo("held: 9 requests measured, fewer than 10");
    assertThat(LAW.next(100, 100, true, false, Tally.Origin.NONE, 0, 0).limit()).as("nothing measured").isEqualTo(100);
    assertThat(LAW.next(100, 100, true, false, fast(9), 0, 0).limit()).as("nine fast requests, people waiting").isEqualTo(100);
    assertThat(LAW.next(100, 100, true, false, answered(AdaptiveLimit.MIN_REQUESTS, 10, 10_000_000), 0, 0).limit())
        .as("ten requests decide").isLessThan(100);
    assertThat(LAW.next(100, 100, true, false, fast(AdaptiveLimit.MIN_REQUESTS), 0, 0).limit())
        .as("ten fast requests decide").isGreaterThan(100);
  }

  /**
   * A room over its limit (the limit fell below the users in use) admits nobody. Unless Little's law
   * counts requests queued beyond the target (rule 2, tested below), the limit holds however the
   * application answers: here the seconds measured are not known, so nothing is counted.
   */
  @Test
  void aRoomOverItsLimitHoldsItUnlessRequestsQueueBeyondTheTarget() {
    AdaptiveLimit.Decision held = LAW.next(100, 101, true, false, answered(100, 100, 50_000), 0, 0);
    assertThat(held.limit()).as("every request failed").isEqualTo(100);
    assertThat(held.reason()).isEqualTo("held: 101 active over the limit, admitting nobody");
    assertThat(LAW.next(100, 101, true, false, answered(100, 0, 2_000_000), 0, 0).limit()).as("four times too slow").isEqualTo(100);
    assertThat(waiting(LAW, 100, 250, fast(100)).limit()).as("fast, people waiting").isEqualTo(100);
    assertThat(LAW.next(100, 100, true, false, answered(100, 100, 50_000), 0, 0).limit())
        .as("at the limit, not over it: lowered").isEqualTo(90);
    assertThat(LAW.next(100, 101, true, false, answered(9, 9, 50_000), 0, 0).reason())
        .as("too few requests come first").isEqualTo("held: 9 requests measured, fewer than 10");
    AdaptiveLimit law = AdaptiveLimit.between(20, 50, Duration.ofMillis(500));
    assertThat(law.next(60, 61, true, false, answered(100, 100, 50_000), 0, 0).limit())
        .as("a limit above max, held: max").isEqualTo(50);
    assertThat(law.next(5, 10, true, false, fast(100), 0, 0).limit()).as("a limit below min, held: min").isEqualTo(20);
  }

  /**
   * Rule 2: over its limit, the room lowers the limit to the users in use less the requests that
   * queue beyond the target by Little's law ({@code X * (R - latency)}), a step at most, and holds
   * when that is not below the limit. A request of 2 s lies in the bucket from 1,966,080 µs (15 <<
   * 17), the mean counted at that lower edge.
   */
  @Test
  void aRoomOverItsLimitComesDownByTheRequestsQueuedBeyondTheTarget() {
    long edge = Tally.Origin.lowerMicros(Tally.Origin.bucket(2_000_000));
    assertThat(edge).isEqualTo(1_966_080);
    Tally.Origin slow = answered(40, 0, 2_000_000);
    assertThat(slow.meanMicros()).isEqualTo(edge);
    // 40 requests in 4 s: 10 a second, each 1.466 s beyond the target: 14.66 queued; 110 - 14.66 = 95.3.
    AdaptiveLimit.Decision d = LAW.next(100, 110, true, false, slow, 0, 4);
    assertThat(d.limit()).isEqualTo(95);
    assertThat(d.reason()).isEqualTo("lowered: 110 active over the limit, 10 requests a second answered in 1966 ms"
        + " on average, 15 of them queued beyond the target 500 ms");
    assertThat(LAW.next(100, 110, false, false, slow, Double.POSITIVE_INFINITY, 4).limit())
        .as("whether people wait, and the band of p90, do not matter").isEqualTo(95);
    // 200 requests in 4 s: 50 a second, 73.3 queued, 150 - 73.3 = 76.7: a step at most.
    assertThat(LAW.next(100, 150, true, false, answered(200, 0, 2_000_000), 0, 4).limit()).as("a step at most")
        .isEqualTo(90);
    assertThat(LAW.next(100, 150, true, false, answered(200, 200, 2_000_000), 0, 4).limit()).as("failed or not")
        .isEqualTo(90);
    // 10 a second, 14.66 queued: 120 - 14.66 = 105.3 is not below the limit.
    AdaptiveLimit.Decision held = LAW.next(100, 120, true, false, slow, 0, 4);
    assertThat(held.limit()).as("the users in use less the queue are not below the limit").isEqualTo(100);
    assertThat(held.reason()).isEqualTo("held: 120 active over the limit, admitting nobody");
    assertThat(LAW.next(100, 110, true, false, answered(40, 0, 400_000), 0, 4).limit())
        .as("a mean within the target: nothing queued").isEqualTo(100);
    assertThat(LAW.next(100, 110, true, false, slow, 0, 0).limit()).as("seconds not known").isEqualTo(100);
    assertThat(LAW.next(100, 110, true, false, answered(9, 0, 2_000_000), 0, 4).limit())
        .as("fewer than ten requests").isEqualTo(100);
    assertThat(AdaptiveLimit.between(98, 1000, Duration.ofMillis(500)).next(100, 110, true, false, slow, 0, 4).limit())
        .as("never below min").isEqualTo(98);
    // A mean within the target although the 90th percentile is over it: the queue is not there.
    Tally.Origin tail = requests(0, 80, 100_000, 20, 1_000_000);
    assertThat(tail.quantileMicros(0.9)).isGreaterThan(500_000);
    assertThat(LAW.next(100, 110, true, false, tail, 0, 4).limit()).as("a slow tail, no queue").isEqualTo(100);
  }

  @Test
  void failuresOverTheShareLowerTheLimitByAStepFromWhatTheRoomUses() {
    // 2 % of 100 requests failed (over 1 %), however fast they were answered.
    Tally.Origin failing = answered(100, 2, 50_000);
    AdaptiveLimit.Decision d = LAW.next(200, 100, false, false, failing, 0, 0);
    assertThat(d.limit()).as("nobody waiting: a tenth below the 100 in use, not below the limit of 200").isEqualTo(90);
    assertThat(d.reason()).isEqualTo("lowered: 2.0 % of 100 requests failed");
    // Changed: the law before lowered from the limit (200 * 0.9 = 180) with more in use than the limit; now it holds (rule 2).
    assertThat(LAW.next(200, 300, true, false, failing, 0, 0).limit()).as("more in use than the limit: held").isEqualTo(200);
    assertThat(LAW.next(200, 200, true, false, failing, 0, 0).limit()).as("as many in use as the limit: from the limit").isEqualTo(180);
    assertThat(LAW.next(200, 0, false, false, failing, 0, 0).limit()).as("nobody in use: down to min").isEqualTo(10);
    assertThat(LAW.next(200, -3, false, false, failing, 0, 0).limit()).as("a count below zero is nobody").isEqualTo(10);
    // Changed: with people waiting the limit is in use, even while some of its slots wait for slow
    // pollers: a decrease starts from it.
    assertThat(LAW.next(200, 100, true, false, failing, 0, 0).limit()).as("people waiting: from the limit").isEqualTo(180);
    assertThat(LAW.next(200, 100, true, true, failing, 0, 0).limit()).as("raised lately or not").isEqualTo(180);
    // Changed: a raise now needs people waiting for the limit (holdsBack), not "the limit in use".
    assertThat(waiting(LAW, 200, 200, answered(100, 1, 50_000)).limit())
        .as("exactly the share (1 of 100) is not over it: fast and people waiting, raised").isEqualTo(220);
    assertThat(waiting(LAW.withFailureShare(0.05), 200, 200, failing).limit())
        .as("under a larger share, 2 % do not lower it").isEqualTo(220);
    assertThat(waiting(LAW.withFailureShare(0), 200, 100, answered(100, 1, 50_000)).limit())
        .as("a share of 0: one failure lowers").isEqualTo(180);
    assertThat(waiting(LAW.withFailureShare(1), 200, 100, answered(100, 100, 50_000)).limit())
        .as("a share of 1: all failed, not over it").isEqualTo(220);
  }

  @Test
  void aP90OverTheTargetLowersTheLimitByTheGradientButNeverMoreThanAStep() {
    // A target of 524,288 µs (8 << 16) and a measured p90 of 655,360 µs: target / p90 = 0.8.
    AdaptiveLimit law = new AdaptiveLimit(10, 1000, TARGET_524, 0.3, 0.01);
    Tally.Origin slow = answered(100, 0, SLOW_MICROS);
    assertThat(slow.quantileMicros(0.9)).isEqualTo(MICROS_600MS_P90);
    assertThat(law.next(200, 100, false, false, slow, 0, 0).limit()).as("nobody waiting: 100 in use * 0.8").isEqualTo(80);
    // Changed: the law before lowered a limit of 90 with 100 in use from the limit (72); now it holds (rule 2).
    assertThat(law.next(90, 100, true, false, slow, 0, 0).limit()).as("over the limit of 90: held").isEqualTo(90);
    assertThat(law.next(90, 90, true, false, slow, 0, 0).limit()).as("the limit of 90 in use * 0.8").isEqualTo(72);
    // Changed: with people waiting a decrease starts from the limit (it is in use).
    assertThat(law.next(200, 100, true, false, slow, 0, 0).limit()).as("people waiting: the limit of 200 * 0.8").isEqualTo(160);
    assertThat(law.withStep(0.1).next(200, 100, false, false, slow, 0, 0).limit()).as("a step of a tenth at most: 100 * 0.9").isEqualTo(90);
    AdaptiveLimit.Decision d = LAW.next(200, 100, false, false, answered(100, 0, 2_000_000), 0, 0);
    assertThat(d.limit()).as("four times too slow, still a step at most").isEqualTo(90);
    assertThat(d.reason()).startsWith("lowered: p90 ").endsWith(" ms over the target 500 ms");
    // Changed: the reason shows the band p- to p+ (all in one bucket here), not one p90.
    assertThat(LAW.next(200, 100, true, false, answered(100, 0, SLOW_MICROS), 0, 0).reason())
        .isEqualTo("lowered: p90 655-655 ms over the target 500 ms");
  }

  @Test
  void aP90WithinTheTargetRaisesALimitThatHoldsPeopleBackByTheGradientButNeverMoreThanAStep() {
    // p90 50 ms or so, target 500 ms: the gradient is near 10, the step of a tenth bounds it.
    AdaptiveLimit.Decision d = waiting(LAW, 200, 200, fast(100));
    assertThat(d.limit()).isEqualTo(220);
    // Changed: "people waiting" instead of "the limit in use", and the band.
    assertThat(d.reason()).isEqualTo("raised: p90 53.2-53.2 ms within the target 500 ms, people waiting");
    // A target of 655,360 µs and a p90 of 589,824 µs (9 << 16): target / p90 = 10 / 9.
    AdaptiveLimit law = new AdaptiveLimit(10, 1000, Duration.ofNanos(655_360_000), 0.2, 0.01);
    Tally.Origin near = answered(100, 0, 550_000);
    assertThat(near.quantileMicros(0.9)).isEqualTo(589_824);
    assertThat(waiting(law, 90, 90, near).limit()).as("90 * 10 / 9").isEqualTo(100);
    assertThat(waiting(law, 100, 100, near).limit()).as("100 * 10 / 9 = 111.1, rounded up").isEqualTo(112);
    assertThat(waiting(law, 100, 100, answered(100, 0, 100_000)).limit()).as("a step of a fifth at most").isEqualTo(120);
    // Whoever is active: a raise goes by the people waiting, not by the users in use.
    assertThat(waiting(LAW, 100, 89, fast(100)).limit()).as("89 of 100 active").isEqualTo(110);
    assertThat(waiting(LAW, 100, 0, fast(100)).limit()).as("an empty room with people waiting").isEqualTo(110);
  }

  /**
   * A limit that holds nobody back (nobody waits, or the per-minute limit keeps them waiting: see
   * {@code LimitController}) holds, however fast the application: a higher one would let nobody
   * more in. Changed from the law before, which raised a limit with all but a step of its users
   * active (90 of 100, 250 of 100) and held one with fewer (89 of 100, an empty room).
   */
  @Test
  void aLimitThatHoldsNobodyBackHolds() {
    AdaptiveLimit.Decision held = LAW.next(100, 100, false, false, fast(100), 0, 0);
    assertThat(held.limit()).as("all of 100 active, nobody waiting").isEqualTo(100);
    assertThat(held.reason()).isEqualTo("held: p90 53.2-53.2 ms within the target 500 ms, nobody waiting for the limit");
    assertThat(LAW.next(100, 90, false, false, fast(100), 0, 0).limit()).as("90 of 100 active").isEqualTo(100);
    assertThat(LAW.next(100, 0, false, false, fast(100), 0, 0).limit()).as("an empty room").isEqualTo(100);
    assertThat(LAW.next(100, 100, false, true, fast(100), 0, 0).limit()).as("raised lately").isEqualTo(100);
    assertThat(LAW.next(100, 100, false, false, band(E459, E492, E590), 0, 0).reason())
        .as("near the target").isEqualTo("held: p90 459-492 ms within the target 500 ms, nobody waiting for the limit");
  }

  /**
   * The band of the 90th percentile: of 100 requests, {@code e = sqrt(0.09 / 100) = 0.03}, so
   * {@code p-} is the latency of rank 87 and {@code p+} that of rank 93. A target between them,
   * either edge included, holds the limit; only {@code p-} over it lowers, only {@code p+} under it
   * raises.
   */
  @Test
  void aTargetWithinTheBandOfTheP90HoldsTheLimitEdgesIncluded() {
    AdaptiveLimit law = new AdaptiveLimit(10, 1000, TARGET_524, 0.2, 0.01);
    AdaptiveLimit.Decision held = waiting(law, 90, 90, band(E459, E590, E590));
    assertThat(held.limit()).as("p- 459 ms < target 524 ms < p+ 590 ms").isEqualTo(90);
    assertThat(held.reason()).isEqualTo("held: p90 459-590 ms of 100 requests, around the target 524 ms");
    assertThat(law.next(90, 90, true, true, band(E459, E590, E590), 0, 0).limit()).as("raised lately").isEqualTo(90);
    assertThat(law.next(90, 90, false, false, band(E459, E590, E590), 0, 0).limit()).as("nobody waiting").isEqualTo(90);
    assertThat(waiting(law, 90, 90, band(E524, E590, E590)).limit()).as("p- on the target: not over it").isEqualTo(90);
    assertThat(waiting(law, 90, 90, band(E459, E524, E590)).limit()).as("p+ on the target: not under it").isEqualTo(90);
    assertThat(waiting(law, 90, 90, band(E524, E524, E590)).limit()).as("p- = p+ = the target").isEqualTo(90);
    // One bucket further out, either way, the band no longer holds the target.
    AdaptiveLimit.Decision lowered = waiting(law, 90, 90, band(E590, E590, E590));
    assertThat(lowered.limit()).as("p- over: 90 * target / p- = 90 * 8 / 9").isEqualTo(80);
    assertThat(lowered.reason()).isEqualTo("lowered: p90 590-590 ms over the target 524 ms");
    AdaptiveLimit.Decision raised = waiting(law, 150, 150, band(E459, E492, E590));
    assertThat(raised.limit()).as("p+ under: 150 * target / p+ = 150 * 16 / 15").isEqualTo(160);
    assertThat(raised.reason()).isEqualTo("raised: p90 459-492 ms within the target 524 ms, people waiting");
    // The gradient goes by p- down and by p+ up, not by the p90 between them.
    assertThat(waiting(law, 90, 90, requests(0, concat(upTo(87, E590), upTo(13, Tally.Origin.lowerMicros(150)))))
        .limit()).as("p- 590 ms, p+ far over").isEqualTo(80);
    assertThat(waiting(law, 150, 150, requests(0, concat(upTo(87, 1024), upTo(6, E492), upTo(7, E590)))).limit())
        .as("p- 1 ms, p+ 492 ms").isEqualTo(160);
  }

  /**
   * The ranks of the band's edges are {@code ceil((0.9 -+ e) n)}: with {@code r} requests fast
   * and the rest slow, {@code p-} is fast from {@code r} = the lower rank on, {@code p+} from the
   * upper. For ten requests {@code e} is 0.095, so {@code p-} is the ninth and {@code p+} the
   * slowest; for 400, 0.015, the ranks 354 and 366, where the law before took the p90 of rank 360.
   */
  @Test
  void theBandNarrowsWithTheRequestsMeasured() {
    // 100 requests: p- of rank 87, p+ of rank 93.
    assertThat(waiting(LAW, 100, 100, fastAndSlow(87, 100)))
        .isEqualTo(new AdaptiveLimit.Decision(100, "held: p90 53.2-655 ms of 100 requests, around the target 500 ms"));
    assertThat(waiting(LAW, 100, 100, fastAndSlow(86, 100)).limit()).as("86 fast: p- slow").isEqualTo(90);
    assertThat(waiting(LAW, 100, 100, fastAndSlow(93, 100)).limit()).as("93 fast: p+ fast").isEqualTo(110);
    assertThat(waiting(LAW, 100, 100, fastAndSlow(92, 100)).limit()).as("92 fast: p+ slow").isEqualTo(100);
    // 10 requests: p- of rank 9, p+ the slowest.
    assertThat(waiting(LAW, 100, 100, fastAndSlow(9, 10)).limit()).as("9 fast of 10").isEqualTo(100);
    assertThat(waiting(LAW, 100, 100, fastAndSlow(8, 10)).limit()).as("8 fast of 10").isEqualTo(90);
    assertThat(waiting(LAW, 100, 100, fastAndSlow(10, 10)).limit()).as("10 fast of 10").isEqualTo(110);
    // 400 requests: ranks 354 and 366.
    assertThat(waiting(LAW, 100, 100, fastAndSlow(354, 400)).limit()).as("354 fast of 400").isEqualTo(100);
    assertThat(waiting(LAW, 100, 100, fastAndSlow(353, 400)).limit()).as("353 fast of 400").isEqualTo(90);
    assertThat(waiting(LAW, 100, 100, fastAndSlow(366, 400)).limit()).as("366 fast of 400").isEqualTo(110);
    assertThat(waiting(LAW, 100, 100, fastAndSlow(365, 400)).limit()).as("365 fast of 400").isEqualTo(100);
    // Where the law before went by the p90 alone (rank 360), lowering or raising, the band holds.
    assertThat(waiting(LAW, 100, 100, fastAndSlow(359, 400)).limit()).as("p90 slow, p- fast").isEqualTo(100);
    assertThat(waiting(LAW, 100, 100, fastAndSlow(360, 400)).limit()).as("p90 fast, p+ slow").isEqualTo(100);
  }

  @Test
  void nearTheTargetARaiseWaitsForTheLastOneToShow() {
    // p+ 492 ms, target 524 ms: 492 * 1.1 > 524, within a step.
    AdaptiveLimit.Decision held = LAW.withStep(0.1).next(150, 150, true, true, band(E459, E492, E590), 0, 0);
    assertThat(new AdaptiveLimit(10, 1000, TARGET_524, 0.1, 0.01).next(150, 150, true, true, band(E459, E492, E590), 0, 0))
        .isEqualTo(new AdaptiveLimit.Decision(150,
            "held: p90 459-492 ms within a step of the target 524 ms, the last raise not shown yet"));
    assertThat(held.limit()).as("target 500 ms: p+ 492 ms within a step").isEqualTo(150);
    assertThat(waiting(new AdaptiveLimit(10, 1000, TARGET_524, 0.1, 0.01), 150, 150, band(E459, E492, E590)).limit())
        .as("not raised lately: raised by the gradient 16 / 15").isEqualTo(160);
    // Far from the target, a raise lately holds nothing back.
    assertThat(LAW.next(100, 100, true, true, fast(100), 0, 0).limit()).as("p+ 53 ms, target 500 ms").isEqualTo(110);
    // Exactly a step from the target is not within it: p+ 655,360 µs * 1.25 = 819,200 µs.
    AdaptiveLimit quarter = new AdaptiveLimit(10, 1000, Duration.ofNanos(819_200_000), 0.25, 0.01);
    Tally.Origin p655 = answered(100, 0, SLOW_MICROS);
    assertThat(quarter.next(100, 100, true, true, p655, 0, 0).limit()).as("exactly a step below the target").isEqualTo(125);
    AdaptiveLimit closer = new AdaptiveLimit(10, 1000, Duration.ofNanos(819_199_000), 0.25, 0.01);
    assertThat(closer.next(100, 100, true, true, p655, 0, 0).limit()).as("a microsecond closer, raised lately").isEqualTo(100);
    assertThat(closer.next(100, 100, true, false, p655, 0, 0).limit()).as("a microsecond closer, not lately").isEqualTo(125);
  }

  /**
   * The standard error of the p90 by batch means: batches of at least ten requests (epochs taken
   * together until they hold ten, the rest joining the last), the spread of their p90s over the
   * square root of their number; for two batches half the difference of their p90s.
   */
  @Test
  void theStandardErrorIsTheSpreadOfTheBatchesP90s() {
    Tally.Origin fast10 = fast(10);
    Tally.Origin slow10 = answered(10, 0, SLOW_MICROS);
    assertThat(AdaptiveLimit.standardError(java.util.List.of(fast10, fast10, fast10))).as("batches that agree").isZero();
    assertThat(AdaptiveLimit.standardError(java.util.List.of(fast10, slow10)))
        .as("53,248 and 655,360 µs").isEqualTo((655_360 - 53_248) / 2.0);
    assertThat(AdaptiveLimit.standardError(java.util.List.of(fast(5), fast(5), answered(10, 0, SLOW_MICROS), answered(3, 0, SLOW_MICROS))))
        .as("two epochs of five make a batch; three left join the last").isEqualTo((655_360 - 53_248) / 2.0);
    // Three batches of p90 53,248, 53,248 and 655,360 µs: mean 253,952, sample sd 347,629.6, over sqrt(3).
    double sd = Math.sqrt((2 * Math.pow(53_248 - 253_952, 2) + Math.pow(655_360 - 253_952, 2)) / 2);
    assertThat(AdaptiveLimit.standardError(java.util.List.of(fast10, fast10, slow10))).isCloseTo(sd / Math.sqrt(3),
        org.assertj.core.data.Offset.offset(1e-6));
    assertThat(AdaptiveLimit.standardError(java.util.List.of(fast(9), fast(9)))).as("one batch of 18").isInfinite();
    assertThat(AdaptiveLimit.standardError(java.util.List.of(fast(500)))).as("one epoch").isInfinite();
    assertThat(AdaptiveLimit.standardError(java.util.List.of(Tally.Origin.NONE, fast10, Tally.Origin.NONE))).isInfinite();
    assertThat(AdaptiveLimit.standardError(java.util.List.of())).isInfinite();
  }

  /**
   * The band reaches two standard errors of the batches either side of the p90 where that is wider
   * than the binomial band: 100 fast requests (p90 53,248 µs) raise the limit, but not when two
   * errors reach the target of 500 ms; 100 slow ones (p90 655,360 µs) lower it, but not when two
   * errors reach down to it. An error that is unknown holds the limit, unless the application fails.
   */
  @Test
  void theBandReachesTwoStandardErrorsOfTheBatchesEitherSide() {
    assertThat(LAW.next(100, 100, true, false, fast(100), 223_376, 0))
        .isEqualTo(new AdaptiveLimit.Decision(100, "held: p90 0-500 ms of 100 requests, around the target 500 ms"));
    assertThat(LAW.next(100, 100, true, false, fast(100), 223_375, 0).limit()).as("p+ 499,998 µs").isEqualTo(101);
    Tally.Origin slow = answered(100, 0, SLOW_MICROS);
    assertThat(LAW.next(100, 100, true, false, slow, 77_680, 0))
        .isEqualTo(new AdaptiveLimit.Decision(100, "held: p90 500-811 ms of 100 requests, around the target 500 ms"));
    assertThat(LAW.next(100, 100, true, false, slow, 77_679, 0).limit()).as("p- 500,002 µs").isEqualTo(99);
    assertThat(LAW.next(100, 100, true, false, slow, Double.POSITIVE_INFINITY, 0)).isEqualTo(new AdaptiveLimit.Decision(100,
        "held: 100 requests in one batch, the spread of their latencies unknown"));
    assertThat(LAW.next(100, 100, true, false, fast(100), Double.POSITIVE_INFINITY, 0).limit()).isEqualTo(100);
    assertThat(LAW.next(100, 100, true, false, answered(100, 50, FAST_MICROS), Double.POSITIVE_INFINITY, 0).limit())
        .as("failing").isEqualTo(90);
  }

  @Test
  void aStepRoundsAwayFromTheLimitSoThatItMovesAtLeastOneUser() {
    assertThat(waiting(LAW, 11, 11, fast(100)).limit()).as("11 * 1.1 = 12.1").isEqualTo(13);
    assertThat(waiting(LAW, 12, 12, answered(100, 50, 50_000)).limit()).as("12 * 0.9 = 10.8").isEqualTo(10);
    AdaptiveLimit small = new AdaptiveLimit(1, 100, Duration.ofMillis(500), 0.1, 0.01);
    assertThat(waiting(small, 5, 5, fast(100)).limit()).as("5 * 1.1 = 5.5").isEqualTo(6);
    assertThat(waiting(small, 3, 3, fast(100)).limit()).as("3 * 1.1 = 3.3").isEqualTo(4);
    assertThat(waiting(small, 1, 1, fast(100)).limit()).as("1 * 1.1 = 1.1").isEqualTo(2);
    assertThat(waiting(small, 5, 5, answered(100, 50, 50_000)).limit()).as("5 * 0.9 = 4.5").isEqualTo(4);
    assertThat(waiting(small, 2, 2, answered(100, 50, 50_000)).limit()).as("2 * 0.9 = 1.8").isEqualTo(1);
    assertThat(small.next(5, 4, false, false, answered(100, 50, 50_000), 0, 0).limit()).as("nobody waiting: 4 in use * 0.9 = 3.6").isEqualTo(3);
    assertThat(waiting(small, 5, 4, answered(100, 50, 50_000)).limit()).as("people waiting: 5 * 0.9 = 4.5").isEqualTo(4);
  }

  /**
   * A step of a tenth from a limit of 100 is 10 users, exactly: 110, not 111. In floating point
   * 100 * 1.1 is 110.00000000000001, which rounded up away from the limit is 111.
   */
  @Test
  void aStepThatComesToAWholeNumberOfUsersMovesExactlyThatMany() {
    assertThat(waiting(LAW, 100, 100, fast(100)).limit()).isEqualTo(110);
    assertThat(waiting(LAW, 50, 50, fast(100)).limit()).isEqualTo(55);
    assertThat(waiting(LAW, 200, 200, fast(100)).limit()).isEqualTo(220);
    assertThat(waiting(LAW.withStep(0.3), 20, 20, answered(100, 50, 50_000)).limit()).as("20 * 0.7").isEqualTo(14);
    assertThat(waiting(LAW.withStep(0.3), 100, 100, answered(100, 50, 50_000)).limit()).as("100 * 0.7").isEqualTo(70);
    assertThat(LAW.withStep(0.3).next(200, 100, false, false, answered(100, 50, 50_000), 0, 0).limit()).as("100 in use * 0.7").isEqualTo(70);
  }

  @Test
  void theResultStaysWithinMinAndMax() {
    AdaptiveLimit law = AdaptiveLimit.between(20, 50, Duration.ofMillis(500));
    assertThat(waiting(law, 50, 50, fast(100)).limit()).as("at max, raised").isEqualTo(50);
    assertThat(waiting(law, 48, 48, fast(100)).limit()).as("48 * 1.1 = 52.8").isEqualTo(50);
    assertThat(waiting(law, 20, 20, answered(100, 100, 50_000)).limit()).as("at min, lowered").isEqualTo(20);
    assertThat(waiting(law, 21, 21, answered(100, 100, 50_000)).limit()).as("21 * 0.9 = 18.9").isEqualTo(20);
    assertThat(waiting(law, 21, 21, answered(100, 0, 2_000_000)).limit()).as("slow, 21 * 0.9 = 18.9").isEqualTo(20);
    assertThat(waiting(law, 500, 0, Tally.Origin.NONE).limit()).as("a limit above max, held").isEqualTo(50);
    assertThat(waiting(law, 5, 5, Tally.Origin.NONE).limit()).as("a limit below min, held").isEqualTo(20);
    assertThat(law.next(500, 0, false, false, fast(100), 0, 0).limit()).as("above max, nobody waiting").isEqualTo(50);
    assertThat(waiting(law, 500, 400, answered(100, 100, 50_000)).limit()).as("above max, lowered").isEqualTo(50);
    assertThat(waiting(law, 5, 5, fast(100)).limit()).as("below min, raised").isEqualTo(20);
    assertThat(law.clamp(Long.MAX_VALUE)).isEqualTo(50);
    assertThat(law.clamp(Long.MIN_VALUE)).isEqualTo(20);
    AdaptiveLimit huge = new AdaptiveLimit(1, Integer.MAX_VALUE, Duration.ofMillis(500), 0.5, 0.01);
    assertThat(waiting(huge, Integer.MAX_VALUE, Integer.MAX_VALUE, fast(100)).limit()).as("no overflow").isEqualTo(Integer.MAX_VALUE);
    assertThat(waiting(huge, Integer.MAX_VALUE - 1, 0, fast(100)).limit()).isEqualTo(Integer.MAX_VALUE);
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

  /** The rank of {@code p-} of {@code n} requests, exactly: the least {@code r} with {@code 0.9 n - r <= 0.3 sqrt(n)}. */
  static long lowRank(long n) {
    long r = Math.max(0, (9 * n - 3 * (long) Math.ceil(Math.sqrt(n)) - 30) / 10);
    while (9 * n - 10 * r > 0 && (9 * n - 10 * r) * (9 * n - 10 * r) > 9 * n) {
      r++;
    }
    return r;
  }

  /** The rank of {@code p+} of {@code n} requests, exactly: the least {@code r} with {@code r - 0.9 n >= 0.3 sqrt(n)}, at most {@code n}. */
  static long highRank(long n) {
    long r = 9 * n / 10;
    while (10 * r - 9 * n < 0 || (10 * r - 9 * n) * (10 * r - 9 * n) < 9 * n) {
      r++;
    }
    return Math.min(n, r);
  }

  /**
   * For any number of requests, {@link #lowRank} fast and the rest slow hold the limit (the target
   * lies between {@code p-}, fast, and {@code p+}, slow), one fewer fast lowers it; {@link
   * #highRank} fast raises it, one fewer holds it.
   */
  @Property(tries = 3000)
  void theEdgesOfTheBandAreTheRanksOfTheStandardError(@ForAll @LongRange(min = 10, max = 2_000_000) long n) {
    assertBandEdges(n);
  }

  @Test
  void theEdgesOfTheBandAtRanksThatComeToWholeRequests() {
    // (0.9 -+ 0.3 / sqrt(n)) n is a whole number where n is a square k * k and 9 k * k -+ 3 k a multiple of 10.
    for (long n : new long[] {10, 11, 25, 99, 100, 101, 225, 400, 625, 900, 10_000, 1_000_000}) {
      assertBandEdges(n);
    }
    assertThat(lowRank(100)).isEqualTo(87);
    assertThat(highRank(100)).isEqualTo(93);
    assertThat(lowRank(10)).isEqualTo(9);
    assertThat(highRank(10)).isEqualTo(10);
    assertThat(lowRank(400)).isEqualTo(354);
    assertThat(highRank(400)).isEqualTo(366);
  }

  private static void assertBandEdges(long n) {
    long low = lowRank(n);
    long high = highRank(n);
    assertThat(low).isLessThan(high);
    assertThat(waiting(LAW, 100, 100, fastAndSlow(low, n)).limit()).as("%s fast of %s", low, n).isEqualTo(100);
    assertThat(waiting(LAW, 100, 100, fastAndSlow(low - 1, n)).limit()).as("%s fast of %s", low - 1, n).isEqualTo(90);
    assertThat(waiting(LAW, 100, 100, fastAndSlow(high, n)).limit()).as("%s fast of %s", high, n).isEqualTo(110);
    assertThat(waiting(LAW, 100, 100, fastAndSlow(high - 1, n)).limit()).as("%s fast of %s", high - 1, n).isEqualTo(100);
  }

  /** {@code fast} of {@code n} requests fast (50 ms), the rest slow (600 ms). */
  private static Tally.Origin fastAndSlow(long fast, long n) {
    return requests(0, fast, FAST_MICROS, n - fast, SLOW_MICROS);
  }

  @Provide
  Arbitrary<Integer> limits() {
    // Any limit, and round ones, where a step of whole percents comes to whole users.
    return Arbitraries.oneOf(Arbitraries.integers().between(1, 5000), Arbitraries.integers().between(1, 500).map(l -> l * 10));
  }

  /**
   * For any inputs (a limit in force inside or outside the bounds, active users around it, over it
   * too, requests in three groups at any latency, some failed, people waiting or not, a raise
   * lately or not, steps of whole percents as operators write them), the next limit lies in {@code
   * [min, max]}; it falls at most a step below {@code min(limit, active)} (rounded down to a whole
   * user) and rises at most a step above the limit (rounded up, at least one user); it rises only
   * when people wait and {@code p+} is under the target (and not within a step of it after a raise
   * lately), falls only when the application fails or {@code p-} is over the target and the room
   * is not over its limit, or when the room is over its limit and requests queue beyond the
   * target (and then at most to the users in use less the queue), and otherwise holds (also
   * whenever the batches' error is unknown and the application does not fail). {@code p-} and {@code p+} are computed here exactly, in whole
   * numbers ({@link #lowRank}, {@link #highRank}, and the p90 two standard errors down and up).
   */
  @Property(tries = 5000)
  void theNextLimitLiesWithinTheBoundsAndMovesAtMostAStep(
      @ForAll @IntRange(min = 1, max = 2000) int min,
      @ForAll @IntRange(min = 0, max = 2000) int span,
      @ForAll("limits") int limit,
      @ForAll @IntRange(min = 0, max = 150) int activePercent,
      @ForAll @IntRange(min = -2, max = 2) int activeOffset,
      @ForAll @LongRange(min = 0, max = 300) long count1,
      @ForAll @LongRange(min = 0, max = 1_000_000) long micros1,
      @ForAll @LongRange(min = 0, max = 300) long count2,
      @ForAll @LongRange(min = 0, max = 1_000_000) long micros2,
      @ForAll @LongRange(min = 0, max = 50) long count3,
      @ForAll @LongRange(min = 0, max = 2_000_000) long micros3,
      @ForAll @IntRange(min = 0, max = 30) int failedPermille,
      @ForAll @IntRange(min = 1, max = 50) int stepPercent,
      @ForAll @IntRange(min = 0, max = 5) int sharePercent,
      @ForAll boolean holdsBack,
      @ForAll boolean raisedLately,
      @ForAll @IntRange(min = -1, max = 300_000) int errorMicros,
      @ForAll @IntRange(min = 0, max = 20) int seconds) {
    int max = min + span;
    // The standard error of the batches, -1 for unknown (fewer than two batches).
    double error = errorMicros < 0 ? Double.POSITIVE_INFINITY : errorMicros;
    AdaptiveLimit law = new AdaptiveLimit(min, max, Duration.ofMillis(500), stepPercent / 100.0, sharePercent / 100.0);
    long active = (long) limit * activePercent / 100 + activeOffset;
    long requests = count1 + count2 + count3;
    long failures = requests * failedPermille / 1000;
    Tally.Origin measured = requests(failures, count1, micros1, count2, micros2, count3, micros3);

    int next = law.next(limit, active, holdsBack, raisedLately, measured, error, seconds).limit();

    assertThat(next).isBetween(min, max);
    BigDecimal step = BigDecimal.valueOf(stepPercent, 2);
    // What the room uses: the limit while people wait for it, the users in use otherwise.
    long inUse = holdsBack ? limit : Math.min(limit, Math.max(0, active));
    long lowest = BigDecimal.valueOf(inUse).multiply(BigDecimal.ONE.subtract(step))
        .setScale(0, RoundingMode.FLOOR).longValueExact();
    long highest = Math.max(limit + 1L, BigDecimal.valueOf(limit).multiply(BigDecimal.ONE.add(step))
        .setScale(0, RoundingMode.CEILING).longValueExact());
    assertThat(next).as("at most a step below what the room uses, %s", inUse).isGreaterThanOrEqualTo(law.clamp(lowest));
    assertThat(next).as("at most a step above the limit %s", limit).isLessThanOrEqualTo(law.clamp(highest));

    boolean decides = requests >= AdaptiveLimit.MIN_REQUESTS && active <= limit;
    boolean failing = decides && failures * 100L > (long) sharePercent * requests;
    long p90 = decides ? latencyOfRank(ceilDiv(9 * requests, 10), count1, micros1, count2, micros2, count3, micros3) : 0;
    long pLow = decides ? Math.max(0, Math.min(latencyOfRank(lowRank(requests), count1, micros1, count2, micros2, count3, micros3),
        p90 - 2L * errorMicros)) : 0;
    long pHigh = decides ? Math.max(latencyOfRank(highRank(requests), count1, micros1, count2, micros2, count3, micros3),
        p90 + 2L * errorMicros) : 0;
    boolean known = errorMicros >= 0;
    boolean slow = decides && known && !failing && pLow > 500_000;
    boolean fast = decides && known && !failing && pHigh < 500_000;
    boolean withinAStep = pHigh * (100L + stepPercent) > 500_000L * 100;
    boolean raises = fast && holdsBack && !(raisedLately && withinAStep);
    if (next > law.clamp(limit)) {
      assertThat(raises).as("raised only when p+ %s µs is under the target and people wait", pHigh).isTrue();
    }
    // Over the limit: the requests queued beyond the target, by Little's law, from the mean at the buckets' lower edges.
    boolean over = requests >= AdaptiveLimit.MIN_REQUESTS && active > limit;
    double lowerEdges = (count1 * edgeBelow(micros1) + count2 * edgeBelow(micros2) + count3 * edgeBelow(micros3))
        / (double) Math.max(1, requests);
    double queued = seconds > 0 ? requests / (double) seconds * (lowerEdges - 500_000) / 1e6 : 0;
    boolean queues = over && queued > 0 && active - queued < limit;
    if (queues && limit > min && limit <= max) {
      // At least the step or the users in use less the queue, rounded down (one less for floating point's rounding).
      assertThat(next).as("%s queued over the limit: lowered", queued).isLessThan(limit)
          .isGreaterThanOrEqualTo(law.clamp((long) Math.floor(Math.max(limit * (1 - stepPercent / 100.0), active - queued)) - 1));
    }
    if (next < law.clamp(limit)) {
      assertThat(failing || slow || queues)
          .as("lowered only when failing, p- %s µs over the target, or requests queued over the limit", pLow).isTrue();
    }
    if (raises && limit >= min && limit < max) {
      assertThat(next).as("p+ %s µs and people waiting: raised", pHigh).isGreaterThan(limit);
    }
    if ((failing || slow) && limit > min && limit <= max) {
      assertThat(next).as("failing or p- %s µs: lowered", pLow).isLessThan(limit);
    }
    if (!raises && !failing && !slow && !queues) {
      assertThat(next).as("held (p- %s µs, p+ %s µs)", pLow, pHigh).isEqualTo(law.clamp(limit));
    }
  }

  /** The lower edge of the bucket of a request of {@code micros}. */
  private static long edgeBelow(long micros) {
    return Tally.Origin.lowerMicros(Tally.Origin.bucket(micros));
  }

  /** The upper edge of the bucket of the request of rank {@code rank} among the groups (pairs of a count and a latency). */
  private static long latencyOfRank(long rank, long... countsAndMicros) {
    long[] counts = new long[Tally.Origin.BUCKETS];
    for (int i = 0; i < countsAndMicros.length; i += 2) {
      counts[Tally.Origin.bucket(countsAndMicros[i + 1])] += countsAndMicros[i];
    }
    long seen = 0;
    for (int b = 0; b < counts.length; b++) {
      seen += counts[b];
      if (seen >= Math.max(1, rank)) {
        return Tally.Origin.lowerMicros(b + 1);
      }
    }
    throw new AssertionError("rank " + rank + " of " + seen);
  }

  /**
   * Every limit up to 1000 and every step of whole percents: a step up is the limit times {@code
   * 1 + step} rounded up, a step down the users in use times {@code 1 - step} rounded down (each
   * at least one user), exactly, whatever floating point makes of the products; a limit that holds
   * nobody back holds, and so does a room over its limit.
   */
  @Property(tries = 50_000, generation = GenerationMode.EXHAUSTIVE)
  void aStepIsExactlyTheStepOfTheLimitRoundedAwayFromIt(
      @ForAll @IntRange(min = 1, max = 1000) int limit, @ForAll @IntRange(min = 1, max = 50) int stepPercent) {
    AdaptiveLimit law = new AdaptiveLimit(1, Integer.MAX_VALUE, Duration.ofMillis(500), stepPercent / 100.0, 0.01);
    long up = Math.max(limit + 1L, ceilDiv((long) limit * (100 + stepPercent), 100));
    long down = Math.max(1, Math.min(limit - 1L, (long) limit * (100 - stepPercent) / 100));
    long half = limit / 2;
    long downFromHalf = Math.max(1, Math.min(limit - 1L, half * (100 - stepPercent) / 100));
    assertThat(waiting(law, limit, limit, fast(100)).limit()).as("raised").isEqualTo(up);
    assertThat(waiting(law, limit, 0, fast(100)).limit()).as("raised, whoever is active").isEqualTo(up);
    assertThat(law.next(limit, limit, false, false, fast(100), 0, 0).limit()).as("nobody waiting: held").isEqualTo(limit);
    assertThat(waiting(law, limit, limit + 1L, answered(100, 50, 50_000)).limit()).as("over the limit: held")
        .isEqualTo(limit);
    assertThat(waiting(law, limit, limit, answered(100, 50, 50_000)).limit()).as("lowered").isEqualTo(down);
    assertThat(law.next(limit, half, false, false, answered(100, 50, 50_000), 0, 0).limit())
        .as("nobody waiting: lowered from %s in use", half).isEqualTo(downFromHalf);
    assertThat(waiting(law, limit, half, answered(100, 50, 50_000)).limit()).as("people waiting: lowered from the limit")
        .isEqualTo(down);
    assertThat(waiting(law, limit, limit, answered(100, 0, 2_000_000)).limit()).as("slow: lowered").isEqualTo(down);
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }
}
