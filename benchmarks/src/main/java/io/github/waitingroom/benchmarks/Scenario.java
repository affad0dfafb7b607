package io.github.waitingroom.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One run of the {@link SpikeSimulator}: the room's limits, the topology, how fast counts
 * propagate, who arrives when and from where, and how people behave.
 *
 * @param name short name, used for file names
 * @param description one line for the report
 * @param dataCenters how many data centers (each named {@code dc-<i>})
 * @param nodesPerDataCenter nodes (JVMs) per data center
 * @param syncInterval each node's base sync interval; the room's own adaptive cadence (default
 *     bounds: a quarter to four times it, jittered by ±10 %) decides each actual delay
 * @param globalLag how stale the other data centers' sums are when a node reads them
 * @param dataCenterLag how stale the other nodes of the own data center are when a node reads them
 * @param totalActiveUsers the room's limit on active users
 * @param newUsersPerMinute the room's limit on admissions per sliding minute
 * @param sessionDuration the room's session duration (counted after an admitted user's last request)
 * @param refreshInterval how often a waiting page polls
 * @param waves who arrives, when and where
 * @param dataCenterWeights how arrivals not pinned to one data center spread over the data
 *     centers (relative weights, one per data center)
 * @param browseMean mean time an admitted user keeps making requests (exponential, at least 10 s)
 * @param thinkMin shortest pause between an active user's requests
 * @param thinkMax longest pause between an active user's requests
 * @param patienceMean mean time a waiting user keeps polling before giving up (exponential);
 *     zero means nobody gives up
 * @param duration how much virtual time to simulate
 * @param seed the random seed: the same scenario and seed give the same run
 * @param lockstep whether all nodes sync together at multiples of the sync interval, each three
 *     times in a row, so that all budgets come from one consistent snapshot of every node's counts
 *     (with no lag); a diagnostic setting that no real deployment has
 */
public record Scenario(
    String name,
    String description,
    int dataCenters,
    int nodesPerDataCenter,
    Duration syncInterval,
    Duration globalLag,
    Duration dataCenterLag,
    int totalActiveUsers,
    int newUsersPerMinute,
    Duration sessionDuration,
    Duration refreshInterval,
    List<Wave> waves,
    double[] dataCenterWeights,
    Duration browseMean,
    Duration thinkMin,
    Duration thinkMax,
    Duration patienceMean,
    Duration duration,
    long seed,
    boolean lockstep) {

  /** Checks the settings. */
  public Scenario {
    Objects.requireNonNull(name, "name");
    if (dataCenters < 1 || nodesPerDataCenter < 1) {
      throw new IllegalArgumentException(
          "dataCenters and nodesPerDataCenter must be positive but were " + dataCenters + " and "
              + nodesPerDataCenter);
    }
    if (dataCenterWeights.length != dataCenters) {
      throw new IllegalArgumentException(
          "dataCenterWeights must have one weight per data center (" + dataCenters + ") but has "
              + dataCenterWeights.length);
    }
    for (Wave w : waves) {
      if (w.onlyDataCenter() >= dataCenters) {
        throw new IllegalArgumentException("wave pinned to unknown data center " + w.onlyDataCenter());
      }
    }
    waves = List.copyOf(waves);
    dataCenterWeights = dataCenterWeights.clone();
  }

  /** How arrivals of a wave spread over its time span. */
  public enum Shape {
    /** A constant rate. */
    STEP,
    /** A rate that grows linearly from zero. */
    RAMP
  }

  /**
   * A group of arrivals.
   *
   * @param start when the wave begins, from the start of the run
   * @param length how long it lasts
   * @param users how many users arrive in it
   * @param shape how they spread over the time span
   * @param onlyDataCenter the one data center they all come from, or -1 to spread them by the
   *     scenario's weights
   */
  public record Wave(Duration start, Duration length, int users, Shape shape, int onlyDataCenter) {}

  /** Scenarios that every report covers. */
  public static List<Scenario> standard() {
    return List.of(oneNode(), fiveByFour(), flashCrowd());
  }

  /** A scenario by name. */
  public static Scenario named(String name) {
    for (Scenario s : standard()) {
      if (s.name.equals(name)) {
        return s;
      }
    }
    return switch (name) {
      case "smoke" -> smoke(42);
      default -> throw new IllegalArgumentException(
          "unknown scenario '" + name + "'; known: one-node, dc5x4, flash20x5, smoke");
    };
  }

  private static double[] zipf(int n) {
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
        false);
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
        false);
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
        false);
  }

  /** A tiny run for the build's smoke test: 2 DCs x 2 nodes, 1,500 arrivals against 50 users. */
  public static Scenario smoke(long seed) {
    return new Scenario(
        "smoke",
        "2 DCs x 2 nodes, 1 s sync, 500 ms lag; 1,500 arrivals against 50 active users",
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
            new Wave(Duration.ZERO, Duration.ofMinutes(12), 300, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(2), Duration.ofMinutes(2), 1200, Shape.RAMP, 1)),
        new double[] {2, 1},
        Duration.ofMinutes(1),
        Duration.ofSeconds(5),
        Duration.ofSeconds(15),
        Duration.ofMinutes(5),
        Duration.ofMinutes(12),
        seed,
        false);
  }

  /** This scenario without propagation lag (both lags zero), to tell lag from other causes. */
  public Scenario withoutLag() {
    return new Scenario(name + "+nolag", description + "; no lag", dataCenters, nodesPerDataCenter,
        syncInterval, Duration.ZERO, Duration.ZERO, totalActiveUsers, newUsersPerMinute,
        sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean, thinkMin, thinkMax,
        patienceMean, duration, seed, lockstep);
  }

  /** This scenario with nobody giving up, to tell abandonment from other causes. */
  public Scenario withoutAbandoning() {
    return new Scenario(name + "+patient", description + "; nobody gives up", dataCenters,
        nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, Duration.ZERO, duration, seed, lockstep);
  }

  /** This scenario with all nodes in one data center (same node count), to tell DCs from nodes. */
  public Scenario inOneDataCenter() {
    double[] one = {1};
    List<Wave> pinned = waves.stream()
        .map(w -> new Wave(w.start(), w.length(), w.users(), w.shape(), -1))
        .toList();
    return new Scenario(name + "+onedc", description + "; all nodes in one DC", 1,
        dataCenters * nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, pinned, one, browseMean, thinkMin,
        thinkMax, patienceMean, duration, seed, lockstep);
  }

  /** This scenario with every node syncing at the same instants (a diagnostic, see {@code lockstep}). */
  public Scenario inLockstep() {
    return new Scenario(name + "+lockstep", description + "; nodes sync in lock step", dataCenters,
        nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, patienceMean, duration, seed, true);
  }

  /** The scenario's headline settings, for reports. */
  public String settings() {
    return String.format(
        Locale.ROOT,
        "limit %d active, %d new/min, session %ds, refresh %ds, sync %dms, lag %dms (in-DC %dms)",
        totalActiveUsers,
        newUsersPerMinute,
        sessionDuration.getSeconds(),
        refreshInterval.getSeconds(),
        syncInterval.toMillis(),
        globalLag.toMillis(),
        dataCenterLag.toMillis());
  }
}
