package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Issue 42: once the spent set held {@code MAX_SPENT} challenges of a window, every newcomer of
 * that node, valid solution or not, got no place until the window turned. Here the exact set is
 * made small (1,000) so that the test can fill it many times over: new challenges beyond it still
 * get their place (bar the Bloom filter's rare false positive), and no replay does.
 */
class ProofOfWorkSpentTest {
  @Test
  void aFullSpentSetStillLetsNewChallengesInAndRefusesEveryReplay() {
    try (WaitingRoom room =
        WaitingRoom.builder(
                RoomConfig.builder("pow").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(1)).build(),
                TicketKeys.generate())
            .backgroundSync(false)
            .build()) {
      ProofOfWork p = new ProofOfWork(room.seal("pow"), 8, 600, 1_000);
      long now = 1_800_000_000L; // a window's start (a multiple of 600)
      SplittableRandom random = new SplittableRandom(42);
      int total = 21_000;
      long[] ids = new long[total];
      int accepted = 0;
      for (int i = 0; i < total; i++) {
        ids[i] = random.nextLong();
        if (p.spend(new ProofOfWork.Challenge("t", now + i % 600, ids[i], 8), now + 600)) {
          accepted++;
        }
      }
      assertThat(accepted).as("20 times past the exact set, newcomers still get in").isGreaterThanOrEqualTo(total - 5);
      int replayed = 0;
      for (int i = 0; i < total; i++) {
        ProofOfWork.Challenge c = new ProofOfWork.Challenge("t", now + i % 600, ids[i], 8);
        assertThat(p.spent(c)).isTrue();
        if (p.spend(c, now + 700)) {
          replayed++;
        }
      }
      assertThat(replayed).as("no replay, in the exact set or beyond it").isZero();
    }
  }
}
