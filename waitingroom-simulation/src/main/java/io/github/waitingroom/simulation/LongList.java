package io.github.waitingroom.simulation;

import java.util.Arrays;
import java.util.NoSuchElementException;

/** A growable list of longs (admission instants) without boxing. */
public final class LongList {
  private long[] values;
  private int size;

  /** An empty list. */
  public LongList() {
    this(16);
  }

  /** An empty list with room for {@code capacity} values before it grows. */
  public LongList(int capacity) {
    this.values = new long[Math.max(1, capacity)];
  }

  /** Appends {@code v}. */
  public void add(long v) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = v;
  }

  /** The number of values. */
  public int size() {
    return size;
  }

  /**
   * The value added last.
   *
   * @throws NoSuchElementException when the list is empty
   */
  public long last() {
    if (size == 0) {
      throw new NoSuchElementException("empty list");
    }
    return values[size - 1];
  }

  /** A copy of the values, in the order they were added. */
  public long[] toArray() {
    return Arrays.copyOf(values, size);
  }
}
