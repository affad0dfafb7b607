package io.github.waitingroom.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.allocation.Tally;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class ReportCodecTest {
  private static Tally tally(long active, long outstanding, Map<Long, Long> line, long... places) {
    return new Tally(active, outstanding, 11, 13, new TreeMap<>(line), places);
  }

  @Property(tries = 300)
  void roundTrips(
      @ForAll @LongRange(min = -1000, max = 1000) long active,
      @ForAll @IntRange(min = 0, max = 50) int outstanding,
      @ForAll Map<@IntRange(min = 0, max = 2_000_000_000) Integer, @IntRange(min = 1, max = 1000) Integer> line,
      @ForAll long place) {
    TreeMap<Long, Long> l = new TreeMap<>();
    line.forEach((k, v) -> l.put((long) k, (long) v));
    Report r = new Report("node-1#ab", 1, 100, new TreeMap<>(Map.of(100L, tally(active, outstanding, l, place), 101L, Tally.EMPTY)));
    assertThat(ReportCodec.decode(ReportCodec.encode(r))).isEqualTo(r);
  }

  @Property(tries = 200)
  void checkInsRoundTripGroupedBySliceAndAreFoundByBoth(
      @ForAll java.util.List<@IntRange(min = 0, max = 5) Integer> slices, @ForAll Random random) {
    long[] pairs = new long[2 * slices.size()];
    for (int i = 0; i < slices.size(); i++) {
      pairs[2 * i] = 1_000 + 10L * slices.get(i);
      pairs[2 * i + 1] = random.nextLong();
    }
    Tally t = new Tally(1, 0, 0, 0, new TreeMap<>(), new long[0], pairs, new TreeMap<>(), false);
    Report r = new Report("n", 2, 1, new TreeMap<>(Map.of(1L, t)));
    Tally back = java.util.Objects.requireNonNull(ReportCodec.decode(ReportCodec.encode(r)).tallies().get(1L));
    assertThat(back).isEqualTo(t);
    for (int i = 0; i < pairs.length; i += 2) {
      assertThat(back.checkedIn(pairs[i], pairs[i + 1])).isTrue();
      assertThat(back.checkedIn(pairs[i] + 10, pairs[i + 1])).as("the same place in another slice").isFalse();
    }
  }

  @Test
  void versionComesFirstAndUnknownFieldsAreSkipped() {
    Report r = new Report("n", 0, 5, new TreeMap<>());
    String json = new String(ReportCodec.encode(r), StandardCharsets.UTF_8);
    assertThat(json).startsWith("{\"v\":3,");
    String withExtra = json.replace("\"nodes\":0", "\"nodes\":0,\"future\":{\"x\":[1,2]}");
    assertThat(ReportCodec.decode(withExtra.getBytes(StandardCharsets.UTF_8))).isEqualTo(r);
  }

  @Test
  void theSettingsVersionRoundTripsAndIsLeftOutWhenZero() {
    Report with = new Report("n", 1, 5, new TreeMap<>(), 7);
    assertThat(ReportCodec.decode(ReportCodec.encode(with)).settings()).isEqualTo(7);
    Report without = new Report("n", 1, 5, new TreeMap<>());
    assertThat(new String(ReportCodec.encode(without), StandardCharsets.UTF_8)).doesNotContain("settings");
    // A report of an earlier release says nothing of the settings: version 0.
    assertThat(decode("{\"v\":3,\"publisher\":\"n\",\"nodes\":1,\"joined\":5}").settings()).isZero();
    assertThatThrownBy(() -> decode("{\"v\":3,\"publisher\":\"n\",\"nodes\":1,\"joined\":5,\"settings\":-1}"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void whomAPublisherCountedRoundTripsInAFewBytesAndAnEarlierReleaseSaysNothing() {
    List<String> fifty = new java.util.ArrayList<>();
    for (int i = 0; i < 50; i++) {
      fifty.add("node-" + (100 + i) + "#0123abcd");
    }
    Report.Counted counted = Report.Counted.of(42, fifty, List.of("eu", "us"));
    Report with = new Report("n", 1, 5, new TreeMap<>(), 0, counted);
    assertThat(ReportCodec.decode(ReportCodec.encode(with))).isEqualTo(with);
    String json = new String(ReportCodec.encode(with), StandardCharsets.UTF_8);
    assertThat(json.length() - new String(ReportCodec.encode(new Report("n", 1, 5, new TreeMap<>(), 0, null)),
        StandardCharsets.UTF_8).length()).as("bytes for 50 nodes").isLessThan(80);
    // Before its first settled epoch: an empty array, which reads back as nobody counted yet.
    Report none = new Report("n", 1, 5, new TreeMap<>());
    assertThat(new String(ReportCodec.encode(none), StandardCharsets.UTF_8)).contains("\"counted\":[]");
    assertThat(ReportCodec.decode(ReportCodec.encode(none)).counted()).isEqualTo(Report.Counted.NONE);
    // A report of an earlier release has no such field (and such a reader skips it): it says nothing.
    assertThat(decode("{\"v\":3,\"publisher\":\"n\",\"nodes\":1,\"joined\":5}").counted()).isNull();
    assertThat(new String(ReportCodec.encode(new Report("n", 1, 5, new TreeMap<>(), 0, null)), StandardCharsets.UTF_8))
        .doesNotContain("counted");
    for (String bad : List.of("[1,2]", "[1,-1,0,1,0]", "[1,1,0,1,0,9]", "{}", "[1,1,\"x\",1,0]")) {
      assertThatThrownBy(() -> decode("{\"v\":3,\"publisher\":\"n\",\"nodes\":1,\"joined\":5,\"counted\":" + bad + "}"))
          .as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void browsingRoundTripsNegativeSharesIncludedSumsAndIsLeftOutWhenNothingWasSeen() {
    Tally.Browsing share = new Tally.Browsing(-3, -1, -7, -120);
    Tally t = new Tally(1, 0, 0, 0, new TreeMap<>(), new long[0], new long[0], new TreeMap<>(), false,
        new long[0], 1, share, Tally.Cut.NONE);
    Report r = new Report("n", 2, 1, new TreeMap<>(Map.of(1L, t)));
    assertThat(ReportCodec.decode(ReportCodec.encode(r))).isEqualTo(r);
    assertThat(new String(ReportCodec.encode(r), StandardCharsets.UTF_8)).contains("\"browsing\":[-3,-1,-7,-120]");
    // A data center's sum adds its nodes' shares; silence keeps the last one.
    Tally other = new Tally(9, 0, 0, 0, new TreeMap<>(), new long[0], new long[0], new TreeMap<>(),
        false, new long[0], 1, new Tally.Browsing(10, 4, 50, 3000), Tally.Cut.NONE);
    assertThat(Tally.sum(List.of(t, other)).browsing()).isEqualTo(new Tally.Browsing(7, 3, 43, 2880));
    assertThat(other.silent(60).browsing()).isEqualTo(other.browsing());
    // Nothing seen: no field, and a report without one (an earlier release's) reads as nothing seen.
    Report none = new Report("n", 2, 1, new TreeMap<>(Map.of(1L, tally(1, 2, Map.of()))));
    assertThat(new String(ReportCodec.encode(none), StandardCharsets.UTF_8)).doesNotContain("browsing");
    assertThat(java.util.Objects.requireNonNull(ReportCodec.decode(ReportCodec.encode(none)).tallies().get(1L)).browsing())
        .isEqualTo(Tally.Browsing.NONE);
    String head = "{\"v\":3,\"publisher\":\"n\",\"nodes\":1,\"joined\":1,\"tallies\":[{\"epoch\":1,\"browsing\":";
    for (String bad : List.of("[1,2,3]", "[1,2,3,4,5]", "{}", "[1,2,3,\"x\"]", "[1,2,2000000000000,4]")) {
      assertThatThrownBy(() -> decode(head + bad + "}]}")).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  /**
   * The cutoff in force at a tally and its holders round-trip, a sum holds the highest cutoff with
   * the holders of those that report it, and an earlier release's report has none.
   */
  @Test
  void theCutoffInForceRoundTripsAndASumHoldsTheHighest() {
    long place = (1_800_000_000L << 32) | 0x8000_0000L;
    Tally t = new Tally(1, 0, 0, 0, new TreeMap<>(), new long[0], new long[0], new TreeMap<>(), false,
        new long[0], 1, Tally.Browsing.NONE, new Tally.Cut(place, 3));
    Report r = new Report("n", 2, 1, new TreeMap<>(Map.of(1L, t)));
    assertThat(ReportCodec.decode(ReportCodec.encode(r))).isEqualTo(r);
    assertThat(new String(ReportCodec.encode(r), StandardCharsets.UTF_8)).contains("\"cut\":[" + place + ",3]");
    Tally open = new Tally(1, 0, 0, 0, new TreeMap<>(), new long[0], new long[0], new TreeMap<>(),
        false, new long[0], 1, Tally.Browsing.NONE, new Tally.Cut(Long.MAX_VALUE, 0));
    assertThat(ReportCodec.decode(ReportCodec.encode(new Report("n", 2, 1, new TreeMap<>(Map.of(1L, open)))))
        .tallies().get(1L)).isEqualTo(open);
    Tally none = tally(1, 2, Map.of());
    assertThat(Tally.sum(List.of(t, none)).cut()).isEqualTo(t.cut());
    assertThat(Tally.sum(List.of(t, t)).cut()).as("holders of the same cutoff add up").isEqualTo(new Tally.Cut(place, 6));
    assertThat(Tally.sum(List.of(t, open)).cut()).as("the highest cutoff").isEqualTo(open.cut());
    assertThat(t.silent(60).cut()).as("a silent publisher serves no line").isEqualTo(new Tally.Cut(place, 0));
    assertThat(new String(ReportCodec.encode(new Report("n", 2, 1, new TreeMap<>(Map.of(1L, none)))), StandardCharsets.UTF_8))
        .doesNotContain("cut");
    assertThatThrownBy(() -> decode("{\"v\":3,\"publisher\":\"n\",\"nodes\":1,\"joined\":1,\"tallies\":[{\"epoch\":1,\"cut\":[1]}]}"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void countingTheSamePublishersIsTheSameAndAnyOtherSetIsNot() {
    Report.Counted abv = Report.Counted.of(7, List.of("a#1", "b#2", "v#3"), List.of("eu", "us"));
    assertThat(Report.Counted.of(7, List.of("a#1", "b#2", "v#3"), List.of("eu", "us"))).isEqualTo(abv);
    assertThat(abv.sameNodes(Report.Counted.of(7, List.of("a#1", "b#2"), List.of("eu", "us")))).isFalse();
    assertThat(abv.sameNodes(Report.Counted.of(7, List.of("a#1", "b#2", "w#3"), List.of("eu", "us")))).isFalse();
    // Names are length-prefixed: moving a character from one name to the next makes another set.
    assertThat(abv.sameNodes(Report.Counted.of(7, List.of("a#1b", "#2", "v#3"), List.of("eu", "us")))).isFalse();
    assertThat(abv.sameDataCenters(Report.Counted.of(7, List.of(), List.of("eu")))).isFalse();
    assertThat(abv.sameDataCenters(Report.Counted.of(8, List.of(), List.of("eu", "us")))).isTrue();
  }

  @Test
  void rejectsOtherVersionsGarbageAndWhatBreaksABound() {
    assertThatThrownBy(() -> decode("{\"v\":4,\"publisher\":\"n\"}")).hasMessageContaining("version 4");
    assertThatThrownBy(() -> decode("{\"v\":2,\"publisher\":\"n\"}")).hasMessageContaining("version 2");
    assertThatThrownBy(() -> decode("{\"v\":1,\"publisher\":\"n\"}")).hasMessageContaining("version 1");
    assertThatThrownBy(() -> decode("{\"publisher\":\"n\",\"v\":3}")).hasMessageContaining("must start with its version");
    assertThatThrownBy(() -> ReportCodec.decode(new byte[] {1, 2, 3})).isInstanceOf(IllegalArgumentException.class);
    String head = "{\"v\":3,\"publisher\":\"n\",\"nodes\":1,\"joined\":1,\"tallies\":[{\"epoch\":1,";
    assertThatThrownBy(() -> decode(head + "\"active\":-1000000000000000}]}")).hasMessageContaining("out of range");
    assertThatThrownBy(() -> decode(head + "\"outstandingLine\":-1}]}")).hasMessageContaining("out of range");
    assertThatThrownBy(() -> decode(head + "\"line\":[[1,-5]]}]}")).hasMessageContaining("out of range");
    assertThatThrownBy(() -> decode(head + "\"checkIns\":[[10,[1]]]}]}")).hasMessageContaining("holds places");
    assertThatThrownBy(() -> decode(head + "\"checkIns\":[5]}]}")).hasMessageContaining("array of slices");
    assertThatThrownBy(() -> decode("{\"v\":3,\"publisher\":\"" + "x".repeat(100) + "\"}")).hasMessageContaining("short");
    assertThatThrownBy(() -> ReportCodec.decode(new byte[ReportCodec.MAX_BYTES + 1])).hasMessageContaining("larger");
    assertThatThrownBy(() -> decode("{\"v\":3,\"publisher\":\"n\",\"nodes\":1}")).hasMessageContaining("lacks");
  }

  /**
   * 100,000 mutated reports with -P full (system property {@code waitingroom.full}), the first
   * 10,000 of them in the everyday build (the same seed draws the same reports).
   */
  @Test
  void fuzzedReportsNeverThrowAnythingButIllegalArgument() {
    Random random = new Random(42);
    byte[] valid =
        ReportCodec.encode(
            new Report("node", 1, 7, new TreeMap<>(Map.of(7L, tally(3, 4, Map.of(100L, 4L), 9L, 10L)))));
    int reports = Boolean.getBoolean("waitingroom.full") ? 100_000 : 10_000;
    for (int i = 0; i < reports; i++) {
      byte[] b = valid.clone();
      int flips = 1 + random.nextInt(4);
      for (int f = 0; f < flips; f++) {
        b[random.nextInt(b.length)] = (byte) random.nextInt(256);
      }
      if (random.nextInt(10) == 0) {
        b = java.util.Arrays.copyOf(b, random.nextInt(b.length));
      }
      try {
        Report r = ReportCodec.decode(b);
        assertThat(r.publisher()).hasSizeLessThanOrEqualTo(80);
        assertThat(ReportCodec.decode(ReportCodec.encode(r))).isEqualTo(r);
      } catch (IllegalArgumentException expected) {
        // not a report: what a reader must make of it
      }
    }
  }

  @Test
  void sumsAddUpCountsAndSilentTalliesCountWhatTheyMayStillAdmit() {
    Tally a = tally(3, 4, Map.of(100L, 4L), 9L);
    Tally b = tally(-1, 2, Map.of(100L, 1L, 101L, 2L), 9L, 12L);
    Tally sum = Tally.sum(List.of(a, b));
    assertThat(sum.active()).isEqualTo(2);
    assertThat(sum.outstanding()).isEqualTo(6);
    assertThat(sum.line()).containsExactly(Map.entry(100L, 5L), Map.entry(101L, 2L));
    assertThat(sum.admittedPlaces()).containsExactly(9L, 12L);
    assertThat(sum.nodes()).as("a sum counts the nodes it sums").isEqualTo(2);
    assertThat(Tally.sum(List.of(sum, a)).nodes()).isEqualTo(3);
    Report dc = new Report("eu", 2, 1, new TreeMap<>(Map.of(1L, sum, 2L, a)));
    String json = new String(ReportCodec.encode(dc), StandardCharsets.UTF_8);
    assertThat(json.split("\"nodes\":", -1)).as("the report's and the sum's, not the node tally's").hasSize(3);
    assertThat(ReportCodec.decode(json.getBytes(StandardCharsets.UTF_8)).tallies())
        .containsExactly(Map.entry(1L, sum), Map.entry(2L, a));
    Tally silent = a.silent(600);
    assertThat(silent.nodes()).isEqualTo(1);
    assertThat(silent.active()).isEqualTo(3 + 4);
    assertThat(silent.outstanding()).isZero();
    assertThat(silent.line()).isEmpty();
    // Cut off but alive, it may replace its 7 users within one session: with 1-minute sessions,
    // 7 a minute at least.
    assertThat(a.silent(60).recentAdmissions()).isGreaterThanOrEqualTo(7);
  }

  @Test
  void anEarlierReleasesReportCountsAllItMayStillAdmit() {
    // Earlier releases of version 3 split what a node may still admit in two and listed reserved
    // holders: a reader adds the two parts (never fewer slots taken) and skips the rest.
    String head = "{\"v\":3,\"publisher\":\"n\",\"nodes\":1,\"joined\":1,\"tallies\":[{\"epoch\":1,\"active\":5,";
    Tally t = java.util.Objects.requireNonNull(decode(head
        + "\"outstandingLine\":3,\"outstandingNew\":2,\"reserved\":1,\"polling\":4,\"reservedPlaces\":[7]}]}")
        .tallies().get(1L));
    assertThat(t).isEqualTo(new Tally(5, 5, 0, 0, new TreeMap<>(), new long[0]));
    String json = new String(ReportCodec.encode(new Report("n", 1, 1, new TreeMap<>(Map.of(1L, t)))), StandardCharsets.UTF_8);
    assertThat(json).as("read by an earlier release as taken, too").contains("\"outstandingNew\":5")
        .doesNotContain("outstandingLine", "reserved", "polling");
  }

  @Test
  void holdersSharedWithAnotherNodeCountOnceInTheSumAndRoundTrip() {
    // Holder 3 (second 100) polled a, then b: b counts it as shared until a's count runs out.
    Tally a = new Tally(1, 0, 0, 0, new TreeMap<>(Map.of(100L, 2L)), new long[0]);
    Tally b = new Tally(1, 0, 0, 0, new TreeMap<>(Map.of(100L, 1L, 101L, 1L)), new long[0], new long[0], new TreeMap<>(Map.of(100L, 1L)), false);
    Tally sum = Tally.sum(List.of(a, b));
    assertThat(sum.lineAt(100)).as("counted on each node").isEqualTo(3);
    assertThat(sum.distinct().lineAt(100)).as("each holder once").isEqualTo(2);
    assertThat(sum.distinct().lineAt(101)).isEqualTo(1);
    Tally withSilent = Tally.sum(List.of(a, b, Tally.EMPTY.silent(60)));
    assertThat(withSilent.sharedUnknown()).isTrue();
    assertThat(withSilent.distinct().lineAt(100)).as("a sum with a silent node shares nothing").isEqualTo(3);
    assertThat(Tally.sum(List.of(withSilent, b)).sharedUnknown()).as("nor does any sum of it").isTrue();
    Report r = new Report("n", 2, 1, new TreeMap<>(Map.of(1L, b, 2L, withSilent)));
    assertThat(ReportCodec.decode(ReportCodec.encode(r))).as("round trip").isEqualTo(r);
    Report plain = new Report("n", 2, 1, new TreeMap<>(Map.of(1L, a)));
    assertThat(new String(ReportCodec.encode(plain), StandardCharsets.UTF_8)).as("left out when empty")
        .doesNotContain("shared");
    String head = "{\"v\":3,\"publisher\":\"n\",\"nodes\":1,\"joined\":1,\"tallies\":[{\"epoch\":1,";
    assertThatThrownBy(() -> decode(head + "\"line\":[[100,1]],\"shared\":[[100,2]]}]}"))
        .hasMessageContaining("more shared than in line at 100");
    assertThatThrownBy(() -> new Tally(0, 0, 0, 0, new TreeMap<>(), new long[0], new long[0],
        new TreeMap<>(Map.of(5L, 1L)), false)).hasMessageContaining("shared holders of second 5");
  }

  @Test
  void aBusyDataCentersReportStaysReadable() {
    // Defect: 20,000 admissions from the line within the waiting timeout made a data center's
    // report (three tallies, each listing every admitted place) larger than MAX_BYTES, so no node
    // could read it and the room stopped granting. A tally now keeps the latest places only.
    long[] places = new long[60_000];
    for (int i = 0; i < places.length; i++) {
      places[i] = ((1_800_000_000L + i / 100) << 32) | (i * 2_654_435_761L & 0xFFFF_FFFFL);
    }
    Tally busy = tally(100_000, 50_002, Map.of(1_800_000_500L, 30_000L), places);
    assertThat(busy.admittedPlaces()).hasSize(Tally.MAX_ADMITTED_PLACES);
    assertThat(busy.admittedPlaces()[Tally.MAX_ADMITTED_PLACES - 1]).isEqualTo(java.util.Arrays.stream(places).max().orElseThrow());
    Tally sum = Tally.sum(List.of(busy, tally(1, 2, Map.of(), places[0])));
    assertThat(sum.admittedPlaces()).hasSize(Tally.MAX_ADMITTED_PLACES);
    Report r = new Report("dc-a", 40, 7, new TreeMap<>(Map.of(7L, busy, 8L, busy, 9L, sum)));
    byte[] bytes = ReportCodec.encode(r);
    assertThat(bytes.length).isLessThan(ReportCodec.MAX_BYTES);
    assertThat(ReportCodec.decode(bytes)).isEqualTo(r);
  }

  private static Report decode(String json) {
    return ReportCodec.decode(json.getBytes(StandardCharsets.UTF_8));
  }
}
