package io.github.waitingroom.examples.planner;

import io.github.waitingroom.simulation.Quantiles;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * What one run of the planner measured, all from its own record of every simulated user (not
 * from the room's counters). Waits are real time in line: from a user's first request, which put
 * them in line, to the request that let them in.
 *
 * @param limits the limits of the run
 * @param arrivals how many people arrived
 * @param admittedAtOnce how many were let in on their first request, without waiting
 * @param queued how many were put in line (counting again those of {@code lostSessions})
 * @param admittedFromLine how many of those were let in from the line
 * @param gaveUp how many left the line before their turn (their patience ran out)
 * @param stillWaiting how many were still in line when the run ended (at the end of its drain)
 * @param lostSessions how many admitted users were turned away by a later click (their session
 *     ran out between two clicks: a think time longer than the session) and went back in line
 * @param waits the waits of those admitted from the line, in seconds, sorted
 * @param stillWaitingWaits how long those still in line at the end had waited so far, in seconds
 * @param peakLine the most people in line at once
 * @param peakLineSecond when (second of the run) the line was longest
 * @param peakActive the most active users at any whole second
 * @param peakAdmittedPerMinute the most admissions in any 60 s
 * @param activeUtilization over the seconds in which someone waited, the mean of active users
 *     over {@code totalActiveUsers} (capped at 1), or NaN when nobody waited
 * @param admissionUtilization over the same seconds, the mean of admissions in the last 60 s
 *     over {@code newUsersPerMinute} (capped at 1), or NaN when nobody waited
 * @param secondsWithLine how many seconds someone waited
 * @param line people in line at each second of the run
 * @param active active users (admitted, last request less than a session ago) at each second
 * @param admissionMillis when each user admitted from the line got in (ms from the start), in order
 * @param admissionWaits the wait of each of those, in seconds, in the same order
 * @param arrivalSeconds the length of the arrival period in seconds
 * @param wallMillis how long the run took in real time
 */
public record PlanResult(
    Limits limits,
    int arrivals,
    int admittedAtOnce,
    int queued,
    int admittedFromLine,
    int gaveUp,
    int stillWaiting,
    int lostSessions,
    double[] waits,
    double[] stillWaitingWaits,
    int peakLine,
    int peakLineSecond,
    int peakActive,
    int peakAdmittedPerMinute,
    double activeUtilization,
    double admissionUtilization,
    int secondsWithLine,
    int[] line,
    int[] active,
    long[] admissionMillis,
    double[] admissionWaits,
    int arrivalSeconds,
    long wallMillis) {

  /** The {@code q} quantile (0..1, nearest rank) of the waits of those admitted from the line; 0 when nobody was. */
  public double waitQuantile(double q) {
    return quantile(waits, q);
  }

  /**
   * The 90th percentile wait that the target-wait search compares with its target: over those
   * admitted from the line and those still in line at the end (counted with their wait so far,
   * which is less than their whole wait, so an unfinished run never looks better than it is).
   */
  public double searchWaitP90() {
    if (stillWaitingWaits.length == 0) {
      return waitQuantile(0.9);
    }
    double[] all = Arrays.copyOf(waits, waits.length + stillWaitingWaits.length);
    System.arraycopy(stillWaitingWaits, 0, all, waits.length, stillWaitingWaits.length);
    Arrays.sort(all);
    return quantile(all, 0.9);
  }

  /** The length of the run in seconds (arrivals, then until the line was empty or the drain ran out). */
  public int runSeconds() {
    return line.length;
  }

  /** The harness's nearest-rank quantile ({@link Quantiles}), but 0 rather than NaN when there are no values. */
  static double quantile(double[] sorted, double q) {
    return sorted.length == 0 ? 0 : Quantiles.ofSorted(sorted, q);
  }

  /** Prints the figures, one per line, each line starting with {@code indent}. */
  public void print(PrintStream out, String indent) {
    out.printf(Locale.ROOT, "%slimits              %s%n", indent, limits);
    out.printf(Locale.ROOT, "%sarrivals            %,d (%,d let in at once, %,d put in line)%n", indent, arrivals,
        admittedAtOnce, queued);
    out.printf(Locale.ROOT, "%sadmitted from line  %,d%n", indent, admittedFromLine);
    out.printf(Locale.ROOT, "%sgave up             %,d (%.1f %% of those in line)%n", indent, gaveUp,
        queued == 0 ? 0.0 : 100.0 * gaveUp / queued);
    if (stillWaiting > 0) {
      out.printf(Locale.ROOT, "%sstill waiting       %,d at the end of the run (waited %s so far at the median)%n",
          indent, stillWaiting, Durations.formatSeconds(quantile(stillWaitingWaits, 0.5)));
    }
    if (lostSessions > 0) {
      out.printf(Locale.ROOT, "%slost sessions       %,d (a click came more than a session after the last one)%n",
          indent, lostSessions);
    }
    out.printf(Locale.ROOT, "%swait in line        p50 %s  p90 %s  p99 %s  max %s (of those admitted from the line)%n",
        indent, Durations.formatSeconds(waitQuantile(0.5)), Durations.formatSeconds(waitQuantile(0.9)),
        Durations.formatSeconds(waitQuantile(0.99)), Durations.formatSeconds(waitQuantile(1)));
    out.printf(Locale.ROOT, "%speak line           %,d (at %s)%n", indent, peakLine,
        Durations.formatSeconds(peakLineSecond));
    out.printf(Locale.ROOT, "%speak active         %,d of %,d; most admitted in 60 s: %,d of %,d%n", indent, peakActive,
        limits.totalActiveUsers(), peakAdmittedPerMinute, limits.newUsersPerMinute());
    if (secondsWithLine == 0) {
      out.printf(Locale.ROOT, "%sutilization         nobody waited%n", indent);
    } else {
      out.printf(Locale.ROOT,
          "%sutilization         %.1f %% of totalActiveUsers active, %.1f %% of newUsersPerMinute admitted,"
              + " while someone waited (%s)%n",
          indent, activeUtilization * 100, admissionUtilization * 100, Durations.formatSeconds(secondsWithLine));
    }
  }

  /** One line for the search's progress. */
  public String summaryLine() {
    return String.format(Locale.ROOT,
        "%s: p90 wait %s (%.1f s), p50 %s, peak line %,d, gave up %,d%s",
        limits, Durations.formatSeconds(searchWaitP90()), searchWaitP90(), Durations.formatSeconds(waitQuantile(0.5)),
        peakLine,
        gaveUp, stillWaiting > 0 ? ", " + stillWaiting + " still waiting at the end" : "");
  }
}
