package io.github.waitingroom.allocation;

import java.util.Arrays;

/**
 * The check-ins a {@link Tally} lists, as a flat array of pairs (the slice an active holder moved
 * into, then the holder's place): sorts them by slice and then place without repeats, and finds
 * one pair by binary search (see {@link Tally#checkIns}).
 */
final class CheckIns {
  private CheckIns() {}

  /** The pairs (slice, place) sorted by slice and then place, without repeats. */
  static long[] sorted(long[] pairs) {
    int n = pairs.length / 2;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> {
      int c = Long.compare(pairs[2 * a], pairs[2 * b]);
      return c != 0 ? c : Long.compare(pairs[2 * a + 1], pairs[2 * b + 1]);
    });
    long[] out = new long[pairs.length];
    int k = 0;
    for (int i : order) {
      if (k > 0 && out[k - 2] == pairs[2 * i] && out[k - 1] == pairs[2 * i + 1]) {
        continue;
      }
      out[k++] = pairs[2 * i];
      out[k++] = pairs[2 * i + 1];
    }
    return k == out.length ? out : Arrays.copyOf(out, k);
  }

  /** Whether the sorted pairs {@code checkIns} hold this place's check-in into this slice. */
  static boolean contains(long[] checkIns, long slice, long place) {
    int lo = 0;
    int hi = checkIns.length / 2 - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Long.compare(checkIns[2 * mid], slice);
      if (c == 0) {
        c = Long.compare(checkIns[2 * mid + 1], place);
      }
      if (c == 0) {
        return true;
      } else if (c < 0) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return false;
  }
}
