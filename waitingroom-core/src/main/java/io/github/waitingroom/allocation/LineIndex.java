package io.github.waitingroom.allocation;

import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;

/**
 * The line of a {@link Plan}'s summed tally as prefix sums over its arrival seconds: how many
 * users are ahead of a holder of each second (the called ones first), how many wait in all, and
 * how many times the line counts each holder. Immutable.
 */
final class LineIndex {
  private final long[] lineSeconds;
  private final long[] aheadBefore;

  /** The index of the room's summed tally: its {@link Tally#line}. */
  LineIndex(Tally room) {
    NavigableMap<Long, Long> line = room.line();
    this.lineSeconds = new long[line.size()];
    this.aheadBefore = new long[line.size() + 1];
    int i = 0;
    for (Map.Entry<Long, Long> e : line.entrySet()) {
      lineSeconds[i] = e.getKey();
      aheadBefore[i + 1] = aheadBefore[i] + e.getValue();
      i++;
    }
  }

  /** Users waiting, called or not (see {@link Plan#waitingUsers}). */
  long waiting() {
    return aheadBefore[lineSeconds.length];
  }

  /** Users ahead of an uncalled holder of this arrival second (see {@link Plan#usersAhead}). */
  long ahead(long arrivalSecond) {
    int i = Arrays.binarySearch(lineSeconds, arrivalSecond);
    return aheadBefore[i >= 0 ? i : -i - 1];
  }

  /** Users of the line at this arrival second (see {@link Tally#lineAt}). */
  long lineAt(long arrivalSecond) {
    int i = Arrays.binarySearch(lineSeconds, arrivalSecond);
    return i >= 0 ? aheadBefore[i + 1] - aheadBefore[i] : 0;
  }

  /**
   * How many times the line counts each holder, at least 1. The line counts a holder whose polls
   * go to several nodes once (see {@link Tally#shared}), except in a sum with a silent publisher
   * (which shares nothing) or with nodes of an older version that do not publish what they share:
   * then the line, and the people ahead of anyone, look longer than they are, while the
   * admissions the estimate divides by are distinct users. The line's last minute of arrival
   * seconds, as counted, against the room's arrivals of the last minute (distinct, counted once
   * by the node that gave each its place) tells how many: it cannot see the holders of that
   * minute who already gave up or got in, so it errs low, towards longer estimates.
   *
   * @param arrivals the room's arrivals of the last minute ({@link Tally#arrivals})
   */
  double countsPerHolder(long arrivals) {
    if (lineSeconds.length == 0 || arrivals <= 0) {
      return 1;
    }
    long from = lineSeconds[lineSeconds.length - 1] - 59;
    int i = Arrays.binarySearch(lineSeconds, from);
    int first = i >= 0 ? i : -i - 1;
    long counted = aheadBefore[lineSeconds.length] - aheadBefore[first];
    return Math.max(1.0, (double) counted / arrivals);
  }
}
