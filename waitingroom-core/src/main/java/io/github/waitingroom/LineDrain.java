package io.github.waitingroom;

import io.github.waitingroom.allocation.Plan;
import java.util.ArrayDeque;

/**
 * How fast holders give up: the share of the line's holders who leave it without getting in, per
 * second, measured over the last minute of the plans this node applied. Over a minute the line
 * changes by its arrivals less its admissions less those who left, so those who left = line a
 * minute ago + arrivals - admissions - line now (all counted once per holder, room-wide); divided
 * by the minute and by the line's mean length, it is the rate at which any one holder leaves.
 * Wait estimates use it: the people ahead of a holder thin out at that rate as well as by
 * admission. Used by the sync thread only; the rate itself is read by request threads.
 */
final class LineDrain {
  private static final long WINDOW_SECONDS = 60;

  private record Sample(long second, double line) {}

  private final ArrayDeque<Sample> samples = new ArrayDeque<>();
  private volatile double departures;

  /** Notes the plan applied at {@code now} (epoch second). */
  void note(Plan plan, long now) {
    double line = plan.waitingHolders();
    if (line <= 0) {
      samples.clear();
      departures = 0;
      return;
    }
    samples.addLast(new Sample(now, line));
    while (samples.size() > 1 && samples.peekFirst().second() < now - WINDOW_SECONDS) {
      samples.removeFirst();
    }
    Sample first = samples.peekFirst();
    long span = now - first.second();
    if (span < WINDOW_SECONDS / 2) {
      return;
    }
    double sum = 0;
    for (Sample s : samples) {
      sum += s.line();
    }
    double mean = sum / samples.size();
    // Arrivals and admissions are the room's counts of the last minute; over a shorter span,
    // their share of it.
    double scale = (double) span / WINDOW_SECONDS;
    double left =
        first.line() + scale * (plan.room().arrivals() - plan.room().recentAdmissions()) - line;
    departures = Math.max(0, left / span / mean);
  }

  /** The share of holders who leave the line per second, 0 until a line has lasted half a minute. */
  double departures() {
    return departures;
  }
}
