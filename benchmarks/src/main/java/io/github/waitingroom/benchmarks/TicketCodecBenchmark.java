package io.github.waitingroom.benchmarks;

import io.github.waitingroom.Ticket;
import io.github.waitingroom.TicketCodec;
import io.github.waitingroom.TicketKeys;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Sealing and opening one ticket (AES-256-GCM through Tink, base64url). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TicketCodecBenchmark {
  static final long NOW = 1_796_032_805L; // 2026-11-30T10:00:05Z

  private TicketCodec codec;
  private Ticket ticket;
  private String sealed;

  /** One room's codec and one active ticket. */
  @Setup
  public void setup() {
    codec = new TicketCodec("bench", TicketKeys.generate());
    ticket = Ticket.active(Ticket.place(NOW - 65, 0x1234_5678), NOW - 5, NOW);
    sealed = codec.seal(ticket);
  }

  /** Encrypts a 22-byte ticket and encodes it as a 73-character cookie value. */
  @Benchmark
  public String seal() {
    return codec.seal(ticket);
  }

  /** Decodes, decrypts and checks a 73-character cookie value. */
  @Benchmark
  public @Nullable Ticket open() {
    return codec.open(sealed, NOW);
  }
}
