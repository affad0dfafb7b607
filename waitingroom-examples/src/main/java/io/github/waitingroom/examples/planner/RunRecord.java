package io.github.waitingroom.examples.planner;

import io.github.waitingroom.simulation.DoubleList;
import io.github.waitingroom.simulation.LongList;
import java.util.Arrays;

/**
 * What one {@link Simulation} run records of its users, second by second (the line, the active
 * users, the admissions) and event by event (who was let in at once, put in line, let in from it,
 * gave up), and the {@link PlanResult} it makes of them at the end. Times are milliseconds from
 * the first arrival.
 */
final class RunRecord {
  private final Limits limits;
  private final int arrivalSeconds;
  private final int maxSeconds;

  private int[] lineAt;
  private int[] activeAt;
  private int[] admittedIn;
  private int waitingNow;
  private int admittedAtOnce;
  private int queued;
  private int gaveUp;
  private int lostSessions;
  private int peakLine;
  private int peakLineSecond;
  private final DoubleList waits = new DoubleList();
  private final LongList admissionMillis = new LongList();

  /**
   * An empty record.
   *
   * @param limits the limits of the run
   * @param arrivalSeconds the length of the arrival period in seconds
   * @param maxSeconds the longest the run may go on, in seconds
   */
  RunRecord(Limits limits, int arrivalSeconds, int maxSeconds) {
    this.limits = limits;
    this.arrivalSeconds = arrivalSeconds;
    this.maxSeconds = maxSeconds;
    int initial = Math.min(maxSeconds + 1, arrivalSeconds + 600);
    this.lineAt = new int[initial];
    this.activeAt = new int[initial];
    this.admittedIn = new int[initial];
  }

  /** How many people are in line now. */
  int waitingNow() {
    return waitingNow;
  }

  /** Notes the line and the active users at a whole second of the run. */
  void sample(int second, int active) {
    if (second == lineAt.length) {
      int n = Math.min(maxSeconds + 1, lineAt.length * 2);
      lineAt = Arrays.copyOf(lineAt, n);
      activeAt = Arrays.copyOf(activeAt, n);
      admittedIn = Arrays.copyOf(admittedIn, n);
    }
    lineAt[second] = waitingNow;
    activeAt[second] = active;
  }

  /** A newcomer was let in on its first request. */
  void letInAtOnce() {
    admittedAtOnce++;
  }

  /** Someone was put in line (a newcomer, or a user whose session ran out). */
  void putInLine(long at) {
    queued++;
    waitingNow++;
    if (waitingNow > peakLine) {
      peakLine = waitingNow;
      peakLineSecond = (int) (at / 1000);
    }
  }

  /** Someone in line was let in after waiting {@code waitSeconds}. */
  void letInFromLine(long at, double waitSeconds) {
    waitingNow--;
    waits.add(waitSeconds);
    admissionMillis.add(at);
  }

  /** Someone in line gave up waiting. */
  void gaveUp() {
    gaveUp++;
    waitingNow--;
  }

  /** An admitted user's click was turned away: their session ran out between two clicks. */
  void lostSession() {
    lostSessions++;
  }

  /** Someone was let in (at once or from the line): counts towards the admissions per minute. */
  void admitted(long at) {
    int second = (int) (at / 1000);
    if (second < admittedIn.length) {
      admittedIn[second]++;
    }
  }

  /**
   * The figures of the run.
   *
   * @param end the length of the run in seconds
   * @param users how many people arrived
   * @param stillWaits how long those still in line at the end had waited so far, in seconds
   * @param wallMillis how long the run took in real time
   */
  PlanResult result(int end, int users, DoubleList stillWaits, long wallMillis) {
    int[] line = Arrays.copyOf(lineAt, end);
    int[] active = Arrays.copyOf(activeAt, end);
    int[] admitted = Arrays.copyOf(admittedIn, end);
    // Admissions (at once and from the line) in the 60 s up to each second.
    int[] lastMinute = new int[end];
    int sum = 0;
    int peakPerMinute = 0;
    int peakActive = 0;
    for (int s = 0; s < end; s++) {
      sum += admitted[s];
      if (s >= 60) {
        sum -= admitted[s - 60];
      }
      lastMinute[s] = sum;
      peakPerMinute = Math.max(peakPerMinute, sum);
      peakActive = Math.max(peakActive, active[s]);
    }
    double activeSum = 0;
    double admissionSum = 0;
    int withLine = 0;
    for (int s = 0; s < end; s++) {
      if (line[s] > 0) {
        withLine++;
        activeSum += Math.min(1.0, active[s] / (double) limits.totalActiveUsers());
        admissionSum += Math.min(1.0, lastMinute[s] / (double) limits.newUsersPerMinute());
      }
    }
    double[] sortedWaits = waits.sorted();
    double[] still = stillWaits.sorted();
    return new PlanResult(
        limits,
        users,
        admittedAtOnce,
        queued,
        waits.size(),
        gaveUp,
        still.length,
        lostSessions,
        sortedWaits,
        still,
        peakLine,
        peakLineSecond,
        peakActive,
        peakPerMinute,
        withLine == 0 ? Double.NaN : activeSum / withLine,
        withLine == 0 ? Double.NaN : admissionSum / withLine,
        withLine,
        line,
        active,
        admissionMillis.toArray(),
        waits.toArray(),
        arrivalSeconds,
        wallMillis);
  }
}
