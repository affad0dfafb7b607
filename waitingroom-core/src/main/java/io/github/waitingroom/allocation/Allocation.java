package io.github.waitingroom.allocation;

import java.util.ArrayList;
import java.util.List;

/**
 * The room-wide result of {@link SlotAllocator#allocate}: how many slots are free and how they
 * go to the line, oldest bucket first. Immutable (the arrays are never handed out).
 */
public final class Allocation {
  private final long freeSlots;
  private final long[] bucketIds;
  private final long[] waiting;
  private final long[] eligible;
  private final long newArrivals;

  Allocation(long freeSlots, long[] bucketIds, long[] waiting, long[] eligible, long newArrivals) {
    this.freeSlots = freeSlots;
    this.bucketIds = bucketIds;
    this.waiting = waiting;
    this.eligible = eligible;
    this.newArrivals = newArrivals;
  }

  /** min(total active - active, new per minute - admitted in the last minute), never negative. */
  public long freeSlots() {
    return freeSlots;
  }

  /** Slots left for brand-new arrivals: non-zero only when nobody waits beyond the free slots. */
  public long newArrivals() {
    return newArrivals;
  }

  /** Every waiting bucket, oldest first, with its eligible slots. */
  public List<BucketState> buckets() {
    List<BucketState> out = new ArrayList<>(bucketIds.length);
    for (int i = 0; i < bucketIds.length; i++) {
      out.add(new BucketState(bucketIds[i], waiting[i], eligible[i]));
    }
    return out;
  }

  /** Slots eligible in all buckets together (never more than {@link #freeSlots()}). */
  public long eligibleSlots() {
    long sum = 0;
    for (long e : eligible) {
      sum += e;
    }
    return sum;
  }

  int size() {
    return bucketIds.length;
  }

  long bucketId(int i) {
    return bucketIds[i];
  }

  long waiting(int i) {
    return waiting[i];
  }

  long eligible(int i) {
    return eligible[i];
  }
}
