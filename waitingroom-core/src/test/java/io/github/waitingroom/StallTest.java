package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A plan must settle by the first sync of the epoch after next. When one data center sees the
 * other's reports too late for that (here: the other node syncs only in the last quarter of each
 * epoch, so its data center's sum of an epoch reaches the store late in the epoch after next, as
 * a propagation lag of most of an epoch would make it look), the node plans nothing new; it must
 * say so, once, and name the remedy, instead of stalling silently.
 */
class StallTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  @Test
  void nodesWhoseEpochsNeverSettleInTimeWarnOnceAndNameTheRemedy() {
    RoomConfig config = RoomConfig.builder("stall").totalActiveUsers(10).newUsersPerMinute(10)
        .sessionDuration(Duration.ofMinutes(5)).build();
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom a = c.add("eu", "a");
    WaitingRoom b = c.add("us", "b");
    c.warmUp();
    long plannedBefore = a.status().planEpoch();
    String log =
        Logs.during(
            () -> {
              for (int quarter = 0; quarter < 4 * 30; quarter++) {
                c.storeClock.advance(Cluster.STEP);
                c.clocks.forEach(clock -> clock.advance(Cluster.STEP));
                a.sync();
                if (quarter % 4 == 3) {
                  b.sync(); // late in every epoch: its tally reaches a after a's plan had to be made
                }
              }
            });
    assertThat(a.status().planEpoch()).as("a planned nothing new").isLessThanOrEqualTo(plannedBefore + 2);
    // b still gets its plans: its own sum of an epoch reaches the store at its next sync, late in
    // the epoch after, and the read right before its next tally finds every sum there. Only a
    // stalls, and says so once.
    assertThat(b.status().planEpoch()).as("b's late reads").isGreaterThan(plannedBefore + 20);
    assertThat(log.lines().filter(l -> l.contains("no plan has settled in time")).count()).as(log).isEqualTo(1);
    assertThat(log).contains("raise syncInterval");

    // Once b syncs in time again, plans settle and the node says so.
    c.advance(Duration.ofSeconds(5));
    assertThat(a.status().planEpoch()).isGreaterThan(plannedBefore + 2);
  }
}
