package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A plan must settle by the first sync of the epoch after next. When one data center sees the
 * other's reports too late for that (here: the other node syncs only in the last quarter of each
 * epoch, and what it writes to the global scope lands only at its next sync, an epoch later, as a
 * propagation lag of most of an epoch would make it look), the node plans nothing new for a
 * while; it says so, once, and the room lengthens its epochs by itself until its plans settle in
 * time again (issue 39: before, it stalled for as long as the lag lasted). With a lag of 0.6
 * epochs, plans settle in time at the first length.
 */
class StallTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  @Test
  void whenPlansStopSettlingInTimeTheRoomSaysSoOnceAndLengthensItsEpochs() {
    RoomConfig config = RoomConfig.builder("stall").totalActiveUsers(10).newUsersPerMinute(10)
        .sessionDuration(Duration.ofMinutes(5)).build();
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom a = c.add("eu", "a");
    WaitingRoom b = c.add("us", "b", c.lagging(Duration.ofMillis(500)));
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
    assertThat(log.lines().filter(l -> l.contains("no plan has settled in time")).count()).as(log).isEqualTo(1);
    assertThat(log).contains("the room lengthens its epochs");
    assertThat(log).as("the decision, logged").containsPattern("settled \\d+ ms after its end; epochs of \\d+ ms");
    assertThat(log).as("and its effect").contains("plans settle in time again");
    assertThat(a.status().planEpoch()).as("a plans again").isGreaterThan(plannedBefore + 2);

    // Once b syncs in time again, plans settle and the node says so.
    c.advance(Duration.ofSeconds(5));
    assertThat(a.status().planEpoch()).isGreaterThan(plannedBefore + 2);
  }

  @Test
  void plansSettleInTimeWithALagOfSixTenthsOfAnEpochBetweenDataCenters() {
    // A data center's sum of an epoch is settled once its nodes' tallies are in, a sync after they
    // are published. Published only at the sync after that, it reached the other data center after
    // the last read that could still apply the plan, and no plan settled: now it is published at
    // once.
    RoomConfig config = RoomConfig.builder("lag").totalActiveUsers(10).newUsersPerMinute(10)
        .sessionDuration(Duration.ofMinutes(5)).build();
    Cluster c = new Cluster(config, KEYS);
    Duration lag = Duration.ofMillis(600);
    // In each data center, the node that publishes its sums (the first by name) syncs last, right
    // after its peers have published their tallies, as a node does whose sync comes after the lag
    // within its data center.
    c.add("eu", "a2", c.lagging(lag));
    WaitingRoom a = c.add("eu", "a1", c.lagging(lag));
    c.add("us", "b2", c.lagging(lag));
    WaitingRoom b = c.add("us", "b1", c.lagging(lag));
    String log = Logs.during(() -> c.advance(Duration.ofSeconds(30)));
    long epoch = c.now(); // epochs of one second
    assertThat(a.status().planEpoch()).as(log).isGreaterThanOrEqualTo(epoch - 2);
    assertThat(b.status().planEpoch()).as(log).isGreaterThanOrEqualTo(epoch - 2);
    assertThat(log).doesNotContain("no plan has settled in time");
  }

  @Test
  void withALagOfThreeEpochsTheDataCentersWaitForEachOtherAndLengthenTheirEpochsInsteadOfSplitting() {
    // Each data center sees the other's sums three epochs late: beyond the two after which a data
    // center that stopped publishing counts as silent, and too late for any epoch a node still
    // holds to settle. Counted silent, each would plan as a room of its own and hand out every
    // free slot (the simulator's lag3 with the legacy mix: 304 of 300); here, before, no plan
    // settled and the room never lengthened its epochs (10 admitted in 4 minutes, then none).
    // Their sums keep coming, so each waits for the other instead, and the room lengthens its
    // epochs by how late the sums come, until its plans settle in time: 40 of the 40 the
    // per-minute limit allows.
    RoomConfig config = RoomConfig.builder("lag3").totalActiveUsers(10).newUsersPerMinute(10)
        .sessionDuration(Duration.ofMinutes(1)).build();
    Cluster c = new Cluster(config, KEYS);
    Duration lag = Duration.ofSeconds(3);
    WaitingRoom eu = c.add("eu", "a", c.lagging(lag));
    c.advance(Duration.ofSeconds(10));
    WaitingRoom us = c.add("us", "b", c.lagging(lag)); // (two joining within the lag would each be alone)
    c.advance(Duration.ofSeconds(10));
    int[] admitted = new int[2];
    java.util.ArrayDeque<Integer> lastMinute = new java.util.ArrayDeque<>();
    java.util.List<java.util.Map.Entry<Integer, String>> waiting = new java.util.ArrayList<>();
    String log =
        Logs.during(
            () -> {
              for (int second = 0; second < 240; second++) {
                // A newcomer on each side every second; those queued poll every 5 s, and everyone
                // admitted leaves at once: each admission is active for one session, so no minute
                // may hold more than the limit of them.
                for (int i = 0; i < 2; i++) {
                  WaitingRoom node = i == 0 ? eu : us;
                  Decision d = node.decide(null);
                  if (d.outcome() == Decision.Outcome.QUEUE) {
                    waiting.add(java.util.Map.entry(i, d.ticket()));
                  } else if (d.outcome() == Decision.Outcome.ADMIT) {
                    admitted[i]++;
                    lastMinute.addLast(second);
                  }
                }
                if (second % 5 == 0) {
                  for (var it = waiting.listIterator(); it.hasNext(); ) {
                    var w = it.next();
                    Decision d = (w.getKey() == 0 ? eu : us).decide(w.getValue());
                    if (d.outcome() == Decision.Outcome.ADMIT) {
                      admitted[w.getKey()]++;
                      lastMinute.addLast(second);
                      it.remove();
                    } else if (d.ticket() != null) {
                      it.set(java.util.Map.entry(w.getKey(), d.ticket()));
                    }
                  }
                }
                while (lastMinute.peekFirst() != null && lastMinute.peekFirst() <= second - 60) {
                  lastMinute.removeFirst();
                }
                assertThat(lastMinute).as("admitted in the minute up to second %d", second).hasSizeLessThanOrEqualTo(10);
                c.advance(Duration.ofSeconds(1));
              }
            });
    assertThat(log).as("the room lengthened its epochs").containsPattern("epochs of (8000|16000) ms from epoch");
    assertThat(log).contains("plans settle in time again");
    assertThat(admitted[0] + admitted[1]).as("the room kept letting people in: " + log).isGreaterThan(20);
    assertThat(admitted[1]).as("us let people in").isPositive();
  }
}
