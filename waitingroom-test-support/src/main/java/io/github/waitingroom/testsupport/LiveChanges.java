package io.github.waitingroom.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;

/**
 * A change of a room's live settings in a test whose room runs on a {@link ManualClock} without
 * background sync: the test puts each change in force itself, a sync a quarter second apart.
 */
public final class LiveChanges {
  private LiveChanges() {}

  /**
   * Publishes {@code json} (read over the room's latest settings) and syncs, moving {@code clock} a
   * quarter second before each sync, until the change is in force; fails unless it is after 40
   * syncs.
   *
   * @return the settings now in force
   */
  public static RoomSettings putInForce(WaitingRoom room, ManualClock clock, String json) {
    RoomSettings next = RoomSettings.fromJson(json, room.latestSettings());
    room.updateSettings(next);
    for (int i = 0; i < 40 && room.settings().version() < next.version(); i++) {
      clock.advance(Duration.ofMillis(250));
      room.sync();
    }
    assertThat(room.settings().version()).as("in force after 40 syncs").isEqualTo(next.version());
    return room.settings();
  }
}
