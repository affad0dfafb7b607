package io.github.waitingroom;

import io.github.waitingroom.allocation.Budget;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/** A {@link Budget} being spent by request threads: lock-free, never below zero. */
final class Budgets {
  private final long[] bucketIds;
  private final AtomicLongArray slots;
  private final AtomicLong newArrivals;
  private final AtomicLong spent = new AtomicLong();

  Budgets(Budget budget) {
    this.bucketIds = budget.bucketIds();
    this.slots = new AtomicLongArray(budget.slots());
    this.newArrivals = new AtomicLong(budget.newArrivals());
  }

  /** Takes one slot of {@code bucket}, if its turn has come and a slot is left. */
  boolean tryBucket(long bucket) {
    int i = Arrays.binarySearch(bucketIds, bucket);
    return i >= 0 && take(i);
  }

  /** Takes one slot for a brand-new arrival, if any is left. */
  boolean tryNewArrival() {
    for (long left = newArrivals.get(); left > 0; left = newArrivals.get()) {
      if (newArrivals.compareAndSet(left, left - 1)) {
        spent.incrementAndGet();
        return true;
      }
    }
    return false;
  }

  private boolean take(int i) {
    for (long left = slots.get(i); left > 0; left = slots.get(i)) {
      if (slots.compareAndSet(i, left, left - 1)) {
        spent.incrementAndGet();
        return true;
      }
    }
    return false;
  }

  /** Slots taken from this budget so far. */
  long spent() {
    return spent.get();
  }

  /**
   * Removes {@code n} slots, newest first (new arrivals, then the newest bucket), for admissions
   * that the view behind this budget does not include yet.
   */
  void deduct(long n) {
    long left = n - drain(newArrivals, n);
    for (int i = bucketIds.length - 1; i >= 0 && left > 0; i--) {
      long have = slots.get(i);
      long take = Math.min(have, left);
      if (take > 0 && slots.compareAndSet(i, have, have - take)) {
        left -= take;
      } else if (take > 0) {
        i++; // lost a race with a request thread: look at the same bucket again
      }
    }
  }

  private static long drain(AtomicLong counter, long most) {
    for (long have = counter.get(); ; have = counter.get()) {
      long take = Math.min(have, most);
      if (take <= 0 || counter.compareAndSet(have, have - take)) {
        return Math.max(0, take);
      }
    }
  }
}
