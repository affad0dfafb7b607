package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, finding 7: a session counts for its configured length after the user's last request,
 * not up to a slice longer. With the default one-second slices that holds to the second, whatever
 * node the last request reached; a wider slice counts it up to a slice longer, as documented.
 */
class SessionLengthTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final long SESSION = 60;

  private static RoomConfig.Builder config() {
    return RoomConfig.builder("session").totalActiveUsers(5).newUsersPerMinute(5)
        .sessionDuration(Duration.ofSeconds(SESSION));
  }

  /** Admitted on node a, last request on node b at a second that starts a 10 s slice. */
  private static final class LastRequest {
    final Cluster cluster;
    final WaitingRoom a;
    final WaitingRoom b;
    final String ticket;
    final long second;

    LastRequest(RoomConfig config) {
      cluster = new Cluster(config, KEYS);
      a = cluster.add("eu", "a");
      b = cluster.add("eu", "b");
      cluster.warmUp();
      Decision admitted = a.decide(null);
      assertThat(admitted.outcome()).isEqualTo(Decision.Outcome.ADMIT);
      cluster.advance(Duration.ofSeconds(20 - Math.floorMod(cluster.now(), 10L)));
      Decision last = b.decide(admitted.ticket());
      assertThat(last.letsThrough()).isTrue();
      ticket = Objects.requireNonNull(last.ticket(), "a request in a new slice re-issues the ticket");
      second = cluster.now();
    }

    /** Moves on to {@code seconds} after the last request's second (its first quarter). */
    void after(long seconds) {
      cluster.advance(Duration.ofSeconds(second + seconds - cluster.now()));
    }

    long counted() {
      return a.status().localActiveUsers() + b.status().localActiveUsers();
    }
  }

  @Test
  void aSessionCountsForItsLengthAfterTheLastRequestAndNotASliceLonger() {
    LastRequest r = new LastRequest(config().build());
    r.after(SESSION);
    assertThat(r.counted()).as("counted through the second its session ends in").isEqualTo(1);
    r.after(SESSION + 1);
    assertThat(r.counted()).as("and not a second longer").isZero();
    assertThat(r.a.decide(r.ticket).outcome()).as("its ticket no longer passes: it arrives anew")
        .isNotEqualTo(Decision.Outcome.PASS);
  }

  @Test
  void itsTicketStillPassesInTheLastSecondOfTheSession() {
    LastRequest r = new LastRequest(config().build());
    r.after(SESSION);
    assertThat(r.a.decide(r.ticket).outcome()).isEqualTo(Decision.Outcome.PASS);
  }

  @Test
  void aWiderSliceCountsTheSessionUpToASliceLonger() {
    LastRequest r = new LastRequest(config().sliceWidth(Duration.ofSeconds(10)).build());
    r.after(SESSION + 9);
    assertThat(r.counted()).as("a request at the start of a 10 s slice counts to its end").isEqualTo(1);
    r.after(SESSION + 10);
    assertThat(r.counted()).isZero();
  }
}
