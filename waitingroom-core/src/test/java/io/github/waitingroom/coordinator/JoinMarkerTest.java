package io.github.waitingroom.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.allocation.Tally;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A node's join marker ({@code <dataCenter>#<node>} in the global scope) tells the others that its
 * data center is in the room before the data center has a sum there. Once it has one, the marker
 * tells nothing more, yet every exchange of every node read it for as long as a report lives: in a
 * room of 1,000 nodes that started together, 1,000 markers in each answer, most of the bytes the
 * nodes read (the simulator's {@code load1000}). A marker now lives until its data center's sum is
 * in the store and every other publisher counts the data center, and one epoch more.
 */
class JoinMarkerTest {
  private static final RoomConfig CONFIG =
      RoomConfig.builder("markers").totalActiveUsers(100).newUsersPerMinute(100).sessionDuration(Duration.ofMinutes(5)).build();
  private static final Duration EPOCH = Duration.ofSeconds(1);
  private static final Tally TEN = new Tally(10, 0, 2, 1, new TreeMap<>(), new long[0]);

  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-08T10:00:00.100Z"));
  private final InMemoryTransport store = new InMemoryTransport(clock);
  private final ReportSeal seal = new ReportSeal(TicketKeys.generate(), CONFIG.roomId());

  /** A node of the room, with its tallies. */
  private final class Node {
    final Coordinator coordinator;
    final TreeMap<Long, Tally> tallies = new TreeMap<>();
    long joined;

    Node(String dataCenter, String id) throws IOException {
      coordinator = new StoreCoordinator(CONFIG, store, seal, dataCenter, id, EPOCH);
      joined = coordinator.join(clock::millis, o -> {}).epoch();
    }

    /**
     * Tallies the epoch before {@code epoch} (if it joined by then), syncs and asks for the settled
     * epochs as the synchronizer does (which is when a node compares whom the others count).
     */
    void sync(long epoch) throws IOException {
      if (epoch - 1 >= joined) {
        tallies.put(epoch - 1, TEN);
      }
      while (tallies.size() > Report.EPOCHS_KEPT) {
        tallies.pollFirstEntry();
      }
      coordinator.exchange(joined, tallies, epoch);
      coordinator.settled(epoch - 2);
      coordinator.settled(epoch - 1);
    }
  }

  @Test
  void aMarkerExpiresOnceItsDataCenterHasASum() throws IOException {
    Node a = new Node("eu", "a");
    Node b = new Node("us", "b");
    assertThat(markers()).as("right after the joins").containsExactlyInAnyOrder("eu#a", "us#b");

    long epoch = 0;
    for (int i = 0; i < 6; i++) {
      epoch = nextEpoch();
      for (int q = 0; q < 4; q++) {
        a.sync(epoch);
        b.sync(epoch);
      }
    }
    assertThat(global()).as("both data centers' sums").containsKeys("eu", "us");
    assertThat(markers()).as("each data center has a sum: no marker is left").isEmpty();
    Coordinator.Settled settled = Objects.requireNonNull(a.coordinator.settled(epoch - 2), "settled");
    assertThat(settled.dataCenterNames()).containsExactly("eu", "us");

    // A node joining a data center that has a sum retires its marker at its first exchange.
    Node c = new Node("eu", "c");
    assertThat(markers()).containsExactly("eu#c");
    for (int i = 0; i < 3; i++) {
      epoch = nextEpoch();
      for (int q = 0; q < 4; q++) {
        a.sync(epoch);
        b.sync(epoch);
        c.sync(epoch);
      }
    }
    assertThat(markers()).isEmpty();
    settled = Objects.requireNonNull(c.coordinator.settled(epoch - 2), "settled with the newcomer");
    assertThat(settled.nodeNames()).containsExactly("a", "c");
  }

  /**
   * A data center whose first node joined but has published no sum yet is known by its marker
   * alone: the marker stays, and the others settle no epoch from its join on without it.
   */
  @Test
  void aMarkerStaysWhileItsDataCenterHasNoSum() throws IOException {
    Node a = new Node("eu", "a");
    long epoch = 0;
    for (int i = 0; i < 4; i++) {
      epoch = nextEpoch();
      for (int q = 0; q < 4; q++) {
        a.sync(epoch);
      }
    }
    assertThat(a.coordinator.settled(epoch - 2)).as("alone in the room").isNotNull();
    Node b = new Node("us", "b"); // and never syncs: slow, or cut off
    for (int i = 0; i < 6; i++) {
      epoch = nextEpoch();
      for (int q = 0; q < 4; q++) {
        a.sync(epoch);
      }
    }
    assertThat(markers()).containsExactly("us#b");
    assertThat(a.coordinator.settled(epoch - 2)).as("us joined and has no sum yet").isNull();
  }

  private long nextEpoch() {
    clock.advance(EPOCH);
    return clock.millis() / 1000;
  }

  /** The names of the join markers in the global scope. */
  private List<String> markers() {
    return global().keySet().stream().filter(n -> n.contains(StoreCoordinator.JOIN)).sorted().toList();
  }

  /** What the global scope holds, read as a node reads it (the reader's empty value left out). */
  private Map<String, byte[]> global() {
    Map<String, byte[]> values = new TreeMap<>(store.exchange(CONFIG.roomId(),
        List.of(new Transport.Publication(Coordinator.GLOBAL_SCOPE, StoreCoordinator.READER, new byte[0])),
        Duration.ofMinutes(10)).get(Coordinator.GLOBAL_SCOPE));
    values.remove(StoreCoordinator.READER);
    return values;
  }
}
