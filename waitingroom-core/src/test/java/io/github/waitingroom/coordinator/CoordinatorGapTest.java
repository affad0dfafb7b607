package io.github.waitingroom.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.allocation.Tally;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.TreeMap;
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

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00.100Z"));
  private final InMemoryTransport store = new InMemoryTransport(clock);
  private final ReportSeal seal = new ReportSeal(TicketKeys.generate(), CONFIG.roomId());

  @Test
  void afterAGapANodeWaitsForTheOthersInsteadOfPlanningAsTheOnlyLiveNode() throws IOException {
    Coordinator a = new Coordinator(CONFIG, store, seal, "eu", "a#1", EPOCH);
    Coordinator b = new Coordinator(CONFIG, store, seal, "eu", "b#1", EPOCH);
    long joined = a.join(clock::millis, 1000, o -> {}).epoch();
    b.join(clock::millis, 1000, o -> {});
    TreeMap<Long, Tally> aTallies = new TreeMap<>();
    TreeMap<Long, Tally> bTallies = new TreeMap<>();
    Tally half = new Tally(40, 0, 0, 0, 0, 10, 5, new TreeMap<>(), new long[0]);
    long epoch = 0;
    for (int i = 0; i < 8; i++) {
      clock.advance(EPOCH);
      epoch = clock.millis() / 1000;
      aTallies.put(epoch - 1, half);
      bTallies.put(epoch - 1, half);
      trim(aTallies);
      trim(bTallies);
      for (int q = 0; q < 3; q++) {
        a.exchange(joined, aTallies, epoch);
        b.exchange(joined, bTallies, epoch);
      }
    }
    Coordinator.Settled before = java.util.Objects.requireNonNull(a.settled(epoch - 1), "settled before the gap");
    assertThat(before.nodes()).hasSize(2);

    // Both lose the store for a minute; a gets it back first.
    clock.advance(Duration.ofSeconds(60));
    epoch = clock.millis() / 1000;
    aTallies.put(epoch - 1, half);
    trim(aTallies);
    for (int q = 0; q < 4; q++) {
      a.exchange(joined, aTallies, epoch);
    }
    assertThat(a.settled(epoch - 1)).as("a waits for b, which published until the gap began").isNull();

    // b is back too: both settle with each other live.
    bTallies.put(epoch - 1, half);
    trim(bTallies);
    b.exchange(joined, bTallies, epoch);
    a.exchange(joined, aTallies, epoch);
    Coordinator.Settled s = java.util.Objects.requireNonNull(a.settled(epoch - 1), "settled once b is back");
    assertThat(s.nodes()).as("live nodes in a's data center").hasSize(2);
  }

  @Test
  void oneThatDoesNotComeBackWithinTheGraceCountsAsSilent() throws IOException {
    Coordinator a = new Coordinator(CONFIG, store, seal, "eu", "a#1", EPOCH);
    Coordinator b = new Coordinator(CONFIG, store, seal, "eu", "b#1", EPOCH);
    long joined = a.join(clock::millis, 1000, o -> {}).epoch();
    b.join(clock::millis, 1000, o -> {});
    TreeMap<Long, Tally> aTallies = new TreeMap<>();
    TreeMap<Long, Tally> bTallies = new TreeMap<>();
    Tally half = new Tally(40, 0, 0, 0, 0, 10, 5, new TreeMap<>(), new long[0]);
    long epoch = 0;
    for (int i = 0; i < 8; i++) {
      clock.advance(EPOCH);
      epoch = clock.millis() / 1000;
      aTallies.put(epoch - 1, half);
      bTallies.put(epoch - 1, half);
      trim(aTallies);
      trim(bTallies);
      a.exchange(joined, aTallies, epoch);
      b.exchange(joined, bTallies, epoch);
    }
    clock.advance(Duration.ofSeconds(60));
    Coordinator.@org.jspecify.annotations.Nullable Settled s = null;
    for (int i = 0; i < 10 && s == null; i++) {
      clock.advance(EPOCH);
      epoch = clock.millis() / 1000;
      aTallies.put(epoch - 1, half);
      trim(aTallies);
      for (int q = 0; q < 4; q++) {
        a.exchange(joined, aTallies, epoch);
      }
      s = a.settled(epoch - 1);
    }
    Coordinator.Settled after = java.util.Objects.requireNonNull(s, "settled once the grace has passed");
    assertThat(after.nodes()).as("b counts as silent, not live").hasSize(1);
    assertThat(after.dataCenters().get(0).active()).as("b's users still count").isEqualTo(80);
  }

  private static void trim(TreeMap<Long, Tally> tallies) {
    while (tallies.size() > Report.EPOCHS_KEPT) {
      tallies.pollFirstEntry();
    }
  }
}
