package io.github.waitingroom;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Nodes of one room in one JVM on a store with its own clock, each node with its own (possibly
 * skewed) manual clock, synced four times per epoch as their background threads would. The store
 * can fail, be flushed, or hold garbage, as real ones do.
 */
final class Cluster {
  static final Instant START = Instant.parse("2026-11-30T10:00:00Z");
  static final Duration STEP = Duration.ofMillis(250);

  final ManualClock storeClock = new ManualClock(START.plusMillis(125));
  final Store store = new Store();
  final List<WaitingRoom> nodes = new ArrayList<>();
  final List<ManualClock> clocks = new ArrayList<>();
  private final RoomConfig config;
  private final KeysetHandle keys;

  Cluster(RoomConfig config, KeysetHandle keys) {
    this.config = config;
    this.keys = keys;
  }

  /** Adds a node whose clock is {@code skew} ahead of the store's (behind if negative). */
  WaitingRoom add(String dataCenter, String id, Duration skew, FailurePolicy policy) {
    ManualClock clock = new ManualClock(storeClock.instant().plus(skew));
    WaitingRoom room =
        WaitingRoom.builder(config, keys)
            .clock(clock)
            .transport(store)
            .dataCenter(dataCenter)
            .nodeId(id)
            .failurePolicy(policy)
            .backgroundSync(false)
            .build();
    clocks.add(clock);
    nodes.add(room);
    return room;
  }

  WaitingRoom add(String dataCenter, String id) {
    return add(dataCenter, id, Duration.ZERO, FailurePolicy.FAIL_CLOSED);
  }

  /** Moves time on in quarter epochs, syncing every node at each. */
  void advance(Duration by) {
    for (long ms = 0; ms < by.toMillis(); ms += STEP.toMillis()) {
      storeClock.advance(STEP);
      for (ManualClock c : clocks) {
        c.advance(STEP);
      }
      for (WaitingRoom n : nodes) {
        n.sync();
      }
    }
  }

  long activeUsers() {
    return nodes.get(0).status().activeUsers();
  }

  /** An in-memory store that can fail, be flushed, or have a value replaced. */
  final class Store implements Transport {
    private InMemoryTransport delegate = new InMemoryTransport(storeClock);
    volatile boolean failing;

    void flush() {
      delegate = new InMemoryTransport(storeClock);
    }

    void put(String scope, String publisher, byte[] payload) throws IOException {
      delegate.exchange(config.roomId(), List.of(new Publication(scope, publisher, payload)), Duration.ofMinutes(10));
    }

    @Override
    public Map<String, Map<String, byte[]>> exchange(String roomId, List<Publication> publications, Duration retention)
        throws IOException {
      if (failing) {
        throw new IOException("store down");
      }
      return delegate.exchange(roomId, publications, retention);
    }
  }
}
