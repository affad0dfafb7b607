package io.github.waitingroom.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One run of the {@link SpikeSimulator}: the room's limits, the topology, how fast counts
 * propagate, who arrives when and from where, and how people behave. The named scenarios are in
 * {@link Scenarios}.
 *
 * @param name short name, used for file names
 * @param description one line for the report
 * @param dataCenters how many data centers (each named {@code dc-<i>})
 * @param nodesPerDataCenter nodes (JVMs) per data center
 * @param syncInterval the room's epoch length ({@code Builder#syncInterval}); each node syncs
 *     four times per epoch, when its own {@code nextSyncDelay()} asks
 * @param globalLag how stale the other data centers' sums are when a node reads them
 * @param dataCenterLag how stale the other nodes of the own data center are when a node reads them
 * @param totalActiveUsers the room's limit on active users
 * @param newUsersPerMinute the room's limit on admissions per sliding minute
 * @param sessionDuration the room's session duration (counted after an admitted user's last request)
 * @param refreshInterval the room's configured refresh interval ({@code RoomConfig}); a page
 *     polls as each answer tells it, the other kinds of clients see {@link ClientKind}
 * @param waves who arrives, when and where
 * @param dataCenterWeights how arrivals not pinned to one data center spread over the data
 *     centers (relative weights, one per data center)
 * @param browseMean mean time an admitted user keeps making requests (exponential, at least 10 s)
 * @param thinkMin shortest pause between an active user's requests
 * @param thinkMax longest pause between an active user's requests
 * @param patienceMean mean time a {@linkplain ClientKind#LEAVER leaver} keeps polling before giving
 *     up (exponential); zero means nobody gives up. The other kinds of clients wait until they are
 *     let in or the run ends.
 * @param duration how much virtual time to simulate
 * @param seed the random seed of the run: the simulated traffic (arrivals, choices of node, think
 *     times, patience) and every node's own random choices (tie-break bits, draws, sync jitter), so
 *     that one seed gives one run, bit for bit
 * @param adversity the hostile or faulty conditions of the run ({@link Adversity#NONE} for none)
 * @param clientMix how waiting users poll: the shares of page clients, hidden tabs, frozen tabs,
 *     fixed-pace API clients and leavers ({@link ClientMix#DEFAULT} unless a scenario says otherwise)
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
    Adversity adversity,
    ClientMix clientMix) {

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
    Objects.requireNonNull(adversity, "adversity");
    Objects.requireNonNull(clientMix, "clientMix");
  }

  /** A scenario with the {@link ClientMix#DEFAULT default client mix}. */
  public Scenario(
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
      Adversity adversity) {
    this(name, description, dataCenters, nodesPerDataCenter, syncInterval, globalLag, dataCenterLag,
        totalActiveUsers, newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights,
        browseMean, thinkMin, thinkMax, patienceMean, duration, seed, adversity, ClientMix.DEFAULT);
  }

  /** How arrivals of a wave spread over its time span. */
  public enum Shape {
    /** A constant rate. */
    STEP,
    /** A rate that grows linearly from zero. */
    RAMP,
    /** Packed into the first second of every slice (10 s). */
    BURST_SLICE,
    /** Packed into the first second of every minute. */
    BURST_MINUTE
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


  /** This scenario with another seed (same name: a seed is a replay of the scenario). */
  public Scenario withSeed(long newSeed) {
    return new Scenario(name, description, dataCenters, nodesPerDataCenter, syncInterval, globalLag,
        dataCenterLag, totalActiveUsers, newUsersPerMinute, sessionDuration, refreshInterval, waves,
        dataCenterWeights, browseMean, thinkMin, thinkMax, patienceMean, duration, newSeed, adversity, clientMix);
  }

  /** This scenario with another client mix. */
  public Scenario withClientMix(ClientMix mix, String label) {
    return new Scenario(name + "+" + label, description + "; clients " + mix, dataCenters, nodesPerDataCenter,
        syncInterval, globalLag, dataCenterLag, totalActiveUsers, newUsersPerMinute, sessionDuration,
        refreshInterval, waves, dataCenterWeights, browseMean, thinkMin, thinkMax, patienceMean, duration, seed,
        adversity, mix);
  }

  /** This scenario without propagation lag (both lags zero), to tell lag from other causes. */
  public Scenario withoutLag() {
    return new Scenario(name + "+nolag", description + "; no lag", dataCenters, nodesPerDataCenter,
        syncInterval, Duration.ZERO, Duration.ZERO, totalActiveUsers, newUsersPerMinute,
        sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean, thinkMin, thinkMax,
        patienceMean, duration, seed, adversity, clientMix);
  }

  /** This scenario with nobody giving up, to tell abandonment from other causes. */
  public Scenario withoutAbandoning() {
    return new Scenario(name + "+patient", description + "; nobody gives up", dataCenters,
        nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, Duration.ZERO, duration, seed, adversity, clientMix);
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
        thinkMax, patienceMean, duration, seed, adversity, clientMix);
  }

  /** This scenario with every node syncing at the same instants (a diagnostic, see {@code lockstep}). */
  public Scenario inLockstep() {
    return new Scenario(name + "+lockstep", description + "; nodes sync in lock step", dataCenters,
        nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, patienceMean, duration, seed, adversity.withLockstep(), clientMix);
  }

  /** This scenario with sticky load balancing: each user always reaches the same node. */
  public Scenario withSticky() {
    return new Scenario(name + "+sticky", description + "; sticky load balancing", dataCenters,
        nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, patienceMean, duration, seed, adversity.withSticky(), clientMix);
  }

  /** This scenario with another sync interval (epoch), to find what a given lag needs. */
  public Scenario withSyncInterval(Duration interval) {
    return new Scenario(name + "+sync" + interval.toMillis() + "ms", description + "; " + interval.toMillis()
        + " ms sync", dataCenters, nodesPerDataCenter, interval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, patienceMean, duration, seed, adversity, clientMix);
  }

  /** This scenario cut to its first {@code minutes} (waves past the end are dropped). */
  public Scenario truncated(int minutes) {
    return new Scenario(name + "+" + minutes + "min", description + "; first " + minutes + " min only",
        dataCenters, nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, patienceMean, Duration.ofMinutes(minutes), seed, adversity, clientMix);
  }

  /** This scenario with every node starting at the same instant as the traffic. */
  public Scenario withColdStart() {
    return new Scenario(name + "+cold", description + "; all nodes start at once", dataCenters,
        nodesPerDataCenter, syncInterval, globalLag, dataCenterLag, totalActiveUsers,
        newUsersPerMinute, sessionDuration, refreshInterval, waves, dataCenterWeights, browseMean,
        thinkMin, thinkMax, patienceMean, duration, seed, adversity.withColdStart(), clientMix);
  }

  /** The scenario's headline settings, for reports. */
  public String settings() {
    return String.format(
        Locale.ROOT,
        "limit %d active, %d new/min, session %ds, refresh %ds, epoch %dms, lag %dms (in-DC %dms), clients %s, %s",
        totalActiveUsers,
        newUsersPerMinute,
        sessionDuration.getSeconds(),
        refreshInterval.getSeconds(),
        syncInterval.toMillis(),
        globalLag.toMillis(),
        dataCenterLag.toMillis(),
        clientMix,
        adversity);
  }
}
