package io.github.waitingroom.examples.planner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The capacity planner's command line: every option with its default ({@code --help} lists them),
 * as picocli reads it. {@link PlannerOptions} checks what picocli cannot check alone; {@link
 * CapacityPlanner} runs the plan and prints it.
 */
@Command(
    name = "CapacityPlanner",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    showDefaultValues = true,
    description = "Runs the real waiting room core through an expected crowd, in virtual time.",
    footer = "Durations: 90s, 10m, 1h, 1h30m. Counts may not be negative.")
final class PlannerCli {
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
      description = "random: exponential browse and patience times, think times within +-50 %%; fixed: exactly the"
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
}
