package io.github.waitingroom;

import java.util.Arrays;

/**
 * The plans a node applied, as far as they call holders by their arrival: each plan lets in every
 * holder that its tallies counted in the line (counted since before its epoch ended) and that
 * arrived at or before its cutoff second. A holder counted without a break since then stays
 * called by that plan on every node, however long it takes to come: the plan made a slot free for
 * it, and every tally since counted it as holding it. So no node may forget a plan while another
 * still lets its holders in: plans are kept, not timed out, and two plans whose calls differ for
 * no holder are kept as one (the line moves forward, so the calls of the latest plans usually
 * reach furthest and absorb the older ones). Immutable; a plan adds an entry.
 */
final class Calls {
  static final Calls NONE = new Calls(new long[0], new long[0]);

  /**
   * The most entries kept: past it the oldest go (a holder counted without a break since before
   * all of them, who was called and has not come, would then wait to be called again; the room
   * never reaches it unless the cutoffs fall back thousands of times).
   */
  static final int MAX_ENTRIES = 4096;

  /** Per plan, oldest first: the last second a holder may have been counted since. */
  private final long[] countedBy;
  /** Per plan: the greatest cutoff of that plan and every later one (never increasing along). */
  private final long[] cutFrom;

  private Calls(long[] countedBy, long[] cutFrom) {
    this.countedBy = countedBy;
    this.cutFrom = cutFrom;
  }

  /**
   * Whether a holder who arrived at {@code arrival} and has been counted in a line without a break
   * since {@code countedSince} has been called by one of the plans.
   */
  boolean called(long arrival, long countedSince) {
    int i = Arrays.binarySearch(countedBy, countedSince);
    int first = i >= 0 ? i : -i - 1;
    while (first > 0 && countedBy[first - 1] >= countedSince) {
      first--; // equal entries: take the first
    }
    return first < countedBy.length && cutFrom[first] >= arrival;
  }

  /** The greatest cutoff of all the plans, or {@link Long#MIN_VALUE}. */
  long maxCut() {
    return cutFrom.length == 0 ? Long.MIN_VALUE : cutFrom[0];
  }

  /** How many entries are kept (see {@link #MAX_ENTRIES}). */
  int size() {
    return countedBy.length;
  }

  /**
   * These calls and a plan's.
   *
   * @param cutoff the plan's cutoff second ({@link Long#MIN_VALUE} for none: nothing to add)
   * @param counted the last second a holder may have been counted since to be in the plan's line
   */
  Calls with(long cutoff, long counted) {
    if (cutoff == Long.MIN_VALUE) {
      return this;
    }
    int n = countedBy.length;
    long[] by = Arrays.copyOf(countedBy, n + 1);
    long[] cut = Arrays.copyOf(cutFrom, n + 1);
    by[n] = Math.max(counted, n > 0 ? by[n - 1] : Long.MIN_VALUE);
    cut[n] = cutoff;
    for (int i = n - 1; i >= 0; i--) {
      cut[i] = Math.max(cut[i], cut[i + 1]);
    }
    // An entry whose cut equals the next one's answers every question as the next one does (a
    // holder counted since before it is counted since before the next one too): drop it.
    int kept = 0;
    for (int i = 0; i <= n; i++) {
      if (i == n || cut[i] != cut[i + 1]) {
        by[kept] = by[i];
        cut[kept] = cut[i];
        kept++;
      }
    }
    int from = Math.max(0, kept - MAX_ENTRIES);
    return new Calls(Arrays.copyOfRange(by, from, kept), Arrays.copyOfRange(cut, from, kept));
  }
}
