package io.github.waitingroom.benchmarks;

import io.github.waitingroom.Decision;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * Request threads racing the sync, with real threads, on one node: the blind spot behind issue
 * 8's finding 5. Each trial builds a room of {@code limit} active users (and as many new users a
 * minute; sessions of 10 minutes, so nobody leaves during a trial; its first plan grants the
 * whole limit to new arrivals), then starts {@code threads} request threads and one sync thread
 * at once. The sync thread moves the clock a quarter epoch and syncs, {@code syncs} times, so
 * plans are applied while requests spend grants; each request thread sends {@code requests}
 * requests: half new arrivals, half polls with a waiting ticket picked at random from the ones
 * the threads were queued with (so several threads often send one ticket at once, like a page's
 * parallel fetches). Every {@code ADMIT} spends a slot; the trial fails if more than {@code
 * limit} are spent, since one node alone is granted at most the room's limit.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.waitingroom.benchmarks.ThreadRace \
 *     [--out DIR] [trials] [threads]
 * </pre>
 */
public final class ThreadRace {
  private ThreadRace() {}

  /** The outcome of many trials. */
  record Outcome(int trials, int limit, int threads, int maxAdmitted, int trialsOver, double meanAdmitted, long lineAdmits) {}

  /** Runs {@code trials} trials and returns the worst. */
  static Outcome run(int trials, int limit, int threads, int requests, int syncs) throws InterruptedException {
    int max = 0;
    int over = 0;
    long sum = 0;
    long lineAdmits = 0;
    for (int i = 0; i < trials; i++) {
      int[] admitted = trial(limit, threads, requests, syncs);
      max = Math.max(max, admitted[0]);
      over += admitted[0] > limit ? 1 : 0;
      sum += admitted[0];
      lineAdmits += admitted[1];
    }
    return new Outcome(trials, limit, threads, max, over, sum / (double) trials, lineAdmits);
  }

  /** One trial: the slots spent (ADMIT outcomes), and how many of them went to queued tickets. */
  static int[] trial(int limit, int threads, int requests, int syncs) throws InterruptedException {
    ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00.100Z"));
    RoomConfig config =
        RoomConfig.builder("race")
            .totalActiveUsers(limit)
            .newUsersPerMinute(limit)
            .sessionDuration(Duration.ofMinutes(10))
            .build();
    WaitingRoom room = WaitingRoom.builder(config, TicketKeys.generate()).clock(clock).backgroundSync(false).build();
    java.util.concurrent.CopyOnWriteArrayList<String> queued = new java.util.concurrent.CopyOnWriteArrayList<>();
    AtomicInteger admits = new AtomicInteger();
    AtomicInteger fromLine = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> all = new ArrayList<>();
    List<@Nullable Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < threads; t++) {
      all.add(new Thread(() -> {
        try {
          start.await();
          ThreadLocalRandom r = ThreadLocalRandom.current();
          for (int i = 0; i < requests; i++) {
            int held = queued.size();
            boolean poll = held > 0 && r.nextBoolean();
            Decision d = room.decide(poll ? queued.get(r.nextInt(held)) : null);
            String issued = d.ticket();
            if (d.outcome() == Decision.Outcome.QUEUE && issued != null && queued.size() < 64) {
              queued.add(issued);
            }
            if (d.outcome() == Decision.Outcome.ADMIT) {
              admits.incrementAndGet();
              if (poll) {
                fromLine.incrementAndGet();
              }
            }
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      }));
    }
    all.add(new Thread(() -> {
      try {
        start.await();
        for (int i = 0; i < syncs; i++) {
          clock.advance(Duration.ofMillis(250));
          room.sync();
        }
      } catch (Throwable e) {
        failures.add(e);
      }
    }));
    all.forEach(Thread::start);
    start.countDown();
    for (Thread t : all) {
      t.join();
    }
    room.close();
    if (!failures.isEmpty()) {
      throw new IllegalStateException("a thread failed", failures.get(0));
    }
    return new int[] {admits.get(), fromLine.get()};
  }

  /** Runs the trials and writes {@code <out>/threads/summary.json}; {@code --help} lists the options. */
  public static void main(String[] args) {
    int code = new CommandLine(new Cli()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** The command line of {@link #main}. */
  @Command(
      name = "ThreadRace",
      mixinStandardHelpOptions = true,
      showDefaultValues = true,
      description = "Request threads racing the sync on one node, with real threads: fails if a trial admits more"
          + " than the limit.")
  static final class Cli implements Callable<Integer> {
    @Option(names = "--out", paramLabel = "DIR", description = "output directory (writes DIR/threads/summary.json)")
    Path out = Path.of("target", "sim");

    @Parameters(index = "0", arity = "0..1", paramLabel = "TRIALS", description = "trials to run")
    int trials = 1000;

    @Parameters(index = "1", arity = "0..1", paramLabel = "THREADS", description = "request threads per trial")
    int threads = 8;

    @Override
    public Integer call() throws IOException, InterruptedException {
      if (trials < 1 || threads < 1) {
        throw new ParameterException(new CommandLine(this), "TRIALS and THREADS must be positive");
      }
      int limit = 20;
      long started = System.nanoTime();
      Outcome o = run(trials, limit, threads, 200, 24);
      double wall = (System.nanoTime() - started) / 1e9;
      String json = String.format(Locale.ROOT,
          "{%n  \"scenario\": \"threads\",%n  \"description\": \"%d request threads + 1 sync thread, one node, limit %d;"
              + " %d trials of 200 requests per thread and 24 quarter-epoch syncs\",%n  \"trials\": %d,%n"
              + "  \"totalActiveUsers\": %d,%n  \"maxAdmittedInATrial\": %d,%n  \"trialsOverLimit\": %d,%n"
              + "  \"meanAdmitted\": %.3f,%n  \"admittedFromLine\": %d,%n  \"peakActiveRatio\": %.4f,%n"
              + "  \"wallSeconds\": %.1f%n}%n",
          threads, limit, trials, trials, limit, o.maxAdmitted(), o.trialsOver(), o.meanAdmitted(), o.lineAdmits(),
          o.maxAdmitted() / (double) limit, wall);
      Path dir = out.resolve("threads");
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("summary.json"), json, StandardCharsets.UTF_8);
      System.out.print(json);
      return 0;
    }
  }
}
