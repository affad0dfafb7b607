package io.github.waitingroom.examples;

import io.github.waitingroom.ManualClock;
import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.tck.TransportCompatibilityKit;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The example file transport against the compatibility kit: what a user's own transport runs. */
class FileTransportCompatibilityTest extends TransportCompatibilityKit {
  private Path directory = Path.of("unset");
  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));

  @BeforeEach
  void directory(@TempDir Path dir) {
    directory = dir;
  }

  @Override
  protected Transport transport() {
    return new FileTransport(directory, clock);
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
