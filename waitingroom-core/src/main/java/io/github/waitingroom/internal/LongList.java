package io.github.waitingroom.internal;

import java.util.Arrays;

/**
 * A growable list of {@code long}s without boxing, for building the places of a {@link io.github.waitingroom.allocation.Tally}
 * (the library's own use; not thread-safe).
 */
public final class LongList {
  private long[] values = new long[16];
  private int size;

  /** Appends a value. */
  public void add(long value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = value;
  }

  /** How many values were added. */
  public int size() {
    return size;
  }

  /** The values, in the order they were added. */
  public long[] toArray() {
    return Arrays.copyOf(values, size);
  }

  /** The values, sorted. */
  public long[] sorted() {
    long[] out = toArray();
    Arrays.sort(out);
    return out;
  }
}
