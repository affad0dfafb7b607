package io.github.waitingroom;

import io.github.waitingroom.allocation.RoomView;
import io.github.waitingroom.coordinator.Report;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This node's counters for one room, shared lock-free by all request threads. No per-user state:
 * memory grows with buckets and slices, never with users.
 *
 * <p>A user who moves from one slice to another is added to the new slice before being taken
 * from the old one, so a report taken in between counts them twice, never zero times.
 */
final class NodeState {
  /** Empty buckets are forgotten this long after they began (beyond the waiting timeout). */
  private static final long BUCKET_MEMORY_SECONDS = 3600;

  private final RoomConfig config;
  private final SliceCounter active = new SliceCounter();
  private final SliceCounter admitted = new SliceCounter();
  private final SliceCounter traffic = new SliceCounter();
  private final ConcurrentHashMap<Long, SliceCounter> waiting = new ConcurrentHashMap<>();

  NodeState(RoomConfig config) {
    this.config = config;
  }

  /** A new arrival who was admitted at once. */
  void arriveAdmitted(long now) {
    long slice = config.sliceOf(now);
    traffic.add(slice, 1);
    active.add(slice, 1);
    admitted.add(slice, 1);
  }

  /** A new arrival who was put in line in {@code bucket}. */
  void arriveQueued(long bucket, long now) {
    long slice = config.sliceOf(now);
    traffic.add(slice, 1);
    waitingIn(bucket).add(slice, 1);
  }

  /** An active user seen again at {@code now}, last counted in {@code fromSlice}. */
  void moveActive(long fromSlice, long now) {
    active.add(config.sliceOf(now), 1);
    active.add(fromSlice, -1);
  }

  /** A waiting user of {@code bucket} seen again at {@code now}, last counted in {@code fromSlice}. */
  void moveWaiting(long bucket, long fromSlice, long now) {
    long slice = config.sliceOf(now);
    if (slice != fromSlice) {
      SliceCounter line = waitingIn(bucket);
      line.add(slice, 1);
      line.add(fromSlice, -1);
    }
  }

  /** A poll of a waiting user: counted as traffic for the data centers' shares. */
  void poll(long now) {
    traffic.add(config.sliceOf(now), 1);
  }

  /** A waiting user of {@code bucket}, last counted in {@code fromSlice}, admitted at {@code now}. */
  void admitWaiting(long bucket, long fromSlice, long now) {
    long slice = config.sliceOf(now);
    active.add(slice, 1);
    admitted.add(slice, 1);
    waitingIn(bucket).add(fromSlice, -1);
  }

  private SliceCounter waitingIn(long bucket) {
    SliceCounter line = waiting.get(bucket);
    return line != null ? line : waiting.computeIfAbsent(bucket, b -> new SliceCounter());
  }

  /** Everything this node counted that still matters at {@code now}. */
  Report report(String publisher, long now) {
    TreeMap<Long, NavigableMap<Long, Long>> line = new TreeMap<>();
    long firstWaiting = config.firstWaitingSlice(now);
    waiting.forEach(
        (bucket, slices) -> {
          NavigableMap<Long, Long> counts = slices.snapshot(firstWaiting);
          if (!counts.isEmpty()) {
            line.put(bucket, counts);
          }
        });
    return new Report(
        publisher,
        now,
        1,
        active.snapshot(config.firstActiveSlice(now)),
        admitted.snapshot(config.firstSliceWithin(now, RoomView.RATE_WINDOW_SECONDS)),
        traffic.snapshot(shareWindowStart(now)),
        line);
  }

  /** Forgets slices that no longer matter; called by the sync thread. */
  void prune(long now) {
    active.pruneBefore(config.firstActiveSlice(now));
    admitted.pruneBefore(config.firstSliceWithin(now, RoomView.RATE_WINDOW_SECONDS));
    traffic.pruneBefore(shareWindowStart(now));
    long firstWaiting = config.firstWaitingSlice(now);
    long oldestKept = firstWaiting - BUCKET_MEMORY_SECONDS;
    // A bucket's counter is removed only when it has been empty for a long time, so that a
    // request thread that looked it up a moment ago cannot add to a counter nobody reads.
    waiting.entrySet().removeIf(e -> e.getValue().pruneBefore(firstWaiting) && e.getKey() < oldestKept);
  }

  private long shareWindowStart(long now) {
    return config.bucketOf(now) - 2 * config.bucketSeconds();
  }
}
