package io.github.waitingroom;

import io.github.waitingroom.allocation.Plan;
import java.util.ArrayDeque;
import java.util.NavigableMap;

/**
 * How fast holders give up: the share of waiting holders who leave the line without getting in,
 * per second, measured on the plans this node applied over the last minute. It follows a cohort:
 * the arrival seconds that no plan has called yet and whose holders had all arrived a minute ago.
 * Nobody of the cohort got in since, so every holder it lost gave up (stopped polling); with C
 * then and C' now, each holder leaves at the rate ln(C / C') / t. Counts of the same seconds on
 * both sides, so a holder the line counts more than once (see {@code Plan.countsPerHolder}) weighs
 * the same in both.
 * Wait estimates use it: the people ahead of a holder thin out at that rate as well as by
 * admission. Used by the sync thread only; the rate itself is read by request threads.
 */
final class LineDrain {
  /** How far back the cohort is taken from. */
  static final long WINDOW_SECONDS = 60;
  /** Arrival seconds this recent may still be reaching the tallies of other nodes. */
  static final long SETTLE_SECONDS = 10;
  /** Fewer holders than this in the cohort tell too little: the last rate stays. */
  static final long MIN_COHORT = 20;

  private record Sample(long second, NavigableMap<Long, Long> line) {}

  private final ArrayDeque<Sample> samples = new ArrayDeque<>();
  /** The latest arrival second any plan since the line formed has called. */
  private long calledUpTo = Long.MIN_VALUE;
  private volatile double departures;

  /** Notes the plan applied at {@code now} (epoch second). */
  void note(Plan plan, long now) {
    NavigableMap<Long, Long> line = plan.room().line();
    if (line.isEmpty()) {
      samples.clear();
      calledUpTo = Long.MIN_VALUE;
      departures = 0;
      return;
    }
    calledUpTo = Math.max(calledUpTo, Math.max(plan.cutoffSecond(), plan.partialSecond()));
    samples.addLast(new Sample(now, line));
    while (samples.size() > 1 && samples.peekFirst().second() < now - WINDOW_SECONDS) {
      samples.removeFirst();
    }
    Sample first = samples.peekFirst();
    long span = now - first.second();
    if (span < WINDOW_SECONDS / 2) {
      return;
    }
    long from = calledUpTo == Long.MIN_VALUE ? Long.MIN_VALUE : calledUpTo + 1;
    long to = first.second() - SETTLE_SECONDS;
    if (from > to) {
      return;
    }
    long before = sum(first.line().subMap(from, true, to, true));
    long after = sum(line.subMap(from, true, to, true));
    if (before < MIN_COHORT) {
      return;
    }
    departures = after >= before ? 0 : Math.log((double) before / Math.max(1, after)) / span;
  }

  private static long sum(NavigableMap<Long, Long> seconds) {
    long n = 0;
    for (long c : seconds.values()) {
      n += c;
    }
    return n;
  }

  /** The share of holders who leave the line per second; 0 until a cohort has been followed. */
  double departures() {
    return departures;
  }
}
