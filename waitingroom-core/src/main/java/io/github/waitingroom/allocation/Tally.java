package io.github.waitingroom.allocation;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one publisher (a node, or the sum of a data center) counted at the end of one epoch: the
 * input of a {@link Plan}. Immutable. Counts add across publishers, so a data center's tally is
 * the {@link #sum} of its nodes' tallies.
 *
 * @param active distinct users admitted whose session had not expired (for a publisher that has
 *     gone silent: also everything it was still allowed to admit, since absence is never zero,
 *     and the sessions that may have moved into it since, see {@link #silent(long, long, long)})
 * @param outstanding admissions the publisher was still allowed to make under its last grant:
 *     they may happen after the tally was taken, so a plan counts them as taken
 * @param recentAdmissions admissions within the 60 seconds before the tally (whole seconds, the
 *     oldest one included)
 * @param arrivals users who arrived without a ticket within the 60 seconds before the tally: the
 *     weight of the publisher for its newcomers in the split of slots
 * @param line users waiting who polled recently (within two of their own polling intervals and
 *     two seconds), by arrival second
 * @param admittedPlaces places admitted from the line recently, sorted: a waiting ticket with one
 *     of these places is a copy of a ticket that already got in. At most the {@value
 *     #MAX_ADMITTED_PLACES} latest places are kept, so that a report of a busy data center stays
 *     well within {@code ReportCodec.MAX_BYTES}: copies of tickets admitted before those are no
 *     longer recognised as copies (each may get in once more)
 * @param checkIns the check-ins the publisher (a node) counted lately, as pairs: the slice it moved
 *     an active holder into, then the holder's place, sorted by slice and then place; empty for a
 *     node alone in its data center and in sums. A node whose check-in an earlier node of its
 *     data center also counted (parallel requests of one page on several nodes) takes its own
 *     back, so a page counts once per data center. At most {@value #MAX_ADMITTED_PLACES} pairs,
 *     the latest slices first kept
 * @param shared of the holders in {@code line}, by arrival second, those whom another node still
 *     counts from a poll before (without session affinity a holder's polls go to several nodes,
 *     each of which counts it for a while): the room's line, {@code line} less {@code shared}
 *     summed over every publisher, counts each holder once (see {@link #distinct()}). Never more
 *     than {@code line} at any second; empty when {@code sharedUnknown}
 * @param sharedUnknown whether a publisher's counts are missing from this tally: it is, or sums,
 *     a {@link #silent} tally. The other nodes left out holders that it counted before them, and
 *     it no longer counts them, so every sum it is part of, up to the room's, shares nothing:
 *     its line counts a holder on every node it polled lately, more than once but never less
 * @param revokedPlaces the places of sessions the application ended (see {@code
 *     WaitingRoom#revoke}) whose users {@code active} still counts as of the tally, sorted: a node
 *     lists those it ended itself, a sum those of its nodes, each once. {@code active} counts them
 *     as the nodes counted them; the room's {@link #activeUsers()} counts them out, once each
 *     however many nodes or data centers ended the same session, and every node refuses their
 *     tickets from then on. At most {@value #MAX_ADMITTED_PLACES}, the latest kept
 * @param nodes how many nodes' tallies this one sums: 1 for a node's own, the nodes a data
 *     center's sum counted (silent ones included) for that epoch. A publisher weighs {@code
 *     arrivals} plus {@link Plan#ARRIVALS_PER_NODE} per node in the split of slots for new
 *     arrivals, the same for that epoch on every node that reads it
 * @param browsing what the publisher saw of how long its users browse ({@link Browsing}): only
 *     for the wait estimates, never for a limit; {@link Browsing#NONE} when not known
 * @param cut the cutoff over places of the plan in force at the tally, and the holders of the line
 *     at or below it within its second ({@link Cut}); {@link Cut#NONE} when not known
 * @param origin how the application answered the requests the publisher let through since its
 *     previous tally ({@link Origin}): only for adaptive limits, never counted otherwise; {@link
 *     Origin#NONE} when nothing was measured
 */
public record Tally(
    long active,
    long outstanding,
    long recentAdmissions,
    long arrivals,
    NavigableMap<Long, Long> line,
    long[] admittedPlaces,
    long[] checkIns,
    NavigableMap<Long, Long> shared,
    boolean sharedUnknown,
    long[] revokedPlaces,
    long nodes,
    Browsing browsing,
    Cut cut,
    Origin origin) {

  /**
   * The cutoff over places of the plan in force at a tally ({@link Plan#cutPlace()}), and how many
   * holders of the line lie at or below it within its arrival second, each counted once (a node
   * counts those it does not share with another). The next plan moves on from it within that
   * second: the slots left go to the holders above it, once those below have theirs (see {@link
   * Plan}). A sum holds the highest cutoff, and the holders of the tallies that report that one.
   *
   * @param place the cutoff, {@link Long#MIN_VALUE} for none or not known
   * @param holders holders of the line at or below it in its second
   */
  public record Cut(long place, long holders) {
    /** No cutoff known. */
    public static final Cut NONE = new Cut(Long.MIN_VALUE, 0);

    /** The sum of two tallies' cuts: the higher cutoff, and the holders of those that report it. */
    public Cut plus(Cut other) {
      return place > other.place ? this : other.place > place ? other : new Cut(place, holders + other.holders);
    }
  }

  /** The most admitted places a tally keeps: the latest ones (places order by arrival). */
  public static final int MAX_ADMITTED_PLACES = 10_000;

  /**
   * What a publisher saw of how long users browse before they stop, for the wait estimates: the
   * users who stopped (sessions that ended, and active users idle for the idle time), the idle
   * ones among them, the active users, and the seconds users browsed before the idle time (a stop
   * within the idle time does not show yet, so those seconds are left out). A node's counts are
   * its share of the room's (a node takes a session it counts off the slice another node counted
   * it in, so one node's counts may be negative); only sums over the room mean the room's users.
   *
   * @param stopped users who stopped browsing
   * @param idle the active users among {@code stopped}
   * @param active active users
   * @param seconds seconds browsed before the idle time
   */
  public record Browsing(long stopped, long idle, long active, long seconds) {
    /** Nothing seen. */
    public static final Browsing NONE = new Browsing(0, 0, 0, 0);

    /** The sum of this and {@code other}. */
    public Browsing plus(Browsing other) {
      return new Browsing(stopped + other.stopped, idle + other.idle, active + other.active, seconds + other.seconds);
    }
  }

  /**
   * How the application answered the requests a publisher let through: their latencies as a
   * histogram, and how many failed (a server error or a timeout). Histograms of several
   * publishers add bucket by bucket ({@link #plus}), so a data center's and the room's are exact
   * sums, whatever the number of requests; a report carries at most {@value #BUCKETS} counts.
   *
   * <p>Bucket {@code i} holds latencies from {@link #lowerMicros}{@code (i)} to {@code
   * lowerMicros(i + 1)} microseconds: one bucket per microsecond below 8, then 8 buckets per
   * doubling (each at most 12.5 % wide), up to about 4.7 hours in the last.
   *
   * @param failures requests that failed
   * @param buckets bucket index and count, pairs, by index ascending, counts positive
   */
  public record Origin(long failures, long[] buckets) {
    /** Nothing measured. */
    public static final Origin NONE = new Origin(0, new long[0]);

    /** How many buckets a histogram has. */
    public static final int BUCKETS = 256;

    /** Checks the counts and copies the buckets. */
    public Origin {
      Objects.requireNonNull(buckets, "buckets");
      if (failures < 0 || buckets.length % 2 != 0) {
        throw new IllegalArgumentException("an origin summary holds a count of failures and pairs of bucket and count");
      }
      buckets = buckets.clone();
      for (int i = 0; i < buckets.length; i += 2) {
        if (buckets[i] < 0 || buckets[i] >= BUCKETS || buckets[i + 1] <= 0 || i > 0 && buckets[i] <= buckets[i - 2]) {
          throw new IllegalArgumentException("origin buckets must be ascending indexes below " + BUCKETS
              + ", each with a positive count");
        }
      }
    }

    /** The bucket of a latency of {@code micros} microseconds (negative counts as 0). */
    public static int bucket(long micros) {
      if (micros < 8) {
        return (int) Math.max(0, micros);
      }
      int octave = 63 - Long.numberOfLeadingZeros(micros);
      return Math.min(BUCKETS - 1, 8 * (octave - 2) + (int) ((micros >>> (octave - 3)) & 7));
    }

    /** The least latency, in microseconds, that bucket {@code i} holds ({@code i} up to {@link #BUCKETS}). */
    public static long lowerMicros(int i) {
      return i < 8 ? i : (8L + i % 8) << (i / 8 - 1);
    }

    /** How many requests were measured. */
    public long requests() {
      long n = 0;
      for (int i = 1; i < buckets.length; i += 2) {
        n += buckets[i];
      }
      return n;
    }

    /** Whether nothing was measured. */
    public boolean isEmpty() {
      return failures == 0 && buckets.length == 0;
    }

    /** The sum of this and {@code other}: failures add, and so do counts bucket by bucket. */
    public Origin plus(Origin other) {
      if (other.isEmpty()) {
        return this;
      }
      if (isEmpty()) {
        return other;
      }
      long[] counts = new long[BUCKETS];
      add(counts);
      other.add(counts);
      return of(failures + other.failures, counts);
    }

    private void add(long[] counts) {
      for (int i = 0; i < buckets.length; i += 2) {
        counts[(int) buckets[i]] += buckets[i + 1];
      }
    }

    /** A summary from counts by bucket ({@link #BUCKETS} of them). */
    public static Origin of(long failures, long[] counts) {
      int used = 0;
      for (long c : counts) {
        used += c > 0 ? 1 : 0;
      }
      long[] pairs = new long[2 * used];
      int j = 0;
      for (int i = 0; i < counts.length; i++) {
        if (counts[i] > 0) {
          pairs[j++] = i;
          pairs[j++] = counts[i];
        }
      }
      return new Origin(failures, pairs);
    }

    /**
     * The mean latency, in microseconds, counting each request at the lower edge of its bucket: so
     * never more than the true mean and at most 11 % less; 0 when nothing was measured.
     */
    public double meanMicros() {
      long n = 0;
      double sum = 0;
      for (int i = 0; i < buckets.length; i += 2) {
        n += buckets[i + 1];
        sum += (double) buckets[i + 1] * lowerMicros((int) buckets[i]);
      }
      return n == 0 ? 0 : sum / n;
    }

    /**
     * The latency, in microseconds, within which a share {@code q} of the requests were answered:
     * the upper edge of the bucket that holds the request of rank {@code ceil(q * requests)}, so
     * never less than the true quantile and at most 12.5 % more; 0 when nothing was measured.
     */
    public long quantileMicros(double q) {
      // q * n within two ulps of a whole number is that number: 0.07 * 100 is 7.000000000000001.
      double x = q * requests();
      long rank = (long) Math.ceil(x - 2 * Math.ulp(x));
      long seen = 0;
      for (int i = 0; i < buckets.length; i += 2) {
        seen += buckets[i + 1];
        if (seen >= Math.max(1, rank)) {
          return lowerMicros((int) buckets[i] + 1);
        }
      }
      return 0;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Origin other && failures == other.failures && Arrays.equals(buckets, other.buckets);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(failures) * 31 + Arrays.hashCode(buckets);
    }

    @Override
    public String toString() {
      return "Origin[requests=" + requests() + ", failures=" + failures + ", p90=" + quantileMicros(0.9) + "us]";
    }
  }

  /** A tally with nothing in it. */
  public static final Tally EMPTY = new Tally(0, 0, 0, 0, new TreeMap<>(), new long[0]);

  /** A tally that lists no check-ins and nothing shared (a sum, or a node alone). */
  public Tally(
      long active, long outstanding, long recentAdmissions, long arrivals, NavigableMap<Long, Long> line,
      long[] admittedPlaces) {
    this(active, outstanding, recentAdmissions, arrivals, line, admittedPlaces, new long[0], new TreeMap<>(), false);
  }

  /** A node's own tally ({@code nodes} 1) that lists no revoked places. */
  public Tally(
      long active,
      long outstanding,
      long recentAdmissions,
      long arrivals,
      NavigableMap<Long, Long> line,
      long[] admittedPlaces,
      long[] checkIns,
      NavigableMap<Long, Long> shared,
      boolean sharedUnknown) {
    this(active, outstanding, recentAdmissions, arrivals, line, admittedPlaces, checkIns, shared, sharedUnknown,
        new long[0], 1, Browsing.NONE, Cut.NONE);
  }

  /** A tally with no {@link Origin} measured. */
  public Tally(
      long active,
      long outstanding,
      long recentAdmissions,
      long arrivals,
      NavigableMap<Long, Long> line,
      long[] admittedPlaces,
      long[] checkIns,
      NavigableMap<Long, Long> shared,
      boolean sharedUnknown,
      long[] revokedPlaces,
      long nodes,
      Browsing browsing,
      Cut cut) {
    this(active, outstanding, recentAdmissions, arrivals, line, admittedPlaces, checkIns, shared, sharedUnknown,
        revokedPlaces, nodes, browsing, cut, Origin.NONE);
  }

  /** Checks the counts and copies the collections. */
  public Tally {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(line, "line");
    Objects.requireNonNull(admittedPlaces, "admittedPlaces");
    Objects.requireNonNull(checkIns, "checkIns");
    Objects.requireNonNull(shared, "shared");
    Objects.requireNonNull(revokedPlaces, "revokedPlaces");
    Objects.requireNonNull(browsing, "browsing");
    Objects.requireNonNull(cut, "cut");
    if (checkIns.length % 2 != 0) {
      throw new IllegalArgumentException("checkIns must hold pairs of slice and place");
    }
    if (outstanding < 0 || recentAdmissions < 0 || arrivals < 0 || nodes < 0) {
      throw new IllegalArgumentException("counts must not be negative");
    }
    TreeMap<Long, Long> copy = new TreeMap<>();
    line.forEach((second, n) -> {
      if (n < 0) {
        throw new IllegalArgumentException("line counts must not be negative");
      }
      if (n > 0) {
        copy.put(second, n);
      }
    });
    line = Collections.unmodifiableNavigableMap(copy);
    if (sharedUnknown && !shared.isEmpty()) {
      throw new IllegalArgumentException("a tally whose shared holders are unknown lists none");
    }
    TreeMap<Long, Long> sharedCopy = new TreeMap<>();
    for (var e : shared.entrySet()) {
      if (e.getValue() < 0 || e.getValue() > copy.getOrDefault(e.getKey(), 0L)) {
        throw new IllegalArgumentException(
            "shared holders of second " + e.getKey() + " (" + e.getValue() + ") must be between 0 and the line's ("
                + copy.getOrDefault(e.getKey(), 0L) + ")");
      }
      if (e.getValue() > 0) {
        sharedCopy.put(e.getKey(), e.getValue());
      }
    }
    shared = Collections.unmodifiableNavigableMap(sharedCopy);
    admittedPlaces = admittedPlaces.clone();
    Arrays.sort(admittedPlaces);
    if (admittedPlaces.length > MAX_ADMITTED_PLACES) {
      admittedPlaces =
          Arrays.copyOfRange(admittedPlaces, admittedPlaces.length - MAX_ADMITTED_PLACES, admittedPlaces.length);
    }
    revokedPlaces = Arrays.stream(revokedPlaces).sorted().distinct().toArray();
    if (revokedPlaces.length > MAX_ADMITTED_PLACES) {
      revokedPlaces = Arrays.copyOfRange(revokedPlaces, revokedPlaces.length - MAX_ADMITTED_PLACES, revokedPlaces.length);
    }
    checkIns = CheckIns.sorted(checkIns);
    if (checkIns.length > 2 * MAX_ADMITTED_PLACES) {
      checkIns = Arrays.copyOfRange(checkIns, checkIns.length - 2 * MAX_ADMITTED_PLACES, checkIns.length);
    }
  }

  /** Whether the publisher counted a check-in of this place into this slice. */
  public boolean checkedIn(long slice, long place) {
    return CheckIns.contains(checkIns, slice, place);
  }

  /** The sum of the given tallies. A place that several of them list as admitted or revoked counts once. */
  public static Tally sum(Collection<Tally> tallies) {
    return TallySums.sum(tallies);
  }

  /**
   * This tally with its line counting each holder once: {@link #line} less {@link #shared}, and
   * nothing shared.
   */
  public Tally distinct() {
    if (shared.isEmpty()) {
      return this;
    }
    TreeMap<Long, Long> once = new TreeMap<>(line);
    shared.forEach((second, n) -> once.merge(second, -n, Long::sum));
    return new Tally(active, outstanding, recentAdmissions, arrivals, once, admittedPlaces, checkIns, new TreeMap<>(),
        false, revokedPlaces, nodes, browsing, cut, origin);
  }

  /** This tally with its {@link #shared} holders unknown (see {@link #sharedUnknown}). */
  private Tally withoutShared() {
    return new Tally(active, outstanding, recentAdmissions, arrivals, line, admittedPlaces, checkIns, new TreeMap<>(),
        true, revokedPlaces, nodes, browsing, cut, origin);
  }

  /** The holders of the line at the given arrival second whom another node counts too. */
  public long sharedAt(long second) {
    return shared.getOrDefault(second, 0L);
  }

  /**
   * This tally of a publisher that has gone silent: what it was still allowed to admit counts as
   * admitted, and it serves no line. It may still be alive and cut off from the store (under
   * {@code FAIL_CLOSED} it then plans alone from this very tally), replacing its users as their
   * sessions end: so it counts, per minute, as admitting at least its users' share of a session
   * ({@code active * 60 / sessionSeconds}, rounded up).
   *
   * @param sessionSeconds the room's session duration
   */
  public Tally silent(long sessionSeconds) {
    return silent(sessionSeconds, 0, 0);
  }

  /**
   * This tally of a publisher that has gone silent, as {@link #silent(long)}, that may also have
   * been granted up to {@code granted} more slots after it was taken: by the plan of its epoch,
   * which a publisher applies after its tally and before its next one. Those count as admitted
   * too. And up to {@code movedIn} sessions may have moved into it since: a check-in that moves a
   * session from another publisher counts it here and takes it off the slice it had there, so that
   * the sums count it once; while this publisher is silent only the other side shows (the
   * session's slice on the publisher it came from runs out, and nobody counts it). Those count as
   * active too (they are not admissions: the rate counts stay as they are).
   *
   * @param sessionSeconds the room's session duration
   * @param granted the most the plan made from this tally's epoch can have granted beyond what it
   *     reports as outstanding ({@link Plan#freeSlots}); 0 if unknown
   * @param movedIn how many sessions may have moved into this publisher since the tally
   */
  public Tally silent(long sessionSeconds, long granted, long movedIn) {
    long mayAdmit = outstanding + Math.max(0, granted);
    long users = Math.max(0, active) + mayAdmit;
    long churn = sessionSeconds > 0 ? -Math.floorDiv(-users * 60, sessionSeconds) : users;
    return new Tally(
        active + mayAdmit + Math.max(0, movedIn), 0, Math.max(recentAdmissions + mayAdmit, churn), 0, new TreeMap<>(),
        admittedPlaces, new long[0], new TreeMap<>(), false, revokedPlaces, nodes, browsing, new Cut(cut.place(), 0),
        Origin.NONE)
        .withoutShared();
  }

  /** Users in {@link #line}. */
  public long waiting() {
    long sum = 0;
    for (long n : line.values()) {
      sum += n;
    }
    return sum;
  }

  /** The users of the line at the given arrival second. */
  public long lineAt(long second) {
    return line.getOrDefault(second, 0L);
  }

  /**
   * The active users, less the sessions the application ended ({@link #revokedPlaces}): of the
   * room's summed tally, the users who still count against its limit.
   */
  public long activeUsers() {
    return Math.max(0, active - revokedPlaces.length);
  }

  /** Whether the publisher lists the session of this place as ended by the application. */
  public boolean revoked(long place) {
    return Arrays.binarySearch(revokedPlaces, place) >= 0;
  }

  /** Whether the place was admitted from the line recently. */
  public boolean admitted(long place) {
    return Arrays.binarySearch(admittedPlaces, place) >= 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Tally t
        && active == t.active
        && outstanding == t.outstanding
        && recentAdmissions == t.recentAdmissions
        && arrivals == t.arrivals
        && line.equals(t.line)
        && Arrays.equals(admittedPlaces, t.admittedPlaces)
        && Arrays.equals(checkIns, t.checkIns)
        && shared.equals(t.shared)
        && sharedUnknown == t.sharedUnknown
        && Arrays.equals(revokedPlaces, t.revokedPlaces)
        && nodes == t.nodes
        && browsing.equals(t.browsing)
        && cut.equals(t.cut)
        && origin.equals(t.origin);
  }

  @Override
  public int hashCode() {
    return Objects.hash(active, outstanding, recentAdmissions, arrivals, line) * 31
        + Arrays.hashCode(admittedPlaces) * 17 + Arrays.hashCode(checkIns) * 13
        + shared.hashCode() * 7 + Boolean.hashCode(sharedUnknown) + Arrays.hashCode(revokedPlaces) * 3
        + Long.hashCode(nodes) + browsing.hashCode() + cut.hashCode() * 11 + origin.hashCode() * 5;
  }

  @Override
  public String toString() {
    return "Tally[active=" + active + ", outstanding=" + outstanding + ", recent=" + recentAdmissions
        + ", arrivals=" + arrivals + ", waiting=" + waiting() + ", admittedPlaces="
        + admittedPlaces.length + ", checkIns=" + checkIns.length / 2 + ", revokedPlaces=" + revokedPlaces.length + ", shared="
        + (sharedUnknown ? "unknown" : shared.values().stream().mapToLong(Long::longValue).sum()) + ", nodes=" + nodes
        + ", browsing=" + browsing + ", cut=" + cut + (origin.isEmpty() ? "" : ", origin=" + origin) + "]";
  }
}
