package io.github.waitingroom.benchmarks;

import io.github.waitingroom.Decision;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * How much more two threads decide than one on each request path of {@link DecideBenchmark}, next
 * to one bare JDK AES-GCM decrypt ({@link AesGcmFloorBenchmark}), in a plain loop: each thread
 * calls the path for a fixed time, after a warm-up of the same length, and the result is the
 * throughput of two threads against one's. JMH's {@code -t 2} on the 2-vCPU machine of
 * benchmarks/README moved the bare decrypt itself between 1.46x and 2.19x from run to run, so its
 * ratios for the paths say more about the machine than about them; this loop measures every path
 * and the floor the same way, one after the other.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.waitingroom.benchmarks.ThreadScaling [seconds] [rounds]
 * </pre>
 */
public final class ThreadScaling {
  private ThreadScaling() {}

  /** A path one thread calls, with its own state. */
  private record Path(String name, Function<Integer, Runnable> forThread) {}

  /** Measures each path and prints one line for each round: ns per call with one thread, and two threads' throughput against one's. */
  public static void main(String[] args) throws Exception {
    long seconds = args.length > 0 ? Long.parseLong(args[0]) : 3;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    DecideBenchmark bench = new DecideBenchmark();
    bench.setup();
    DecideBenchmark.Tickets[] tickets = new DecideBenchmark.Tickets[2];
    for (int i = 0; i < tickets.length; i++) {
      tickets[i] = new DecideBenchmark.Tickets();
      tickets[i].take(bench);
    }
    List<Path> paths = List.of(
        new Path("floor (AES-GCM decrypt)", i -> floor()),
        new Path("activeUnchanged", i -> decide(() -> bench.activeUnchanged(tickets[i]))),
        new Path("activeCheckIn", i -> decide(() -> bench.activeCheckIn(tickets[i]))),
        new Path("waitingPoll", i -> decide(() -> bench.waitingPoll(tickets[i]))));
    for (Path p : paths) {
      run(p, 1, seconds);
      run(p, 2, seconds); // warm-up
      for (int r = 0; r < rounds; r++) {
        double one = run(p, 1, seconds);
        double two = run(p, 2, seconds);
        System.out.printf("%-24s 1 thread %,6.0f ns a call, 2 threads %.2fx%n", p.name(), 1e9 / one, two / one);
      }
    }
    bench.tearDown();
  }

  private static Runnable floor() {
    AesGcmFloorBenchmark f = new AesGcmFloorBenchmark();
    try {
      f.setup();
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    return () -> {
      try {
        sink(f.decrypt());
      } catch (java.security.GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    };
  }

  private static Runnable decide(java.util.function.Supplier<Decision> d) {
    return () -> sink(d.get());
  }

  /** What the loops produce, kept per thread so that the JIT keeps the calls and no cache line is shared. */
  private static final ThreadLocal<Object[]> SINK = ThreadLocal.withInitial(() -> new Object[1]);

  private static void sink(Object o) {
    SINK.get()[0] = o;
  }

  /** Calls the path on {@code threads} threads for {@code seconds}; returns calls a second, all threads together. */
  private static double run(Path p, int threads, long seconds) throws Exception {
    LongAdder calls = new LongAdder();
    CyclicBarrier start = new CyclicBarrier(threads);
    Thread[] ts = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      Runnable call = p.forThread().apply(t);
      ts[t] = new Thread(() -> {
        try {
          start.await();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long n = 0;
        while (System.nanoTime() < end) {
          for (int i = 0; i < 100; i++) {
            call.run();
          }
          n += 100;
        }
        calls.add(n);
      });
      ts[t].start();
    }
    for (Thread t : ts) {
      t.join();
    }
    return calls.sum() / (double) seconds;
  }
}
