package io.github.waitingroom.allocation;

import java.util.Arrays;

/**
 * What one node may admit until its next sync: slots per bucket (only buckets whose turn has
 * come) and slots for brand-new arrivals. Immutable; a node copies it into atomic counters.
 *
 * @param bucketIds buckets with slots, oldest first
 * @param slots the slots of each of those buckets
 * @param newArrivals slots for users who arrive with no ticket
 */
public record Budget(long[] bucketIds, long[] slots, long newArrivals) {

  /** A budget that admits nobody. */
  public static final Budget NONE = new Budget(new long[0], new long[0], 0);

  /** Copies the arrays. */
  public Budget {
    if (bucketIds.length != slots.length) {
      throw new IllegalArgumentException("bucketIds and slots differ in length");
    }
    bucketIds = bucketIds.clone();
    slots = slots.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Budget b
        && Arrays.equals(bucketIds, b.bucketIds)
        && Arrays.equals(slots, b.slots)
        && newArrivals == b.newArrivals;
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(bucketIds) + Arrays.hashCode(slots)) + Long.hashCode(newArrivals);
  }

  @Override
  public String toString() {
    return "Budget[buckets=" + Arrays.toString(bucketIds) + ", slots=" + Arrays.toString(slots)
        + ", newArrivals=" + newArrivals + "]";
  }
}
