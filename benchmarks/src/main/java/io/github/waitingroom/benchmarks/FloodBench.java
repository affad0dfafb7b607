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
 * node's map of places it remembers is read by reflection (it is package-private in the core).
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

  private static final boolean TRACE = Boolean.getBoolean("flood.trace");

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
      report(s, base, fl, series);
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
        Field state = WaitingRoom.class.getDeclaredField("state");
        state.setAccessible(true);
        Object ns = state.get(r);
        Field seen = ns.getClass().getDeclaredField("seen");
        seen.setAccessible(true);
        n += ((Map<?, ?>) seen.get(ns)).size();
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
    return n;
  }

  private static void report(Settings s, Run base, Run fl, boolean series) {
    long floodAt = s.floodAt();
    long floodEnd = floodAt + s.floodSeconds();
    System.out.printf(Locale.ROOT, "flood of %,d cookie-less requests over %d s from t=%d s, %d node(s), honest %d/min for %d s,"
            + " limit 100 active, 60/min, refresh 20 s, waiting timeout %d s%n",
        s.flood(), s.floodSeconds(), floodAt, s.nodes(), s.honestPerMinute(), s.honestFor(),
        config(s.timeoutSeconds()).waitingTimeoutSeconds());
    System.out.printf(Locale.ROOT, "flood: %.0f ns per request (wall, incl. sealing)%n",
        fl.floodNanos() / (double) Math.max(1, s.flood()));
    // the line: how long the flood holders count
    long lastInflatedLine = -1;
    long maxPlanWaiting = 0;
    for (int i = 0; i < fl.seconds().size(); i++) {
      Second f = fl.seconds().get(i);
      Second b = base.seconds().get(i);
      if (f.t() >= floodAt) {
        maxPlanWaiting = Math.max(maxPlanWaiting, f.planWaiting());
        // (The plan counts a tally a second or two old: while many get in at once it lags behind,
        // with or without a flood. Only seconds where the run without the flood does not lag count.)
        if (f.planWaiting() > f.trueWaiting() + Math.max(10, f.trueWaiting() / 10)
            && b.planWaiting() <= b.trueWaiting() + Math.max(10, b.trueWaiting() / 10)) {
          lastInflatedLine = f.t();
        }
      }
    }
    System.out.printf(Locale.ROOT, "line (plan's waiting users): peak %,d; more than the honest users waiting (+10, +10 %%)"
            + " until t=%d s: %d s after the flood's last second%n",
        maxPlanWaiting, lastInflatedLine, lastInflatedLine < 0 ? -1 : lastInflatedLine - floodEnd);
    // memory
    long seenPeak = 0;
    long seenBackAt = -1;
    for (int i = 0; i < fl.seconds().size(); i++) {
      Second f = fl.seconds().get(i);
      Second b = base.seconds().get(i);
      seenPeak = Math.max(seenPeak, f.seen());
      if (f.t() >= floodAt && f.seen() > b.seen() + 100) {
        seenBackAt = f.t() + 1;
      }
    }
    System.out.printf(Locale.ROOT, "remembered places (seen): %,d after the flood (peak %,d), back to the run without it"
            + " (+100) at t=%d s (%d s after the flood's last second); heap +%,d bytes after the flood (%.0f bytes per place)%n",
        fl.seenAfterFlood(), seenPeak, seenBackAt, seenBackAt - floodEnd, fl.heapAfterFlood() - fl.heapBeforeFlood(),
        (fl.heapAfterFlood() - fl.heapBeforeFlood()) / (double) Math.max(1, s.flood()));
    // honest users
    int before = 0;
    int delayed = 0;
    long maxDelay = 0;
    long sumDelay = 0;
    int sameOrder = 0;
    for (int i = 0; i < Math.min(base.users().size(), fl.users().size()); i++) {
      User b = base.users().get(i);
      User f = fl.users().get(i);
      if (b.arrivalMs >= floodAt * 1000) {
        break;
      }
      before++;
      long delay = f.admittedMs - b.admittedMs;
      if (b.admittedMs < 0 || f.admittedMs < 0) {
        delay = Long.MAX_VALUE;
      }
      if (delay != 0) {
        if (TRACE) {
          String[] bt = b.trace.toString().trim().split(" ");
          String[] ft = f.trace.toString().trim().split(" ");
          int k = 0;
          while (k < Math.min(bt.length, ft.length) && bt[k].equals(ft[k])) {
            k++;
          }
          System.out.println("#" + b.id + " differs at poll " + k + ": without " + (k < bt.length ? bt[k] : "-")
              + " with " + (k < ft.length ? ft[k] : "-") + (k > 0 ? " after " + bt[k - 1] : ""));
        }
        delayed++;
      }
      sameOrder += delay == 0 ? 1 : 0;
      if (delay != Long.MAX_VALUE) {
        maxDelay = Math.max(maxDelay, delay);
        sumDelay += delay;
      }
    }
    if (TRACE) {
      for (long t = floodAt - 10; t < floodEnd + 60; t++) {
        final long tt = t;
        System.out.println("admitted in second " + t + ": without " + base.users().stream().filter(u -> u.admittedMs / 1000 == tt).map(u -> "#" + u.id).toList()
            + " with " + fl.users().stream().filter(u -> u.admittedMs / 1000 == tt).map(u -> "#" + u.id).toList()
            + " plan admissions/min " + base.seconds().get((int) tt - 1).admissions() + " | " + fl.seconds().get((int) tt - 1).admissions()
            + " active " + base.seconds().get((int) tt - 1).active() + " | " + fl.seconds().get((int) tt - 1).active());
      }
    }
    System.out.printf(Locale.ROOT, "honest users who arrived before the flood: %d, admitted at another time than without it: %d"
            + " (max %+d ms, sum %+d ms)%n", before, delayed, maxDelay, sumDelay);
    // estimates told to honest arrivals during and after the flood, against the same arrival time without it
    System.out.println("first estimate told to honest arrivals, by arrival second (with flood | without):"
        + " usersAhead, wait s (-1 unknown), actual wait s; honest users ahead then");
    long lastInflated = -1;
    long worstAhead = 0;
    for (User f : fl.users()) {
      if (f.arrivalMs < floodAt * 1000 - 60_000) {
        continue;
      }
      User b = nearest(base.users(), f.arrivalMs);
      long fa = Math.max(0, f.firstAhead);
      long ba = Math.max(0, b.firstAhead);
      // (The waits told are compared in the rows printed: without the flood they already swing with
      // the admission rate of the last minute, which is low while the room is full of long sessions.)
      boolean inflated = fa > f.trueAhead + Math.max(10, f.trueAhead / 5);
      if (inflated) {
        lastInflated = Math.max(lastInflated, f.arrivalMs / 1000);
        worstAhead = Math.max(worstAhead, fa - f.trueAhead);
      }
      if (series || inflated || f.arrivalMs % 20_000 < 1000 && f.arrivalMs < (floodEnd + 240) * 1000
          || f.arrivalMs >= floodAt * 1000 && f.arrivalMs < (floodEnd + 60) * 1000) {
        System.out.printf(Locale.ROOT, "  t=%6.1f  %6d %5d %5d %4d  |  %6d %5d %5d %4d%s%n", f.arrivalMs / 1000.0,
            f.firstAhead, f.firstWait, f.admittedMs < 0 ? -1 : (f.admittedMs - f.arrivalMs) / 1000, f.trueAhead,
            b.firstAhead, b.firstWait, b.admittedMs < 0 ? -1 : (b.admittedMs - b.arrivalMs) / 1000, b.trueAhead,
            inflated ? "  inflated" : "");
      }
    }
    System.out.printf(Locale.ROOT, "honest arrivals told more people ahead than honest users waited before them (> +10 and +20 %%):"
            + " last at t=%d s (%d s after the flood's last second), at most %,d more ahead%n",
        lastInflated, lastInflated < 0 ? -1 : lastInflated - floodEnd, worstAhead);
    // capacity: admissions in the 5 minutes after the flood, and everyone's time in line
    long admB = countAdmitted(base.users(), floodAt, floodAt + 300);
    long admF = countAdmitted(fl.users(), floodAt, floodAt + 300);
    System.out.printf(Locale.ROOT, "honest admissions in the 5 minutes from the flood: %d with it, %d without%n", admF, admB);
    System.out.printf(Locale.ROOT, "honest users: %d / %d; mean time to admission %.1f s with the flood, %.1f s without;"
            + " not admitted by the end %d / %d%n",
        fl.users().size(), base.users().size(), meanWait(fl.users()), meanWait(base.users()),
        notAdmitted(fl.users()), notAdmitted(base.users()));
    System.out.println("per second around the flood (t, plan waiting with|without, true waiting, seen with|without,"
        + " cutoff second with|without):");
    for (int i = 0; i < fl.seconds().size(); i++) {
      Second f = fl.seconds().get(i);
      Second b = base.seconds().get(i);
      boolean show = series || f.t() >= floodAt - 2 && f.t() <= floodEnd + 15 || f.t() > floodEnd + 15
          && f.t() <= floodEnd + 120 && f.t() % 5 == 0 || f.t() % 60 == 0 && f.t() <= floodEnd + 900;
      if (show) {
        System.out.printf(Locale.ROOT, "  t=%5d  %7d | %5d  %5d   %7d | %5d   %5d | %5d%n", f.t(), f.planWaiting(),
            b.planWaiting(), f.trueWaiting(), f.seen(), b.seen(), f.cutoff() == Long.MIN_VALUE ? -1 : f.cutoff(),
            b.cutoff() == Long.MIN_VALUE ? -1 : b.cutoff());
      }
    }
  }

  private static User nearest(List<User> users, long arrivalMs) {
    User best = users.get(0);
    for (User u : users) {
      if (Math.abs(u.arrivalMs - arrivalMs) < Math.abs(best.arrivalMs - arrivalMs)) {
        best = u;
      }
    }
    return best;
  }

  private static long countAdmitted(List<User> users, long from, long to) {
    return users.stream().filter(u -> u.admittedMs >= from * 1000 && u.admittedMs < to * 1000).count();
  }

  private static double meanWait(List<User> users) {
    return users.stream().filter(u -> u.admittedMs >= 0).mapToLong(u -> u.admittedMs - u.arrivalMs).average().orElse(0)
        / 1000.0;
  }

  private static long notAdmitted(List<User> users) {
    return users.stream().filter(u -> u.admittedMs < 0).count();
  }
}
