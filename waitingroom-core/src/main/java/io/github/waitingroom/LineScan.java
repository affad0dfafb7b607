package io.github.waitingroom;

import static io.github.waitingroom.Seen.NOT_MOVED;

import io.github.waitingroom.Seen.Polls;
import io.github.waitingroom.Seen.State;
import io.github.waitingroom.internal.LongList;
import java.util.Map;
import java.util.TreeMap;

/**
 * One tally's pass over the places a node remembers, as of the second the tally's windows end at:
 * the line by arrival second (and the part of it other nodes share), the holders at or below the
 * cutoff, the places admitted from the line lately and the check-ins to list (see {@link NodeState#tally}).
 * Part of {@link NodeState}; used by its {@code tally}, one scan per tally.
 */
final class LineScan {
  /** Holders counted in the line, by arrival second. */
  final TreeMap<Long, Long> line = new TreeMap<>();
  /** The part of {@link #line} counted as shared with other nodes (see {@link Polls}). */
  final TreeMap<Long, Long> shared = new TreeMap<>();
  /**
   * Holders counted in the line at or below the cutoff in force within its second, less those
   * counted as shared: this node's part of the room's {@link io.github.waitingroom.allocation.Tally.Cut}.
   */
  long atOrBelowCut;
  /** Places admitted from the line within the waiting timeout. */
  final LongList admitted = new LongList();
  /** The check-ins to list: slice, place, slice, place... */
  final LongList checkIns = new LongList();
  private final long asOf;

  /** A scan as of second {@code asOf}. */
  LineScan(long asOf) {
    this.asOf = asOf;
  }

  /**
   * Counts the places of {@code state} under grant {@code g}.
   *
   * @param admittedSince the first second an admission from the line is listed for
   * @param listCheckIns whether to list check-ins, those from slice {@code checkInsFrom} on
   */
  void scan(NodeState state, Iterable<Map.Entry<Long, Seen>> places, Grant g, long admittedSince, boolean listCheckIns,
      long checkInsFrom) {
    for (var e : places) {
      Seen s = e.getValue();
      long place = e.getKey();
      if (s.state() == State.WAITING && !g.plan.room().admitted(place)) {
        // As of the epoch's end, as on every node (see Polls).
        int counted = countInLine(s, Ticket.arrivalOf(place));
        long cut = g.cutPlace();
        if (counted == ALONE && place <= cut && Ticket.arrivalOf(place) == Ticket.arrivalOf(cut)) {
          atOrBelowCut++;
        }
      } else if (s.admittedAt() >= admittedSince && s.admittedAt() > 0) {
        admitted.add(place);
      }
      if (listCheckIns && s.state() == State.ACTIVE && s.movedFrom() != NOT_MOVED && s.at() >= checkInsFrom) {
        checkIns.add(s.at());
        checkIns.add(place);
      }
    }
  }

  /** What {@link #countInLine} did: not counted, counted shared with another node, counted alone. */
  private static final int NOT_COUNTED = 0;
  private static final int SHARED = 1;
  private static final int ALONE = 2;

  /**
   * Counts a waiting holder in the line if a poll of it here is due as of the scan, and as shared
   * if every such poll is shared then (see {@link Polls}).
   */
  private int countInLine(Seen s, long arrival) {
    Polls p = s.polls();
    boolean current = asOf <= s.currentDue();
    boolean earlier = asOf <= p.earlierDue();
    if (!current && !earlier) {
      return NOT_COUNTED;
    }
    line.merge(arrival, 1L, Long::sum);
    if (!(current && asOf > p.sharedUntil() || earlier && asOf > p.earlierShared())) {
      shared.merge(arrival, 1L, Long::sum);
      return SHARED;
    }
    return ALONE;
  }
}
