package io.github.waitingroom.coordinator;

import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link Transport} inside one JVM, whose answers carry its clock (see {@link #CLOCK_SCOPE}): the default when a room runs on one node, and the way
 * several in-process nodes (tests, the spike simulator) share one store. Thread-safe.
 */
public final class InMemoryTransport implements Transport {
  private final InstantSource clock;
  private final Map<String, Map<String, Map<String, Stored>>> rooms = new HashMap<>();

  private record Stored(byte[] payload, long expiresAtMillis) {}

  /** A store whose values expire by the system clock. */
  public InMemoryTransport() {
    this(InstantSource.system());
  }

  /** A store whose values expire by the given clock. */
  public InMemoryTransport(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public synchronized Map<String, Map<String, byte[]>> exchange(
      String roomId, List<Publication> publications, Duration retention) {
    long now = clock.millis();
    Map<String, Map<String, Stored>> room = rooms.computeIfAbsent(roomId, r -> new HashMap<>());
    for (Publication p : publications) {
      room.computeIfAbsent(p.scope(), s -> new HashMap<>())
          .put(p.publisher(), new Stored(p.payload().clone(), now + retention.toMillis()));
    }
    Map<String, Map<String, byte[]>> answer = new HashMap<>();
    for (Publication p : publications) {
      Map<String, Stored> scope = room.getOrDefault(p.scope(), Map.of());
      scope.values().removeIf(s -> s.expiresAtMillis <= now);
      Map<String, byte[]> values = new HashMap<>();
      scope.forEach((publisher, stored) -> values.put(publisher, stored.payload.clone()));
      answer.put(p.scope(), values);
    }
    answer.put(CLOCK_SCOPE, Map.of("now", java.nio.ByteBuffer.allocate(8).putLong(now).array()));
    return answer;
  }
}
