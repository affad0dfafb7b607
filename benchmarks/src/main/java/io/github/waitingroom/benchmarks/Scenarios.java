package io.github.waitingroom.benchmarks;

import io.github.waitingroom.benchmarks.Scenario.Shape;
import io.github.waitingroom.benchmarks.Scenario.Wave;
import java.time.Duration;
import java.util.List;

/**
 * The named scenarios of the {@link SpikeSimulator}, by name ({@link #named}) and in the order of the
 * reports ({@link #names}): the standard ones, the small runs of the tests and the store-load runs
 * here, the adversarial ones in {@link HostileScenarios} and those of issue 39 in {@link
 * CrowdScenarios}.
 */
public final class Scenarios {
  private Scenarios() {}

  /** Scenarios that every report covers. */
  public static List<Scenario> standard() {
    return List.of(oneNode(), fiveByFour(), flashCrowd());
  }

  /** The names {@link #named} knows, in the order of the reports. */
  public static List<String> names() {
    List<String> names = new java.util.ArrayList<>();
    standard().forEach(s -> names.add(s.name()));
    names.add("smoke");
    HostileScenarios.adversarial().forEach(s -> names.add(s.name()));
    CrowdScenarios.clientScenarios().forEach(s -> names.add(s.name()));
    names.addAll(List.of("load10", "load100", "load1000"));
    return List.copyOf(names);
  }

  /** A scenario by name. */
  public static Scenario named(String name) {
    for (List<Scenario> group : List.of(standard(), HostileScenarios.adversarial(), CrowdScenarios.clientScenarios())) {
      for (Scenario s : group) {
        if (s.name().equals(name)) {
          return s;
        }
      }
    }
    return switch (name) {
      case "smoke" -> smoke(42);
      case "tiny-one-node" -> tiny(7);
      case "load10" -> storeLoad(2, 5);
      case "load100" -> storeLoad(10, 10);
      case "load1000" -> storeLoad(20, 50);
      default -> {
        java.util.regex.Matcher m = LOAD.matcher(name);
        if (!m.matches()) {
          throw new IllegalArgumentException("unknown scenario '" + name + "'; known: " + String.join(", ", names())
              + ", load<D>x<N> (store load with D data centers of N nodes)");
        }
        yield storeLoad(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), name);
      }
    };
  }

  /** {@code load<D>x<N>}: the store-load run on D data centers of N nodes each. */
  private static final java.util.regex.Pattern LOAD = java.util.regex.Pattern.compile("load([1-9][0-9]{0,2})x([1-9][0-9]{0,3})");

  /** Zipf weights for {@code n} data centers: 1, 1/2, 1/3 and so on. */
  static double[] zipf(int n) {
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      w[i] = 1.0 / (i + 1);
    }
    return w;
  }

  /**
   * One node: background of 100 users a minute, a step to 600 a minute for 10 minutes, then back;
   * 1,000 active users, 500 new users a minute.
   */
  public static Scenario oneNode() {
    return new Scenario(
        "one-node",
        "1 DC x 1 node, 1 s sync; step from 100 to 600 arrivals/min for 10 min",
        1,
        1,
        Duration.ofSeconds(1),
        Duration.ZERO,
        Duration.ZERO,
        1000,
        500,
        Duration.ofMinutes(2),
        Duration.ofSeconds(20),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(40), 4000, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(3), Duration.ofMinutes(10), 5000, Shape.STEP, -1)),
        new double[] {1},
        Duration.ofMinutes(4),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ofMinutes(15),
        Duration.ofMinutes(40),
        1,
        Adversity.NONE);
  }

  /**
   * 5 data centers x 4 nodes, 2 s sync, 1 s lag between data centers (200 ms within one):
   * background of 150 a minute plus a ramp to about 2,000 a minute over 10 minutes.
   */
  public static Scenario fiveByFour() {
    return new Scenario(
        "dc5x4",
        "5 DCs x 4 nodes, 2 s sync, 1 s lag (200 ms in-DC); ramp to ~2,000 arrivals/min over 10 min",
        5,
        4,
        Duration.ofSeconds(2),
        Duration.ofSeconds(1),
        Duration.ofMillis(200),
        1000,
        500,
        Duration.ofMinutes(2),
        Duration.ofSeconds(20),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(40), 6000, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(3), Duration.ofMinutes(10), 10000, Shape.RAMP, -1)),
        zipf(5),
        Duration.ofMinutes(4),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ofMinutes(15),
        Duration.ofMinutes(40),
        2,
        Adversity.NONE);
  }

  /**
   * 20 data centers x 5 nodes, 2 s sync, 1 s lag: 200,000 arrivals within one minute, all from one
   * data center, against 1,000 active users; background of 200 a minute everywhere.
   */
  public static Scenario flashCrowd() {
    return new Scenario(
        "flash20x5",
        "20 DCs x 5 nodes, 2 s sync, 1 s lag (200 ms in-DC); 200,000 arrivals in 1 min from dc-0",
        20,
        5,
        Duration.ofSeconds(2),
        Duration.ofSeconds(1),
        Duration.ofMillis(200),
        1000,
        500,
        Duration.ofMinutes(2),
        Duration.ofSeconds(20),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(40), 8000, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(5), Duration.ofMinutes(1), 200_000, Shape.STEP, 0)),
        zipf(20),
        Duration.ofMinutes(4),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ofMinutes(10),
        Duration.ofMinutes(40),
        3,
        Adversity.NONE);
  }

  /** A tiny run for the build's tests: 2 DCs x 2 nodes, 1,400 arrivals in 8 minutes against 50 users. */
  public static Scenario smoke(long seed) {
    return new Scenario(
        "smoke",
        "2 DCs x 2 nodes, 1 s sync, 500 ms lag; 1,400 arrivals in 8 min against 50 active users",
        2,
        2,
        Duration.ofSeconds(1),
        Duration.ofMillis(500),
        Duration.ofMillis(100),
        50,
        50,
        Duration.ofMinutes(1),
        Duration.ofSeconds(10),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(8), 200, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(2), Duration.ofMinutes(2), 1200, Shape.RAMP, 1)),
        new double[] {2, 1},
        Duration.ofMinutes(1),
        Duration.ofSeconds(5),
        Duration.ofSeconds(15),
        Duration.ofMinutes(5),
        Duration.ofMinutes(8),
        seed,
        Adversity.NONE);
  }

  /**
   * The tiny run of {@code SpikeSimulatorTest}: 1 node, 1 s epochs, 40 active users, 30 new users a
   * minute, 1 min sessions, 10 s refresh; 1,000 arrivals in 8 minutes (800 of them in minute 1-2).
   */
  public static Scenario tiny(long seed) {
    Scenario s = smoke(seed);
    return new Scenario(
        "tiny-one-node",
        "1 node, 1,000 arrivals against 40 active users",
        1,
        1,
        Duration.ofSeconds(1),
        Duration.ZERO,
        Duration.ZERO,
        40,
        30,
        Duration.ofMinutes(1),
        Duration.ofSeconds(10),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(8), 200, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(1), Duration.ofMinutes(1), 800, Shape.STEP, -1)),
        new double[] {1},
        s.browseMean(),
        s.thinkMin(),
        s.thinkMax(),
        Duration.ofMinutes(3),
        Duration.ofMinutes(8),
        seed,
        Adversity.NONE);
  }

  /**
   * Store load: the given topology, 1 s epochs, no lag, 2 virtual minutes with a line standing
   * from the first seconds (300 active users, 150 a minute, 200 a minute in the background and
   * 2,000 arrivals in the first 30 s).
   */
  public static Scenario storeLoad(int dataCenters, int nodesPerDataCenter) {
    return storeLoad(dataCenters, nodesPerDataCenter, "load" + dataCenters * nodesPerDataCenter);
  }

  private static Scenario storeLoad(int dataCenters, int nodesPerDataCenter, String name) {
    double[] weights = new double[dataCenters];
    java.util.Arrays.fill(weights, 1);
    return new Scenario(
        name,
        dataCenters + " DCs x " + nodesPerDataCenter + " nodes, 1 s sync, no lag; store operations and bytes",
        dataCenters,
        nodesPerDataCenter,
        Duration.ofSeconds(1),
        Duration.ZERO,
        Duration.ZERO,
        300,
        150,
        Duration.ofMinutes(2),
        Duration.ofSeconds(20),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(2), 400, Shape.STEP, -1),
            new Wave(Duration.ZERO, Duration.ofSeconds(30), 2000, Shape.STEP, -1)),
        weights,
        Duration.ofMinutes(4),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ZERO,
        Duration.ofMinutes(2),
        9,
        Adversity.NONE);
  }
}
