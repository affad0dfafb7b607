package io.github.waitingroom.allocation;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Adds tallies up: the sum of a data center's nodes, or of the room's data centers (see {@link
 * Tally#sum}). Counts add; a holder that several tallies list as reserved counts once, and so
 * does a place they list as admitted or revoked.
 */
final class TallySums {
  private TallySums() {}

  /** See {@link Tally#sum}. */
  static Tally sum(Collection<Tally> tallies) {
    long active = 0;
    long outstandingLine = 0;
    long outstandingNew = 0;
    long reserved = 0;
    long polling = 0;
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
    for (Tally t : tallies) {
      browsing = browsing.plus(t.browsing());
      cut = cut.plus(t.cut());
      active += t.active();
      outstandingLine += t.outstandingLine();
      outstandingNew += t.outstandingNew();
      reserved += t.reserved();
      polling += t.polling();
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
    long twice = twiceReserved(tallies);
    return new Tally(
        active, outstandingLine - twice, outstandingNew, reserved - twice, polling, recent, arrivals, line,
        Arrays.stream(all).distinct().toArray(), new long[0], new long[0], unknown ? new TreeMap<>() : shared, unknown,
        revoked.stream().mapToLong(Long::longValue).toArray(), nodes, browsing, cut);
  }

  /**
   * How many of the reservations the tallies list are for a holder another of them reserves too:
   * the same holder's slot counted more than once.
   */
  private static long twiceReserved(Collection<Tally> tallies) {
    long listed = 0;
    HashSet<Long> once = new HashSet<>();
    for (Tally t : tallies) {
      listed += t.reservedPlaces().length;
      for (long place : t.reservedPlaces()) {
        once.add(place);
      }
    }
    return listed - once.size();
  }
}
