package io.github.waitingroom.benchmarks;

import io.github.waitingroom.simulation.DoubleList;
import java.util.Locale;

/** What one run measured of one kind of client. */
final class KindStats {
  final ClientKind kind;
  int arrivals;
  int admittedOnArrival;
  int queued;
  int admittedFromLine;
  int abandoned;
  int stillWaiting;
  /** Waiting users the room put at the back of the line (it did not know their place any more). */
  int lostPlace;
  /** Waiting users whose place cookie the client dropped because its Max-Age had passed. */
  int cookieExpired;
  /** Users turned away while a later arrival second had been admitted from the line. */
  int passed;
  /** Users admitted from the line after a later arrival second had been admitted from the line. */
  int late;
  /** Frozen tabs that went silent (the others were let in or left before their freeze). */
  int froze;
  long polls;
  long minPollGapMillis = Long.MAX_VALUE;
  long maxPollGapMillis;
  /** Waits of users admitted from the line, from when they were first put in line (over any lost place). */
  final DoubleList waits = new DoubleList();
  final DoubleList estimateErrors = new DoubleList();

  KindStats(ClientKind kind) {
    this.kind = kind;
  }

  void poll(long gapMillis) {
    polls++;
    minPollGapMillis = Math.min(minPollGapMillis, gapMillis);
    maxPollGapMillis = Math.max(maxPollGapMillis, gapMillis);
  }

  /** One line of the kind's figures. */
  String line() {
    return String.format(Locale.ROOT,
        "%s: %d arrivals, %d admitted on arrival, %d queued, %d admitted from the line (wait p50 %.0f s p90 %.0f s),"
            + " %d left, %d still waiting, %d lost place (%d cookies expired), %d passed, %d admitted after a later"
            + " arrival, %d froze; %d polls every %.1f-%.1f s",
        kind.label(), arrivals, admittedOnArrival, queued, admittedFromLine, waits.quantile(0.5) / 1000,
        waits.quantile(0.9) / 1000, abandoned, stillWaiting, lostPlace, cookieExpired, passed, late, froze, polls,
        polls == 0 ? Double.NaN : minPollGapMillis / 1000.0, maxPollGapMillis / 1000.0);
  }
}
