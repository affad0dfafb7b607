package io.github.waitingroom;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;

/**
 * An {@link InstantSource} that moves only when told to, for tests and simulations. Thread-safe.
 */
public final class ManualClock implements InstantSource {
  private volatile Instant now;

  /** A clock standing at the given instant. */
  public ManualClock(Instant start) {
    this.now = Objects.requireNonNull(start, "start");
  }

  @Override
  public Instant instant() {
    return now;
  }

  /** Moves the clock forward (or back, with a negative duration) and returns the new instant. */
  public synchronized Instant advance(Duration by) {
    now = now.plus(by);
    return now;
  }

  /** Sets the clock to the given instant. */
  public void set(Instant instant) {
    now = Objects.requireNonNull(instant, "instant");
  }
}
