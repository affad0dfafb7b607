package io.github.waitingroom.benchmarks;

import static io.github.waitingroom.benchmarks.SimUsers.HONEST;

import io.github.waitingroom.Decision;
import io.github.waitingroom.simulation.ActiveUsers;
import io.github.waitingroom.simulation.LongList;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * The {@link SpikeSimulator}'s own ground truth, independent of the room's counters: who really
 * waits (by arrival second) and who is really active, second by second, and what the room did
 * wrong against it (users passed in line, walk-ins, estimates missed), counted into the run's
 * {@link SimResult}.
 */
final class SimGroundTruth {
  private final SimUsers users;
  private final SimResult result;
  private final long warm;
  private final int seconds;
  private final long sessionMillis;

  final int[] activeAt;
  final int[] maxActiveIn;
  final int[] queueAt;
  final int[] queueSeenAt;
  final int[] admittedIn;
  final int[] arrivedIn;
  final LongList admissionMillis = new LongList();
  /** Who is really active (ground truth), each for a session from its last request let through. */
  private final ActiveUsers active;
  /** Replays the room let in as new arrivals: each counts as active for a session. */
  private int phantomActive;
  private final PriorityQueue<Long> phantomExpiries = new PriorityQueue<>();
  private int waitingNow;
  private final TreeMap<Long, Integer> waitingBySecond = new TreeMap<>();
  /**
   * As {@link #waitingBySecond}, of the honest users who poll as told (pages and leavers): those
   * whose place the room cannot have dropped for polling late.
   */
  private final TreeMap<Long, Integer> waitingAsToldBySecond = new TreeMap<>();
  private long newestAdmittedSecond = Long.MIN_VALUE;
  /** As {@link #newestAdmittedSecond}, of users admitted from the line only (not on arrival). */
  private long newestFromLineSecond = Long.MIN_VALUE;
  private final long[] newestAdmittedSecondByDc;

  /**
   * The truth of a run of {@code seconds} seconds from internal time {@code warm}, with sessions of
   * {@code sessionMillis}.
   */
  SimGroundTruth(Scenario s, SimUsers users, SimResult result, long sessionMillis, long warm) {
    this.users = users;
    this.result = result;
    this.warm = warm;
    this.sessionMillis = sessionMillis;
    this.seconds = (int) s.duration().getSeconds();
    this.active = new ActiveUsers(users.total, sessionMillis, 0);
    this.activeAt = new int[seconds];
    this.maxActiveIn = new int[seconds];
    this.queueAt = new int[seconds];
    this.queueSeenAt = new int[seconds];
    this.admittedIn = new int[seconds];
    this.arrivedIn = new int[seconds];
    this.newestAdmittedSecondByDc = new long[s.dataCenters()];
    java.util.Arrays.fill(newestAdmittedSecondByDc, Long.MIN_VALUE);
  }

  /** User {@code u} arrived, in {@code second} of the run. */
  void arrived(int u, int second) {
    arrivedIn[second]++;
    result.arrivalsByDc[users.dataCenter[u]]++;
    result.kind(users.clientKind[u]).arrivals++;
  }

  /** User {@code u} is in line now, at its place second. */
  void enterLine(int u) {
    waitingNow++;
    waitingBySecond.merge(users.placeSecond[u], 1, Integer::sum);
    if (pollsAsTold(u)) {
      waitingAsToldBySecond.merge(users.placeSecond[u], 1, Integer::sum);
      users.inAsTold[u] = true;
    }
  }

  /** User {@code u} is out of the line (let in, gone, or put at the back). */
  void leaveLine(int u) {
    waitingNow--;
    waitingBySecond.compute(users.placeSecond[u], (b, n) -> n == null || n <= 1 ? null : n - 1);
    if (users.inAsTold[u]) {
      users.inAsTold[u] = false;
      waitingAsToldBySecond.compute(users.placeSecond[u], (b, n) -> n == null || n <= 1 ? null : n - 1);
    }
  }

  private boolean pollsAsTold(int u) {
    return users.kind[u] == HONEST && u != users.cloneVictim
        && (users.clientKind[u] == 0 || users.clientKind[u] == ClientKind.LEAVER.ordinal());
  }

  /** A polling user turned away: an inversion if someone who arrived in a later second got in. */
  void checkOrder(int u, Decision d) {
    long mine = users.placeSecond[u];
    if (newestAdmittedSecond > mine) {
      result.inversions++;
      boolean crossDc = false;
      for (int dc = 0; dc < newestAdmittedSecondByDc.length; dc++) {
        crossDc |= dc != users.dataCenter[u] && newestAdmittedSecondByDc[dc] > mine;
      }
      if (crossDc) {
        result.crossDcInversions++;
      }
      if (!users.inverted[u]) {
        users.inverted[u] = true;
        result.invertedUsers++;
      }
      if (newestFromLineSecond > mine && !users.invertedFromLine[u]) {
        users.invertedFromLine[u] = true;
        result.invertedUsersFromLine++;
        result.kind(users.clientKind[u]).passed++;
      }
    }
    if (d.usersAhead() > users.lastAhead[u]) {
      result.aheadIncreases++;
      result.maxAheadIncrease = Math.max(result.maxAheadIncrease, d.usersAhead() - users.lastAhead[u]);
      if (!users.aheadGrew[u]) {
        users.aheadGrew[u] = true;
        result.aheadGrewUsers++;
      }
    }
    users.lastAhead[u] = d.usersAhead();
  }

  /**
   * Counts user {@code u} admitted at {@code at} (from the line or on arrival): who it passed, how
   * long it waited and how far off its estimate was.
   */
  void admitted(int u, long at, boolean fromLine) {
    byte kind = users.kind[u];
    long place = users.placeSecond[u];
    if (kind == HONEST) {
      result.admitted++;
      result.admittedByDc[users.dataCenter[u]]++;
    } else {
      result.cloneAdmitted++;
    }
    if (kind == HONEST && !waitingBySecond.isEmpty() && waitingBySecond.firstKey() < place) {
      result.strictInversions++;
    }
    if (kind == HONEST && !fromLine && !waitingAsToldBySecond.isEmpty()
        && waitingAsToldBySecond.firstKey() < place) {
      // A walk-in: let in on arrival while someone who arrived earlier waits and polls as told
      // (a page or a leaver, whose place the room knows).
      result.walkInsPassing++;
      long gap = (at - warm) / 1000 - waitingAsToldBySecond.firstKey();
      result.maxWalkInGapSeconds = Math.max(result.maxWalkInGapSeconds, gap);
    }
    if (kind == HONEST) {
      KindStats ks = result.kind(users.clientKind[u]);
      if (fromLine) {
        ks.admittedFromLine++;
        if (newestFromLineSecond > place && !users.lateFromLine[u] && u != users.cloneVictim) {
          users.lateFromLine[u] = true;
          ks.late++;
          result.lateFromLine++;
        }
      } else {
        ks.admittedOnArrival++;
      }
      newestAdmittedSecond = Math.max(newestAdmittedSecond, place);
      if (fromLine) {
        newestFromLineSecond = Math.max(newestFromLineSecond, place);
      }
      int dc = users.dataCenter[u];
      newestAdmittedSecondByDc[dc] = Math.max(newestAdmittedSecondByDc[dc], place);
    }
    if (fromLine && kind == HONEST && u != users.cloneVictim) {
      long waitedMillis = at - users.queuedMillis[u];
      result.waits.add(waitedMillis);
      result.waitsByDc.get(users.dataCenter[u]).add(waitedMillis);
      // Per kind, the wait the person saw: from the first time in line, over any lost place.
      result.kind(users.clientKind[u]).waits.add(at - users.firstQueuedMillis[u]);
      estimate(u, (at - users.estimateFrom(u)) / 1000.0);
      if (users.shownAtMillis[u] >= 0) {
        result.firstEstimateDelays.add(users.shownAtMillis[u] - users.queuedMillis[u]);
      }
    }
  }

  private void estimate(int u, double actual) {
    long shown = users.shownWait[u];
    if (shown < 0) {
      result.unknownEstimates++;
      return;
    }
    double a = Math.max(actual, 1);
    result.estimateErrors.add((shown - a) / a);
    result.kind(users.clientKind[u]).estimateErrors.add((shown - a) / a);
    result.admittedEstimateErrors.add((shown - a) / a);
    if (users.shownLow[u] >= 0) {
      result.rangeSample++;
      if (a >= users.shownLow[u] && a <= users.shownHigh[u] + 1) {
        result.rangeHits++;
      }
    }
  }

  /** An admission (of a user or a replay) at {@code at}, for the per-minute limit. */
  void countAdmission(long at) {
    admissionMillis.add(at - warm);
    admittedIn[(int) ((at - warm) / 1000)]++;
  }

  /** A replay the room let in as a new arrival at {@code at}: active for a session. */
  void phantomAdmission(long at) {
    expireUpTo(at);
    phantomActive++;
    phantomExpiries.add(at + sessionMillis);
    countAdmission(at);
    noteActive(at);
  }

  /** When user {@code u}'s session runs out (ground truth). */
  long sessionExpiry(int u) {
    return active.expiry(u);
  }

  /**
   * The room let user {@code u} through at {@code at}: the user counts as active for the
   * configured session duration from now (ground truth, not rounded to slices).
   */
  void letThrough(int u, long at, boolean admission) {
    expireUpTo(at);
    if (active.touch(u, at) && !admission) {
      result.revived++; // let through after its configured session had run out
    }
    noteActive(at);
  }

  private void noteActive(long at) {
    int second = (int) ((at - warm) / 1000);
    int now = active.count() + phantomActive;
    if (second >= 0 && second < seconds) {
      maxActiveIn[second] = Math.max(maxActiveIn[second], now);
    }
  }

  private void expireUpTo(long at) {
    active.expireUpTo(at);
    while (!phantomExpiries.isEmpty() && phantomExpiries.peek() <= at) {
      phantomExpiries.poll();
      phantomActive--;
    }
  }

  /** Samples second {@code second} of the run (internal time {@code at}): who is active, who waits. */
  void sample(int second, long at) {
    expireUpTo(at);
    activeAt[second] = active.count() + phantomActive;
    maxActiveIn[second] = Math.max(maxActiveIn[second], activeAt[second]);
    queueAt[second] = waitingNow;
  }
}
