package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import org.junit.jupiter.api.Tag;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A room whose nodes would read more from the store than its budget stretches its epochs, on
 * every node at one instant, and shortens them again when it shrinks: fewer store operations,
 * the same limits and the same order. Nodes that join later, or miss the decision while cut off,
 * cut time as the others do.
 */
class PacingTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  /**
   * Four nodes in two data centers read 4 x (2 x (2 + 2) + 2 x (2 + 2)) = 64 reports a second
   * with epochs of 1 s, 32 with epochs of 2 s; two nodes, one per data center, 24 with 1 s.
   */
  private static final long BUDGET = 50;

  private static final int PER_MINUTE = 12;

  private final List<String> admissions = new ArrayList<>();
  private final TreeMap<Long, Integer> perSecond = new TreeMap<>();

  /** The room: a and b in eu, c and d in us; d reaches the store only while {@code down[0]} is false. */
  private static Cluster room(boolean[] down) {
    RoomConfig config = RoomConfig.builder("pacing")
        .totalActiveUsers(100)
        .newUsersPerMinute(PER_MINUTE)
        .sessionDuration(Duration.ofMinutes(10))
        .refreshInterval(Duration.ofSeconds(20))
        .build();
    Cluster c = new Cluster(config, KEYS);
    c.storeBudget = BUDGET;
    c.add("eu", "a");
    c.add("eu", "b");
    c.add("us", "c");
    Cluster.Store store = c.store;
    c.add("us", "d", (roomId, publications, retention) -> {
      if (down[0]) {
        throw new IOException("cut off");
      }
      return store.exchange(roomId, publications, retention);
    });
    return c.warmUp();
  }

  private static List<Long> lengths(Cluster c) {
    List<Long> out = new ArrayList<>();
    for (WaitingRoom n : c.nodes) {
      out.add(n.status().epochMillis());
    }
    return out;
  }

  /**
   * A crowd: a newcomer every second on the nodes in turn; everyone waiting polls every 2 s on
   * another node. Checks, every second, that no 60 s window admitted more than the limit.
   */
  private void crowd(Cluster c, List<String> line, List<Long> arrivals, int seconds, Runnable eachSecond) {
    crowd(c, line, arrivals, seconds, eachSecond, true);
  }

  /** {@link #crowd}, checking the order only if {@code ordered} (not while a node plans alone). */
  private void crowd(Cluster c, List<String> line, List<Long> arrivals, int seconds, Runnable eachSecond,
      boolean ordered) {
    for (int s = 0; s < seconds; s++) {
      long now = c.now();
      WaitingRoom node = c.nodes.get(s % c.nodes.size());
      Decision d = node.decide(null);
      if (d.letsThrough()) {
        admitted(now, d);
      } else {
        line.add(d.ticket());
        arrivals.add(now);
      }
      if (s % 2 == 0) {
        for (int i = 0; i < line.size(); i++) {
          String t = line.get(i);
          if (t == null) {
            continue;
          }
          WaitingRoom polled = c.nodes.get((i + s / 2) % c.nodes.size());
          Decision p = polled.decide(t);
          if (p.letsThrough()) {
            if (ordered) {
              assertEarlierHoldersEligible(c, line, i, now);
            }
            admitted(now, p);
            line.set(i, null);
            admissions.add("line " + arrivals.get(i) + " " + i);
          } else if (p.ticket() != null) {
            line.set(i, p.ticket());
          }
        }
      }
      eachSecond.run();
      int window = perSecond.subMap(now - 59, true, now, true).values().stream().mapToInt(Integer::intValue).sum();
      assertThat(window).as("admissions in the 60 s up to %s", now).isLessThanOrEqualTo(PER_MINUTE);
      c.advance(Duration.ofSeconds(1));
    }
  }

  private void admitted(long now, Decision d) {
    perSecond.merge(now, 1, Integer::sum);
  }

  /**
   * The order the one rule keeps, while epochs stretch and nodes join or come back: a holder let
   * in from the line passes only holders who are eligible too, on every node (their places are
   * at or below the cutoff of every node's grant), never one that a node still holds back. Among
   * eligible holders whoever polls a node with a slot first gets in first.
   */
  private static void assertEarlierHoldersEligible(Cluster c, List<String> line, int admitted, long now) {
    for (int j = 0; j < admitted; j++) {
      String t = line.get(j);
      if (t == null) {
        continue;
      }
      long place = Inside.placeOf(c.nodes.get(0), t, now);
      for (int n = 0; n < c.nodes.size(); n++) {
        assertThat(Inside.eligible(c.nodes.get(n), place))
            .as("#%s, still waiting when #%s got in, eligible on node %s", j, admitted, n).isTrue();
      }
    }
  }

  /** Enough were let in from the line for the order to mean something. */
  private void assertInOrder(List<String> line) {
    assertThat(admissions).as("admitted from the line").hasSizeGreaterThan(3);
  }

  @Test
  void aRoomOverItsStoreBudgetStretchesItsEpochsOnEveryNodeAtOnceAndKeepsItsLimitsAndOrder() {
    Cluster c = room(new boolean[1]);
    assertThat(lengths(c)).containsOnly(1000L);
    List<String> line = new ArrayList<>();
    List<Long> arrivals = new ArrayList<>();
    long[] stretchedAt = {-1};
    crowd(c, line, arrivals, 90, () -> {
      List<Long> now = lengths(c);
      assertThat(new HashSet<>(now)).as("epoch lengths of the nodes at %s", c.now()).hasSize(1);
      if (stretchedAt[0] < 0 && now.get(0) == 2000) {
        stretchedAt[0] = c.now();
      }
    });
    // Decided at the first plan of an epoch divisible by 8, in force 8 epochs later.
    assertThat(stretchedAt[0]).as("when the epochs stretched").isPositive();
    assertThat(lengths(c)).containsOnly(2000L);
    assertInOrder(line);
    int afterwards = perSecond.tailMap(stretchedAt[0] + 10).values().stream().mapToInt(Integer::intValue).sum();
    assertThat(afterwards).as("admissions once the epochs are longer").isGreaterThanOrEqualTo(PER_MINUTE / 2);
  }

  @Test
  void aNodeThatJoinsLaterOrMissedTheDecisionCutsTimeAsTheOthersDo() {
    boolean[] down = {false};
    Cluster c = room(down);
    // d is cut off right after it published its tally of an epoch divisible by 8, so it counts
    // in the decision made from that epoch's plan but does not read it; until after the era began.
    while (Math.floorMod(c.storeClock.millis(), 8000) != 1125) {
      c.step(null, 0);
    }
    down[0] = true;
    List<String> line = new ArrayList<>();
    List<Long> arrivals = new ArrayList<>();
    crowd(c, line, arrivals, 20, () -> {}, false);
    assertThat(lengths(c).subList(0, 3)).containsOnly(2000L);
    assertThat(c.nodes.get(3).status().epochMillis()).as("d, cut off").isEqualTo(1000L);
    down[0] = false;
    c.advance(Duration.ofSeconds(4));
    assertThat(lengths(c)).containsOnly(2000L);
    // A node that joins now learns the epochs from the store before its first tally.
    WaitingRoom e = c.add("eu", "e");
    assertThat(e.status().epochMillis()).isEqualTo(2000L);
    c.advance(Duration.ofSeconds(12));
    // While d was cut off it served its own line (FAIL_CLOSED): the order is the room's again
    // for a line that queues once every node reaches the store.
    admissions.clear();
    line = new ArrayList<>();
    arrivals = new ArrayList<>();
    crowd(c, line, arrivals, 60, () -> assertThat(new HashSet<>(lengths(c))).hasSize(1));
    assertInOrder(line);
    // Every node plans again, the late and the new one too, from the same epochs.
    long epoch = c.nodes.get(0).status().planEpoch();
    assertThat(c.nodes).allSatisfy(n -> assertThat(n.status().planEpoch()).isBetween(epoch - 1, epoch + 1));
    int byLateNodes = 0;
    for (int i = 0; i < 20; i++) {
      byLateNodes += c.nodes.get(3 + i % 2).decide(null).letsThrough() ? 1 : 0;
      c.advance(Duration.ofSeconds(6));
    }
    assertThat(byLateNodes).as("newcomers admitted by d and e once the line is gone").isPositive();
  }

  @Test
  @Tag("slow")
  void aRoomThatShrinksShortensItsEpochsAgain() {
    Cluster c = room(new boolean[1]);
    c.advance(Duration.ofSeconds(30));
    assertThat(lengths(c)).containsOnly(2000L);
    c.nodes.get(1).close();
    c.nodes.get(3).close();
    c.nodes.remove(3);
    c.nodes.remove(1);
    c.clocks.remove(3);
    c.clocks.remove(1);
    // b and d are counted silent from their third missed epoch on; 24 reports a second at 1 s is
    // within half the budget.
    c.advance(Duration.ofSeconds(60));
    assertThat(lengths(c)).containsOnly(1000L);
    // The users b and d admitted count until their sessions could have run out, and so do their
    // grants: the line moves once the retention has passed.
    List<String> line = new ArrayList<>();
    crowd(c, line, new ArrayList<>(), 720, () -> {});
    assertInOrder(line);
  }

  @Test
  void whileTheFirstDataCenterIsSilentTheNextOneDecides() {
    RoomConfig config = RoomConfig.builder("pacing")
        .totalActiveUsers(100)
        .newUsersPerMinute(PER_MINUTE)
        .sessionDuration(Duration.ofMinutes(10))
        .build();
    Cluster c = new Cluster(config, KEYS);
    boolean[] down = {false};
    Cluster.Store store = c.store;
    Transport cuttable = (roomId, publications, retention) -> {
      if (down[0]) {
        throw new IOException("cut off");
      }
      return store.exchange(roomId, publications, retention);
    };
    // eu decides (its name comes first), with the default budget: nothing to change. us's nodes
    // have a budget of 30: 4 x 2 x (2 + 2) = 32 reports a second with epochs of 1 s, once eu's
    // nodes no longer read (16 with 2 s).
    c.add("eu", "a", cuttable);
    c.add("eu", "b", cuttable);
    c.storeBudget = 30;
    c.add("us", "c");
    c.add("us", "d");
    c.warmUp();
    c.advance(Duration.ofSeconds(20));
    assertThat(lengths(c)).containsOnly(1000L);
    down[0] = true;
    c.advance(Duration.ofSeconds(40));
    assertThat(lengths(c).subList(2, 4)).as("us, while eu is cut off").containsOnly(2000L);
  }

  @Test
  void aSingleNodeOverItsBudgetSyncsLessOften() {
    int[] exchanges = {0};
    ManualClock clock = new ManualClock(Cluster.START);
    io.github.waitingroom.coordinator.InMemoryTransport store = new io.github.waitingroom.coordinator.InMemoryTransport(clock);
    RoomConfig config = RoomConfig.builder("alone").totalActiveUsers(10).newUsersPerMinute(10)
        .sessionDuration(Duration.ofMinutes(2)).build();
    // One node reads 4 x 1 x (1 + 1) = 8 reports a second with epochs of 1 s: a budget of 1 takes 8 s.
    try (WaitingRoom room = WaitingRoom.builder(config, KEYS).clock(clock).backgroundSync(false).storeBudget(1)
        .transport((roomId, publications, retention) -> {
          exchanges[0]++;
          return store.exchange(roomId, publications, retention);
        }).build()) {
      int before = syncFor(room, clock, Duration.ofSeconds(60), exchanges);
      assertThat(room.status().epochMillis()).isEqualTo(8000L);
      int after = syncFor(room, clock, Duration.ofSeconds(64), exchanges);
      assertThat(after).as("exchanges in 64 s with epochs of 8 s (4 a epoch)").isBetween(30, 36);
      assertThat(before).as("exchanges in the first minute, before the epochs stretched").isGreaterThan(after);
      assertThat(room.decide(null).letsThrough()).isTrue();
    }
  }

  @Test
  void theDefaultBudgetKeepsSmallRoomsAtTheSyncIntervalAndStretchesLargeOnes() {
    long budget = WaitingRoom.Builder.DEFAULT_STORE_BUDGET;
    // 10 nodes (2 x 5): 280 reports a second; 100 (10 x 10): 8,000; 1,000 (20 x 50): 280,000 at 1 s.
    assertThat(EpochPacer.reads(nCopies(2, 5), 1000)).isEqualTo(280.0);
    assertThat(EpochPacer.lengthFor(nCopies(2, 5), 1000, 1000, budget)).isEqualTo(1000);
    assertThat(EpochPacer.reads(nCopies(10, 10), 1000)).isEqualTo(8000.0);
    assertThat(EpochPacer.lengthFor(nCopies(10, 10), 1000, 1000, budget)).isEqualTo(1000);
    assertThat(EpochPacer.reads(nCopies(20, 50), 1000)).isEqualTo(280_000.0);
    assertThat(EpochPacer.lengthFor(nCopies(20, 50), 1000, 1000, budget)).isEqualTo(16_000);
    // Shortened again only once half the length reads at most half the budget.
    assertThat(EpochPacer.lengthFor(nCopies(20, 20), 1000, 16_000, budget)).isEqualTo(8000);
    assertThat(EpochPacer.lengthFor(nCopies(20, 50), 1000, 16_000, budget)).isEqualTo(16_000);
    assertThat(EpochPacer.lengthFor(nCopies(20, 40), 1000, 16_000, budget)).as("12,000 at 16 s").isEqualTo(16_000);
    // Never beyond 64 times the sync interval, however many nodes.
    assertThat(EpochPacer.lengthFor(nCopies(100, 100), 1000, 1000, budget)).isEqualTo(64_000);
  }

  private static List<Integer> nCopies(int dataCenters, int nodes) {
    return java.util.Collections.nCopies(dataCenters, nodes);
  }

  /** Runs the node's sync loop as its background thread would, for {@code span}; returns its exchanges. */
  private static int syncFor(WaitingRoom room, ManualClock clock, Duration span, int[] exchanges) {
    int from = exchanges[0];
    java.time.Instant end = clock.instant().plus(span);
    while (clock.instant().isBefore(end)) {
      clock.advance(room.nextSyncDelay());
      room.sync();
    }
    return exchanges[0] - from;
  }
}
