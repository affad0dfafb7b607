package io.github.waitingroom.examples.planner;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people write them on a command line: {@code 90s}, {@code 10m}, {@code 1h}, or
 * combined, {@code 1h30m}, {@code 2m30s}. Whole seconds only, a unit on every number.
 */
public final class Durations {
  private static final Pattern FORM = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?");

  private Durations() {}

  /**
   * Parses a duration.
   *
   * @param text such as {@code 90s}, {@code 10m}, {@code 1h} or {@code 1h30m}
   * @throws IllegalArgumentException when the text is not of that form (the message quotes it)
   */
  public static Duration parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    Matcher m = FORM.matcher(t);
    if (t.isEmpty() || !m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not a duration (use e.g. 90s, 10m, 1h, 1h30m)");
    }
    try {
      long seconds = 0;
      if (m.group(1) != null) {
        seconds = Math.addExact(seconds, Math.multiplyExact(Long.parseLong(m.group(1)), 3600));
      }
      if (m.group(2) != null) {
        seconds = Math.addExact(seconds, Math.multiplyExact(Long.parseLong(m.group(2)), 60));
      }
      if (m.group(3) != null) {
        seconds = Math.addExact(seconds, Long.parseLong(m.group(3)));
      }
      if (seconds > Duration.ofDays(365).getSeconds()) {
        throw new IllegalArgumentException("'" + text + "' is longer than a year");
      }
      return Duration.ofSeconds(seconds);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException("'" + text + "' is not a duration (use e.g. 90s, 10m, 1h, 1h30m)", e);
    }
  }

  /** Formats whole seconds the way {@link #parse} reads them: {@code 1h5m}, {@code 4m10s}, {@code 0s}. */
  public static String format(Duration d) {
    return formatSeconds(d.getSeconds());
  }

  /** Formats a number of seconds (rounded to whole seconds) as {@code 1h5m}, {@code 4m10s} or {@code 35s}. */
  public static String formatSeconds(double seconds) {
    if (Double.isNaN(seconds)) {
      return "-";
    }
    long s = Math.round(seconds);
    StringBuilder b = new StringBuilder();
    if (s >= 3600) {
      b.append(s / 3600).append('h');
      s %= 3600;
      if (s == 0) {
        return b.toString();
      }
    }
    if (s >= 60 || b.length() > 0) {
      b.append(s / 60).append('m');
      s %= 60;
      if (s == 0) {
        return b.toString();
      }
    }
    return b.append(s).append('s').toString();
  }
}
