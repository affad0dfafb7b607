package io.github.waitingroom.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.ManualClock;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.coordinator.Transport.Publication;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class LaggedTransportTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final LaggedTransport transport =
      new LaggedTransport(clock, Duration.ofSeconds(1), Duration.ofMillis(100));
  private static final Duration RETENTION = Duration.ofMinutes(5);

  private Map<String, byte[]> publish(String scope, String publisher, String payload) {
    return Objects.requireNonNull(
        transport
            .exchange("room", List.of(new Publication(scope, publisher, bytes(payload))), RETENTION)
            .get(scope));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte @Nullable [] b) {
    return b == null ? "<missing>" : new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void othersAreSeenAsTheyWereOneLagAgoAndOneselfFresh() {
    String global = Coordinator.GLOBAL_SCOPE;
    publish(global, "dc-a", "a1");
    clock.advance(Duration.ofMillis(500));
    Map<String, byte[]> seen = publish(global, "dc-b", "b1");
    assertThat(seen).containsOnlyKeys("dc-b");
    assertThat(text(seen.get("dc-b"))).isEqualTo("b1");

    clock.advance(Duration.ofMillis(500));
    seen = publish(global, "dc-b", "b2");
    assertThat(text(seen.get("dc-a"))).isEqualTo("a1");
    assertThat(text(seen.get("dc-b"))).isEqualTo("b2");

    clock.advance(Duration.ofMillis(200));
    publish(global, "dc-a", "a2");
    clock.advance(Duration.ofMillis(300));
    assertThat(text(publish(global, "dc-b", "b3").get("dc-a"))).isEqualTo("a1");
    clock.advance(Duration.ofMillis(700));
    assertThat(text(publish(global, "dc-b", "b4").get("dc-a"))).isEqualTo("a2");
  }

  @Test
  void aDataCenterScopeHasItsOwnShorterLag() {
    publish("dc:x", "node-1", "n1");
    clock.advance(Duration.ofMillis(99));
    assertThat(publish("dc:x", "node-2", "m1")).containsOnlyKeys("node-2");
    clock.advance(Duration.ofMillis(1));
    assertThat(publish("dc:x", "node-2", "m2")).containsOnlyKeys("node-1", "node-2");
  }

  @Test
  void theStoreClockComesBackFreshAndAFlushForgetsEverything() {
    publish(Coordinator.GLOBAL_SCOPE, "dc-a", "a1");
    clock.advance(Duration.ofSeconds(2));
    Map<String, Map<String, byte[]>> answer =
        transport.exchange("room", List.of(new Publication(Coordinator.GLOBAL_SCOPE, "dc-b", bytes("b1"))), RETENTION);
    byte[] now = Objects.requireNonNull(answer.get(Transport.CLOCK_SCOPE)).get("now");
    assertThat(ByteBuffer.wrap(Objects.requireNonNull(now)).getLong()).isEqualTo(clock.millis());
    assertThat(answer.get(Coordinator.GLOBAL_SCOPE)).containsOnlyKeys("dc-a", "dc-b");
    transport.flush();
    assertThat(publish(Coordinator.GLOBAL_SCOPE, "dc-b", "b2")).containsOnlyKeys("dc-b");
    assertThat(transport.exchanges).isEqualTo(3);
  }

  @Test
  void expiredPublishersDisappear() {
    publish(Coordinator.GLOBAL_SCOPE, "dc-a", "a1");
    clock.advance(RETENTION.plusSeconds(1));
    assertThat(publish(Coordinator.GLOBAL_SCOPE, "dc-b", "b1")).containsOnlyKeys("dc-b");
  }
}
