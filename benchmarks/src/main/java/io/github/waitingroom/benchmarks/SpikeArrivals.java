package io.github.waitingroom.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/** The arrivals of a scenario's waves, drawn from the run's generator (the first draws of a run). */
final class SpikeArrivals {
  private SpikeArrivals() {}

  /** Arrival times (ms) and data centers of scenario {@code s}, packed as {@code millis << 8 | dc}, sorted. */
  static long[] draw(Scenario s, SplittableRandom random) {
    List<Long> out = new ArrayList<>();
    double total = Arrays.stream(s.dataCenterWeights()).sum();
    for (Scenario.Wave w : s.waves()) {
      long start = w.start().toMillis();
      long length = w.length().toMillis();
      for (int i = 0; i < w.users(); i++) {
        double u = random.nextDouble();
        long millis =
            switch (w.shape()) {
              case STEP -> start + (long) (u * length);
              case RAMP -> start + (long) (Math.sqrt(u) * length);
              case BURST_SLICE, BURST_MINUTE -> {
                long period = w.shape() == Scenario.Shape.BURST_SLICE ? 10_000 : 60_000;
                long periods = Math.max(1, length / period);
                // The first second of a period, periods aligned to the room's slices and minutes.
                long first = (start + period - 1) / period * period;
                yield first + (long) (u * periods) * period + (long) (random.nextDouble() * 1000);
              }
            };
        if (millis >= s.duration().toMillis()) {
          continue;
        }
        int dc = w.onlyDataCenter();
        if (dc < 0) {
          double pick = random.nextDouble() * total;
          dc = 0;
          while (dc < s.dataCenters() - 1 && pick >= s.dataCenterWeights()[dc]) {
            pick -= s.dataCenterWeights()[dc];
            dc++;
          }
        }
        out.add(millis << 8 | dc);
      }
    }
    long[] packed = out.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(packed);
    return packed;
  }
}
