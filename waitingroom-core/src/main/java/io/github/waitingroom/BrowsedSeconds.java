package io.github.waitingroom;

/**
 * The seconds users browsed on a node, as intervals from each one's request before to the one the
 * node counted, so that the seconds browsed before any second can be read (see {@code Turnover}:
 * only those in which a stop would already show count). Lock-free: request threads add, the sync
 * thread reads and forgets. Part of {@link NodeState}.
 *
 * <p>Each interval adds +1 at its first second and -1 at its end ({@code edges}), and those
 * seconds times the sign ({@code edgeSeconds}): the seconds browsed before c are then c x (edges
 * before c) - (edgeSeconds before c), an interval that runs past c counting up to c.
 */
final class BrowsedSeconds {
  private final SliceCounter edges = new SliceCounter();
  private final SliceCounter edgeSeconds = new SliceCounter();
  /** The sums of the slices forgotten; sync thread only. */
  private long edgesBefore;
  private long edgeSecondsBefore;

  /** Notes that a user browsed from second {@code from} to second {@code to}. */
  void add(long from, long to) {
    interval(from, to, 1);
  }

  /** Takes back what {@link #add} noted (another node of the data center counted the same seconds). */
  void remove(long from, long to) {
    interval(from, to, -1);
  }

  private void interval(long from, long to, long sign) {
    edges.add(from, sign);
    edges.add(to, -sign);
    edgeSeconds.add(from, sign * from);
    edgeSeconds.add(to, -sign * to);
  }

  /** The seconds browsed before second {@code c}, which must not lie before a forgotten slice. */
  long before(long c) {
    return c * (edgesBefore + edges.sumBefore(c)) - (edgeSecondsBefore + edgeSeconds.sumBefore(c));
  }

  /** Folds the slices before {@code slice} into the sums; called by the sync thread. */
  void forgetBefore(long slice) {
    edgesBefore += edges.sumBefore(slice);
    edgeSecondsBefore += edgeSeconds.sumBefore(slice);
    edges.pruneBefore(slice);
    edgeSeconds.pruneBefore(slice);
  }
}
