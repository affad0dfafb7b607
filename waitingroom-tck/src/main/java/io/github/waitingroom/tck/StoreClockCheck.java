package io.github.waitingroom.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kit's check of the store's clock ({@link Transport#CLOCK_SCOPE}) in every answer: its role is
 * to wrap each node's transport so that every call that publishes anything is answered with a
 * clock that never goes back (against the answers to calls of the same room that ended before
 * this one began) and stays within {@link TransportCompatibilityKit#storeClockTolerance()} of
 * {@link TransportCompatibilityKit#storeClock()} around the call. One per test, shared by its nodes.
 */
final class StoreClockCheck {
  private final TransportCompatibilityKit kit;

  /**
   * The latest store clock of an answer to a call that ended, per room: a call that begins after
   * it must not answer an earlier time.
   */
  private final Map<String, Long> latestClock = new ConcurrentHashMap<>();

  StoreClockCheck(TransportCompatibilityKit kit) {
    this.kit = kit;
  }

  /** {@return a node's transport whose every answer is checked for the store's clock} */
  Transport wrap(Transport delegate) {
    return (roomId, publications, retention) -> exchange(delegate, roomId, publications, retention);
  }

  private Map<String, Map<String, byte[]>> exchange(
      Transport delegate, String roomId, List<Transport.Publication> publications, Duration retention)
      throws IOException {
    long floor = latestClock.getOrDefault(roomId, Long.MIN_VALUE);
    long before = kit.storeClock().millis();
    Map<String, Map<String, byte[]>> answer = delegate.exchange(roomId, publications, retention);
    long after = kit.storeClock().millis();
    if (!publications.isEmpty()) {
      long now = Answers.clock(answer);
      long tolerance = kit.storeClockTolerance().toMillis();
      assertThat(now)
          .as("the store's clock (Transport.CLOCK_SCOPE) must never go back: an answer to a call that ended earlier"
              + " said %d ms", floor)
          .isGreaterThanOrEqualTo(floor);
      assertThat(now)
          .as("the store's clock (Transport.CLOCK_SCOPE) must follow the store's time, %d..%d ms around this call"
              + " by storeClock(), within storeClockTolerance() (%d ms)", before, after, tolerance)
          .isBetween(before - tolerance, after + tolerance);
      latestClock.merge(roomId, now, Math::max);
    }
    return answer;
  }
}
