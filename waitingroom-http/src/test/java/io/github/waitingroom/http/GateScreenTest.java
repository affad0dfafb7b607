package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gate's first look at a request ({@link Gate#screen}), which both adapters take: the answer to a
 * CORS preflight, a pass for what the room does not decide, and nothing for what it decides.
 */
class GateScreenTest {
  private static final Map<String, String> PREFLIGHT =
      Map.of("Origin", "https://other.example", "Access-Control-Request-Method", "POST");

  private final WaitingRoom room =
      WaitingRoom.builder(
              RoomConfig.builder("shop").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(1)).build(),
              TicketKeys.generate())
          .backgroundSync(false)
          .build();

  @AfterEach
  void close() {
    room.close();
  }

  @Test
  void aPreflightIsAnsweredWhatTheRoomDoesNotDecidePassesAndTheRestIsDecided() {
    Gate gate = Gate.builder(room).pathPrefix("/shop").ignorePaths("/shop/static/").build();
    GateResponse preflight = answered(gate.screen("OPTIONS", "/shop/cart", "/shop/cart", PREFLIGHT::get));
    assertThat(preflight.passes()).isFalse();
    assertThat(preflight.status()).isEqualTo(204);
    GateResponse ignored = answered(gate.screen("GET", "/shop/static/a.css", "/shop/static/a.css", name -> null));
    assertThat(ignored.passes()).isTrue();
    assertThat(ignored.setCookie()).isNull();
    assertThat(gate.screen("GET", "/elsewhere", "/elsewhere", name -> null)).isNotNull();
    assertThat(gate.screen("GET", "/shop/cart", "/shop/cart", name -> null)).isNull();
    assertThat(gate.screen("OPTIONS", "/shop/cart", "/shop/cart", name -> null)).isNull(); // not a preflight
  }

  @Test
  void withPassThroughAPreflightPassesUntouched() {
    Gate gate = Gate.builder(room).corsPassThrough(true).build();
    GateResponse preflight = answered(gate.screen("OPTIONS", "/cart", "/cart", PREFLIGHT::get));
    assertThat(preflight.passes()).isTrue();
  }

  /** The screen's answer, which must be there. */
  private static GateResponse answered(@Nullable GateResponse screened) {
    assertThat(screened).isNotNull();
    return Objects.requireNonNull(screened);
  }
}
