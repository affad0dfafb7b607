package io.github.waitingroom.tck;

import io.github.waitingroom.ManualClock;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.coordinator.Transport;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** The in-memory transport against the compatibility kit; time moves on a manual clock. */
class InMemoryTransportCompatibilityTest extends TransportCompatibilityKit {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final InMemoryTransport store = new InMemoryTransport(clock);

  @Override
  protected Transport transport() {
    return store;
  }

  @Override
  protected void elapse(Duration time) {
    clock.advance(time);
  }

  @Override
  protected InstantSource storeClock() {
    return clock;
  }
}
