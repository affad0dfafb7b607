package io.github.waitingroom.tck;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.coordinator.Transport;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The kit fails a transport whose answers lack the store's clock or carry one that does not follow
 * the store's time, in its clock test and in any other: a node would refuse it.
 */
class StoreClockCheckTest {
  /** What the answers carry as the store's clock, given the store's: nothing if null. */
  private interface Rewrite {
    @Nullable Map<String, byte[]> apply(Map<String, byte[]> clock);
  }

  /** The kit over the in-memory store on a manual clock, whose answers' clock {@code rewrite} changes. */
  private static TransportCompatibilityKit kit(Rewrite rewrite) {
    return new InMemoryTransportCompatibilityTest() {
      @Override
      protected Transport transport() {
        Transport store = super.transport();
        return (roomId, publications, retention) -> {
          Map<String, Map<String, byte[]>> answer = new HashMap<>(store.exchange(roomId, publications, retention));
          Map<String, byte[]> rewritten = rewrite.apply(Objects.requireNonNull(answer.remove(Transport.CLOCK_SCOPE)));
          if (rewritten != null) {
            answer.put(Transport.CLOCK_SCOPE, rewritten);
          }
          return answer;
        };
      }
    };
  }

  private static Map<String, byte[]> millis(long millis) {
    return Map.of("now", ByteBuffer.allocate(8).putLong(millis).array());
  }

  private static long millis(Map<String, byte[]> clock) {
    return ByteBuffer.wrap(Objects.requireNonNull(clock.get("now"))).getLong();
  }

  @Test
  void theKitPassesTheStoresOwnClock() {
    TransportCompatibilityKit kit = kit(clock -> clock);
    assertThatCode(kit::everyAnswerCarriesTheStoresClockWhichFollowsTheStoresTime).doesNotThrowAnyException();
    assertThatCode(kit::answersEveryPublisherOfTheScope).doesNotThrowAnyException();
  }

  @Test
  void theKitFailsATransportWithoutTheStoresClock() {
    TransportCompatibilityKit kit = kit(clock -> null);
    assertThatThrownBy(kit::everyAnswerCarriesTheStoresClockWhichFollowsTheStoresTime)
        .isInstanceOf(AssertionError.class).hasMessageContaining("lacks the store's clock");
    assertThatThrownBy(kit::answersEveryPublisherOfTheScope)
        .as("every test checks it").isInstanceOf(AssertionError.class).hasMessageContaining("lacks the store's clock");
  }

  @Test
  void theKitFailsAClockThatIsNotEightBytes() {
    TransportCompatibilityKit kit = kit(clock -> Map.of("now", new byte[4]));
    assertThatThrownBy(kit::answersEveryPublisherOfTheScope).isInstanceOf(AssertionError.class).hasMessageContaining("8 bytes");
  }

  @Test
  void theKitFailsAClockInSeconds() {
    TransportCompatibilityKit kit = kit(clock -> millis(millis(clock) / 1000));
    assertThatThrownBy(kit::answersEveryPublisherOfTheScope)
        .isInstanceOf(AssertionError.class).hasMessageContaining("must follow the store's time");
  }

  @Test
  void theKitFailsTheCallersClockOverAStoreThatKeepsAnother() {
    // The answers say 10 s more than the store's time: a caller whose clock is ahead.
    TransportCompatibilityKit kit = kit(clock -> millis(millis(clock) + 10_000));
    assertThatThrownBy(kit::answersEveryPublisherOfTheScope)
        .isInstanceOf(AssertionError.class).hasMessageContaining("must follow the store's time");
  }

  @Test
  void theKitFailsAClockThatGoesBack() {
    long[] calls = {0};
    // Within the tolerance of the store's time, but 1 s earlier at every second call.
    TransportCompatibilityKit kit = kit(clock -> millis(millis(clock) - 1000 * (calls[0]++ % 2)));
    assertThatThrownBy(kit::everyAnswerCarriesTheStoresClockWhichFollowsTheStoresTime)
        .isInstanceOf(AssertionError.class).hasMessageContaining("must never go back");
  }
}
