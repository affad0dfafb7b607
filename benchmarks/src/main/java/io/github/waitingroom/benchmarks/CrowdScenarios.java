package io.github.waitingroom.benchmarks;

import io.github.waitingroom.benchmarks.Scenario.Shape;
import io.github.waitingroom.benchmarks.Scenario.Wave;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The scenarios of issue 39 for the {@link SpikeSimulator}: real clients, the per-minute limit, short
 * sessions, topologies, lag and node clocks seconds apart, all on one {@link #crowd}.
 */
public final class CrowdScenarios {
  private CrowdScenarios() {}

  /**
   * The scenarios of issue 39 (real clients, the per-minute limit, short sessions, topologies,
   * lag, node clocks seconds apart), all on {@link #crowd} with the default client mix.
   */
  public static List<Scenario> clientScenarios() {
    return List.of(
        perMinute(),
        shortSessions(),
        topology(1, 1),
        topology(2, 2),
        topology(2, 6),
        topology(5, 4),
        topology(20, 5),
        lag("lag075", 750),
        lag("lag15", 1500),
        lag("lag3", 3000),
        clockSkew());
  }

  /**
   * The crowd of the issue 39 scenarios, on the given topology: 300 active users, 150 new users a
   * minute, 2 min sessions, 20 s refresh; 600 arrivals over 10 minutes spread over the data
   * centers (Zipf weights) and a surge of 2,500 in minutes 1-3, all from dc-0; the default client
   * mix (leavers give up after 15 minutes on average). Ten minutes, so that a line stands from
   * the first minute on and the runs stay short (the nodes' report decoding grows with the line).
   */
  public static Scenario crowd(
      String name, String description, int dataCenters, int nodesPerDataCenter, Duration syncInterval,
      Duration globalLag, Duration dataCenterLag, Adversity adversity) {
    return new Scenario(
        name,
        dataCenters + " DCs x " + nodesPerDataCenter + " nodes, " + syncInterval.toMillis() + " ms sync, "
            + globalLag.toMillis() + " ms lag (" + dataCenterLag.toMillis() + " ms in-DC); " + description,
        dataCenters,
        nodesPerDataCenter,
        syncInterval,
        globalLag,
        dataCenterLag,
        300,
        150,
        Duration.ofMinutes(2),
        Duration.ofSeconds(20),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(10), 600, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(1), Duration.ofMinutes(2), 2500, Shape.STEP, 0)),
        Scenarios.zipf(dataCenters),
        Duration.ofMinutes(4),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ofMinutes(15),
        Duration.ofMinutes(10),
        39,
        adversity,
        ClientMix.DEFAULT);
  }

  /** The {@link #crowd} on {@code dataCenters} x {@code nodes}: 2 s epochs, 1 s lag (200 ms in-DC). */
  public static Scenario topology(int dataCenters, int nodes) {
    return crowd("topo" + dataCenters + "x" + nodes, "the crowd of topo*", dataCenters, nodes,
        Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofMillis(200), Adversity.NONE);
  }

  /** The {@link #crowd} on 2 DCs x 2 nodes with 1 s epochs and {@code lagMillis} between data centers. */
  public static Scenario lag(String name, long lagMillis) {
    return crowd(name, String.format(Locale.ROOT, "lag of %.2f epochs between DCs", lagMillis / 1000.0), 2, 2,
        Duration.ofSeconds(1), Duration.ofMillis(lagMillis), Duration.ofMillis(100), Adversity.NONE);
  }

  /**
   * The {@link #crowd} on 1 DC x 3 nodes, 1 s epochs, 100 ms lag, node clocks off by up to +-2.5 s:
   * the nodes keep time by the store's clock, which every answer carries. (Issue 39 ran this with
   * a store that did not tell its clock, when the clock was optional: 45 admitted against a limit
   * of 30. A node now refuses such a store; see {@code StoreClockTest} in the core.)
   */
  public static Scenario clockSkew() {
    return crowd("clock-skew", "node clocks off by up to +-2.5 s, time kept by the store's clock", 1, 3,
        Duration.ofSeconds(1), Duration.ofMillis(100), Duration.ofMillis(100),
        Adversity.NONE.withSkew(Duration.ofMillis(2500)));
  }

  /**
   * The per-minute limit binds, not the total: 1,000 active users, 60 new users a minute, 5 min
   * sessions, users browsing 5 minutes on average (about 600 active at 60 a minute); 2 DCs x 2
   * nodes, 1 s epochs, 500 ms lag (100 ms in-DC); 300 arrivals over 10 minutes and 1,000 more in
   * minutes 1-4 (ramp).
   */
  public static Scenario perMinute() {
    return new Scenario(
        "perminute",
        "2 DCs x 2 nodes, 1 s sync, 500 ms lag (100 ms in-DC); the per-minute limit binds (1,000 active, 60/min,"
            + " 5 min sessions)",
        2,
        2,
        Duration.ofSeconds(1),
        Duration.ofMillis(500),
        Duration.ofMillis(100),
        1000,
        60,
        Duration.ofMinutes(5),
        Duration.ofSeconds(20),
        List.of(
            new Wave(Duration.ZERO, Duration.ofMinutes(10), 300, Shape.STEP, -1),
            new Wave(Duration.ofMinutes(1), Duration.ofMinutes(3), 1000, Shape.RAMP, -1)),
        new double[] {2, 1},
        Duration.ofMinutes(5),
        Duration.ofSeconds(5),
        Duration.ofSeconds(25),
        Duration.ofMinutes(15),
        Duration.ofMinutes(10),
        40,
        Adversity.NONE,
        ClientMix.DEFAULT);
  }

  /**
   * 20 s sessions (users browse a minute on average, a request every 2-8 s): the {@link #crowd} on 2
   * DCs x 2 nodes, 1 s epochs, 500 ms lag, with 300 new users a minute (as many as the total, the
   * most a room allows) so that the total limit binds (about 225 a minute get through).
   */
  public static Scenario shortSessions() {
    Scenario c = crowd("short-sessions", "20 s sessions, 300/min", 2, 2, Duration.ofSeconds(1),
        Duration.ofMillis(500), Duration.ofMillis(100), Adversity.NONE);
    return new Scenario(c.name(), c.description(), c.dataCenters(), c.nodesPerDataCenter(), c.syncInterval(),
        c.globalLag(), c.dataCenterLag(), c.totalActiveUsers(), 300, Duration.ofSeconds(20), c.refreshInterval(),
        c.waves(), c.dataCenterWeights(), Duration.ofMinutes(1), Duration.ofSeconds(2), Duration.ofSeconds(8),
        c.patienceMean(), c.duration(), 41, c.adversity(), c.clientMix());
  }
}
