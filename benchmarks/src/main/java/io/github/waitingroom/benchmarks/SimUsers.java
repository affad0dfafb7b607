package io.github.waitingroom.benchmarks;

import io.github.waitingroom.simulation.CookieJar;
import java.util.Arrays;

/**
 * The simulated users of one {@link SpikeSimulator} run, as a struct of arrays indexed by user id
 * (the arrivals in order, then the clones): where each is, what kind of client it is, the cookies
 * it holds and what the room last told it. {@link SimClients} acts on them, {@link SimGroundTruth}
 * counts them.
 */
final class SimUsers {
  static final byte NEW = 0;
  static final byte WAITING = 1;
  static final byte ACTIVE = 2;
  static final byte GONE = 3;

  static final byte HONEST = 0;
  static final byte CLONE = 1;

  /** The arrivals (ids below are honest users; the clones follow). */
  final int users;
  /** Arrivals and clones. */
  final int total;
  final long[] arrivalMillis;
  final short[] dataCenter;
  final long[] patienceMillis;
  final byte[] state;
  final byte[] kind;
  /** Each user's session cookie and the one that holds its place in line (as the Gate keeps them). */
  final CookieJar cookies;
  final long[] placeSecond;
  /** When each waiting user was first told a wait estimate (-1 while it is unknown). */
  final long[] shownAtMillis;
  final long[] queuedMillis;
  /** When each user was first put in line (a user the room put at the back keeps it), or -1. */
  final long[] firstQueuedMillis;
  final long[] shownWait;
  final long[] shownLow;
  final long[] shownHigh;
  final long[] lastAhead;
  final long[] browseEndMillis;
  final boolean[] inverted;
  final boolean[] invertedFromLine;
  final boolean[] aheadGrew;
  /** Each user's {@link ClientKind} (its ordinal). */
  final byte[] clientKind;
  /** An API client's fixed period. */
  final long[] apiPeriodMillis;
  /** When a frozen tab's silence starts (from its arrival on), and how long it lasts. */
  final long[] freezeStartMillis;
  final long[] freezeMillis;
  final boolean[] froze;
  final long[] lastPollMillis;
  /** Admitted from the line after a later arrival second had been admitted from the line. */
  final boolean[] lateFromLine;
  /** Whether the user is counted in {@link SimGroundTruth}'s line of those who poll as told. */
  final boolean[] inAsTold;
  /** The honest user whose waiting cookie the clones copied, or -1. */
  int cloneVictim = -1;

  /**
   * {@code arrivals} users (packed as {@link SpikeArrivals#draw} packs them, shifted by {@code warm})
   * and {@code clones} clones, all new, of no kind yet.
   */
  SimUsers(long[] arrivals, int clones, long warm) {
    this.users = arrivals.length;
    this.total = users + clones;
    this.arrivalMillis = new long[total];
    this.dataCenter = new short[total];
    for (int i = 0; i < users; i++) {
      arrivalMillis[i] = (arrivals[i] >>> 8) + warm;
      dataCenter[i] = (short) (arrivals[i] & 0xFF);
    }
    this.patienceMillis = new long[total];
    this.clientKind = new byte[total];
    this.apiPeriodMillis = new long[total];
    this.freezeStartMillis = new long[total];
    this.freezeMillis = new long[total];
    this.froze = new boolean[total];
    this.lastPollMillis = new long[total];
    this.lateFromLine = new boolean[total];
    this.inAsTold = new boolean[total];
    Arrays.fill(patienceMillis, Long.MAX_VALUE);
    Arrays.fill(freezeStartMillis, Long.MAX_VALUE);
    this.state = new byte[total];
    this.kind = new byte[total];
    this.cookies = new CookieJar(total);
    this.placeSecond = new long[total];
    this.shownAtMillis = new long[total];
    this.queuedMillis = new long[total];
    this.firstQueuedMillis = new long[total];
    Arrays.fill(firstQueuedMillis, -1);
    this.shownWait = new long[total];
    this.shownLow = new long[total];
    this.shownHigh = new long[total];
    this.lastAhead = new long[total];
    this.browseEndMillis = new long[total];
    this.inverted = new boolean[total];
    this.invertedFromLine = new boolean[total];
    this.aheadGrew = new boolean[total];
  }

  /** Since when a waiting user's wait counts against its estimate: when it was first told one. */
  long estimateFrom(int u) {
    return shownAtMillis[u] >= 0 ? shownAtMillis[u] : queuedMillis[u];
  }
}
