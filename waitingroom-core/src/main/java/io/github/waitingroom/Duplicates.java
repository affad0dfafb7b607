package io.github.waitingroom;

import static io.github.waitingroom.Seen.NOT_MOVED;

import io.github.waitingroom.Seen.State;
import io.github.waitingroom.allocation.Tally;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Takes back this node's counts of users that an earlier node of its data center also counted in
 * a settled epoch: admissions of one ticket on two nodes at once, and check-ins of one session on
 * two nodes in one slice (see {@link NodeState#dropDuplicates}). Part of {@link NodeState}; used by
 * the sync thread.
 */
final class Duplicates {
  private final ConcurrentHashMap<Long, Seen> seen;
  private final SliceCounter active;
  private final SliceCounter admissions;
  private final BrowsedSeconds browsed;

  /** Over the places, active users, admissions and browsed seconds of a {@link NodeState}. */
  Duplicates(ConcurrentHashMap<Long, Seen> seen, SliceCounter active, SliceCounter admissions, BrowsedSeconds browsed) {
    this.seen = seen;
    this.active = active;
    this.admissions = admissions;
    this.browsed = browsed;
  }

  /**
   * Drops the duplicates (see {@link NodeState#dropDuplicates}).
   *
   * @param nodes the tallies of the live nodes of this node's data center, in publisher order
   * @param me this node's index in {@code nodes}, above 0
   * @param firstActive the first slice whose sessions count at {@code now}
   */
  void drop(List<Tally> nodes, int me, long now, long firstActive) {
    // The places this node listed in that epoch's tally: no need to scan every place it remembers.
    for (long place : nodes.get(me).admittedPlaces()) {
      if (!before(nodes, me, t -> t.admitted(place))) {
        continue;
      }
      for (Seen s = seen.get(place); s != null && s.admittedAt() != 0; s = seen.get(place)) {
        if (seen.replace(place, s, new Seen(s.state(), s.at(), 0, s.due(), s.firstSeen(), s.movedFrom()))) {
          if (s.state() == State.ACTIVE && s.at() >= firstActive) {
            active.add(s.at(), -1);
          }
          if (s.admittedAt() > now - NodeState.RATE_SECONDS) {
            admissions.add(s.admittedAt(), -1);
          }
          break;
        }
      }
    }
    long[] checkIns = nodes.get(me).checkIns();
    for (int i = 0; i < checkIns.length; i += 2) {
      long slice = checkIns[i];
      long place = checkIns[i + 1];
      if (!before(nodes, me, t -> t.checkedIn(slice, place))) {
        continue;
      }
      for (Seen s = seen.get(place);
          s != null && s.state() == State.ACTIVE && s.at() == slice && s.movedFrom() != NOT_MOVED;
          s = seen.get(place)) {
        if (seen.replace(place, s, new Seen(s.state(), s.at(), s.admittedAt(), s.due(), s.firstSeen()))) {
          active.add(slice, -1);
          if (s.movedFrom() >= firstActive) {
            active.add(s.movedFrom(), 1);
          }
          browsed.remove(s.movedFrom(), slice);
          break;
        }
      }
    }
  }

  /** Whether a node before {@code me} in publisher order counted what {@code counted} asks about. */
  private static boolean before(List<Tally> nodes, int me, Predicate<Tally> counted) {
    for (int i = 0; i < me; i++) {
      if (counted.test(nodes.get(i))) {
        return true;
      }
    }
    return false;
  }
}
