package io.github.waitingroom.simulation;

import java.util.Arrays;

/** A growable list of doubles (waits, estimate errors) without boxing, with its {@link Quantiles}. */
public final class DoubleList {
  private double[] values;
  private int size;

  /** An empty list. */
  public DoubleList() {
    this(16);
  }

  /** An empty list with room for {@code capacity} values before it grows. */
  public DoubleList(int capacity) {
    this.values = new double[Math.max(1, capacity)];
  }

  /** Appends {@code v}. */
  public void add(double v) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = v;
  }

  /** The number of values. */
  public int size() {
    return size;
  }

  /** The smallest value; NaN when empty. */
  public double min() {
    return Arrays.stream(values, 0, size).min().orElse(Double.NaN);
  }

  /** The largest value; NaN when empty. */
  public double max() {
    return Arrays.stream(values, 0, size).max().orElse(Double.NaN);
  }

  /** The nearest-rank {@code q} quantile (0..1) of the values; NaN when empty. */
  public double quantile(double q) {
    return Quantiles.sortingInPlace(toArray(), q);
  }

  /** The nearest-rank {@code q} quantile (0..1) of the values' absolute values; NaN when empty. */
  public double absQuantile(double q) {
    double[] abs = new double[size];
    for (int i = 0; i < size; i++) {
      abs[i] = Math.abs(values[i]);
    }
    return Quantiles.sortingInPlace(abs, q);
  }

  /** A copy of the values, in the order they were added. */
  public double[] toArray() {
    return Arrays.copyOf(values, size);
  }

  /** A sorted copy of the values. */
  public double[] sorted() {
    double[] v = toArray();
    Arrays.sort(v);
    return v;
  }
}
