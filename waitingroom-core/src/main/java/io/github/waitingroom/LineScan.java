package io.github.waitingroom;

import static io.github.waitingroom.Seen.NOT_MOVED;

import io.github.waitingroom.Seen.Polls;
import io.github.waitingroom.Seen.State;
import io.github.waitingroom.internal.LongList;
import java.util.Map;
import java.util.TreeMap;

/**
 * One tally's pass over the places a node remembers, as of the second the tally's windows end at:
 * the line by arrival second (and the part of it other nodes share), the holders polling and the
 * called ones whose slots stay reserved, the places admitted from the line lately and the
 * check-ins to list; then which first holders of partial seconds keep the slots left for them (see
 * {@link NodeState#tally}). Part of {@link NodeState}; used by its {@code tally}, one scan per tally.
 */
final class LineScan {
  /** Holders counted in the line, by arrival second. */
  final TreeMap<Long, Long> line = new TreeMap<>();
  /** The part of {@link #line} counted as shared with other nodes (see {@link Polls}). */
  final TreeMap<Long, Long> shared = new TreeMap<>();
  /** Holders in line as of the tally, called or not. */
  long polling;
  /** Called holders in line as of the tally, whose slots stay theirs. */
  long reserved;
  /** Places admitted from the line within the waiting timeout. */
  final LongList admitted = new LongList();
  /** The check-ins to list: slice, place, slice, place... */
  final LongList checkIns = new LongList();
  /** The places of {@link #reserved}. */
  final LongList reservedPlaces = new LongList();
  private final LongList partial = new LongList();
  /** Holders in line who may take a slot for the first holders of partial seconds. */
  private final TreeMap<Long, Seen> firstHolders = new TreeMap<>();
  private final LongList keptFor = new LongList();
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
        boolean byArrival = g.calls.called(Ticket.arrivalOf(place), s.countedSince());
        boolean called = byArrival || g.partialCalled(place);
        if (state.inLine(s, asOf)) {
          polling++;
          if (called) {
            // Called and still here as of the epoch's end: the slot the plan made for them stays
            // theirs. (As of the end, as the lines are: another node that counts the holder in its
            // line counts it shared while a poll here is due then, see Polls.)
            reserved++;
            reservedPlaces.add(place);
            if (!byArrival) {
              partial.add(place);
            }
          }
        }
        if (!called && place <= g.partialCutLater && state.inLine(s, asOf)) {
          firstHolders.put(place, s);
        } else if (!called) {
          // As of the epoch's end, as on every node (see Polls).
          countInLine(s, Ticket.arrivalOf(place));
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

  /** The called holders of partial seconds in line, sorted. */
  long[] partialCalled() {
    return partial.sorted();
  }

  /**
   * The slots for the first holders of partial seconds that are left stay reserved for as many of
   * them as are still in line, the first by place; the others count in the line again.
   *
   * @param outstandingPartial the slots left
   * @return how many stay reserved
   */
  long keep(long outstandingPartial) {
    long kept = Math.min(outstandingPartial, firstHolders.size());
    long k = 0;
    for (var e : firstHolders.entrySet()) {
      if (k++ >= kept) {
        countInLine(e.getValue(), Ticket.arrivalOf(e.getKey()));
      } else {
        keptFor.add(e.getKey());
        keptFor.add(e.getValue().countedSince());
      }
    }
    return kept;
  }

  /** The holders {@link #keep} kept slots for: place, counted since, place, counted since... */
  long[] keptFor() {
    return keptFor.toArray();
  }

  /**
   * Counts a waiting holder in the line if a poll of it here is due as of the scan, and as shared
   * if every such poll is shared then (see {@link Polls}).
   */
  private void countInLine(Seen s, long arrival) {
    Polls p = s.polls();
    boolean current = asOf <= s.currentDue();
    boolean earlier = asOf <= p.earlierDue();
    if (current || earlier) {
      line.merge(arrival, 1L, Long::sum);
      if (!(current && asOf > p.sharedUntil() || earlier && asOf > p.earlierShared())) {
        shared.merge(arrival, 1L, Long::sum);
      }
    }
  }
}
