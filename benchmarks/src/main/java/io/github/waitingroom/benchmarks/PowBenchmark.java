package io.github.waitingroom.benchmarks;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.ProofOfWork;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the gate pays for the proof of work ({@link ProofOfWork}), once per newcomer while people
 * wait, never on an admitted or waiting visitor's request: {@code verify} opens a challenge (one
 * AEAD decryption, Tink AES-256-GCM) and hashes it with a solution (one SHA-256); {@code
 * verifyWrong} the same with a nonce that does not solve it; {@code issue} seals a new challenge
 * (one AEAD encryption).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PowBenchmark {
  private static final int BITS = 16;

  private WaitingRoom room;
  private ProofOfWork pow;
  private String token;
  private String nonce;
  private String wrong;
  private long now;

  @Setup(Level.Trial)
  public void setup() {
    RoomConfig config =
        RoomConfig.builder("bench").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(5)).build();
    room = WaitingRoom.builder(config, TicketKeys.generate()).backgroundSync(false).build();
    pow = new ProofOfWork(room.seal("pow"), BITS, ProofOfWork.DEFAULT_TTL_SECONDS);
    now = room.nowSecond();
    token = pow.issue(now);
    nonce = ProofOfWork.solve(token, BITS);
    wrong = "zz";
    for (int i = 0; pow.verify(token, wrong, now); i++) {
      wrong = "zz" + i;
    }
    if (!pow.verify(token, nonce, now)) {
      throw new IllegalStateException("the solution does not verify");
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    room.close();
  }

  /** A good solution: one AEAD open and one SHA-256. */
  @Benchmark
  public boolean verify() {
    return pow.verify(token, nonce, now);
  }

  /** A nonce that does not solve the challenge: the same work. */
  @Benchmark
  public boolean verifyWrong() {
    return pow.verify(token, wrong, now);
  }

  /** Issues a challenge: one AEAD seal. */
  @Benchmark
  public String issue() {
    return pow.issue(now);
  }
}
