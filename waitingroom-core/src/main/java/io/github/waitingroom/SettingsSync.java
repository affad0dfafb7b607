package io.github.waitingroom;

import io.github.waitingroom.coordinator.Coordinator;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The room's live settings as the sync thread handles them: puts in force those whose time has
 * come, keeps this node's settings documents in the store and tells the coordinator their version,
 * takes the documents of each answer, and notices when the room's reports carry a settings version
 * this node holds no document of: it then plans nothing ({@link #behind}), keeping its grant. Part
 * of {@link Synchronizer}; used by the sync thread under its lock. Logs under {@link
 * Synchronizer}'s name.
 */
final class SettingsSync {
  private static final Logger log = LoggerFactory.getLogger(Synchronizer.class);

  private final String roomId;
  private final NodeState state;
  private final LiveSettings live;
  private final Coordinator coordinator;
  /** The room clock (see {@link Synchronizer#nowMillis}). */
  private final LongSupplier nowMillis;
  /**
   * Whether the room's reports carry a settings version higher than any this node holds (see
   * {@link Coordinator#roomSettingsVersion()}): it then applies no plan, keeping its grant.
   */
  private boolean behind;

  /** @param nowMillis the room clock */
  SettingsSync(String roomId, NodeState state, LiveSettings live, Coordinator coordinator, LongSupplier nowMillis) {
    this.roomId = roomId;
    this.state = state;
    this.live = live;
    this.coordinator = coordinator;
    this.nowMillis = nowMillis;
  }

  /** Whether the room's reports carry a settings version this node holds no document of. */
  boolean behind() {
    return behind;
  }

  /**
   * Before an exchange at {@code nowMillis} on the room clock: puts in force the settings whose
   * time has come, and gives the coordinator the documents to keep and their version.
   */
  void beforeExchange(long nowMillis) {
    activate(nowMillis);
    Map<String, byte[]> keep = live.toKeep();
    if (keep != null) {
      coordinator.keep(keep);
    }
    coordinator.settingsVersion(live.latest().version());
  }

  /** Takes the settings documents of the store's last answer, and puts in force any whose time has come. */
  void read() {
    live.read(coordinator.documents());
    activate(nowMillis.getAsLong());
    long room = coordinator.roomSettingsVersion();
    long mine = live.latest().version();
    if (room > mine && !behind) {
      behind = true;
      log.error("room '{}': the room's reports carry settings version {}, but this node holds version {} at most (the"
              + " document is missing from the store, or an older one was written back: someone without the room's keys"
              + " writes to it?); it plans nothing until it reads version {}", roomId, room, mine, room);
    } else if (room <= mine && behind) {
      behind = false;
      log.info("room '{}': settings version {} read; planning again", roomId, mine);
    }
  }

  private void activate(long nowMillis) {
    if (live.activate(nowMillis)) {
      state.configure(live.current().config());
    }
  }
}
