package io.github.waitingroom.benchmarks;

import io.github.waitingroom.Decision;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.InMemoryTransport;
import com.google.crypto.tink.KeysetHandle;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * A flood of cookie-less requests that never come back (issue 12), against a room with a line of
 * honest users who poll as they are told. Every run is done twice, with and without the flood,
 * with the same seed, so the honest users who arrived before the flood have the same places and
 * poll at the same instants in both: any difference in their admissions is the flood's doing.
 *
 * <p>Each node is a real {@link WaitingRoom} on its own {@link ManualClock}, built with {@code
 * backgroundSync(false)} and synced four times per 1 s epoch; several nodes share one {@link
 * InMemoryTransport}. Honest users arrive without a cookie at a steady rate, keep the ticket they
 * are given, poll again exactly when the answer says ({@code refreshSeconds}), never give up, and
 * once admitted make a request every 10 s for 30 s and leave. The flood: {@code --flood} requests
 * without a cookie (each a new arrival that keeps nothing), spread evenly over {@code
 * --flood-seconds} seconds from {@code --flood-at}, spread evenly over the nodes. The size of each
 * node's map of places it remembers is read by reflection (it is package-private in the core). The
 * comparison is printed by {@link FloodReport}.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.waitingroom.benchmarks.FloodBench \
 *     [--nodes=1] [--flood=100000] [--flood-at=300] [--flood-seconds=1] [--honest-per-min=60]
 *     [--honest-for=600] [--timeout=0 (the default: 3 x refresh + slice)] [--seed=1] [--series]
 * </pre>
 */
public final class FloodBench {
  private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");
  private static final long STEP_MS = 250;
  private static final long WARM_UP_S = 6;

  private FloodBench() {}

  /** Whether to trace every poll of every honest user ({@code -Dflood.trace=true}), printed by {@link FloodReport}. */
  static final boolean TRACE = Boolean.getBoolean("flood.trace");

  /** One honest user. */
  static final class User {
    final int id;
    final long arrivalMs;
    final int node;
    @Nullable String ticket;
    long nextMs;
    long admittedMs = -1;
    long firstAhead = -1;
    long firstWait = -2;
    /** Honest users still waiting who arrived before this one, when it was first told its place. */
    long trueAhead = -1;
    long maxWait = -2;
    boolean gone;
    final StringBuilder trace = new StringBuilder();

    User(int id, long arrivalMs, int node) {
      this.id = id;
      this.arrivalMs = arrivalMs;
      this.node = node;
      this.nextMs = arrivalMs;
    }
  }

  /** Per-second figures of one run. */
  record Second(long t, long planWaiting, long trueWaiting, long seen, long active, long cutoff, long admissions) {}

  /** What one run saw. */
  record Run(List<User> users, List<Second> seconds, long heapBeforeFlood, long heapAfterFlood, long seenAfterFlood,
      long floodNanos) {}

  /** The settings of a run. */
  record Settings(int nodes, int flood, long floodAt, long floodSeconds, int honestPerMinute, long honestFor,
      long timeoutSeconds, long seed, long endAt) {}

  /** Runs the room with and without the flood and prints the comparison; {@code --help} lists the options. */
  public static void main(String[] args) {
    int code = new CommandLine(new Cli()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** The command line of {@link #main}. */
  @Command(
      name = "FloodBench",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      showDefaultValues = true,
      description = "A flood of cookie-less requests that never come back, against a room with a line of honest users;"
          + " run twice with the same seed, with and without the flood.")
  static final class Cli implements Callable<Integer> {
    @Option(names = "--nodes", paramLabel = "N", description = "nodes sharing one in-memory store")
    int nodes = 1;

    @Option(names = "--flood", paramLabel = "N", description = "requests without a cookie in the flood")
    int flood = 100_000;

    @Option(names = "--flood-at", paramLabel = "SECONDS", description = "when the flood starts")
    long floodAt = 300;

    @Option(names = "--flood-seconds", paramLabel = "SECONDS", description = "over how long the flood is spread")
    long floodSeconds = 1;

    @Option(names = "--honest-per-min", paramLabel = "N", description = "honest arrivals per minute")
    int honestPerMinute = 60;

    @Option(names = "--honest-for", paramLabel = "SECONDS", description = "how long honest users arrive")
    long honestFor = 600;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "the room's waitingTimeout; 0: the room's"
        + " default (3 x refresh + slice)")
    long timeout;

    @Option(names = "--seed", paramLabel = "N", description = "random seed: the same seed, the same honest users")
    long seed = 1;

    @Option(names = "--series", description = "also print the per-second series")
    boolean series;

    @Override
    public Integer call() throws Exception {
      if (nodes < 1 || flood < 0 || floodAt < 0 || floodSeconds < 1 || honestPerMinute < 0 || honestFor < 0 || timeout < 0) {
        throw new ParameterException(new CommandLine(this),
            "--nodes and --flood-seconds must be positive; the other counts and times must not be negative");
      }
      Settings s = new Settings(nodes, flood, floodAt, floodSeconds, honestPerMinute, honestFor, timeout, seed,
          honestFor + 1200);
      Run base = run(s, false);
      Run fl = run(s, true);
      FloodReport.print(s, base, fl, series);
      return 0;
    }
  }

  static RoomConfig config(long timeoutSeconds) {
    RoomConfig.Builder b = RoomConfig.builder("flood").totalActiveUsers(100).newUsersPerMinute(60)
        .sessionDuration(Duration.ofMinutes(2)).refreshInterval(Duration.ofSeconds(20));
    if (timeoutSeconds > 0) {
      b.waitingTimeout(Duration.ofSeconds(timeoutSeconds));
    }
    return b.build();
  }

  static Run run(Settings s, boolean withFlood) throws Exception {
    KeysetHandle keys = TicketKeys.generate();
    RoomConfig config = config(s.timeoutSeconds());
    ManualClock storeClock = new ManualClock(START);
    InMemoryTransport store = new InMemoryTransport(storeClock);
    List<ManualClock> clocks = new ArrayList<>();
    List<WaitingRoom> rooms = new ArrayList<>();
    for (int n = 0; n < s.nodes(); n++) {
      ManualClock c = new ManualClock(START);
      Random tie = new Random(s.seed() * 31 + n);
      rooms.add(WaitingRoom.builder(config, keys).clock(c).transport(store).nodeId("n" + n)
          .backgroundSync(false).random(tie).build());
      clocks.add(c);
    }
    Random random = new Random(s.seed());
    List<User> users = new ArrayList<>();
    List<Second> seconds = new ArrayList<>();
    long heapBefore = 0;
    long heapAfter = 0;
    long seenAfter = 0;
    long floodNanos = 0;
    long nextArrivalMs = 0;
    double meanGapMs = 60_000.0 / s.honestPerMinute();
    int flooded = 0;
    long floodFromMs = s.floodAt() * 1000;
    long floodToMs = (s.floodAt() + s.floodSeconds()) * 1000;
    long[] admissionsByNode = new long[1];
    // warm up: every node joins and gets its first plan
    for (long ms = -WARM_UP_S * 1000; ms < 0; ms += STEP_MS) {
      step(storeClock, clocks, rooms);
    }
    for (long ms = 0; ms <= s.endAt() * 1000; ms += STEP_MS) {
      // honest arrivals in this step (Poisson)
      while (nextArrivalMs < ms + STEP_MS && nextArrivalMs < s.honestFor() * 1000) {
        User u = new User(users.size(), Math.max(ms, nextArrivalMs), random.nextInt(s.nodes()));
        users.add(u);
        nextArrivalMs += Math.max(1, Math.round(-Math.log(1 - random.nextDouble()) * meanGapMs));
      }
      for (User u : users) {
        if (!u.gone && u.nextMs <= ms) {
          if (u.firstWait == -2) {
            long ahead = 0;
            for (User o : users) {
              ahead += o.arrivalMs < u.arrivalMs && o.admittedMs < 0 ? 1 : 0;
            }
            u.trueAhead = ahead;
          }
          visit(u, rooms.get(u.node), ms, admissionsByNode);
        }
      }
      if (withFlood && ms >= floodFromMs && ms < floodToMs) {
        if (ms == floodFromMs) {
          heapBefore = usedHeap();
        }
        long steps = (floodToMs - floodFromMs) / STEP_MS;
        long stepIndex = (ms - floodFromMs) / STEP_MS;
        int target = (int) ((long) s.flood() * (stepIndex + 1) / steps);
        long t0 = System.nanoTime();
        for (; flooded < target; flooded++) {
          rooms.get(flooded % s.nodes()).decide(null, null);
        }
        floodNanos += System.nanoTime() - t0;
        if (ms + STEP_MS == floodToMs) {
          heapAfter = usedHeap();
          seenAfter = seenTotal(rooms);
        }
      }
      step(storeClock, clocks, rooms);
      if ((ms + STEP_MS) % 1000 == 0) {
        long t = (ms + STEP_MS) / 1000;
        long trueWaiting = 0;
        for (User u : users) {
          trueWaiting += u.admittedMs < 0 ? 1 : 0;
        }
        var st = rooms.get(0).status();
        long cutoff = st.cutoffSecond() == Long.MIN_VALUE ? Long.MIN_VALUE : st.cutoffSecond() - START.getEpochSecond();
        seconds.add(new Second(t, st.waitingUsers(), trueWaiting, seenTotal(rooms), st.activeUsers(), cutoff,
            st.admissionsPerMinute()));
      }
    }
    for (WaitingRoom r : rooms) {
      r.close();
    }
    return new Run(users, seconds, heapBefore, heapAfter, seenAfter, floodNanos);
  }

  private static void visit(User u, WaitingRoom room, long ms, long[] admissions) {
    Decision d = room.decide(u.ticket);
    if (TRACE) {
      u.trace.append(String.format(Locale.ROOT, " %d:%s/r%d/a%d/w%d", ms / 1000, d.outcome().name().charAt(0),
          d.refreshSeconds(), d.usersAhead(), d.waitSeconds()));
    }
    if (d.ticket() != null) {
      u.ticket = d.ticket();
    }
    if (d.letsThrough()) {
      if (u.admittedMs < 0) {
        u.admittedMs = ms;
        admissions[0]++;
      }
      if (ms - u.admittedMs >= 30_000) {
        u.gone = true;
      }
      u.nextMs = ms + 10_000;
    } else {
      if (u.firstWait == -2) {
        u.firstAhead = d.usersAhead();
        u.firstWait = d.waitSeconds();
      }
      u.maxWait = Math.max(u.maxWait, d.waitSeconds());
      u.nextMs = ms + Math.max(1, d.refreshSeconds()) * 1000;
    }
  }

  private static void step(ManualClock store, List<ManualClock> clocks, List<WaitingRoom> rooms) {
    store.advance(Duration.ofMillis(STEP_MS));
    for (ManualClock c : clocks) {
      c.advance(Duration.ofMillis(STEP_MS));
    }
    for (WaitingRoom r : rooms) {
      r.sync();
    }
  }

  private static long usedHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** The places all nodes remember (NodeState.seen, package-private: read by reflection). */
  static long seenTotal(List<WaitingRoom> rooms) {
    long n = 0;
    try {
      for (WaitingRoom r : rooms) {
        Object ns = SimDebug.nodeState(r);
        Field seen = ns.getClass().getDeclaredField("seen");
        seen.setAccessible(true);
        n += ((Map<?, ?>) seen.get(ns)).size();
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
    return n;
  }
}
