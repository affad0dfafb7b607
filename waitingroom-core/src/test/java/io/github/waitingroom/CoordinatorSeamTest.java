package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Epochs;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The coordinator is a seam a room can be given: every node syncs through the coordinator its
 * factory makes. Here one of our own that watches the default and forwards everything to it.
 */
class CoordinatorSeamTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  /** Forwards to another coordinator and counts the exchanges and the epochs seen settled. */
  private static final class Watching implements Coordinator {
    private final Coordinator inner;
    private final AtomicInteger exchanges;
    private final AtomicInteger settled;

    Watching(Coordinator inner, AtomicInteger exchanges, AtomicInteger settled) {
      this.inner = inner;
      this.exchanges = exchanges;
      this.settled = settled;
    }

    @Override
    public Join join(LongSupplier clock, LongConsumer offset) throws IOException {
      return inner.join(clock, offset);
    }

    @Override
    public long exchange(long joined, NavigableMap<Long, Tally> mine, long epoch) throws IOException {
      exchanges.incrementAndGet();
      return inner.exchange(joined, mine, epoch);
    }

    @Override
    public @Nullable Settled settled(long s) {
      Settled out = inner.settled(s);
      if (out != null) {
        settled.incrementAndGet();
      }
      return out;
    }

    @Override
    public Epochs epochs() {
      return inner.epochs();
    }

    @Override
    public void schedule(Epochs.Era era) {
      inner.schedule(era);
    }

    @Override
    public Map<String, byte[]> documents() {
      return inner.documents();
    }

    @Override
    public void keep(Map<String, byte[]> documents) {
      inner.keep(documents);
    }

    @Override
    public long[] latestAdmitted() {
      return inner.latestAdmitted();
    }

    @Override
    public String dataCenter() {
      return inner.dataCenter();
    }

    @Override
    public List<String> dataCenterNames() {
      return inner.dataCenterNames();
    }
  }

  @Test
  void everyNodeSyncsThroughTheCoordinatorItsFactoryMakes() {
    RoomConfig config = RoomConfig.builder("seam").totalActiveUsers(4).newUsersPerMinute(4)
        .sessionDuration(Duration.ofMinutes(10)).build();
    AtomicInteger exchanges = new AtomicInteger();
    AtomicInteger settled = new AtomicInteger();
    Cluster c = new Cluster(config, KEYS);
    c.coordinators = (cfg, transport, seal, dc, publisher, epoch) ->
        new Watching(Coordinator.STORE.create(cfg, transport, seal, dc, publisher, epoch), exchanges, settled);
    WaitingRoom a = c.add("eu", "a");
    WaitingRoom b = c.add("us", "b");
    c.warmUp();
    assertThat(exchanges.get()).as("exchanges through our coordinator").isPositive();
    assertThat(settled.get()).as("epochs it handed on settled").isPositive();
    int admitted = 0;
    for (int i = 0; i < 8; i++) {
      admitted += (i % 2 == 0 ? a : b).decide(null).letsThrough() ? 1 : 0;
    }
    assertThat(admitted).as("the room works as with the default, its limit held").isEqualTo(4);
  }
}
