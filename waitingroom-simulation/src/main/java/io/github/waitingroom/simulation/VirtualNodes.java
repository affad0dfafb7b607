package io.github.waitingroom.simulation;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import java.util.random.RandomGenerator;

/**
 * Nodes of a room that live in virtual time: each a real {@link WaitingRoom} on a {@link
 * ManualClock} the run sets, with background sync off so that the run calls {@link
 * WaitingRoom#sync()} itself at the instants it chooses (the room's own schedule, {@link
 * WaitingRoom#nextSyncDelay()}, or its own), and its own random generator split from the run's
 * seed so that its tie-breaks and sync jitter repeat.
 */
public final class VirtualNodes {
  private VirtualNodes() {}

  /**
   * A builder for one node of a simulated room over {@code transport} (which must run on virtual
   * time too), ready for the run's own settings (data center, node id, sync interval, failure
   * policy) before {@code build()}.
   */
  public static WaitingRoom.Builder builder(
      RoomConfig config, KeysetHandle keys, ManualClock clock, Transport transport, RandomGenerator random) {
    return WaitingRoom.builder(config, keys)
        .clock(clock)
        .transport(transport)
        .backgroundSync(false)
        .random(random);
  }
}
