package io.github.waitingroom;

import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Lock-free counts keyed by slice start (epoch second). Counts only add, so they merge across
 * threads by {@link LongAdder} and across nodes by plain sums.
 */
final class SliceCounter {
  private final ConcurrentHashMap<Long, LongAdder> counts = new ConcurrentHashMap<>();

  void add(long slice, long delta) {
    LongAdder adder = counts.get(slice);
    if (adder == null) {
      adder = counts.computeIfAbsent(slice, k -> new LongAdder());
    }
    adder.add(delta);
  }

  /** The sum of the counts of slices {@code from} to {@code to}, both included (no allocation). */
  long sum(long from, long to) {
    long sum = 0;
    for (long slice = from; slice <= to; slice++) {
      LongAdder adder = counts.get(slice);
      sum += adder == null ? 0 : adder.sum();
    }
    return sum;
  }

  /** The sum of the counts of every slice at or after {@code fromSlice}. */
  long sumFrom(long fromSlice) {
    long sum = 0;
    for (var e : counts.entrySet()) {
      if (e.getKey() >= fromSlice) {
        sum += e.getValue().sum();
      }
    }
    return sum;
  }

  /** The sum of the counts of every slice before {@code fromSlice}. */
  long sumBefore(long fromSlice) {
    long sum = 0;
    for (var e : counts.entrySet()) {
      if (e.getKey() < fromSlice) {
        sum += e.getValue().sum();
      }
    }
    return sum;
  }

  /** Non-zero counts of slices at or after {@code fromSlice}, sorted. */
  NavigableMap<Long, Long> snapshot(long fromSlice) {
    TreeMap<Long, Long> out = new TreeMap<>();
    counts.forEach(
        (slice, adder) -> {
          long sum = adder.sum();
          if (slice >= fromSlice && sum != 0) {
            out.put(slice, sum);
          }
        });
    return out;
  }

  /** Forgets slices before {@code fromSlice}; returns whether nothing is left. */
  boolean pruneBefore(long fromSlice) {
    counts.keySet().removeIf(slice -> slice < fromSlice);
    return counts.isEmpty();
  }
}
