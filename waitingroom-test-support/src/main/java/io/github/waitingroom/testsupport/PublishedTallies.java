package io.github.waitingroom.testsupport;

import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Epochs;
import io.github.waitingroom.coordinator.ReportSeal;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * What a room's nodes publish, seen through the public seam ({@code
 * WaitingRoom.Builder#coordinator}): a {@link Coordinator.Factory} that makes the default
 * coordinators ({@link Coordinator#STORE}) and keeps every tally each of them hands to {@link
 * Coordinator#exchange}, the latest of each epoch. A test builds its room with it, lets syncs run,
 * and reads what the room measured, such as how the application answered ({@link #origin()}).
 */
public final class PublishedTallies implements Coordinator.Factory {
  private final NavigableMap<Long, Tally> tallies = new ConcurrentSkipListMap<>();

  /** Nothing published yet. */
  public PublishedTallies() {}

  @Override
  public Coordinator create(
      RoomConfig config, Transport transport, ReportSeal seal, String dataCenter, String publisher, Duration epoch) {
    return new Watching(Coordinator.STORE.create(config, transport, seal, dataCenter, publisher, epoch));
  }

  /** {@return every tally published so far, by epoch (of a room of one node)} */
  public NavigableMap<Long, Tally> tallies() {
    return Collections.unmodifiableNavigableMap(tallies);
  }

  /**
   * {@return how the application answered, summed over every tally published so far} Each
   * epoch's tally counts once, however often it was sent.
   */
  public Tally.Origin origin() {
    Tally.Origin sum = Tally.Origin.NONE;
    for (Tally t : tallies.values()) {
      sum = sum.plus(t.origin());
    }
    return sum;
  }

  /**
   * {@return how the application answered, once {@code requests} requests show in what {@code
   * room} published, or after 200 syncs a second apart} Then a few more syncs, so that a request
   * counted twice or late would show too. Between syncs the test waits 10 ms while the requests do
   * not show yet: an adapter may record a request just after its client has the answer.
   *
   * @param room the room, built with this factory, without background sync
   * @param clock the room's clock
   * @param requests how many requests the test sent through
   */
  public Tally.Origin origin(WaitingRoom room, ManualClock clock, long requests) throws InterruptedException {
    for (int i = 0; i < 200 && origin().requests() < requests; i++) {
      clock.advance(Duration.ofSeconds(1));
      room.sync();
      if (origin().requests() < requests) {
        Thread.sleep(10);
      }
    }
    for (int i = 0; i < 8; i++) {
      clock.advance(Duration.ofSeconds(1));
      room.sync();
    }
    return origin();
  }

  /** Forwards everything to the default coordinator, and keeps the tallies it publishes. */
  private final class Watching implements Coordinator {
    private final Coordinator inner;

    Watching(Coordinator inner) {
      this.inner = inner;
    }

    @Override
    public Join join(LongSupplier clock, LongConsumer offset) throws IOException {
      return inner.join(clock, offset);
    }

    @Override
    public long exchange(long joined, NavigableMap<Long, Tally> mine, long epoch) throws IOException {
      tallies.putAll(mine);
      return inner.exchange(joined, mine, epoch);
    }

    @Override
    public @Nullable Settled settled(long s) {
      return inner.settled(s);
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
    public void settingsVersion(long version) {
      inner.settingsVersion(version);
    }

    @Override
    public long roomSettingsVersion() {
      return inner.roomSettingsVersion();
    }

    @Override
    public long sumLateMillis() {
      return inner.sumLateMillis();
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
}
