package io.github.waitingroom.allocation;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.coordinator.Report;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Everyone's counts, evaluated at one instant: active users, recent admissions, and the line as
 * sorted buckets. Built from one {@link Report} per data center; immutable.
 *
 * <p>Windows are applied here, once: a user counts as active while the slice of their last
 * check-in lies within the session duration, as waiting while the slice of their last poll lies
 * within the waiting timeout (see {@link RoomConfig#firstSliceWithin}).
 */
public final class RoomView {
  /** How far back the admission rate is averaged. */
  public static final long RATE_WINDOW_SECONDS = 120;

  /**
   * Reports older than this are from publishers that stopped (a node or data center that died):
   * they admit nobody any more, so no unseen admissions are assumed for them.
   */
  public static final long MAX_UNSEEN_AGE_SECONDS = 30;

  private final long now;
  private final long activeUsers;
  private final long admittedLastMinute;
  private final long unseenAdmissions;
  private final double admissionsPerMinute;
  private final long[] bucketIds;
  private final long[] waiting;
  private final long[] pollingBefore;
  private final Map<String, Report> dataCenters;
  private final long waitingUsers;
  private final double abandonsPerSecond;
  private final long currentBucket;
  private final long shareFrom;
  private final long shareTo;
  private final long firstWaitingSlice;

  private RoomView(RoomConfig config, long now, Map<String, Report> dataCenters) {
    this.now = now;
    this.dataCenters = Collections.unmodifiableMap(new TreeMap<>(dataCenters));
    this.currentBucket = config.bucketOf(now);
    this.shareTo = currentBucket - config.bucketSeconds();
    this.shareFrom = shareTo - config.bucketSeconds();
    this.firstWaitingSlice = config.firstWaitingSlice(now);
    long firstActive = config.firstActiveSlice(now);
    // The last minute is (now - 60, now]. Its oldest slice lies partly outside it and counts by
    // the part inside (a sliding window counter): whole slices would either cut the rate by a
    // slice's worth (seven slices) or let a burst through twice within 60 s (six slices).
    long oldestSlice = config.sliceOf(now - 60);
    double oldestPart = (oldestSlice + config.sliceSeconds() - (now - 60)) / (double) config.sliceSeconds();
    long firstRate = config.firstSliceWithin(now, RATE_WINDOW_SECONDS);
    long active = 0;
    double lastMinute = 0;
    double unseen = 0;
    long admittedRecently = 0;
    long firstAdmitted = now;
    TreeMap<Long, Long> line = new TreeMap<>();
    TreeMap<Long, Long> polling = new TreeMap<>();
    long firstPolling = config.firstSliceWithin(now, config.refreshSeconds() + config.sliceSeconds());
    for (Report r : dataCenters.values()) {
      active += Report.sumFrom(r.active(), firstActive);
      long age = now - r.at();
      if (age > 0 && age <= MAX_UNSEEN_AGE_SECONDS) {
        unseen += admissionsPerSecond(config, r) * age;
      }
      lastMinute += Report.sumFrom(r.admitted(), oldestSlice + 1)
          + oldestPart * r.admitted().getOrDefault(oldestSlice, 0L);
      admittedRecently += Report.sumFrom(r.admitted(), firstRate);
      Long first = r.admitted().ceilingKey(firstRate);
      if (first != null) {
        firstAdmitted = Math.min(firstAdmitted, first);
      }
      r.waiting().forEach((bucket, slices) -> {
        line.merge(bucket, Report.sumFrom(slices, firstWaitingSlice), Long::sum);
        polling.merge(bucket, Report.sumFrom(slices, firstPolling), Long::sum);
      });
    }
    line.values().removeIf(n -> n <= 0);
    this.activeUsers = Math.max(0, active);
    this.admittedLastMinute = Math.max(0, (long) Math.ceil(lastMinute - 1e-9));
    this.unseenAdmissions = Math.round(unseen);
    if (admittedRecently <= 0) {
      this.admissionsPerMinute = Double.NaN;
    } else {
      long span = Math.max(60, now - firstAdmitted);
      this.admissionsPerMinute = admittedRecently * 60.0 / span;
    }
    int n = line.size();
    this.bucketIds = new long[n];
    this.waiting = new long[n];
    this.pollingBefore = new long[n + 1];
    long total = 0;
    int i = 0;
    for (Map.Entry<Long, Long> e : line.entrySet()) {
      bucketIds[i] = e.getKey();
      waiting[i] = e.getValue();
      total += waiting[i];
      pollingBefore[i + 1] = pollingBefore[i] + Math.max(0, polling.getOrDefault(e.getKey(), 0L));
      i++;
    }
    this.waitingUsers = total;
    // Users who missed their last poll but still hold a place have most likely given up; they
    // pile up over the span between the polling window and the waiting timeout.
    long staleSpan = firstPolling - firstWaitingSlice;
    long stale = total - pollingBefore[n];
    this.abandonsPerSecond = staleSpan > 0 && stale > 0 ? stale / (double) staleSpan : 0;
  }

  /**
   * The view of the given data centers' reports at {@code now}.
   *
   * @param dataCenters one (summed) report per data center, keyed by the data center's name
   */
  public static RoomView of(RoomConfig config, long now, Map<String, Report> dataCenters) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(dataCenters, "dataCenters");
    return new RoomView(config, now, dataCenters);
  }

  /** The instant (epoch second) the view stands at. */
  public long now() {
    return now;
  }

  /** Users admitted whose session has not expired, across all nodes. */
  public long activeUsers() {
    return activeUsers;
  }

  /**
   * The admissions that other nodes have most likely made since their reports were taken, which
   * no report shows yet: each data center's recent admission rate times the age of its report.
   * Left out, they are counted as free slots twice, and the room overshoots by about the
   * admission rate times the propagation delay. 0 for a view of this node alone; reports older
   * than {@value #MAX_UNSEEN_AGE_SECONDS} seconds add nothing.
   */
  public long unseenAdmissions() {
    return unseenAdmissions;
  }

  /**
   * A report's admission rate per second over the minute before it was taken: the sum of its
   * admissions in slices that began within the 60 seconds before {@code report.at()}, over 60.
   */
  public static double admissionsPerSecond(RoomConfig config, Report report) {
    long from = config.firstSliceWithin(report.at(), Math.max(0, 60 - config.sliceSeconds()));
    return Math.max(0, Report.sumFrom(report.admitted(), from)) / 60.0;
  }

  /**
   * Users admitted within the last 60 seconds, across all nodes: every slice that began within
   * them, plus the part of the oldest slice that lies within them (its admissions taken as spread
   * evenly over it), rounded up.
   */
  public long admittedLastMinute() {
    return admittedLastMinute;
  }

  /**
   * The average number of users admitted per minute over the last {@value #RATE_WINDOW_SECONDS}
   * seconds (or since the first admission, if later, but at least over a minute); {@code NaN}
   * when nobody was admitted in that time, and so the wait is unknown.
   */
  public double admissionsPerMinute() {
    return admissionsPerMinute;
  }

  /** Users waiting in all buckets. */
  public long waitingUsers() {
    return waitingUsers;
  }

  /** The bucket the current arrivals fall into. */
  public long currentBucket() {
    return currentBucket;
  }

  /** The buckets that hold waiting users, oldest first (eligible slots are 0 here). */
  public List<BucketState> buckets() {
    List<BucketState> out = new ArrayList<>(bucketIds.length);
    for (int i = 0; i < bucketIds.length; i++) {
      out.add(new BucketState(bucketIds[i], waiting[i], 0));
    }
    return out;
  }

  /**
   * Users ahead of a holder of the given bucket: everyone in older buckets plus half of the own
   * bucket (the expected position within it, since a bucket has no order of its own). Only users
   * who polled within the last refresh interval (and one slice) count: one who missed a poll has
   * most likely left, and would make every estimate behind them too long. They keep their place
   * (and their slots) for the whole waiting timeout all the same.
   */
  public long usersAhead(long bucketId) {
    int i = Arrays.binarySearch(bucketIds, bucketId);
    if (i >= 0) {
      return pollingBefore[i] + (pollingBefore[i + 1] - pollingBefore[i]) / 2;
    }
    return pollingBefore[-i - 1];
  }

  /**
   * The estimated wait, in seconds, of a holder of the given bucket, or {@code -1} when it is
   * unknown because nobody was admitted recently.
   *
   * <p>The people ahead ({@link #usersAhead}, P) leave the line by admission, at the recent
   * admission rate R, and by giving up: Q users poll, and A a second stop polling (measured from
   * those who still hold a place but missed their last poll), a share P/Q of them from ahead. So
   * dP/dt = -R - A P / Q, and the line ahead is gone after (Q / A) ln(1 + A P / (R Q)) seconds,
   * which is plain P / R when nobody gives up.
   */
  public long estimatedWaitSeconds(long bucketId) {
    if (Double.isNaN(admissionsPerMinute)) {
      return -1;
    }
    double ahead = usersAhead(bucketId);
    double rate = admissionsPerMinute / 60.0;
    double polling = pollingBefore[bucketIds.length];
    double seconds =
        abandonsPerSecond > 0 && polling > 0
            ? polling / abandonsPerSecond * Math.log1p(abandonsPerSecond * ahead / (rate * polling))
            : ahead / rate;
    return (long) Math.ceil(seconds);
  }

  /** The names of the data centers in this view, sorted. */
  public List<String> dataCenterNames() {
    return List.copyOf(dataCenters.keySet());
  }

  /** The data centers' reports, by name. */
  public Map<String, Report> dataCenters() {
    return dataCenters;
  }

  /**
   * A data center's traffic (arrivals and polls) in the settled share window: the bucket width
   * that ended one bucket width before the current bucket began (the published design looks two
   * minutes back). Every node computes the same shares from it, however late its view.
   */
  public long settledTraffic(String dataCenter) {
    Report r = dataCenters.get(dataCenter);
    if (r == null) {
      return 0;
    }
    long sum = 0;
    for (long n : r.traffic().subMap(shareFrom, true, shareTo, false).values()) {
      sum += n;
    }
    return Math.max(0, sum);
  }

  /** Users of the given data center waiting in the given bucket. */
  public long waiting(String dataCenter, long bucketId) {
    Report r = dataCenters.get(dataCenter);
    if (r == null) {
      return 0;
    }
    NavigableMap<Long, Long> slices = r.waiting().get(bucketId);
    return slices == null ? 0 : Math.max(0, Report.sumFrom(slices, firstWaitingSlice));
  }

  long[] bucketIdArray() {
    return bucketIds;
  }

  long[] waitingArray() {
    return waiting;
  }
}
