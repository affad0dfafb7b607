package io.github.waitingroom.benchmarks;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.simulation.DoubleList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** What one run measured; every figure from the simulator's ground truth. */
public final class SimResult {
  final Scenario scenario;
  final int users;
  long wallMillis;
  long decisions;
  long syncs;
  int queued;
  int admitted;
  int abandoned;
  int bounced;
  int lostPlace;
  int revived;
  int cookieExpiredEarly;
  long duplicateAdmits;
  long strictInversions;
  long inversions;
  long crossDcInversions;
  int invertedUsers;
  /** Users inverted by an admission from the line (not by a newcomer let in on arrival). */
  int invertedUsersFromLine;
  /** Users admitted from the line after a later arrival second had been admitted from the line. */
  int lateFromLine;
  /**
   * Walk-ins: newcomers let in on arrival while someone who arrived in an earlier second was
   * waiting and polling as told (a page or a leaver: a user whose place the room knows).
   */
  int walkInsPassing;
  /**
   * The largest gap, in seconds, between the arrival of the earliest such waiting user and a
   * walk-in's admission.
   */
  long maxWalkInGapSeconds;
  /** Figures per {@link ClientKind}, in its order. */
  final KindStats[] byKind = new KindStats[ClientKind.values().length];
  long aheadIncreases;
  long maxAheadIncrease;
  int aheadGrewUsers;
  int unknownEstimates;
  int rangeSample;
  int rangeHits;
  int censoredIncluded;
  int censoredExcluded;
  long replays;
  long replayAdmissions;
  int cloneAdmitted;
  long cloneStartMillis = -1;
  boolean cloneSkipped;
  int clonePlaceAdmitted;
  long clonePlaceSpanMillis;
  long storeExchanges;
  long storeBytesUp;
  long storeBytesDown;
  long storeValuesDown;
  long storeReportsDown;
  /** The longest epoch of any node at the end of the run (the sync interval, unless the store budget stretched it). */
  long epochMillis;
  long storeFailures;
  double nodeReportBytes;
  double dataCenterReportBytes;
  final DoubleList waits = new DoubleList();
  final List<DoubleList> waitsByDc = new ArrayList<>();
  final DoubleList estimateErrors = new DoubleList();
  /** The errors of {@link #estimateErrors} of users admitted from the line (no one still waiting). */
  final DoubleList admittedEstimateErrors = new DoubleList();
  /** For users admitted from the line: milliseconds from their queueing to their first estimate. */
  final DoubleList firstEstimateDelays = new DoubleList();
  final int[] arrivalsByDc;
  final int[] queuedByDc;
  final int[] admittedByDc;
  final int[] abandonedByDc;
  int[] active = new int[0];
  int[] maxActive = new int[0];
  int[] queue = new int[0];
  int[] queueSeen = new int[0];
  int[] admittedPerSecond = new int[0];
  int[] arrivedPerSecond = new int[0];
  long[] admissionTimes = new long[0];
  int peakActive;
  int secondsOverLimit;
  int peakAdmittedPerMinute;
  int peakQueue;
  int queueSeconds;
  double utilization;
  int secondsBelowTarget;

  SimResult(Scenario scenario, int users) {
    this.scenario = scenario;
    this.users = users;
    int dcs = scenario.dataCenters();
    arrivalsByDc = new int[dcs];
    queuedByDc = new int[dcs];
    admittedByDc = new int[dcs];
    abandonedByDc = new int[dcs];
    for (int d = 0; d < dcs; d++) {
      waitsByDc.add(new DoubleList());
    }
    for (ClientKind k : ClientKind.values()) {
      byKind[k.ordinal()] = new KindStats(k);
    }
  }

  KindStats kind(int ordinal) {
    return byKind[ordinal];
  }

  /** The figures of one kind of client. */
  KindStats kind(ClientKind k) {
    return byKind[k.ordinal()];
  }

  /**
   * What must be equal in two runs of one seed: every admission's time, every wait, and the
   * counts of what happened, in one string.
   */
  String fingerprint() {
    return "admitted=" + admitted + " queued=" + queued + " abandoned=" + abandoned + " decisions=" + decisions
        + " syncs=" + syncs + " storeBytesUp=" + storeBytesUp + " peakActive=" + peakActive
        + " admissions=" + java.util.Arrays.hashCode(admissionTimes) + " waits=" + waits.size()
        + " active=" + java.util.Arrays.hashCode(active) + " byKind="
        + java.util.Arrays.stream(byKind).map(k -> k.admittedFromLine + "/" + k.lostPlace + "/" + k.polls)
            .toList();
  }

  void finish(SpikeSimulator sim) {
    active = sim.truth.activeAt;
    maxActive = sim.truth.maxActiveIn;
    queue = sim.truth.queueAt;
    queueSeen = sim.truth.queueSeenAt;
    admittedPerSecond = sim.truth.admittedIn;
    arrivedPerSecond = sim.truth.arrivedIn;
    admissionTimes = sim.truth.admissionMillis.toArray();
    int total = scenario.totalActiveUsers();
    int perMinute = scenario.newUsersPerMinute();
    // Admissions in any sliding 60 s window, at millisecond resolution.
    for (int i = 0, j = 0; i < admissionTimes.length; i++) {
      while (admissionTimes[i] - admissionTimes[j] >= 60_000) {
        j++;
      }
      peakAdmittedPerMinute = Math.max(peakAdmittedPerMinute, i - j + 1);
    }
    double sum = 0;
    for (int t = 0; t < active.length; t++) {
      peakActive = Math.max(peakActive, maxActive[t]);
      if (maxActive[t] > total) {
        secondsOverLimit++;
      }
      peakQueue = Math.max(peakQueue, queue[t]);
      if (queue[t] > 0) {
        // Active clipped at the limit: a second over the limit is full use, never more.
        double u = Math.max(
            Math.min(active[t], total) / (double) total,
            Math.min(admittedLastMinute(t), perMinute) / (double) perMinute);
        sum += u;
        queueSeconds++;
        if (u < 0.97) {
          secondsBelowTarget++;
        }
      }
    }
    utilization = queueSeconds == 0 ? Double.NaN : sum / queueSeconds;
    // Users still waiting at the end: their wait so far is a lower bound of their real wait.
    // Those whose shown estimate has already run out are in the sample (their error is at least
    // that large); those whose estimate has not run out yet are left out and counted.
    long end = sim.endMillis;
    for (int u = 0; u < sim.users.users; u++) {
      if (sim.users.state[u] == SimUsers.WAITING && sim.users.kind[u] == SimUsers.HONEST) {
        byKind[sim.users.clientKind[u]].stillWaiting++;
      }
      if (sim.users.state[u] == SimUsers.WAITING && sim.users.kind[u] == SimUsers.HONEST && u != sim.users.cloneVictim) {
        double waited = (end - sim.users.estimateFrom(u)) / 1000.0;
        if (sim.users.shownWait[u] >= 0 && waited > sim.users.shownWait[u]) {
          estimateErrors.add((sim.users.shownWait[u] - waited) / waited);
          censoredIncluded++;
        } else {
          censoredExcluded++;
        }
      }
    }
    DoubleList clonePlaceAdmissions = sim.clients.adversaries.clonePlaceAdmissions;
    clonePlaceAdmitted = clonePlaceAdmissions.size();
    if (clonePlaceAdmitted > 0) {
      clonePlaceSpanMillis = (long) (clonePlaceAdmissions.max() - clonePlaceAdmissions.min());
    }
    storeExchanges = sim.lagged.exchanges;
    storeBytesUp = sim.lagged.bytesUp;
    storeBytesDown = sim.lagged.bytesDown;
    storeValuesDown = sim.lagged.valuesDown;
    storeReportsDown = sim.lagged.reportsDown;
    for (WaitingRoom n : sim.nodes) {
      if (n != null) {
        epochMillis = Math.max(epochMillis, n.status().epochMillis());
      }
    }
    storeFailures = sim.faulty == null ? 0 : sim.faulty.failures;
    nodeReportBytes = sim.lagged.published[0] == 0 ? 0 : sim.lagged.publishedBytes[0] / (double) sim.lagged.published[0];
    dataCenterReportBytes =
        sim.lagged.published[1] == 0 ? 0 : sim.lagged.publishedBytes[1] / (double) sim.lagged.published[1];
  }

  /** Admissions in the 60 s ending at the start of second {@code t} (ms resolution). */
  int admittedLastMinute(int t) {
    long to = t * 1000L;
    int hi = upper(admissionTimes, to);
    int lo = upper(admissionTimes, to - 60_000);
    return hi - lo;
  }

  /** Index of the first value greater than {@code v}. */
  private static int upper(long[] sorted, long v) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] <= v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  double peakActiveRatio() {
    return peakActive / (double) scenario.totalActiveUsers();
  }

  double peakPerMinuteRatio() {
    return peakAdmittedPerMinute / (double) scenario.newUsersPerMinute();
  }

  double medianAbsError() {
    return estimateErrors.absQuantile(0.5);
  }

  double rangeHitRate() {
    return rangeSample == 0 ? Double.NaN : rangeHits / (double) rangeSample;
  }

  double virtualSeconds() {
    return scenario.duration().toMillis() / 1000.0;
  }

  String line() {
    return String.format(
        Locale.ROOT,
        "%s: %d arrivals, %d queued, %d admitted, %d abandoned; peak active %d / %d (%.3fx, %d s over),"
            + " peak admitted in 60 s %d / %d (%.3fx), utilization while queued %.1f%% over %d s (%d s below 97%%),"
            + " FIFO inversions %d (users %d, by admissions from the line %d, cross-DC %d; strict %d), ahead grew %d times (users %d, max +%d),"
            + " wait estimate |error| p50 %.1f%% p90 %.1f%% (signed p50 %+.1f%%, unknown %d, sample %d incl. %d"
            + " still waiting, %d left out; first estimate after p50 %.1f s p90 %.1f s), 25-75 range hit %.1f%%, bounced %d, lost place %d, revived %d,"
            + " cookie expired early %d, duplicate admits %d, replays %d (admitted %d), clones admitted %d"
            + " (cloned place %d within %d ms); %d decisions, %d syncs, store %d exchanges (%d failed) in %.1f s",
        scenario.name(), users, queued, admitted, abandoned, peakActive, scenario.totalActiveUsers(),
        peakActiveRatio(), secondsOverLimit, peakAdmittedPerMinute, scenario.newUsersPerMinute(),
        peakPerMinuteRatio(), utilization * 100, queueSeconds, secondsBelowTarget, inversions, invertedUsers,
        invertedUsersFromLine, crossDcInversions, strictInversions, aheadIncreases, aheadGrewUsers, maxAheadIncrease,
        medianAbsError() * 100, estimateErrors.absQuantile(0.9) * 100, estimateErrors.quantile(0.5) * 100,
        unknownEstimates, estimateErrors.size(), censoredIncluded, censoredExcluded,
        firstEstimateDelays.quantile(0.5) / 1000, firstEstimateDelays.quantile(0.9) / 1000, rangeHitRate() * 100,
        bounced, lostPlace, revived, cookieExpiredEarly, duplicateAdmits, replays, replayAdmissions,
        cloneAdmitted, clonePlaceAdmitted, clonePlaceSpanMillis, decisions, syncs, storeExchanges,
        storeFailures, wallMillis / 1000.0)
        + String.format(Locale.ROOT, "; admitted from the line after a later arrival %d, walk-ins passing a waiting user %d"
            + " (largest gap %d s)", lateFromLine, walkInsPassing, maxWalkInGapSeconds)
        + Arrays.stream(byKind).filter(k -> k.arrivals > 0).map(k -> "\n    " + k.line()).reduce("", String::concat);
  }
}
