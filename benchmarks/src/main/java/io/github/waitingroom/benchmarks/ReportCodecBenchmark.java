package io.github.waitingroom.benchmarks;

import io.github.waitingroom.coordinator.Report;
import io.github.waitingroom.coordinator.ReportCodec;
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
 * Encoding and decoding one node's report, as a sync does: a 5-minute session in 10-second slices
 * (31 active slices, 31 admitted slices, 18 traffic slices) and a line of 1 or 30 buckets whose
 * users polled across 7 slices each.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ReportCodecBenchmark {
  /** How many buckets the node holds waiting users in. */
  @Param({"1", "30"})
  public int buckets;

  private Report report;
  private byte[] encoded;

  /** A node's report with realistic counts. */
  @Setup
  public void setup() {
    long now = 1_796_032_805L;
    long slice = now - now % 10;
    TreeMap<Long, Long> active = new TreeMap<>();
    TreeMap<Long, Long> admitted = new TreeMap<>();
    TreeMap<Long, Long> traffic = new TreeMap<>();
    for (int i = 0; i < 31; i++) {
      active.put(slice - 10L * i, 40L + i);
      admitted.put(slice - 10L * i, 3L + i % 5);
    }
    for (int i = 0; i < 18; i++) {
      traffic.put(slice - 10L * i, 250L + i);
    }
    TreeMap<Long, NavigableMap<Long, Long>> waiting = new TreeMap<>();
    long bucket = now - now % 60;
    for (int b = 0; b < buckets; b++) {
      TreeMap<Long, Long> polls = new TreeMap<>();
      for (int i = 0; i < 7; i++) {
        polls.put(slice - 10L * i, 120L + b + i);
      }
      waiting.put(bucket - 60L * b, polls);
    }
    report = new Report("node-7#1a2b3c4d", now, 1, active, admitted, traffic, waiting);
    encoded = ReportCodec.encode(report);
  }

  /** The report as JSON bytes. */
  @Benchmark
  public byte[] encode() {
    return ReportCodec.encode(report);
  }

  /** JSON bytes back to a report. */
  @Benchmark
  public Report decode() {
    return ReportCodec.decode(encoded);
  }
}
