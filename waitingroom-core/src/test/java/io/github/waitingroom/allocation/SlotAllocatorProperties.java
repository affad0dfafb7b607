package io.github.waitingroom.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.coordinator.Report;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

class SlotAllocatorProperties {
  private static final long NOW = 1_800_000_030L;

  /** A room with random limits and, per data center, random active users, admissions and line. */
  record Scenario(RoomConfig config, Map<String, Report> dataCenters) {
    RoomView view() {
      return RoomView.of(config, NOW, dataCenters);
    }
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<RoomConfig> configs =
        Combinators.combine(Arbitraries.integers().between(1, 500), Arbitraries.integers().between(1, 500))
            .as(
                (total, perMinute) ->
                    RoomConfig.builder("alloc")
                        .totalActiveUsers(Math.max(total, perMinute))
                        .newUsersPerMinute(Math.min(total, perMinute))
                        .sessionDuration(Duration.ofMinutes(5))
                        .build());
    Arbitrary<Report> reports =
        Combinators.combine(
                Arbitraries.longs().between(0, 400),
                Arbitraries.longs().between(0, 200),
                Arbitraries.longs().between(0, 300),
                Arbitraries.longs().between(0, 120).list().ofMaxSize(12),
                Arbitraries.longs().between(0, 40))
            .as(SlotAllocatorProperties::report);
    Arbitrary<Map<String, Report>> dcs =
        reports.list().ofMinSize(1).ofMaxSize(5).map(list -> {
          Map<String, Report> out = new HashMap<>();
          for (int i = 0; i < list.size(); i++) {
            out.put("dc" + i, list.get(i));
          }
          return out;
        });
    return Combinators.combine(configs, dcs).as(Scenario::new);
  }

  private static Report report(long active, long admitted, long traffic, List<Long> line, long age) {
    long slice = NOW - NOW % 10;
    NavigableMap<Long, Long> a = new TreeMap<>(active == 0 ? Map.of() : Map.of(slice - 100, active));
    NavigableMap<Long, Long> ad = new TreeMap<>(admitted == 0 ? Map.of() : Map.of(slice - 20, admitted));
    NavigableMap<Long, Long> t = new TreeMap<>(traffic == 0 ? Map.of() : Map.of(NOW - NOW % 60 - 90, traffic));
    NavigableMap<Long, NavigableMap<Long, Long>> w = new TreeMap<>();
    for (int i = 0; i < line.size(); i++) {
      if (line.get(i) > 0) {
        // buckets 12..1 minutes back; the last ones may be the current bucket
        w.put(NOW - NOW % 60 - 60L * (line.size() - 1 - i), new TreeMap<>(Map.of(slice, line.get(i))));
      }
    }
    return new Report("dc", NOW - age, 1, a, ad, t, w);
  }

  @Property(tries = 500)
  void neverHandsOutMoreThanTheFreeSlotsAndServesOldestFirst(@ForAll("scenarios") Scenario s) {
    RoomView view = s.view();
    Allocation a = SlotAllocator.allocate(view, s.config());
    long expectedFree =
        Math.max(
            0,
            Math.min(
                s.config().totalActiveUsers() - view.activeUsers() - view.unseenAdmissions(),
                s.config().newUsersPerMinute() - view.admittedLastMinute() - view.unseenAdmissions()));
    assertThat(a.freeSlots()).isEqualTo(expectedFree);
    assertThat(a.eligibleSlots() + a.newArrivals()).isEqualTo(a.freeSlots());
    List<BucketState> buckets = a.buckets();
    boolean someoneLeftWaiting = false;
    long previous = Long.MIN_VALUE;
    for (BucketState b : buckets) {
      assertThat(b.bucketId()).isGreaterThan(previous);
      previous = b.bucketId();
      assertThat(b.eligibleSlots()).isBetween(0L, b.waiting());
      if (someoneLeftWaiting) {
        assertThat(b.eligibleSlots()).as("a later bucket is served while an earlier one waits").isZero();
      }
      someoneLeftWaiting |= b.eligibleSlots() < b.waiting();
    }
    if (someoneLeftWaiting) {
      assertThat(a.newArrivals()).as("new arrivals jump a non-empty line").isZero();
    }
  }

  @Property(tries = 300)
  void nodeBudgetsStayWithinTheAllocation(
      @ForAll("scenarios") Scenario s, @ForAll @IntRange(min = 1, max = 6) int nodesPerDc) {
    RoomView view = s.view();
    Allocation a = SlotAllocator.allocate(view, s.config());
    Map<Long, Long> bucketSum = new HashMap<>();
    long newSum = 0;
    List<Budget> all = new ArrayList<>();
    for (String dc : view.dataCenterNames()) {
      for (int n = 0; n < nodesPerDc; n++) {
        Budget b = SlotAllocator.budgetFor(a, view, dc, n, nodesPerDc);
        all.add(b);
        newSum += b.newArrivals();
        for (int i = 0; i < b.bucketIds().length; i++) {
          bucketSum.merge(b.bucketIds()[i], b.slots()[i], Long::sum);
        }
      }
    }
    assertThat(newSum).as("new-arrival slots over all nodes").isEqualTo(a.newArrivals());
    for (BucketState b : a.buckets()) {
      long given = bucketSum.getOrDefault(b.bucketId(), 0L);
      boolean closedAndFull = b.eligibleSlots() == b.waiting() && b.bucketId() < view.currentBucket();
      if (closedAndFull) {
        // Released anywhere: every node may admit the whole bucket, each user once.
        assertThat(given).isEqualTo(b.eligibleSlots() * all.size());
      } else {
        assertThat(given).as("slots of bucket %d over all nodes", b.bucketId()).isLessThanOrEqualTo(b.eligibleSlots());
      }
      if (b.eligibleSlots() == 0) {
        assertThat(given).isZero();
      }
    }
  }

  @Property(tries = 1000)
  void splitsNeverExceedCapsAndHandOutEverythingTheyCan(
      @ForAll @LongRange(max = 100_000) long amount,
      @ForAll @Size(min = 1, max = 8) List<@LongRange(max = 1000) Long> weights,
      @ForAll @Size(min = 8, max = 8) List<@LongRange(max = 5000) Long> caps,
      @ForAll @LongRange(max = 50) long rotation) {
    long[] w = weights.stream().mapToLong(Long::longValue).toArray();
    long[] c = caps.subList(0, w.length).stream().mapToLong(Long::longValue).toArray();
    long[] capped = SlotAllocator.split(amount, w, c, rotation);
    long sum = 0;
    for (int i = 0; i < w.length; i++) {
      assertThat(capped[i]).isBetween(0L, c[i]);
      sum += capped[i];
    }
    assertThat(sum).isEqualTo(Math.min(amount, java.util.Arrays.stream(c).sum()));
    long[] free = SlotAllocator.split(amount, w, null, rotation);
    assertThat(java.util.Arrays.stream(free).sum()).isEqualTo(amount);
    long totalWeight = java.util.Arrays.stream(w).sum();
    for (int i = 0; i < w.length && totalWeight > 0; i++) {
      double fair = (double) amount * w[i] / totalWeight;
      assertThat((double) free[i]).as("share %d of %s", i, weights).isBetween(Math.floor(fair) - 0.0, Math.ceil(fair) + w.length);
    }
  }

  @org.junit.jupiter.api.Test
  void countsTheAdmissionsThatStaleReportsCannotShowYet() {
    RoomConfig config =
        RoomConfig.builder("unseen").totalActiveUsers(1000).newUsersPerMinute(500).sessionDuration(Duration.ofMinutes(5)).build();
    long now = 1_800_000_005L;
    // 120 admissions in the minute before a report taken 3 s ago: 2 a second, 6 unseen.
    NavigableMap<Long, Long> admitted = new TreeMap<>(Map.of(now - 15 - (now - 15) % 10, 120L));
    Report stale = new Report("eu", now - 3, 4, new TreeMap<>(Map.of(now - 5 - now % 10, 900L)), admitted, new TreeMap<>(), new TreeMap<>());
    RoomView view = RoomView.of(config, now, Map.of("eu", stale));
    assertThat(view.unseenAdmissions()).isEqualTo(6);
    assertThat(SlotAllocator.allocate(view, config).freeSlots()).isEqualTo(Math.min(1000 - 900 - 6, 500 - 120 - 6));

    Report fresh = new Report("eu", now, 4, stale.active(), admitted, new TreeMap<>(), new TreeMap<>());
    assertThat(RoomView.of(config, now, Map.of("eu", fresh)).unseenAdmissions()).isZero();
    Report gone = new Report("eu", now - RoomView.MAX_UNSEEN_AGE_SECONDS - 1, 4, stale.active(), admitted, new TreeMap<>(), new TreeMap<>());
    assertThat(RoomView.of(config, now, Map.of("eu", gone)).unseenAdmissions()).as("a silent publisher admits nobody").isZero();
  }
}
