package io.github.waitingroom.allocation;

import java.util.Arrays;
import java.util.Collection;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Adds tallies up: the sum of a data center's nodes, or of the room's data centers (see {@link
 * Tally#sum}). Counts add; a place that several tallies list as admitted or revoked counts once.
 */
final class TallySums {
  private TallySums() {}

  /** See {@link Tally#sum}. */
  static Tally sum(Collection<Tally> tallies) {
    long active = 0;
    long outstanding = 0;
    long recent = 0;
    long arrivals = 0;
    long nodes = 0;
    TreeMap<Long, Long> line = new TreeMap<>();
    TreeMap<Long, Long> shared = new TreeMap<>();
    int places = 0;
    boolean unknown = false;
    TreeSet<Long> revoked = new TreeSet<>();
    Tally.Browsing browsing = Tally.Browsing.NONE;
    Tally.Cut cut = Tally.Cut.NONE;
    Tally.Origin origin = Tally.Origin.NONE;
    for (Tally t : tallies) {
      origin = origin.plus(t.origin());
      browsing = browsing.plus(t.browsing());
      cut = cut.plus(t.cut());
      active += t.active();
      outstanding += t.outstanding();
      recent += t.recentAdmissions();
      arrivals += t.arrivals();
      nodes += t.nodes();
      t.line().forEach((second, n) -> line.merge(second, n, Long::sum));
      t.shared().forEach((second, n) -> shared.merge(second, n, Long::sum));
      unknown |= t.sharedUnknown();
      places += t.admittedPlaces().length;
      for (long place : t.revokedPlaces()) {
        revoked.add(place);
      }
    }
    long[] all = new long[places];
    int i = 0;
    for (Tally t : tallies) {
      System.arraycopy(t.admittedPlaces(), 0, all, i, t.admittedPlaces().length);
      i += t.admittedPlaces().length;
    }
    return new Tally(
        active, outstanding, recent, arrivals, line, Arrays.stream(all).distinct().toArray(), new long[0],
        unknown ? new TreeMap<>() : shared, unknown, revoked.stream().mapToLong(Long::longValue).toArray(), nodes,
        browsing, cut, origin);
  }
}
