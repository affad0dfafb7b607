package io.github.waitingroom;

import java.util.Arrays;

/**
 * The plans a node applied, as far as they call holders by their arrival: each plan lets in every
 * holder that its tallies counted in the line (counted since before its epoch ended) and that
 * arrived at or before its cutoff second. A holder counted without a break since then stays
 * called by that plan on every node: the plan made a slot free for it, and every tally since
 * counted it as holding it. Immutable; a plan adds an entry. Plans whose tallies are older than
 * the waiting timeout are forgotten (nobody counted then still waits).
 */
final class Calls {
  static final Calls NONE = new Calls(new long[0], new long[0]);

  /** Per plan, oldest first: the last second a holder may have been counted since. */
  private final long[] countedBy;
  /** Per plan: the greatest cutoff of that plan and every later one. */
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

  /**
   * These calls and a plan's, forgetting plans counted by before {@code forgetBefore}.
   *
   * @param cutoff the plan's cutoff second ({@link Long#MIN_VALUE} for none: nothing to add)
   * @param counted the last second a holder may have been counted since to be in the plan's line
   */
  Calls with(long cutoff, long counted, long forgetBefore) {
    int from = 0;
    while (from < countedBy.length && countedBy[from] < forgetBefore) {
      from++;
    }
    if (cutoff == Long.MIN_VALUE) {
      return from == 0 ? this : new Calls(
          Arrays.copyOfRange(countedBy, from, countedBy.length), Arrays.copyOfRange(cutFrom, from, cutFrom.length));
    }
    int n = countedBy.length - from;
    long[] by = Arrays.copyOf(Arrays.copyOfRange(countedBy, from, countedBy.length), n + 1);
    long[] cut = Arrays.copyOf(Arrays.copyOfRange(cutFrom, from, cutFrom.length), n + 1);
    by[n] = Math.max(counted, n > 0 ? by[n - 1] : Long.MIN_VALUE);
    cut[n] = cutoff;
    for (int i = n - 1; i >= 0; i--) {
      cut[i] = Math.max(cut[i], cut[i + 1]);
    }
    return new Calls(by, cut);
  }
}
