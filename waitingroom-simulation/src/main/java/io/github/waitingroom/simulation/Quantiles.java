package io.github.waitingroom.simulation;

import java.util.Arrays;

/**
 * Nearest-rank quantiles, the one way every figure of a run is summed up: the {@code q} quantile
 * of {@code n} values is the {@code ceil(q * n)}-th smallest (the smallest for {@code q = 0}, the
 * largest for {@code q = 1}), always one of the values, never an interpolation.
 */
public final class Quantiles {
  private Quantiles() {}

  /**
   * The {@code q} quantile (0..1) of values already sorted ascending; {@link Double#NaN} when
   * there are none.
   */
  public static double ofSorted(double[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    return sorted[(int) Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
  }

  /** The {@code q} quantile (0..1) of {@code values}, which it sorts in place; NaN when empty. */
  public static double sortingInPlace(double[] values, double q) {
    Arrays.sort(values);
    return ofSorted(values, q);
  }
}
