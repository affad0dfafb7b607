package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 42: with {@link GateOptions#confirmNewcomers} a newcomer counts only once it brings back
 * the cookie of its first answer, from the address it was sent to, within 30 s; with friction on,
 * the challenge it is given then counts as coming back, so the proof of work goes on as without
 * the setting. (Over real servers, both stacks: {@code GateContract}.)
 */
class ConfirmationTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-06T10:00:00Z"));
  private final WaitingRoom room =
      WaitingRoom.builder(
              RoomConfig.builder("shop").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(1)).build(),
              KEYS)
          .clock(clock)
          .backgroundSync(false)
          .build();

  @AfterEach
  void close() {
    room.close();
  }

  private static GateRequest request(@Nullable String friction, String address) {
    return GateRequest.builder("", "GET").accept("text/html").rawPath("/shop").friction(friction).remoteAddress(address).build();
  }

  /** The value of the challenge cookie an answer sets. */
  private static String friction(GateResponse r) {
    String c = Objects.requireNonNull(r.setCookie());
    return c.substring(c.indexOf('=') + 1, c.indexOf(';'));
  }

  @Test
  void aConfirmationCountsFromItsOwnAddressForThirtySeconds() {
    Gate g = Gate.builder(room).confirmNewcomers(true).build();
    GateResponse first = g.handle(request(null, "192.0.2.1"));
    assertThat(first.passes()).isFalse();
    assertThat(first.status()).isEqualTo(307);
    String confirmation = friction(first);
    assertThat(confirmation).startsWith(Confirmation.PREFIX);
    assertThat(g.handle(request(confirmation, "198.51.100.7")).status()).as("from another address").isEqualTo(307);
    assertThat(g.handle(request("p.forged", "192.0.2.1")).status()).as("forged").isEqualTo(307);
    clock.advance(Duration.ofSeconds(31));
    assertThat(g.handle(request(confirmation, "192.0.2.1")).status()).as("31 s later").isEqualTo(307);
    assertThat(room.status().activeUsers()).isZero();
    String fresh = friction(g.handle(request(null, "192.0.2.1")));
    clock.advance(Duration.ofSeconds(30));
    assertThat(g.handle(request(fresh, "192.0.2.1")).passes()).as("back within 30 s: let in on the free slot").isTrue();
  }

  @Test
  void withAProofOfWorkTheChallengeItGetsCountsAsComingBack() {
    Gate g = Gate.builder(room).confirmNewcomers(true).proofOfWork(8).build();
    GateResponse in = g.handle(request(friction(g.handle(request(null, "192.0.2.1"))), "192.0.2.1"));
    assertThat(in.passes()).as("the free slot, once it came back").isTrue();
    GateResponse second = g.handle(request(null, "192.0.2.2"));
    assertThat(second.status()).isEqualTo(307);
    GateResponse challenge = g.handle(request(friction(second), "192.0.2.2"));
    assertThat(challenge.status()).as("the room is full: the challenge page").isNotEqualTo(307);
    String held = friction(challenge);
    assertThat(held).startsWith("c.");
    GateResponse again = g.handle(request(held, "192.0.2.2"));
    assertThat(again.status()).as("its challenge counts as coming back").isEqualTo(challenge.status());
    assertThat(again.setCookie()).as("the same challenge, not a new round trip").isNull();
    assertThat(g.handle(request(held, "192.0.2.3")).status()).as("a challenge fetched from another address").isEqualTo(307);
  }
}
