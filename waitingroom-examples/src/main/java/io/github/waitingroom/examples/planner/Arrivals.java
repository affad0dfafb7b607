package io.github.waitingroom.examples.planner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Who arrives when: an expected number of arrivals for every second of the arrival period, from a
 * shape or a CSV file, turned into arrival instants by {@link #times(long)}.
 *
 * <p>Counts are spread without extra noise: a running total of the expected arrivals is rounded
 * down second by second, so a step of 100 a minute for 10 minutes is exactly 1,000 arrivals; each
 * arrival gets a uniformly random instant within its second.
 */
public final class Arrivals {
  /** How the arrival rate moves over the arrival period. */
  public enum Shape {
    /** The peak rate from start to end. */
    STEP,
    /** A rate that grows linearly from zero to the peak at the end. */
    RAMP,
    /** The whole crowd at once: the peak rate during the first minute only (a sale opening). */
    FLASH,
    /** Counts per row of a CSV file. */
    CSV
  }

  private final double[] perSecond;
  private final String description;

  private Arrivals(double[] perSecond, String description) {
    this.perSecond = perSecond;
    this.description = description;
  }

  /**
   * Arrivals of a shape.
   *
   * @param shape step, ramp or flash
   * @param peakPerMinute the peak rate, arrivals per minute
   * @param basePerMinute arrivals per minute on top of the shape, from start to end
   * @param length the arrival period
   */
  public static Arrivals shaped(Shape shape, double peakPerMinute, double basePerMinute, Duration length) {
    if (shape == Shape.CSV) {
      throw new IllegalArgumentException("use fromCsv for a CSV file");
    }
    int seconds = Math.toIntExact(length.getSeconds());
    double[] rate = new double[seconds];
    for (int s = 0; s < seconds; s++) {
      double perMinute =
          switch (shape) {
            case STEP -> peakPerMinute;
            // The rate at the middle of the second, so the total is peak * length / 2.
            case RAMP -> peakPerMinute * (s + 0.5) / seconds;
            case FLASH -> s < 60 ? peakPerMinute : 0;
            case CSV -> throw new AssertionError();
          };
      rate[s] = (perMinute + basePerMinute) / 60.0;
    }
    String what =
        switch (shape) {
          case STEP -> fmt(peakPerMinute) + "/min for " + Durations.format(length);
          case RAMP -> "ramp from 0 to " + fmt(peakPerMinute) + "/min over " + Durations.format(length);
          case FLASH -> "flash crowd of " + fmt(peakPerMinute) + "/min in the first minute";
          case CSV -> "";
        };
    if (basePerMinute > 0) {
      what += (shape == Shape.FLASH ? ", " : " plus ") + fmt(basePerMinute) + "/min for " + Durations.format(length);
    } else if (shape == Shape.FLASH) {
      what += " (period " + Durations.format(length) + ")";
    }
    return new Arrivals(rate, what);
  }

  /**
   * Arrivals from a CSV file: one row per period of {@code step} (a minute, a second), in order.
   * A row is either the count alone or {@code time,count} (the last column is the count; the
   * others are ignored); a first line that is not a number is a header; empty lines and lines
   * starting with {@code #} are skipped. Counts may have decimals.
   *
   * @throws NoSuchFileException when the file does not exist
   * @throws IllegalArgumentException naming the line of a count that is not a non-negative number
   */
  public static Arrivals fromCsv(Path file, Duration step) throws IOException {
    if (step.getSeconds() < 1) {
      throw new IllegalArgumentException("the CSV step must be at least 1s");
    }
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(file.toString());
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    List<Double> counts = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).trim();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] cells = line.split("[,;\\t]");
      String cell = cells[cells.length - 1].trim();
      double count;
      try {
        count = Double.parseDouble(cell);
      } catch (NumberFormatException e) {
        if (counts.isEmpty() && !isHeaderSeen(lines, i)) {
          continue; // a header
        }
        throw new IllegalArgumentException("line " + (i + 1) + ": '" + cell + "' is not a number");
      }
      if (!(count >= 0) || Double.isInfinite(count)) {
        throw new IllegalArgumentException("line " + (i + 1) + ": the count must not be negative but was " + cell);
      }
      counts.add(count);
    }
    if (counts.isEmpty()) {
      throw new IllegalArgumentException("no arrivals in the file");
    }
    long stepSeconds = step.getSeconds();
    long total = Math.multiplyExact(stepSeconds, counts.size());
    if (total > Duration.ofDays(7).getSeconds()) {
      throw new IllegalArgumentException("the file covers more than 7 days");
    }
    double[] rate = new double[(int) total];
    double sum = 0;
    for (int r = 0; r < counts.size(); r++) {
      sum += counts.get(r);
      for (int k = 0; k < stepSeconds; k++) {
        rate[(int) (r * stepSeconds + k)] = counts.get(r) / stepSeconds;
      }
    }
    String what = fmt(sum) + " arrivals from " + file.getFileName() + " (" + counts.size() + " rows of "
        + Durations.format(step) + ")";
    return new Arrivals(rate, what);
  }

  /** Whether a non-numeric line was already seen before line {@code i} (only one header allowed). */
  private static boolean isHeaderSeen(List<String> lines, int i) {
    for (int j = 0; j < i; j++) {
      String l = lines.get(j).trim();
      if (!l.isEmpty() && !l.startsWith("#")) {
        return true;
      }
    }
    return false;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%,d", (long) v) : String.format(Locale.ROOT, "%,.1f", v);
  }

  /** The length of the arrival period in seconds. */
  public int seconds() {
    return perSecond.length;
  }

  /** The expected number of arrivals over the whole period. */
  public double expectedTotal() {
    return Arrays.stream(perSecond).sum();
  }

  /** How many arrivals {@link #times(long)} gives: the expected number, rounded down. */
  public int count() {
    double acc = 0;
    for (double r : perSecond) {
      acc += r;
    }
    return (int) Math.floor(acc + 1e-9);
  }

  /** The highest arrival rate of any minute-long window starting on a whole minute, per minute. */
  public double peakPerMinute() {
    double peak = 0;
    for (int m = 0; m * 60 < perSecond.length; m++) {
      double sum = 0;
      for (int s = m * 60; s < Math.min(perSecond.length, m * 60 + 60); s++) {
        sum += perSecond[s];
      }
      peak = Math.max(peak, sum);
    }
    return peak;
  }

  /** One line for reports: the shape and its numbers. */
  public String description() {
    return description;
  }

  /**
   * The arrival instants, in milliseconds from the start of the period, sorted.
   *
   * @param seed the same seed gives the same instants
   */
  public long[] times(long seed) {
    SplittableRandom random = new SplittableRandom(seed * 0x9E37_79B9_7F4A_7C15L + 0x51A7);
    long[] out = new long[16];
    int n = 0;
    double acc = 0;
    for (int s = 0; s < perSecond.length; s++) {
      double before = Math.floor(acc + 1e-9);
      acc += perSecond[s];
      int count = (int) (Math.floor(acc + 1e-9) - before);
      long first = n;
      for (int i = 0; i < count; i++) {
        if (n == out.length) {
          if (n >= (1 << 24)) {
            throw new IllegalArgumentException("more than 16 million arrivals: too many for one run");
          }
          out = Arrays.copyOf(out, n * 2);
        }
        out[n++] = s * 1000L + random.nextInt(1000);
      }
      Arrays.sort(out, (int) first, n);
    }
    return Arrays.copyOf(out, n);
  }
}
