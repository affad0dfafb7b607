package io.github.waitingroom;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How often each active ticket was used on this node in the current window: a count-min sketch of
 * fixed size, lock-free and allocation-free, so it can sit on the hot path. A bearer cookie
 * shared by many clients is used far faster than one browser uses it; the room refuses such a
 * ticket for the rest of the window (see {@link WaitingRoom.Builder#maxRequestsPerTicket}).
 *
 * <p>Each of two rows of {@value #WIDTH} cells is indexed by its own hash of the place (keyed
 * with a random seed per room, so nobody can pick a place that collides with another's). A cell
 * packs the window it counts (its low 24 bits) with the count, and starts over by itself when a
 * new window begins. The estimate is the smaller of the two cells: never below the true count, and
 * above it only when both cells are shared with busier tickets.
 */
final class TicketRate {
  /** The length of a window, in seconds. */
  static final long WINDOW_SECONDS = 10;

  static final int WIDTH = 1 << 14;
  private static final long WINDOW_MASK = (1L << 24) - 1;

  private final AtomicLongArray cells = new AtomicLongArray(2 * WIDTH);
  private final long seed;
  private final long limitPerWindow;

  /**
   * @param perSecond the most requests a ticket may make per second on average over a window; 0: no limit
   * @param seed the room's secret hash key (random)
   */
  TicketRate(int perSecond, long seed) {
    this.seed = seed;
    this.limitPerWindow = (long) perSecond * WINDOW_SECONDS;
  }

  /** Counts one use of the ticket with this place at {@code now}; whether it is over the limit. */
  boolean overLimit(long place, long now) {
    if (limitPerWindow == 0) {
      return false;
    }
    long window = (now / WINDOW_SECONDS) & WINDOW_MASK;
    long a = bump(index(place, seed), window);
    long b = bump(WIDTH + index(place, ~seed), window);
    return Math.min(a, b) > limitPerWindow;
  }

  private long bump(int i, long window) {
    while (true) {
      long cell = cells.get(i);
      long count = (cell & WINDOW_MASK) == window ? (cell >>> 24) + 1 : 1;
      if (cells.compareAndSet(i, cell, count << 24 | window)) {
        return count;
      }
    }
  }

  private static int index(long place, long seed) {
    long h = (place ^ seed) * 0x9E37_79B9_7F4A_7C15L;
    h ^= h >>> 31;
    return (int) (h & (WIDTH - 1));
  }
}
