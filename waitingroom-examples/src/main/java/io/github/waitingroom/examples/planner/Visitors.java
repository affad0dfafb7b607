package io.github.waitingroom.examples.planner;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How the people of the crowd behave.
 *
 * @param browse how long an admitted user keeps clicking (the mean, unless {@code fixedTimes})
 * @param think the pause between two clicks of an admitted user (the mean, unless {@code fixedTimes})
 * @param patience how long a user keeps waiting in line, counted from arrival, before giving up
 *     (the mean, unless {@code fixedTimes}); {@code null} when nobody gives up
 * @param fixedTimes whether everybody browses, thinks and waits exactly these times; otherwise
 *     browse and patience times are drawn from exponential distributions with these means and
 *     think times uniformly from half to one and a half times {@code think}
 */
public record Visitors(Duration browse, Duration think, @Nullable Duration patience, boolean fixedTimes) {
  /** Checks the times. */
  public Visitors {
    Objects.requireNonNull(browse, "browse");
    Objects.requireNonNull(think, "think");
    if (think.isZero() || think.isNegative()) {
      throw new IllegalArgumentException("think must be positive but was " + think);
    }
    if (browse.isNegative()) {
      throw new IllegalArgumentException("browse must not be negative but was " + browse);
    }
    if (patience != null && (patience.isZero() || patience.isNegative())) {
      throw new IllegalArgumentException("patience must be positive but was " + patience);
    }
  }

  /** One line for reports. */
  public String describe() {
    String how = fixedTimes ? "" : "mean ";
    return "browse " + how + Durations.format(browse) + ", a click every " + how + Durations.format(think)
        + ", patience " + (patience == null ? "unlimited (nobody gives up)" : how + Durations.format(patience));
  }
}
