package io.github.waitingroom.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.allocation.RoomView;
import io.github.waitingroom.coordinator.SyncCadence.Signal;
import java.time.Duration;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SyncCadenceTest {
  private static final Duration BASE = Duration.ofSeconds(1);
  private final SyncCadence cadence = new SyncCadence(BASE, Duration.ofMillis(250), Duration.ofSeconds(4));
  private final RoomConfig config = RoomConfig.builder("cadence").totalActiveUsers(100).newUsersPerMinute(50).sessionDuration(Duration.ofMinutes(5)).build();
  private static final long NOW = 1_800_000_000L;

  @Test
  void changingGoesFastIdleStretchesUpToTheSlowestFailingAndSteadyUseTheBase() {
    assertThat(cadence.next(BASE, Signal.CHANGING, 0.5).plain()).isEqualTo(Duration.ofMillis(250));
    Duration d = BASE;
    for (int i = 0; i < 10; i++) {
      d = cadence.next(d, Signal.IDLE, 0.5).plain();
    }
    assertThat(d).isEqualTo(Duration.ofSeconds(4));
    assertThat(cadence.next(Duration.ofSeconds(4), Signal.FAILING, 0.5).plain()).isEqualTo(BASE);
    assertThat(cadence.next(Duration.ofMillis(250), Signal.STEADY, 0.5).plain()).isEqualTo(BASE);
    assertThat(cadence.next(Duration.ofMillis(250), Signal.IDLE, 0.5).plain()).isEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void jitterIsTenPercentEitherWayAndStaysWithinTheBounds() {
    assertThat(cadence.next(BASE, Signal.STEADY, 0.0).jittered()).isEqualTo(Duration.ofMillis(900));
    assertThat(cadence.next(BASE, Signal.STEADY, 0.999999).jittered()).isEqualTo(Duration.ofMillis(1100));
    assertThat(cadence.next(BASE, Signal.STEADY, 0.5).jittered()).isEqualTo(BASE);
    assertThat(cadence.next(BASE, Signal.CHANGING, 0.0).jittered()).isEqualTo(Duration.ofMillis(250));
    assertThat(cadence.next(Duration.ofSeconds(4), Signal.IDLE, 0.999999).jittered()).isEqualTo(Duration.ofSeconds(4));
  }

  @Test
  void rejectsBoundsThatDoNotEncloseTheBase() {
    assertThatThrownBy(() -> new SyncCadence(BASE, Duration.ofSeconds(2), Duration.ofSeconds(4)))
        .hasMessageContaining("fastest <= syncInterval <= slowest");
  }

  @Test
  void classifiesTrafficJumpsNodeChangesIdlenessAndFailure() {
    long slice = config.sliceOf(NOW);
    RoomView quiet = view(Map.of());
    RoomView steady = view(Map.of(slice - 20, 100L, slice - 10, 110L));
    RoomView spike = view(Map.of(slice - 20, 100L, slice - 10, 400L));
    RoomView trickle = view(Map.of(slice - 20, 1L, slice - 10, 6L));
    assertThat(SyncCadence.classify(config, null, 1, quiet, 1, false)).isEqualTo(Signal.CHANGING);
    assertThat(SyncCadence.classify(config, quiet, 1, quiet, 1, false)).isEqualTo(Signal.IDLE);
    assertThat(SyncCadence.classify(config, steady, 1, steady, 1, false)).isEqualTo(Signal.STEADY);
    assertThat(SyncCadence.classify(config, steady, 1, spike, 1, false)).isEqualTo(Signal.CHANGING);
    assertThat(SyncCadence.classify(config, trickle, 1, trickle, 1, false))
        .as("a change below the noise floor is not a change")
        .isEqualTo(Signal.STEADY);
    assertThat(SyncCadence.classify(config, steady, 2, steady, 3, false)).isEqualTo(Signal.CHANGING);
    assertThat(SyncCadence.classify(config, steady, 1, spike, 1, true)).isEqualTo(Signal.FAILING);
  }

  private RoomView view(Map<Long, Long> traffic) {
    NavigableMap<Long, Long> t = new TreeMap<>(traffic);
    Report dc = new Report("dc-a", NOW, 1, new TreeMap<>(), new TreeMap<>(), t, new TreeMap<>());
    return RoomView.of(config, NOW, Map.of("dc-a", dc));
  }
}
