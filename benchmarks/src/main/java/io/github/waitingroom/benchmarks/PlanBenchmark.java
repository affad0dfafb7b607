package io.github.waitingroom.benchmarks;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.Ticket;
import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * The pure part of a coordination round: summing the settled tallies of 5 data centers ({@link
 * Tally#sum}, as the coordinator does for the room) and one node's {@link Plan#compute} (data
 * center 2 of 5, node 1 of 4), for a line of 10, 1,000 and 100,000 arrival seconds (one user per
 * second per data center, so the loop visits every second and the last one is split), with 500
 * admitted places per data center. A node runs both once per epoch.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PlanBenchmark {
  private static final int DATA_CENTERS = 5;
  private static final int NODES = 4;

  /** How many arrival seconds hold waiting users. */
  @Param({"10", "1000", "100000"})
  public int seconds;

  private RoomConfig config;
  private List<Tally> dataCenters;
  private List<Tally> nodes;
  private long epoch;

  /** Tallies where the free slots cover all but the last second of the line. */
  @Setup
  public void setup() {
    long now = 1_796_032_805L;
    epoch = now;
    long free = (long) (seconds - 1) * DATA_CENTERS + 2;
    config =
        RoomConfig.builder("bench")
            .totalActiveUsers(2_000_000)
            .newUsersPerMinute((int) (500 + free))
            .sessionDuration(Duration.ofMinutes(5))
            .build();
    long active = 1_000_000;
    dataCenters = new ArrayList<>();
    nodes = new ArrayList<>();
    for (int d = 0; d < DATA_CENTERS; d++) {
      TreeMap<Long, Long> line = new TreeMap<>();
      for (int s = 0; s < seconds; s++) {
        line.put(now - seconds + s, 1L);
      }
      long[] admitted = new long[500];
      for (int i = 0; i < admitted.length; i++) {
        admitted[i] = Ticket.place(now - 600 + i, d * 1000 + i);
      }
      dataCenters.add(new Tally(active / DATA_CENTERS, 0, 100, 50L * (d + 1), line, admitted));
    }
    for (int n = 0; n < NODES; n++) {
      TreeMap<Long, Long> line = new TreeMap<>();
      for (int s = n; s < seconds; s += NODES) {
        line.put(now - seconds + s, 1L);
      }
      nodes.add(new Tally(10, 0, 25, 12, line, new long[0]));
    }
    Plan p = compute();
    if (p.partialSecond() == Long.MIN_VALUE && seconds > 1) {
      throw new IllegalStateException("no partial second: " + p);
    }
  }

  /** The room's tally: the data centers' settled tallies summed (lines merged, places deduplicated). */
  @Benchmark
  public Tally sum() {
    return Tally.sum(dataCenters);
  }

  /** One node's plan: free slots, the cutoff, the partial second's split and the node's grants. */
  @Benchmark
  public Plan compute() {
    return Plan.compute(config, epoch, dataCenters, 2, nodes, 1);
  }
}
