package io.github.waitingroom.benchmarks;

import io.github.waitingroom.Ticket;
import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.coordinator.Report;
import io.github.waitingroom.coordinator.ReportCodec;
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
 * Encoding and decoding one node's report, as every sync does: the tallies of its last {@value
 * Report#EPOCHS_KEPT} epochs, each with a line of 1, 60 or 1,000 arrival seconds and {@code
 * admitted} places admitted from the line within the waiting timeout.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ReportCodecBenchmark {
  /** How many arrival seconds the node holds waiting users in. */
  @Param({"1", "60", "1000"})
  public int lineSeconds;

  /** How many places the node admitted from the line recently. */
  @Param({"20"})
  public int admitted;

  private Report report;
  private byte[] encoded;

  /** A node's report with realistic counts. */
  @Setup
  public void setup() {
    long now = 1_796_032_805L;
    TreeMap<Long, Tally> tallies = new TreeMap<>();
    for (int e = 0; e < Report.EPOCHS_KEPT; e++) {
      TreeMap<Long, Long> line = new TreeMap<>();
      for (int s = 0; s < lineSeconds; s++) {
        line.put(now - 2L * lineSeconds + 2L * s, 1L + s % 7);
      }
      long[] places = new long[admitted];
      for (int i = 0; i < admitted; i++) {
        places[i] = Ticket.place(now - 3000 + 3L * i, 0x5a5a5a5a + i);
      }
      tallies.put(now + e, new Tally(400 + e, 3 + 1, 120, 35, line, places));
    }
    report = new Report("node-7#1a2b3c4d", 1, now, tallies);
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
