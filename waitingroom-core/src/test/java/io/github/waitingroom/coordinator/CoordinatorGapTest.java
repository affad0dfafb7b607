package io.github.waitingroom.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.allocation.Tally;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Nodes that lose the store together and get it back together see each other's reports as they
 * were before the outage. Counting the others as silent then makes each one the only live node of
 * its data center, and each hands itself every free slot: the simulator's store-fail-closed went
 * to 378 active of 300 that way. After a gap, a node waits a few epochs for those that published
 * until the gap began.
 */
class CoordinatorGapTest {
  private static final RoomConfig CONFIG =
      RoomConfig.builder("gap").totalActiveUsers(100).newUsersPerMinute(100).sessionDuration(Duration.ofMinutes(5)).build();
  private static final Duration EPOCH = Duration.ofSeconds(1);
  private static final Tally HALF = new Tally(40, 0, 10, 5, new TreeMap<>(), new long[0]);

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00.100Z"));
  private final InMemoryTransport store = new InMemoryTransport(clock);
  private final ReportSeal seal = new ReportSeal(TicketKeys.generate(), CONFIG.roomId());
  private final Coordinator a = new StoreCoordinator(CONFIG, store, seal, "eu", "a#1", EPOCH);
  private final Coordinator b = new StoreCoordinator(CONFIG, store, seal, "eu", "b#1", EPOCH);
  private final TreeMap<Long, Tally> aTallies = new TreeMap<>();
  private final TreeMap<Long, Tally> bTallies = new TreeMap<>();
  private long joined;

  /** Both nodes join and publish for eight epochs, then both lose the store for a minute. */
  @BeforeEach
  void bothPublishThenLoseTheStore() throws IOException {
    joined = a.join(clock::millis, o -> {}).epoch();
    b.join(clock::millis, o -> {});
    for (int i = 0; i < 8; i++) {
      long epoch = nextEpoch();
      tally(aTallies, epoch);
      tally(bTallies, epoch);
      for (int q = 0; q < 3; q++) { // publish, settle the data center, read its sum back
        a.exchange(joined, aTallies, epoch);
        b.exchange(joined, bTallies, epoch);
      }
    }
    Coordinator.Settled before = Objects.requireNonNull(a.settled(clock.millis() / 1000 - 1), "settled before the gap");
    assertThat(before.nodes()).hasSize(2);
    clock.advance(Duration.ofSeconds(60));
  }

  @Test
  void afterAGapANodeWaitsForTheOthersInsteadOfPlanningAsTheOnlyLiveNode() throws IOException {
    long epoch = nextEpoch();
    tally(aTallies, epoch);
    for (int q = 0; q < 4; q++) {
      a.exchange(joined, aTallies, epoch);
    }
    assertThat(a.settled(epoch - 1)).as("a waits for b, which published until the gap began").isNull();

    // b is back too: both settle with each other live.
    tally(bTallies, epoch);
    b.exchange(joined, bTallies, epoch);
    a.exchange(joined, aTallies, epoch);
    Coordinator.Settled s = Objects.requireNonNull(a.settled(epoch - 1), "settled once b is back");
    assertThat(s.nodes()).as("live nodes in a's data center").hasSize(2);
  }

  @Test
  void oneThatDoesNotComeBackWithinTheGraceCountsAsSilent() throws IOException {
    Coordinator.@Nullable Settled s = null;
    for (int i = 0; i < 10 && s == null; i++) {
      long epoch = nextEpoch();
      tally(aTallies, epoch);
      for (int q = 0; q < 4; q++) {
        a.exchange(joined, aTallies, epoch);
      }
      s = a.settled(epoch - 1);
    }
    Coordinator.Settled after = Objects.requireNonNull(s, "settled once the grace has passed");
    assertThat(after.nodes()).as("b counts as silent, not live").hasSize(1);
    assertThat(after.dataCenters().get(0).active()).as("b's users still count").isEqualTo(80);
  }

  private long nextEpoch() {
    clock.advance(EPOCH);
    return clock.millis() / 1000;
  }

  /** The node's tally of the epoch that just ended, keeping the latest epochs as a report does. */
  private static void tally(TreeMap<Long, Tally> tallies, long epoch) {
    tallies.put(epoch - 1, HALF);
    while (tallies.size() > Report.EPOCHS_KEPT) {
      tallies.pollFirstEntry();
    }
  }
}
