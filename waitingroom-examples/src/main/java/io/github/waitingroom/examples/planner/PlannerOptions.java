package io.github.waitingroom.examples.planner;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;

/**
 * A parsed and checked command line of the capacity planner ({@link PlannerCli}).
 *
 * @param settings the crowd and the room's other settings
 * @param limits the room's limits (where a search starts)
 * @param chart the PNG to write, or {@code null}
 * @param target the target wait, or {@code null} for a single run
 * @param vary what the search varies
 * @param maxTotal the search's ceiling
 */
record PlannerOptions(
    PlanSettings settings,
    Limits limits,
    @Nullable Path chart,
    @Nullable Duration target,
    CapacitySearch.Vary vary,
    int maxTotal) {

  /** A bad command line: the message names the flag. */
  static final class UsageError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageError(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Checks what picocli cannot check alone (ranges, combinations) and builds the options.
   *
   * @throws UsageError naming the flag that is wrong
   */
  static PlannerOptions from(PlannerCli c, ParseResult given) {
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
    Visitors visitors = new Visitors(c.browse, c.think, patience, c.times == PlannerCli.Times.FIXED);

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
    return new PlannerOptions(
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
      return positive("--patience", new PlannerCli.DurationConverter().convert(v));
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
