package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The store's clock is required (issue 39: without it, three nodes whose clocks were 2.5 s apart
 * admitted 45 against a limit of 30). A node refuses a transport whose answers lack it: at build,
 * if the very first answer does; later, by treating every such answer as a failed exchange, so
 * that the failure policy applies exactly as when the store is down, with one error in the log.
 */
class StoreClockTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final Instant START = Instant.parse("2026-11-30T10:00:00.125Z");
  private static final RoomConfig CONFIG = RoomConfig.builder("clock").totalActiveUsers(5).newUsersPerMinute(5)
      .sessionDuration(Duration.ofMinutes(5)).build();

  /** An in-memory store, reached through a transport that can be down or answer without (or with a broken) clock. */
  private static final class Store implements Transport {
    private final InMemoryTransport store;
    volatile boolean down;
    volatile boolean clockless;
    /** What the answers carry as the clock while {@link #clockless}: nothing if null. */
    volatile byte @Nullable [] brokenClock;

    Store(ManualClock clock) {
      this.store = new InMemoryTransport(clock);
    }

    @Override
    public Map<String, Map<String, byte[]>> exchange(String roomId, List<Publication> publications, Duration retention)
        throws IOException {
      if (down) {
        throw new IOException("store down");
      }
      Map<String, Map<String, byte[]>> answer = new HashMap<>(store.exchange(roomId, publications, retention));
      if (clockless) {
        answer.remove(CLOCK_SCOPE);
        byte[] broken = brokenClock;
        if (broken != null) {
          answer.put(CLOCK_SCOPE, Map.of("now", broken));
        }
      }
      return answer;
    }
  }

  private static WaitingRoom build(ManualClock clock, Transport transport, FailurePolicy policy) {
    return WaitingRoom.builder(CONFIG, KEYS).clock(clock).transport(transport).failurePolicy(policy)
        .random(new SplittableRandom(7)).backgroundSync(false).build();
  }

  @Test
  void aRoomIsNotBuiltOnATransportWhoseFirstAnswerLacksTheStoresClock() {
    for (byte @Nullable [] broken : new byte[][] {null, new byte[4], new byte[8], {-1, 0, 0, 0, 0, 0, 0, 1}}) {
      ManualClock clock = new ManualClock(START);
      Store store = new Store(clock);
      store.clockless = true;
      store.brokenClock = broken;
      assertThatThrownBy(() -> build(clock, store, FailurePolicy.FAIL_OPEN))
          .isInstanceOf(IllegalStateException.class)
          .hasCauseInstanceOf(Transport.MissingClockException.class)
          .hasMessageContaining("room 'clock'")
          .hasMessageContaining("transport " + Store.class.getName())
          .hasMessageContaining(broken == null ? "no store clock" : "not 8 bytes of a positive time")
          .hasMessageContaining("Transport.CLOCK_SCOPE")
          .hasMessageContaining("TransportCompatibilityKit");
    }
  }

  /**
   * The store is down when the node starts (so the build cannot judge it), then answers without
   * its clock: the node acts exactly as it does while the store stays down, decision for
   * decision, and says why once, as an error; its status, health and metrics show a failing
   * store. Under FAIL_CLOSED it therefore admits nobody (before: it joined by the answers and
   * planned on them). Once the clock is back, it joins and admits.
   */
  @ParameterizedTest
  @EnumSource(FailurePolicy.class)
  void aNodeTreatsAnAnswerWithoutTheStoresClockAsAFailedExchangeAndSaysSoOnce(FailurePolicy policy) {
    ManualClock downClock = new ManualClock(START);
    Store down = new Store(downClock);
    down.down = true;
    ManualClock clocklessClock = new ManualClock(START);
    Store clockless = new Store(clocklessClock);
    clockless.down = true;
    try (WaitingRoom whileDown = build(downClock, down, policy);
        WaitingRoom withoutClock = build(clocklessClock, clockless, policy)) {
      clockless.down = false;
      clockless.clockless = true;
      List<Boolean> expected = new ArrayList<>();
      List<Boolean> actual = new ArrayList<>();
      List<String> waiting = new ArrayList<>();
      String log =
          Logs.during(
              () -> {
                for (int quarter = 0; quarter < 4 * 60; quarter++) {
                  downClock.advance(Duration.ofMillis(250));
                  clocklessClock.advance(Duration.ofMillis(250));
                  whileDown.sync();
                  withoutClock.sync();
                  if (quarter % 4 == 0) {
                    expected.add(whileDown.decide(null).letsThrough());
                    Decision d = withoutClock.decide(null);
                    actual.add(d.letsThrough());
                    if (!d.letsThrough()) {
                      waiting.add(d.ticket());
                    }
                  }
                }
              });
      assertThat(actual).as("decisions as while the store is down").isEqualTo(expected);
      if (policy == FailurePolicy.FAIL_CLOSED) {
        assertThat(actual).as("nobody gets in on the account of a store without a clock").containsOnly(false);
      }
      assertThat(log.lines().filter(l -> l.contains("ERROR")).toList())
          .as(log)
          .singleElement()
          .asString()
          .contains("room 'clock'", "transport " + Store.class.getName() + " answered with no store clock",
              "Transport.CLOCK_SCOPE", "TransportCompatibilityKit", "as when the store is down (" + policy + ")");
      assertThat(withoutClock.transportFailing()).as("status and health show it").isTrue();
      assertThat(withoutClock.status().transportFailing()).isTrue();
      assertThat(withoutClock.metrics().storeOutages()).as("one outage, not one per sync").isEqualTo(1);

      clockless.clockless = false;
      int admitted = 0;
      for (int quarter = 0; quarter < 4 * 10; quarter++) {
        clocklessClock.advance(Duration.ofMillis(250));
        withoutClock.sync();
        if (quarter % 4 == 0) {
          for (String ticket : waiting) {
            admitted += withoutClock.decide(ticket).letsThrough() ? 1 : 0;
          }
        }
      }
      assertThat(withoutClock.transportFailing()).as("with the clock back, the store answers").isFalse();
      if (policy == FailurePolicy.FAIL_CLOSED) {
        assertThat(admitted).as("and the node admits from its line").isPositive();
      }
    }
  }
}
