package io.github.waitingroom.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.allocation.Tally;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** A tally's {@code origin} in a report ({@link Tally.Origin}): it round-trips, and a bad one is not a report. */
class ReportCodecOriginTest {
  private static final String HEAD = "{\"v\":3,\"publisher\":\"n\",\"nodes\":1,\"joined\":1,\"tallies\":[{\"epoch\":1,";

  private static Tally with(Tally.Origin origin) {
    return new Tally(4, 1, 2, 3, new TreeMap<>(Map.of(100L, 2L)), new long[] {7L}, new long[0], new TreeMap<>(),
        false, new long[0], 1, Tally.Browsing.NONE, Tally.Cut.NONE, origin);
  }

  private static Report report(Tally... tallies) {
    TreeMap<Long, Tally> byEpoch = new TreeMap<>();
    for (int i = 0; i < tallies.length; i++) {
      byEpoch.put(1L + i, tallies[i]);
    }
    return new Report("n", 1, 1, byEpoch);
  }

  private static Report decode(String json) {
    return ReportCodec.decode(json.getBytes(StandardCharsets.UTF_8));
  }

  @Property(tries = 300)
  void aTallyWithAnOriginRoundTrips(
      @ForAll @Size(max = 40) List<@LongRange(min = 0, max = 1L << 34) Long> latencies,
      @ForAll @IntRange(min = 1, max = 1000) int times,
      @ForAll @LongRange(min = 0, max = 1L << 40) long failures) {
    long[] counts = new long[Tally.Origin.BUCKETS];
    for (long l : latencies) {
      counts[Tally.Origin.bucket(l)] += times;
    }
    Tally.Origin origin = Tally.Origin.of(failures, counts);
    Report r = report(with(origin), with(Tally.Origin.NONE));
    Report back = ReportCodec.decode(ReportCodec.encode(r));
    assertThat(back).isEqualTo(r);
    assertThat(Objects.requireNonNull(back.tallies().get(1L)).origin()).isEqualTo(origin);
  }

  @Test
  void everyBucketAtItsLargestCountRoundTrips() {
    long[] counts = new long[Tally.Origin.BUCKETS];
    java.util.Arrays.fill(counts, ReportCodec.MAX_COUNT);
    Report r = report(with(Tally.Origin.of(ReportCodec.MAX_COUNT, counts)));
    assertThat(ReportCodec.decode(ReportCodec.encode(r))).isEqualTo(r);
  }

  @Test
  void theOriginIsWrittenAsFailuresThenPairsAndLeftOutWhenNothingWasMeasured() {
    Tally.Origin o = new Tally.Origin(2, new long[] {3, 5, 140, 1});
    String json = new String(ReportCodec.encode(report(with(o))), StandardCharsets.UTF_8);
    assertThat(json).contains("\"origin\":[2,3,5,140,1]");
    assertThat(new String(ReportCodec.encode(report(with(Tally.Origin.NONE))), StandardCharsets.UTF_8))
        .doesNotContain("origin");
    Tally.Origin failuresOnly = new Tally.Origin(4, new long[0]);
    assertThat(Objects.requireNonNull(ReportCodec.decode(ReportCodec.encode(report(with(failuresOnly))))
        .tallies().get(1L)).origin()).as("failures alone are something measured").isEqualTo(failuresOnly);
  }

  @Test
  void aReportWithoutOriginMeasuredNothing() {
    Tally t = Objects.requireNonNull(decode(HEAD + "\"active\":3}]}").tallies().get(1L));
    assertThat(t.origin()).isEqualTo(Tally.Origin.NONE);
    assertThat(decode(HEAD + "\"active\":3,\"origin\":[0]}]}").tallies().get(1L)).isEqualTo(t);
  }

  @Test
  void aMalformedOriginIsNotAReport() {
    String tooMany = IntStream.range(0, Tally.Origin.BUCKETS + 1).mapToObj(i -> i + ",1")
        .collect(Collectors.joining(","));
    List<String> bad = List.of(
        "[-1,3,1]", // negative failures
        "[0,-1,1]", // negative bucket
        "[0,3,-1]", // negative count
        "[0,3,0]", // a zero count
        "[0,5,1,4,1]", // unsorted
        "[0,5,1,5,1]", // the same bucket twice
        "[0,256,1]", // bucket >= 256
        "[0,9999999999999,1]",
        "[0,3]", // a bucket without its count
        "[0," + tooMany + "]", // 257 pairs
        "[0,3," + (ReportCodec.MAX_COUNT + 1) + "]", // a count out of range
        "[" + (ReportCodec.MAX_COUNT + 1) + "]", // failures out of range
        "[0,3,1.5]",
        "[0,3,\"1\"]",
        "[0,[3,1]]",
        "[]",
        "{}",
        "7",
        "null");
    for (String origin : bad) {
      assertThatThrownBy(() -> decode(HEAD + "\"origin\":" + origin + "}]}")).as(origin)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("not a report");
    }
    // 256 pairs, every bucket once, is the most a report holds.
    String all = IntStream.range(0, Tally.Origin.BUCKETS).mapToObj(i -> i + ",1").collect(Collectors.joining(","));
    assertThat(Objects.requireNonNull(decode(HEAD + "\"origin\":[0," + all + "]}]}").tallies().get(1L)).origin()
        .requests()).isEqualTo(Tally.Origin.BUCKETS);
  }
}
