package io.github.waitingroom.benchmarks;

import io.github.waitingroom.benchmarks.FloodBench.Run;
import io.github.waitingroom.benchmarks.FloodBench.Second;
import io.github.waitingroom.benchmarks.FloodBench.Settings;
import io.github.waitingroom.benchmarks.FloodBench.User;
import java.util.List;
import java.util.Locale;

/**
 * What {@link FloodBench} prints: its two runs (with and without the flood, same seed) side by side,
 * for the line the plan counts, the places the nodes remember, the honest users who arrived before
 * the flood, the estimates told to those who arrived during and after it, and the capacity lost.
 */
final class FloodReport {
  private FloodReport() {}

  /** Prints the comparison of the run without the flood ({@code base}) and with it ({@code fl}). */
  static void print(Settings s, Run base, Run fl, boolean series) {
    long floodAt = s.floodAt();
    long floodEnd = floodAt + s.floodSeconds();
    System.out.printf(Locale.ROOT, "flood of %,d cookie-less requests over %d s from t=%d s, %d node(s), honest %d/min for %d s,"
            + " limit 100 active, 60/min, refresh 20 s, waiting timeout %d s%n",
        s.flood(), s.floodSeconds(), floodAt, s.nodes(), s.honestPerMinute(), s.honestFor(),
        FloodBench.config(s.timeoutSeconds()).waitingTimeoutSeconds());
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
        if (FloodBench.TRACE) {
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
    if (FloodBench.TRACE) {
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
