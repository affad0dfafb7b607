package io.github.waitingroom.coordinator;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One publisher's full counters for one room: what a node (or, summed, a data center) has
 * counted within the room's windows. Reports are full state, not deltas: a lost or repeated
 * report loses nothing, and a coordinator that restarted empty is whole again after one round.
 *
 * <p>Every map is keyed by slice start (epoch second) and holds non-zero counts only; counts may
 * be negative on one node (a user counted in by one node and out by another) and still sum
 * correctly across nodes.
 *
 * @param publisher who published it: a node's id within its data center, or a data center's name
 * @param at when it was made (epoch second of the publisher's clock)
 * @param nodes how many nodes it sums (1 for a node's own report)
 * @param active active users by the slice of their last check-in
 * @param admitted admissions by slice
 * @param traffic arrivals and waiting polls by slice; the base of traffic shares
 * @param waiting waiting users by bucket id, then by the slice of their last poll
 */
public record Report(
    String publisher,
    long at,
    int nodes,
    NavigableMap<Long, Long> active,
    NavigableMap<Long, Long> admitted,
    NavigableMap<Long, Long> traffic,
    NavigableMap<Long, NavigableMap<Long, Long>> waiting) {

  /** The format version written by this release, the first field of every encoded report. */
  public static final int FORMAT_VERSION = 1;

  /** Wraps the maps read-only. */
  public Report {
    Objects.requireNonNull(publisher, "publisher");
    if (nodes < 0) {
      throw new IllegalArgumentException("nodes must not be negative but was " + nodes);
    }
    active = Collections.unmodifiableNavigableMap(active);
    admitted = Collections.unmodifiableNavigableMap(admitted);
    traffic = Collections.unmodifiableNavigableMap(traffic);
    waiting = Collections.unmodifiableNavigableMap(waiting);
  }

  /** A report with no counts. */
  public static Report empty(String publisher, long at) {
    return new Report(publisher, at, 0, new TreeMap<>(), new TreeMap<>(), new TreeMap<>(), new TreeMap<>());
  }

  /** The sum of the given reports, published as {@code publisher} at {@code at}. */
  public static Report sum(String publisher, long at, Collection<Report> reports) {
    TreeMap<Long, Long> active = new TreeMap<>();
    TreeMap<Long, Long> admitted = new TreeMap<>();
    TreeMap<Long, Long> traffic = new TreeMap<>();
    TreeMap<Long, NavigableMap<Long, Long>> waiting = new TreeMap<>();
    int nodes = 0;
    for (Report r : reports) {
      nodes += r.nodes;
      addAll(active, r.active);
      addAll(admitted, r.admitted);
      addAll(traffic, r.traffic);
      r.waiting.forEach((bucket, slices) -> addAll(waiting.computeIfAbsent(bucket, b -> new TreeMap<>()), slices));
    }
    waiting.values().removeIf(Map::isEmpty);
    return new Report(publisher, at, nodes, active, admitted, traffic, waiting);
  }

  /** Sum of the counts of {@code counts} at slices {@code >= fromSlice}. */
  public static long sumFrom(NavigableMap<Long, Long> counts, long fromSlice) {
    long sum = 0;
    for (long n : counts.tailMap(fromSlice, true).values()) {
      sum += n;
    }
    return sum;
  }

  private static void addAll(NavigableMap<Long, Long> into, Map<Long, Long> from) {
    from.forEach((slice, n) -> into.merge(slice, n, (a, b) -> a + b == 0 ? null : a + b));
  }
}
