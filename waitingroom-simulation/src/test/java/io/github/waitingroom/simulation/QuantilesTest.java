package io.github.waitingroom.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuantilesTest {
  @Test
  void nearestRankIsAlwaysOneOfTheValues() {
    double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertThat(Quantiles.ofSorted(sorted, 0)).isEqualTo(1);
    assertThat(Quantiles.ofSorted(sorted, 0.5)).isEqualTo(5);
    assertThat(Quantiles.ofSorted(sorted, 0.9)).isEqualTo(9);
    assertThat(Quantiles.ofSorted(sorted, 0.91)).isEqualTo(10);
    assertThat(Quantiles.ofSorted(sorted, 1)).isEqualTo(10);
    assertThat(Quantiles.ofSorted(new double[0], 0.5)).isNaN();
  }

  @Test
  void listsGiveTheQuantilesOfWhatWasAdded() {
    DoubleList errors = new DoubleList(1);
    for (double v : new double[] {-0.4, 0.1, 0.3, -0.2}) {
      errors.add(v);
    }
    assertThat(errors.size()).isEqualTo(4);
    assertThat(errors.quantile(0.5)).isEqualTo(-0.2);
    assertThat(errors.absQuantile(0.5)).isEqualTo(0.2);
    assertThat(errors.min()).isEqualTo(-0.4);
    assertThat(errors.max()).isEqualTo(0.3);
    assertThat(errors.toArray()).containsExactly(-0.4, 0.1, 0.3, -0.2); // the order kept
    assertThat(new DoubleList().quantile(0.5)).isNaN();

    LongList at = new LongList(1);
    at.add(5);
    at.add(3);
    assertThat(at.last()).isEqualTo(3);
    assertThat(at.toArray()).containsExactly(5, 3);
  }

  @Test
  void seededDrawsDependOnlyOnTheSeedAndTheirKey() {
    SeededDraws a = new SeededDraws(7);
    SeededDraws b = new SeededDraws(7);
    assertThat(a.unit(3, 1, 0)).isEqualTo(b.unit(3, 1, 0)).isBetween(0.0, 1.0);
    assertThat(a.unit(3, 1, 0)).isNotEqualTo(a.unit(3, 1, 1));
    assertThat(a.unit(3, 1, 0)).isNotEqualTo(new SeededDraws(8).unit(3, 1, 0));
  }
}
