package io.github.waitingroom.examples.planner;

import java.time.Duration;
import java.util.Objects;

/**
 * Everything a plan runs with, except the limits the search varies.
 *
 * @param arrivals who arrives when
 * @param visitors how they browse, think and wait
 * @param session the room's session duration (an admitted user stays counted this long after
 *     their last request)
 * @param refresh the room's refresh interval (how often a waiting page polls)
 * @param drain how much longer than the arrival period a run may go on while people still wait
 * @param seed the random seed: one seed, one run
 */
public record PlanSettings(
    Arrivals arrivals, Visitors visitors, Duration session, Duration refresh, Duration drain, long seed) {
  /** Checks the settings. */
  public PlanSettings {
    Objects.requireNonNull(arrivals, "arrivals");
    Objects.requireNonNull(visitors, "visitors");
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(refresh, "refresh");
    Objects.requireNonNull(drain, "drain");
    if (drain.isNegative()) {
      throw new IllegalArgumentException("drain must not be negative but was " + drain);
    }
  }
}
