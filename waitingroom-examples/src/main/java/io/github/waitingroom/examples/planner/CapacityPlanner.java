package io.github.waitingroom.examples.planner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;

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
  /** The planner's command line: every option with its default ({@code --help} lists them). */
  @Command(
      name = "CapacityPlanner",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      showDefaultValues = true,
      description = "Runs the real waiting room core through an expected crowd, in virtual time.",
      footer = "Durations: 90s, 10m, 1h, 1h30m. Counts may not be negative.")
  static final class Cli {
    @Option(names = "--shape", paramLabel = "SHAPE", defaultValue = "step", converter = ShapeConverter.class,
        description = "arrivals: step (the peak rate throughout), ramp (0 up to the peak), flash (the peak rate in the"
            + " first minute only) or csv (--csv FILE)")
    Arrivals.Shape shape = Arrivals.Shape.STEP;

    @Option(names = "--peak", paramLabel = "PER-MINUTE", defaultValue = "100", description = "arrivals per minute at the peak")
    double peak = 100;

    @Option(names = "--base", paramLabel = "PER-MINUTE", defaultValue = "0", description = "arrivals per minute on top of the shape,"
        + " throughout --duration")
    double base;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "60m", converter = DurationConverter.class,
        description = "how long people arrive (not with --csv, whose rows set it)")
    Duration duration = Duration.ofMinutes(60);

    @Option(names = "--csv", paramLabel = "FILE", description = "file of arrivals, one row per --csv-step: 'count' or"
        + " 'time,count'; implies --shape csv")
    @Nullable Path csv;

    @Option(names = "--csv-step", paramLabel = "DURATION", defaultValue = "1m", converter = DurationConverter.class,
        description = "the period each CSV row covers (1m, 1s, ...)")
    Duration csvStep = Duration.ofMinutes(1);

    @Option(names = "--browse", paramLabel = "DURATION", defaultValue = "5m", converter = DurationConverter.class,
        description = "how long an admitted user keeps clicking (mean)")
    Duration browse = Duration.ofMinutes(5);

    @Option(names = "--think", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class,
        description = "time between two clicks of an admitted user (mean)")
    Duration think = Duration.ofSeconds(30);

    @Option(names = "--patience", paramLabel = "DURATION|none", description = "how long a user waits in line before giving"
        + " up (mean), or none")
    String patience = "15m";

    @Option(names = "--times", paramLabel = "random|fixed", defaultValue = "random", converter = TimesConverter.class,
        description = "random: exponential browse and patience times, think times within +-50 %; fixed: exactly the"
            + " times given")
    Times times = Times.RANDOM;

    @Option(names = "--total", paramLabel = "N", description = "the room's totalActiveUsers (with --target-wait: where"
        + " the search starts)")
    int total = 1000;

    @Option(names = "--per-minute", paramLabel = "N", description = "the room's newUsersPerMinute (default: half of --total)")
    @Nullable Integer perMinute;

    @Option(names = "--session", paramLabel = "DURATION", defaultValue = "5m", converter = DurationConverter.class,
        description = "the room's session duration (counted from a user's last request)")
    Duration session = Duration.ofMinutes(5);

    @Option(names = "--refresh", paramLabel = "DURATION", defaultValue = "20s", converter = DurationConverter.class,
        description = "the room's refresh interval (how often a waiting page polls)")
    Duration refresh = Duration.ofSeconds(20);

    @Option(names = "--drain", paramLabel = "DURATION", defaultValue = "2h", converter = DurationConverter.class,
        description = "how long a run may go on after the last arrival while people wait")
    Duration drain = Duration.ofHours(2);

    @Option(names = "--seed", paramLabel = "N", description = "random seed: the same seed gives the same run")
    long seed = 1;

    @Option(names = "--chart", paramLabel = "FILE|none", defaultValue = "capacity-plan.png",
        description = "PNG chart to write, or none")
    String chart = "capacity-plan.png";

    @Option(names = "--target-wait", paramLabel = "DURATION", converter = DurationConverter.class,
        description = "search the smallest limits whose p90 wait is at most this (10m, ...)")
    @Nullable Duration targetWait;

    @Option(names = "--vary", paramLabel = "both|total", defaultValue = "both", converter = VaryConverter.class,
        description = "in the search: both (newUsersPerMinute scales with totalActiveUsers in the ratio of --per-minute"
            + " to --total) or total (newUsersPerMinute stays as given)")
    CapacitySearch.Vary vary = CapacitySearch.Vary.BOTH;

    @Option(names = "--max-total", paramLabel = "N", description = "the largest totalActiveUsers the search tries")
    int maxTotal = 1_000_000;
  }

  /** How the simulated visitors' times vary. */
  enum Times {
    /** Exponential browse and patience times, think times within +-50 %. */
    RANDOM,
    /** Exactly the times given. */
    FIXED
  }

  /** Reads a duration as people write it ({@link Durations#parse}); never negative. */
  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      if (value.trim().startsWith("-")) {
        throw new TypeConversionException("must not be negative but was '" + value + "'");
      }
      try {
        return Durations.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(String.valueOf(e.getMessage()));
      }
    }
  }

  /** One of a few lower-case words. */
  private static <E extends Enum<E>> E word(Class<E> type, String value) {
    try {
      return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      StringBuilder known = new StringBuilder();
      for (E c : type.getEnumConstants()) {
        known.append(known.length() == 0 ? "" : ", ").append(c.name().toLowerCase(Locale.ROOT));
      }
      throw new TypeConversionException("must be one of " + known + " but was '" + value + "'");
    }
  }

  /** {@code step}, {@code ramp}, {@code flash} or {@code csv}. */
  static final class ShapeConverter implements ITypeConverter<Arrivals.Shape> {
    @Override
    public Arrivals.Shape convert(String value) {
      return word(Arrivals.Shape.class, value);
    }
  }

  /** {@code random} or {@code fixed}. */
  static final class TimesConverter implements ITypeConverter<Times> {
    @Override
    public Times convert(String value) {
      return word(Times.class, value);
    }
  }

  /** {@code both} or {@code total}. */
  static final class VaryConverter implements ITypeConverter<CapacitySearch.Vary> {
    @Override
    public CapacitySearch.Vary convert(String value) {
      return word(CapacitySearch.Vary.class, value);
    }
  }

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
      CommandLine cl = new CommandLine(new Cli());
      ParseResult parsed = cl.parseArgs(args);
      if (cl.isUsageHelpRequested()) {
        out.print(cl.getUsageMessage());
        return 0;
      }
      if (cl.isVersionHelpRequested()) {
        cl.printVersionHelp(out);
        return 0;
      }
      o = options(cl.getCommand(), parsed);
    } catch (ParameterException | UsageError e) {
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

  /**
   * Parses a command line.
   *
   * @throws ParameterException for an unknown option or a value of the wrong form (naming it)
   * @throws UsageError naming the flag that is wrong
   */
  static Options parse(String... args) {
    Cli cli = new Cli();
    return options(cli, new CommandLine(cli).parseArgs(args));
  }

  /**
   * Checks what picocli cannot check alone (ranges, combinations) and builds the options.
   *
   * @throws UsageError naming the flag that is wrong
   */
  private static Options options(Cli c, ParseResult given) {
    Arrivals.Shape shape = c.shape;
    Path csv = c.csv;
    if (csv != null && !given.hasMatchedOption("--shape")) {
      shape = Arrivals.Shape.CSV;
    }
    Arrivals arrivals;
    if (shape == Arrivals.Shape.CSV) {
      if (csv == null) {
        throw new UsageError("--shape csv needs --csv FILE");
      }
      for (String other : List.of("--peak", "--base", "--duration")) {
        if (given.hasMatchedOption(other)) {
          throw new UsageError(other + " does not go with --csv (the file gives the arrivals)");
        }
      }
      if (c.csvStep.isZero()) {
        throw new UsageError("--csv-step must be at least 1s");
      }
      try {
        arrivals = Arrivals.fromCsv(csv, c.csvStep);
      } catch (NoSuchFileException e) {
        throw new UsageError("--csv: no such file: " + csv);
      } catch (IOException e) {
        throw new UsageError("--csv: cannot read " + csv + ": " + e.getMessage());
      } catch (IllegalArgumentException e) {
        throw new UsageError("--csv: " + csv + ": " + e.getMessage());
      }
    } else {
      if (csv != null) {
        throw new UsageError("--csv goes with --shape csv, not --shape " + shape.name().toLowerCase(Locale.ROOT));
      }
      notNegative("--peak", c.peak);
      notNegative("--base", c.base);
      positive("--duration", c.duration);
      if (c.duration.compareTo(Duration.ofDays(7)) > 0) {
        throw new UsageError("--duration must be at most 7 days but was " + Durations.format(c.duration));
      }
      arrivals = Arrivals.shaped(shape, c.peak, c.base, c.duration);
    }
    if (arrivals.expectedTotal() > 2_000_000) {
      throw new UsageError("more than 2 million arrivals: too many for one run (--peak, --duration or --csv)");
    }
    positive("--think", c.think);
    Duration patience = patience(c.patience);
    Visitors visitors = new Visitors(c.browse, c.think, patience, c.times == Times.FIXED);

    int total = count("--total", c.total);
    Integer perMinuteGiven = c.perMinute;
    int perMinute = perMinuteGiven == null ? Math.max(1, total / 2) : count("--per-minute", perMinuteGiven);
    if (perMinute > total) {
      throw new UsageError("--per-minute (" + perMinute + ") must not exceed --total (" + total + ")");
    }
    Duration session = positive("--session", c.session);
    if (session.compareTo(Duration.ofDays(1)) > 0) {
      throw new UsageError("--session must be at most 1 day but was " + Durations.format(session));
    }
    Duration refresh = positive("--refresh", c.refresh);
    if (refresh.compareTo(Duration.ofMinutes(10)) > 0) {
      throw new UsageError("--refresh must be at most 10m but was " + Durations.format(refresh));
    }
    if (c.drain.compareTo(Duration.ofDays(1)) > 0) {
      throw new UsageError("--drain must be at most 1 day but was " + Durations.format(c.drain));
    }
    String chartText = c.chart.trim();
    Path chart = chartText.equalsIgnoreCase("none") || chartText.isEmpty() ? null : Path.of(chartText);
    Duration target = c.targetWait;
    if (target != null) {
      positive("--target-wait", target);
    }
    int maxTotal = count("--max-total", c.maxTotal);
    try {
      // Let the room check what it checks (e.g. a session shorter than a slice), naming our flags.
      io.github.waitingroom.RoomConfig.builder("capacity-plan").totalActiveUsers(total).newUsersPerMinute(perMinute)
          .sessionDuration(session).refreshInterval(refresh).build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new UsageError("--total/--per-minute/--session/--refresh: " + e.getMessage());
    }
    return new Options(
        new PlanSettings(arrivals, visitors, session, refresh, c.drain, c.seed),
        new Limits(total, perMinute),
        chart,
        target,
        c.vary,
        maxTotal);
  }

  /** {@code --patience}: a duration, or {@code none} (or {@code never}) for nobody giving up. */
  private static @Nullable Duration patience(String text) {
    String v = text.trim();
    if (v.equalsIgnoreCase("none") || v.equalsIgnoreCase("never")) {
      return null;
    }
    try {
      return positive("--patience", new DurationConverter().convert(v));
    } catch (TypeConversionException e) {
      throw new UsageError("--patience: " + e.getMessage());
    }
  }

  private static Duration positive(String name, Duration d) {
    if (d.isZero()) {
      throw new UsageError(name + " must be positive but was '" + Durations.format(d) + "'");
    }
    return d;
  }

  private static void notNegative(String name, double d) {
    if (!(d >= 0) || Double.isInfinite(d)) {
      throw new UsageError(name + " must not be negative but was " + d);
    }
  }

  private static int count(String name, int n) {
    if (n < 1) {
      throw new UsageError(name + " must be positive but was " + n);
    }
    return n;
  }
}
