package io.github.waitingroom.benchmarks;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.allocation.Allocation;
import io.github.waitingroom.allocation.Budget;
import io.github.waitingroom.allocation.RoomView;
import io.github.waitingroom.allocation.SlotAllocator;
import io.github.waitingroom.coordinator.Report;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The pure part of a coordination round for a line of 10, 1,000 and 100,000 minute buckets held
 * by 5 data centers: building the {@link RoomView} from the data centers' reports, the room-wide
 * {@link SlotAllocator#allocate allocation} (every bucket eligible, so the loop visits them all),
 * and one node's {@link SlotAllocator#budgetFor budget}. A node runs all three once per sync.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SlotAllocatorBenchmark {
  private static final int DATA_CENTERS = 5;

  /** How many buckets hold waiting users. */
  @Param({"10", "1000", "100000"})
  public int buckets;

  private RoomConfig config;
  private long now;
  private Map<String, Report> reports;
  private RoomView view;
  private Allocation allocation;

  /** One report per data center, each with one user in every bucket, polled this slice. */
  @Setup
  public void setup() {
    config =
        RoomConfig.builder("bench")
            .totalActiveUsers(1_000_000)
            .newUsersPerMinute(1_000_000)
            .sessionDuration(Duration.ofMinutes(5))
            .build();
    now = 1_796_032_805L;
    long slice = config.sliceOf(now);
    long current = config.bucketOf(now);
    reports = new HashMap<>();
    for (int d = 0; d < DATA_CENTERS; d++) {
      TreeMap<Long, NavigableMap<Long, Long>> waiting = new TreeMap<>();
      for (int b = 0; b < buckets; b++) {
        TreeMap<Long, Long> slices = new TreeMap<>();
        slices.put(slice, 1L);
        waiting.put(current - (long) b * config.bucketSeconds(), slices);
      }
      TreeMap<Long, Long> active = new TreeMap<>();
      active.put(slice, 1_000L);
      TreeMap<Long, Long> traffic = new TreeMap<>();
      traffic.put(current - 2 * config.bucketSeconds(), 100L * (d + 1));
      String name = "dc-" + d;
      reports.put(name, new Report(name, now, 4, active, new TreeMap<>(), traffic, waiting));
    }
    view = RoomView.of(config, now, reports);
    allocation = SlotAllocator.allocate(view, config);
    if (allocation.eligibleSlots() != (long) buckets * DATA_CENTERS) {
      throw new IllegalStateException("not every bucket is eligible: " + allocation.eligibleSlots());
    }
  }

  /** Sums the data centers' reports into a view (windows applied, buckets sorted). */
  @Benchmark
  public RoomView view() {
    return RoomView.of(config, now, reports);
  }

  /** Free slots and eligible slots per bucket, oldest first. */
  @Benchmark
  public Allocation allocate() {
    return SlotAllocator.allocate(view, config);
  }

  /** One node's budget (data center 2 of 5, node 1 of 4) out of the allocation. */
  @Benchmark
  public Budget budgetFor() {
    return SlotAllocator.budgetFor(allocation, view, "dc-2", 1, 4);
  }
}
