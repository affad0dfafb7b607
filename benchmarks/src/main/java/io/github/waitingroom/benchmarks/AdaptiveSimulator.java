package io.github.waitingroom.benchmarks;

import io.github.waitingroom.AdaptiveLimit;
import io.github.waitingroom.benchmarks.Scenario.Shape;
import io.github.waitingroom.benchmarks.Scenario.Wave;
import java.awt.Color;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Adaptive limits on the simulator: a room in front of a simulated application ({@link SimOrigin})
 * whose capacity the room is not told. First a sweep of fixed limits finds the largest limit that
 * keeps the application's 90th percentile latency within the target (with all its servers, and
 * with half of them); then the room starts with an adaptive limit far too low, far too high, and
 * with half the servers dying mid-sale and coming back, on one node and on 2 data centers x 2
 * nodes, and the report says how fast the limit came within 10 % of that largest limit and how
 * far it swung after.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.waitingroom.benchmarks.AdaptiveSimulator [--seed=N] [--out=DIR] [--best=ALL,HALF] [--refresh=SECONDS]
 * </pre>
 *
 * ({@code --best} gives the sweep's two answers, and skips it; {@code --refresh} sets the room's
 * refresh interval, 20 s by default.)
 *
 * Writes {@code DIR/<run>.csv} (per second: limit, active, waiting; per 10 s: p90 latency,
 * failures), {@code DIR/<run>.png} and {@code DIR/table.md}; prints the table. Deterministic: a
 * seed gives the same figures.
 */
public final class AdaptiveSimulator {
  /** The 90th percentile latency the application should keep. */
  static final Duration TARGET = Duration.ofMillis(250);

  /** The application: 8 servers, 50 ms a request, 5 s timeout. */
  static final SimOrigin ORIGIN = new SimOrigin(8, Duration.ofMillis(50), Duration.ofSeconds(5), List.of(), null);

  private static final int MINUTES = 14;
  private static final int HALF_FROM = 5 * 60;
  private static final int HALF_UNTIL = 10 * 60;
  private static final int LOW = 60;
  /** New users a minute: at most this, and at most the limit in force. */
  private static final int PER_MINUTE = 600;
  private static final int HIGH = 6000;
  /** The users who rush in in the first minute of a run that opens with a rush: twice the largest limit. */
  private static final int RUSH = 1200;
  /** How often the room tells waiting users to poll, unless {@code --refresh=S} says otherwise. */
  static final Duration REFRESH = Duration.ofSeconds(20);

  private AdaptiveSimulator() {}

  /**
   * The crowd (6 arrivals a second for 14 minutes, sessions of a minute, 2 minutes of browsing),
   * and {@code opening} more users in its first minute: a sale that opens with a rush,
   * in which people wait for the limit from the start (with the crowd alone, the first 625 users
   * have arrived only after about 100 s, so no limit could be in use sooner), who are told to poll
   * every {@code refresh}.
   */
  static Scenario crowd(String name, int dataCenters, int nodes, int start, int perMinute, int opening,
      Duration refresh, long seed) {
    List<Wave> waves = new ArrayList<>();
    waves.add(new Wave(Duration.ZERO, Duration.ofMinutes(MINUTES), 6 * 60 * MINUTES, Shape.STEP, -1));
    if (opening > 0) {
      waves.add(new Wave(Duration.ZERO, Duration.ofMinutes(1), opening, Shape.STEP, -1));
    }
    return new Scenario(name, "adaptive limit, " + dataCenters + " DC x " + nodes + " nodes, starts at " + start
            + (opening > 0 ? ", " + opening + " more in the first minute" : ""),
        dataCenters, nodes, Duration.ofSeconds(1),
        dataCenters > 1 ? Duration.ofMillis(300) : Duration.ZERO, nodes > 1 ? Duration.ofMillis(100) : Duration.ZERO,
        start, perMinute, Duration.ofMinutes(1), refresh,
        waves,
        even(dataCenters), Duration.ofMinutes(2), Duration.ofSeconds(2), Duration.ofSeconds(8),
        Duration.ofMinutes(15), Duration.ofMinutes(MINUTES), seed, Adversity.NONE);
  }

  private static double[] even(int n) {
    double[] w = new double[n];
    java.util.Arrays.fill(w, 1);
    return w;
  }

  static AdaptiveLimit adaptive() {
    return AdaptiveLimit.between(20, 10_000, TARGET);
  }

  /** One run's figures. */
  record Figures(String name, String description, double[] limitAt, int[] active, int[] waiting, SimOrigin.Run origin,
      int seconds, SimResult result) {

    /**
     * The seconds in which more users were active than the highest limit in force in the 70 s
     * before (a session of a minute, and the plans' delay): users a higher limit let in stay until
     * their sessions end, but nobody is admitted over the limit in force.
     */
    int secondsOverLimit() {
      int over = 0;
      for (int t = 0; t < seconds; t++) {
        double highest = 0;
        for (int u = Math.max(0, t - 70); u <= t; u++) {
          highest = Math.max(highest, limitAt[u]);
        }
        over += active[t] > highest ? 1 : 0;
      }
      return over;
    }

    double p90(int from, int to) {
      return origin.quantileMillis(from, to, 0.9);
    }

    /** The first second from which the limit stays within 10 % of {@code best} until {@code to}, or -1. */
    int convergedAt(int from, int to, double best) {
      int at = -1;
      for (int t = from; t < to; t++) {
        boolean in = Math.abs(limitAt[t] - best) <= 0.1 * best;
        at = in ? (at < 0 ? t : at) : -1;
      }
      return at;
    }

    /** The share of seconds from {@code from} to {@code to} whose limit lies within 10 % of {@code best}. */
    double within(int from, int to, double best) {
      int n = 0;
      for (int t = from; t < to; t++) {
        n += Math.abs(limitAt[t] - best) <= 0.1 * best ? 1 : 0;
      }
      return (double) n / Math.max(1, to - from);
    }

    /** The mean limit from {@code from} to {@code to}. */
    double mean(int from, int to) {
      double sum = 0;
      for (int t = from; t < to; t++) {
        sum += limitAt[t];
      }
      return sum / Math.max(1, to - from);
    }

    /** The largest and smallest limit from {@code from} to {@code to}. */
    double[] range(int from, int to) {
      double lo = Double.MAX_VALUE;
      double hi = 0;
      for (int t = from; t < to; t++) {
        lo = Math.min(lo, limitAt[t]);
        hi = Math.max(hi, limitAt[t]);
      }
      return new double[] {lo, hi};
    }
  }

  static Figures run(Scenario s, SimOrigin o) {
    SpikeSimulator sim = SpikeSimulator.run(s, o);
    int seconds = (int) s.duration().getSeconds();
    double[] limit = new double[seconds];
    for (int t = 0; t < seconds; t++) {
      limit[t] = o.adaptive() == null ? s.totalActiveUsers() : sim.limitAt[t];
    }
    return new Figures(s.name(), s.description(), limit, sim.truth.activeAt.clone(), sim.truth.queueAt.clone(),
        java.util.Objects.requireNonNull(sim.origin, "a run with an origin"), seconds, sim.result);
  }

  /**
   * The largest fixed limit whose 90th percentile latency over the last {@code minutes} minutes of
   * a run stays within the target, in steps of 25 users.
   */
  static int sweep(SimOrigin o, Duration refresh, long seed, int from, int to) {
    int best = 0;
    for (int limit = 100; limit <= 1500; limit += 25) {
      Figures f = run(crowd("fixed-" + limit, 1, 1, limit, Math.min(PER_MINUTE, limit), 0, refresh, seed), o.fixed());
      double p90 = f.p90(from, to);
      System.out.printf(Locale.ROOT, "  fixed %4d: p90 %7.1f ms, active at the end %d%n", limit, p90, f.active[to - 1]);
      if (p90 <= TARGET.toMillis()) {
        best = limit;
      } else {
        break;
      }
    }
    return best;
  }

  /** Runs the sweep and the adaptive runs; see the class comment. */
  public static void main(String[] args) throws IOException {
    System.setProperty("java.awt.headless", "true");
    long seed = 1;
    Path out = Path.of("benchmarks/results/adaptive");
    int best = 0;
    int bestHalf = 0;
    Duration refresh = REFRESH;
    for (String a : args) {
      if (a.startsWith("--seed=")) {
        seed = Long.parseLong(a.substring(7));
      } else if (a.startsWith("--best=")) {
        // The sweep's answers, given: the adaptive runs alone.
        String[] b = a.substring(7).split(",");
        best = Integer.parseInt(b[0]);
        bestHalf = Integer.parseInt(b[1]);
      } else if (a.startsWith("--refresh=")) {
        refresh = Duration.ofSeconds(Long.parseLong(a.substring(10)));
      } else if (a.startsWith("--out=")) {
        out = Path.of(a.substring(6));
      } else {
        throw new IllegalArgumentException(
            "unknown argument " + a + " (known: --seed=N, --out=DIR, --best=ALL,HALF, --refresh=SECONDS)");
      }
    }
    Files.createDirectories(out);
    SimOrigin half = new SimOrigin(ORIGIN.servers() / 2, ORIGIN.service(), ORIGIN.timeout(), List.of(), null);
    if (best == 0) {
      System.out.println("sweep, 8 servers (p90 over minutes 5-14):");
      best = sweep(ORIGIN, refresh, seed, 5 * 60, MINUTES * 60);
      System.out.println("sweep, 4 servers:");
      bestHalf = sweep(half, refresh, seed, 5 * 60, MINUTES * 60);
    }
    SimOrigin adaptive = new SimOrigin(8, ORIGIN.service(), ORIGIN.timeout(), List.of(), adaptive());
    SimOrigin dying = new SimOrigin(8, ORIGIN.service(), ORIGIN.timeout(),
        List.of(new SimOrigin.Change(Duration.ofSeconds(HALF_FROM), 4), new SimOrigin.Change(Duration.ofSeconds(HALF_UNTIL), 8)),
        adaptive());
    List<String> rows = new ArrayList<>();
    List<String> guarantees = new ArrayList<>();
    guarantees.add("| run | s over the limit in force | passed users (by an admission from the line) | wait estimates |error| p50 / p90 | signed p50 |");
    guarantees.add("|---|---|---|---|---|");
    rows.add("| run | first within ±10 % (s) | stays within ±10 % from (s) | then: within ±10 % | mean limit | min - max | p90 (ms) | failures |");
    rows.add("|---|---|---|---|---|---|---|---|");
    for (int[] topo : new int[][] {{1, 1}, {2, 2}}) {
      String t = topo[0] + "x" + topo[1];
      for (int start : new int[] {LOW, HIGH}) {
        String name = "adaptive-" + (start == LOW ? "low" : "high") + "-" + t;
        Figures f = run(crowd(name, topo[0], topo[1], start, PER_MINUTE, 0, refresh, seed), adaptive);
        rows.add(row(f, 0, f.seconds, best, name));
        guarantees.add(guarantees(f));
        write(out, f, best, -1, -1, 0);
      }
      for (int start : new int[] {LOW, HIGH}) {
        String name = "adaptive-rush-" + (start == LOW ? "low" : "high") + "-" + t;
        Figures f = run(crowd(name, topo[0], topo[1], start, PER_MINUTE, RUSH, refresh, seed), adaptive);
        rows.add(row(f, 0, f.seconds, best, name));
        guarantees.add(guarantees(f));
        write(out, f, best, -1, -1, 0);
      }
      String name = "adaptive-halve-" + t;
      Figures f = run(crowd(name, topo[0], topo[1], LOW, PER_MINUTE, 0, refresh, seed), dying);
      rows.add(row(f, 0, HALF_FROM, best, name + " (8 servers)"));
      rows.add(row(f, HALF_FROM, HALF_UNTIL, bestHalf, name + " (4 servers)"));
      rows.add(row(f, HALF_UNTIL, f.seconds, best, name + " (8 again)"));
      guarantees.add(guarantees(f));
      write(out, f, best, HALF_FROM, HALF_UNTIL, bestHalf);
    }
    // The same crowds at the sweep's fixed limit, for the estimates' error without a moving limit.
    for (int rush : new int[] {0, RUSH}) {
      String name = "fixed-" + best + (rush > 0 ? "-rush" : "");
      guarantees.add(guarantees(run(crowd(name, 1, 1, best, Math.min(PER_MINUTE, best), rush, refresh, seed), ORIGIN.fixed())));
    }
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT,
        "Largest fixed limit with p90 within %d ms: %d (8 servers), %d (4 servers); seed %d%s.%n%n",
        TARGET.toMillis(), best, bestHalf, seed,
        refresh.equals(REFRESH) ? "" : ", refresh interval " + refresh.toSeconds() + " s"));
    for (String r : rows) {
      md.append(r).append('\n');
    }
    md.append("\nWhat the core guarantees, under the limit as it moves (whole runs; the last two rows at the sweep's"
        + " fixed limit, for comparison):\n\n");
    for (String r : guarantees) {
      md.append(r).append('\n');
    }
    Files.writeString(out.resolve("table.md"), md.toString(), StandardCharsets.UTF_8);
    System.out.print(md);
  }

  /** A row of the second table: the limits, the order and the wait estimates over the whole run. */
  private static String guarantees(Figures f) {
    SimResult r = f.result;
    return String.format(Locale.ROOT, "| %s | %d | %d of %d | %.1f %% / %.1f %% | %+.1f %% |", f.name, f.secondsOverLimit(),
        r.invertedUsersFromLine, r.admitted, 100 * r.estimateErrors.absQuantile(0.5), 100 * r.estimateErrors.absQuantile(0.9),
        100 * r.estimateErrors.quantile(0.5));
  }

  /** One row of the table: the segment from {@code from} to {@code to}, against the best fixed limit. */
  private static String row(Figures f, int from, int to, int best, String label) {
    int first = -1;
    for (int t = from; t < to && first < 0; t++) {
      first = Math.abs(f.limitAt[t] - best) <= 0.1 * best ? t : -1;
    }
    int stays = f.convergedAt(from, to, best);
    // Over the segment from when the limit first came within 10 %, and at least two minutes in.
    int settled = Math.min(to, Math.max(from + 120, first));
    double[] r = f.range(settled, to);
    long failures = f.origin.failures(settled, to);
    long requests = f.origin.requests(settled, to);
    return String.format(Locale.ROOT, "| %s | %s | %s | %.0f %% | %.0f (%+.0f %%) | %.0f - %.0f (%+.0f / %+.0f %%) | %.0f | %.2f %% |",
        label, first < 0 ? "never" : String.valueOf(first - from), stays < 0 ? "never" : String.valueOf(stays - from),
        100 * f.within(settled, to, best), f.mean(settled, to), 100 * (f.mean(settled, to) - best) / best,
        r[0], r[1], 100 * (r[0] - best) / best, 100 * (r[1] - best) / best, f.p90(settled, to),
        requests == 0 ? 0 : 100.0 * failures / requests);
  }

  private static void write(Path out, Figures f, int best, int halfFrom, int halfUntil, int bestHalf) throws IOException {
    try (Writer w = Files.newBufferedWriter(out.resolve(f.name + ".csv"), StandardCharsets.UTF_8)) {
      w.write("second,limit,active,waiting,p90_10s_ms,failures_10s\n");
      for (int t = 0; t < f.seconds; t++) {
        int from = t - t % 10;
        w.write(String.format(Locale.ROOT, "%d,%.0f,%d,%d,%.1f,%d%n", t, f.limitAt[t], f.active[t], f.waiting[t],
            f.p90(from, from + 10), f.origin.failures(from, from + 10)));
      }
    }
    XYSeries limit = new XYSeries("limit in force");
    XYSeries active = new XYSeries("active users");
    XYSeries target = new XYSeries("largest limit within the target (fixed-limit sweep)");
    XYSeries p90 = new XYSeries("p90 latency per 10 s, ms (right axis)");
    for (int t = 0; t < f.seconds; t++) {
      limit.add(t / 60.0, f.limitAt[t]);
      active.add(t / 60.0, f.active[t]);
      target.add(t / 60.0, t >= halfFrom && t < halfUntil ? bestHalf : best);
      if (t % 10 == 0) {
        p90.add(t / 60.0, f.p90(t, t + 10));
      }
    }
    XYSeriesCollection left = new XYSeriesCollection();
    left.addSeries(limit);
    left.addSeries(active);
    left.addSeries(target);
    NumberAxis users = new NumberAxis("users");
    users.setRange(0, Math.max(1.6 * best, 100));
    XYPlot plot = new XYPlot(left, new NumberAxis("minutes"), users,
        SimReport.lines(new Color(0xd62728), new Color(0x1f77b4), new Color(0x7f7f7f)));
    plot.setDataset(1, new XYSeriesCollection(p90));
    NumberAxis ms = new NumberAxis("p90 latency, ms");
    ms.setRange(0, 4 * TARGET.toMillis());
    plot.setRangeAxis(1, ms);
    plot.mapDatasetToRangeAxis(1, 1);
    plot.setRenderer(1, SimReport.lines(new Color(0x2ca02c)));
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    JFreeChart chart = new JFreeChart(f.name + ": " + f.description + " (p90 target " + TARGET.toMillis() + " ms)",
        JFreeChart.DEFAULT_TITLE_FONT.deriveFont(13f), plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    ChartUtils.saveChartAsPNG(out.resolve(f.name + ".png").toFile(), chart, 1200, 600);
  }
}
