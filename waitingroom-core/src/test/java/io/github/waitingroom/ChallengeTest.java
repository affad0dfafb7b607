package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link WaitingRoom#decide(String, String, boolean)}: a newcomer challenged instead of queued. */
class ChallengeTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private final RoomConfig config = Cluster.shop(2, Duration.ofSeconds(60)).refreshInterval(Duration.ofSeconds(10)).build();
  private final Cluster cluster = new Cluster(config, KEYS);
  private final WaitingRoom room = cluster.warmNode();

  @Test
  void aNewcomerIsLetInWhileTheRoomHasASlotAndChallengedWithoutASideEffectOnceItIsFull() {
    Decision first = room.decide(null, null, false);
    assertThat(first.outcome()).as("a free slot: no friction").isEqualTo(Decision.Outcome.ADMIT);
    assertThat(first.ticket()).isNotNull();
    assertThat(room.decide(null, null, false).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    long arrivals = room.metrics().arrivals();

    Decision challenged = room.decide(null, null, false);
    assertThat(challenged.outcome()).isEqualTo(Decision.Outcome.CHALLENGE);
    assertThat(challenged.letsThrough()).isFalse();
    assertThat(challenged.ticket()).as("no place").isNull();
    assertThat(room.metrics().arrivals()).as("no arrival counted").isEqualTo(arrivals);
    assertThat(room.metrics().decisions(Decision.Outcome.CHALLENGE)).isEqualTo(1);
    cluster.advance(Duration.ofSeconds(2));
    assertThat(room.status().waitingUsers()).as("nobody in line").isZero();

    Decision queued = room.decide(null, null, true);
    assertThat(queued.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    assertThat(room.metrics().arrivals()).isEqualTo(arrivals + 1);
    // The place it got keeps it waiting, whatever mayQueue says, and the session passes.
    assertThat(room.decide(null, queued.ticket(), false).outcome()).isEqualTo(Decision.Outcome.WAIT);
    assertThat(room.decide(first.ticket(), null, false).outcome()).isEqualTo(Decision.Outcome.PASS);
    // A forged place is a newcomer: challenged.
    assertThat(room.decide(null, "forged", false).outcome()).isEqualTo(Decision.Outcome.CHALLENGE);
  }

  @Test
  void theTwoArgumentFormNeverChallenges() {
    room.decide(null, null);
    room.decide(null, null);
    assertThat(room.decide(null, null).outcome()).isEqualTo(Decision.Outcome.QUEUE);
    assertThat(room.decide(null).outcome()).isEqualTo(Decision.Outcome.QUEUE);
  }

  @Test
  void aSealOpensOnlyForItsPurposeAndRoom() {
    byte[] value = "challenge".getBytes(StandardCharsets.UTF_8);
    Seal pow = room.seal("pow");
    String sealed = pow.seal(value);
    assertThat(pow.open(sealed)).isEqualTo(value);
    assertThat(room.seal("pow").open(sealed)).as("another instance, same keys").isEqualTo(value);
    assertThat(room.seal("flag").open(sealed)).as("another purpose").isNull();
    assertThat(pow.open(sealed.substring(1))).isNull();
    assertThat(pow.open(null)).isNull();
    assertThat(pow.open("!!!")).isNull();
    WaitingRoom other = new Cluster(RoomConfig.builder("other").totalActiveUsers(2).newUsersPerMinute(2).sessionDuration(Duration.ofSeconds(60)).build(), KEYS).add("local", "node");
    assertThat(other.seal("pow").open(sealed)).as("another room").isNull();
  }
}
