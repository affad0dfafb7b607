package io.github.waitingroom.examples.planner;

import io.github.waitingroom.examples.Flags;
import io.github.waitingroom.examples.Flags.Flag;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The capacity planner: runs the real core through an expected crowd in virtual time and prints
 * what people would live through (waits, line, who gives up, how busy the room is), with a PNG
 * chart; with {@code --target-wait} it searches the smallest limits whose 90th percentile wait
 * stays at or under the target ({@link CapacitySearch}).
 *
 * <pre>
 * mvn -q -pl waitingroom-examples exec:java -Dexec.mainClass=io.github.waitingroom.examples.planner.CapacityPlanner \
 *     -Dexec.args="--shape flash --peak 3000 --base 30 --total 500 --session 5m --target-wait 10m"
 * </pre>
 *
 * <p>Every flag has a default ({@code --help} lists them). A bad flag or value ends the program
 * with one line that names the flag, and exit code 2.
 */
public final class CapacityPlanner {
  /** The planner's flags, with their defaults. */
  static final List<Flag> FLAGS =
      List.of(
          new Flag("--shape", "step", "arrivals: step (the peak rate throughout), ramp (0 up to the peak),"
              + " flash (the peak rate in the first minute only) or csv (--csv FILE)"),
          new Flag("--peak", "100", "arrivals per minute at the peak"),
          new Flag("--base", "0", "arrivals per minute on top of the shape, throughout --duration"),
          new Flag("--duration", "60m", "how long people arrive (not with --csv, whose rows set it)"),
          new Flag("--csv", null, "file of arrivals, one row per --csv-step: 'count' or 'time,count';"
              + " implies --shape csv"),
          new Flag("--csv-step", "1m", "the period each CSV row covers (1m, 1s, ...)"),
          new Flag("--browse", "5m", "how long an admitted user keeps clicking (mean)"),
          new Flag("--think", "30s", "time between two clicks of an admitted user (mean)"),
          new Flag("--patience", "15m", "how long a user waits in line before giving up (mean), or none"),
          new Flag("--times", "random", "random: exponential browse and patience times, think times within"
              + " +-50 %; fixed: exactly the times given"),
          new Flag("--total", "1000", "the room's totalActiveUsers (with --target-wait: where the search starts)"),
          new Flag("--per-minute", null, "the room's newUsersPerMinute (default: half of --total)"),
          new Flag("--session", "5m", "the room's session duration (counted from a user's last request)"),
          new Flag("--refresh", "20s", "the room's refresh interval (how often a waiting page polls)"),
          new Flag("--drain", "2h", "how long a run may go on after the last arrival while people wait"),
          new Flag("--seed", "1", "random seed: the same seed gives the same run"),
          new Flag("--chart", "capacity-plan.png", "PNG chart to write, or none"),
          new Flag("--target-wait", null, "search the smallest limits whose p90 wait is at most this (10m, ...)"),
          new Flag("--vary", "both", "in the search: both (newUsersPerMinute scales with totalActiveUsers in the"
              + " ratio of --per-minute to --total) or total (newUsersPerMinute stays as given)"),
          new Flag("--max-total", "1000000", "the largest totalActiveUsers the search tries"));

  /** A bad command line: the message names the flag. */
  static final class UsageError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageError(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * A parsed command line.
   *
   * @param settings the crowd and the room's other settings
   * @param limits the room's limits (where a search starts)
   * @param chart the PNG to write, or {@code null}
   * @param target the target wait, or {@code null} for a single run
   * @param vary what the search varies
   * @param maxTotal the search's ceiling
   */
  record Options(
      PlanSettings settings,
      Limits limits,
      @Nullable Path chart,
      @Nullable Duration target,
      CapacitySearch.Vary vary,
      int maxTotal) {}

  private CapacityPlanner() {}

  /** Runs the planner; exits with 0, or 2 for a bad command line. */
  public static void main(String[] args) {
    // The room logs a line when it opens and when a line forms: once per run, too many for a search.
    if (System.getProperty("org.slf4j.simpleLogger.log.io.github.waitingroom") == null) {
      System.setProperty("org.slf4j.simpleLogger.log.io.github.waitingroom", "warn");
    }
    System.setProperty("java.awt.headless", "true");
    int code = run(args, System.out, System.err);
    System.out.flush();
    if (code != 0) {
      System.exit(code);
    }
  }

  /**
   * Runs the planner with these arguments.
   *
   * @return the exit code: 0, 1 when the target cannot be met or the chart cannot be written, 2
   *     for a bad command line
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Options o;
    try {
      o = parse(args);
    } catch (Flags.HelpRequested e) {
      out.print(usage());
      return 0;
    } catch (UsageError | IllegalArgumentException e) {
      err.println("capacity-planner: " + e.getMessage() + " (--help lists the flags)");
      return 2;
    }
    PlanSettings s = o.settings();
    Arrivals a = s.arrivals();
    out.printf(Locale.ROOT, "Crowd: %s, %,d arrivals (seed %d)%n", a.description(), a.count(), s.seed());
    out.printf(Locale.ROOT, "Visitors: %s%n", s.visitors().describe());
    out.printf(Locale.ROOT, "Room: session %s, refresh %s; one node, the real core in virtual time%n",
        Durations.format(s.session()), Durations.format(s.refresh()));
    PlanResult shown;
    String title = a.description();
    Duration target = o.target();
    try {
      if (target == null) {
        out.println();
        shown = Simulation.run(s, o.limits());
        shown.print(out, "  ");
        out.printf(Locale.ROOT, "  simulated %s in %.1f s%n", Durations.formatSeconds(shown.runSeconds()),
            shown.wallMillis() / 1000.0);
      } else {
        out.printf(Locale.ROOT, "%nSearching the smallest totalActiveUsers (%s) whose p90 wait is at most %s:%n",
            o.vary() == CapacitySearch.Vary.BOTH
                ? "newUsersPerMinute scaled with it, " + o.limits().newUsersPerMinute() + " per "
                    + o.limits().totalActiveUsers()
                : "newUsersPerMinute " + o.limits().newUsersPerMinute() + " as given",
            Durations.format(target));
        long started = System.nanoTime();
        CapacitySearch.Outcome result;
        try {
          result = CapacitySearch.search(s, o.limits(), o.vary(), target, o.maxTotal(),
              r -> out.printf(Locale.ROOT, "  %s %s%n", CapacitySearch.meets(r, target) ? "meets " : "misses", r.summaryLine()));
        } catch (CapacitySearch.Unreachable e) {
          out.println();
          out.println("No limits up to --max-total meet the target: " + e.getMessage());
          e.last().print(out, "  ");
          return 1;
        }
        out.printf(Locale.ROOT, "  %d runs in %.1f s%n", result.runs().size(), (System.nanoTime() - started) / 1e9);
        shown = result.chosen();
        out.printf(Locale.ROOT, "%nSmallest limits that meet the target: %s%n", shown.limits());
        shown.print(out, "  ");
        PlanResult below = result.below();
        if (below != null) {
          out.printf(Locale.ROOT, "%nOne below (misses the target): %s%n", below.limits());
          below.print(out, "  ");
        } else {
          out.println("(These are the smallest limits a room can have.)");
        }
      }
    } catch (IllegalArgumentException | IllegalStateException e) {
      err.println("capacity-planner: " + e.getMessage());
      return 2;
    }
    Path chart = o.chart();
    if (chart != null) {
      try {
        Chart.write(chart, shown, title, target == null ? Double.NaN : target.getSeconds());
        out.printf(Locale.ROOT, "%nChart: %s (%d x %d)%n", chart, Chart.WIDTH, Chart.HEIGHT);
      } catch (IOException e) {
        err.println("capacity-planner: --chart: cannot write " + chart + ": " + e.getMessage());
        return 1;
      }
    }
    return 0;
  }

  /** The usage text: every flag with its default. */
  static String usage() {
    return "Capacity planner: runs the real waiting room core through an expected crowd, in virtual time.\n"
        + Flags.usage("CapacityPlanner", FLAGS)
        + "Durations: 90s, 10m, 1h, 1h30m. Counts may not be negative.\n";
  }

  /**
   * Parses a command line.
   *
   * @throws Flags.HelpRequested for {@code --help}
   * @throws UsageError naming the flag that is wrong
   */
  static Options parse(String[] args) {
    Flags f;
    try {
      f = Flags.parse(args, FLAGS);
    } catch (Flags.HelpRequested e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new UsageError(String.valueOf(e.getMessage()));
    }
    String csv = f.optional("--csv");
    String shapeName = f.get("--shape").trim().toLowerCase(Locale.ROOT);
    Arrivals.Shape shape;
    try {
      shape = Arrivals.Shape.valueOf(shapeName.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageError("--shape must be step, ramp, flash or csv but was '" + f.get("--shape") + "'");
    }
    if (csv != null && !f.given("--shape")) {
      shape = Arrivals.Shape.CSV;
    }
    Arrivals arrivals;
    if (shape == Arrivals.Shape.CSV) {
      if (csv == null) {
        throw new UsageError("--shape csv needs --csv FILE");
      }
      for (String other : List.of("--peak", "--base", "--duration")) {
        if (f.given(other)) {
          throw new UsageError(other + " does not go with --csv (the file gives the arrivals)");
        }
      }
      Duration step = duration(f, "--csv-step");
      if (step.isZero()) {
        throw new UsageError("--csv-step must be at least 1s");
      }
      try {
        arrivals = Arrivals.fromCsv(Path.of(csv), step);
      } catch (NoSuchFileException e) {
        throw new UsageError("--csv: no such file: " + csv);
      } catch (IOException e) {
        throw new UsageError("--csv: cannot read " + csv + ": " + e.getMessage());
      } catch (IllegalArgumentException e) {
        throw new UsageError("--csv: " + csv + ": " + e.getMessage());
      }
    } else {
      if (csv != null) {
        throw new UsageError("--csv goes with --shape csv, not --shape " + shapeName);
      }
      double peak = number(f, "--peak");
      double base = number(f, "--base");
      Duration length = duration(f, "--duration");
      if (length.isZero()) {
        throw new UsageError("--duration must be positive");
      }
      if (length.compareTo(Duration.ofDays(7)) > 0) {
        throw new UsageError("--duration must be at most 7 days but was " + Durations.format(length));
      }
      arrivals = Arrivals.shaped(shape, peak, base, length);
    }
    if (arrivals.expectedTotal() > 2_000_000) {
      throw new UsageError("more than 2 million arrivals: too many for one run (--peak, --duration or --csv)");
    }
    Duration browse = duration(f, "--browse");
    Duration think = positive(f, "--think");
    String patienceText = f.get("--patience").trim();
    Duration patience =
        patienceText.equalsIgnoreCase("none") || patienceText.equalsIgnoreCase("never") ? null : positive(f, "--patience");
    String times = f.get("--times").trim().toLowerCase(Locale.ROOT);
    if (!times.equals("random") && !times.equals("fixed")) {
      throw new UsageError("--times must be random or fixed but was '" + f.get("--times") + "'");
    }
    Visitors visitors = new Visitors(browse, think, patience, times.equals("fixed"));

    int total = count(f, "--total");
    int perMinute = f.optional("--per-minute") == null ? Math.max(1, total / 2) : count(f, "--per-minute");
    if (perMinute > total) {
      throw new UsageError("--per-minute (" + perMinute + ") must not exceed --total (" + total + ")");
    }
    Duration session = positive(f, "--session");
    if (session.compareTo(Duration.ofDays(1)) > 0) {
      throw new UsageError("--session must be at most 1 day but was " + Durations.format(session));
    }
    Duration refresh = positive(f, "--refresh");
    if (refresh.compareTo(Duration.ofMinutes(10)) > 0) {
      throw new UsageError("--refresh must be at most 10m but was " + Durations.format(refresh));
    }
    Duration drain = duration(f, "--drain");
    if (drain.compareTo(Duration.ofDays(1)) > 0) {
      throw new UsageError("--drain must be at most 1 day but was " + Durations.format(drain));
    }
    long seed;
    try {
      seed = Long.parseLong(f.get("--seed").trim());
    } catch (NumberFormatException e) {
      throw new UsageError("--seed must be a whole number but was '" + f.get("--seed") + "'");
    }
    String chartText = f.get("--chart").trim();
    Path chart = chartText.equalsIgnoreCase("none") || chartText.isEmpty() ? null : Path.of(chartText);
    Duration target = f.optional("--target-wait") == null ? null : positive(f, "--target-wait");
    String varyText = f.get("--vary").trim().toLowerCase(Locale.ROOT);
    CapacitySearch.Vary vary =
        switch (varyText) {
          case "both" -> CapacitySearch.Vary.BOTH;
          case "total" -> CapacitySearch.Vary.TOTAL;
          default -> throw new UsageError("--vary must be both or total but was '" + f.get("--vary") + "'");
        };
    int maxTotal = count(f, "--max-total");
    try {
      // Let the room check what it checks (e.g. a session shorter than a slice), naming our flags.
      io.github.waitingroom.RoomConfig.builder("capacity-plan").totalActiveUsers(total).newUsersPerMinute(perMinute)
          .sessionDuration(session).refreshInterval(refresh).build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new UsageError("--total/--per-minute/--session/--refresh: " + e.getMessage());
    }
    return new Options(
        new PlanSettings(arrivals, visitors, session, refresh, drain, seed),
        new Limits(total, perMinute),
        chart,
        target,
        vary,
        maxTotal);
  }

  private static Duration duration(Flags f, String name) {
    String v = f.get(name);
    if (v.trim().startsWith("-")) {
      throw new UsageError(name + " must not be negative but was '" + v + "'");
    }
    try {
      return Durations.parse(v);
    } catch (IllegalArgumentException e) {
      throw new UsageError(name + ": " + e.getMessage());
    }
  }

  private static Duration positive(Flags f, String name) {
    Duration d = duration(f, name);
    if (d.isZero()) {
      throw new UsageError(name + " must be positive but was '" + f.get(name) + "'");
    }
    return d;
  }

  private static double number(Flags f, String name) {
    String v = f.get(name).trim();
    double d;
    try {
      d = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new UsageError(name + " must be a number but was '" + v + "'");
    }
    if (!(d >= 0) || Double.isInfinite(d)) {
      throw new UsageError(name + " must not be negative but was " + v);
    }
    return d;
  }

  private static int count(Flags f, String name) {
    String v = f.get(name).trim();
    long n;
    try {
      n = Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new UsageError(name + " must be a whole number but was '" + v + "'");
    }
    if (n < 1) {
      throw new UsageError(name + " must be positive but was " + v);
    }
    if (n > Integer.MAX_VALUE) {
      throw new UsageError(name + " is too large: " + v);
    }
    return (int) n;
  }
}
