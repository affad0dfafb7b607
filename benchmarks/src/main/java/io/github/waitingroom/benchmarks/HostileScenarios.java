package io.github.waitingroom.benchmarks;

import io.github.waitingroom.FailurePolicy;
import io.github.waitingroom.benchmarks.Adversity.Fault;
import io.github.waitingroom.benchmarks.Adversity.FaultKind;
import io.github.waitingroom.benchmarks.Scenario.Shape;
import io.github.waitingroom.benchmarks.Scenario.Wave;
import java.time.Duration;
import java.util.List;

/**
 * The adversarial scenarios of the {@link SpikeSimulator}: one blind spot of the first simulator each
 * (parallel requests, replayed and copied tickets, skewed clocks, a faulty store, bursts), all on
 * one base crowd.
 */
public final class HostileScenarios {
  private HostileScenarios() {}

  /**
   * The base of the adversarial scenarios: 2 DCs x 2 nodes, 1 s epochs, 500 ms lag between DCs
   * (100 ms inside), 300 active users, 150 new users a minute, 2 min sessions; 60 arrivals a
   * minute in the background for 25 minutes and 2,500 more over minutes 2-10 (linear ramp), so a
   * line stands for most of the run.
   */
  public static Scenario hostileBase(String name, String description, Adversity adversity, List<Wave> waves) {
    return new Scenario(
        name,
        "2 DCs x 2 nodes, 1 s sync, 500 ms lag (100 ms in-DC); " + description,
        2,
        2,
        Duration.ofSeconds(1),
        Duration.ofMillis(500),
        Duration.ofMillis(100),
        300,
        150,
        Duration.ofMinutes(2),
        Duration.ofSeconds(20),
        waves,
        new double[] {2, 1},
        Duration.ofMinutes(4),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ofMinutes(15),
        Duration.ofMinutes(25),
        8,
        adversity);
  }

  private static List<Wave> hostileWaves() {
    return List.of(
        new Wave(Duration.ZERO, Duration.ofMinutes(25), 1500, Shape.STEP, -1),
        new Wave(Duration.ofMinutes(2), Duration.ofMinutes(8), 2500, Shape.RAMP, -1));
  }

  private static List<Fault> storeFaults() {
    return List.of(
        new Fault(FaultKind.OUTAGE, Duration.ofMinutes(5), Duration.ofMinutes(4)),
        new Fault(FaultKind.FLUSH, Duration.ofMinutes(12), Duration.ZERO),
        new Fault(FaultKind.PARTIAL, Duration.ofMinutes(15), Duration.ofMinutes(2)),
        new Fault(FaultKind.NEWER_VERSION, Duration.ofMinutes(19), Duration.ofMinutes(2)),
        new Fault(FaultKind.LOST_ANSWERS, Duration.ofMinutes(22), Duration.ofMinutes(2)));
  }

  /** The adversarial scenarios: one blind spot of the first simulator each. */
  public static List<Scenario> adversarial() {
    Adversity none = Adversity.NONE;
    return List.of(
        hostileBase("hostile-base", "honest clients, healthy store (the reference)", none, hostileWaves()),
        hostileBase("parallel", "every page sends 4 requests at once with one cookie", none.withParallel(4), hostileWaves()),
        hostileBase("replay", "20 admitted clients replay their first ticket 10 times a second", none.withReplayers(20, 10), hostileWaves()),
        hostileBase("clone", "at minute 7 the waiting cookie at the front of the line is copied to 100 clients",
            none.withClones(100, Duration.ofMinutes(7)), hostileWaves()),
        hostileBase("skew", "node clocks off by up to +-5 s", none.withSkew(Duration.ofSeconds(5)), hostileWaves()),
        hostileBase("store-fail-open", "FAIL_OPEN; store down minutes 5-9, flushed at 12, partial answers 15-17, "
            + "a newer report version 19-21, one answer in ten lost 22-24", none.withFaults(FailurePolicy.FAIL_OPEN, storeFaults()), hostileWaves()),
        hostileBase("store-fail-closed", "FAIL_CLOSED; store down minutes 5-9, flushed at 12, partial answers 15-17, "
            + "a newer report version 19-21, one answer in ten lost 22-24", none.withFaults(FailurePolicy.FAIL_CLOSED, storeFaults()), hostileWaves()),
        hostileBase("burst", "arrivals packed into the first second of each slice (min 2-10) and of each minute (min 12-20)",
            none,
            List.of(
                new Wave(Duration.ZERO, Duration.ofMinutes(25), 1500, Shape.STEP, -1),
                new Wave(Duration.ofMinutes(2), Duration.ofMinutes(8), 1500, Shape.BURST_SLICE, -1),
                new Wave(Duration.ofMinutes(12), Duration.ofMinutes(8), 1500, Shape.BURST_MINUTE, -1))));
  }
}
