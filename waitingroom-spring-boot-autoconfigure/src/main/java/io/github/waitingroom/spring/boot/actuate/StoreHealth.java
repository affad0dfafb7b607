package io.github.waitingroom.spring.boot.actuate;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.spring.boot.WaitingRooms;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What both health indicators report, in no Spring Boot type, so that the Boot 3.5 indicator
 * ({@link WaitingRoomHealthIndicator}) and the Boot 4 one ({@link Boot4WaitingRoomHealthIndicator})
 * say the same: whether any room's store fails, and the details by room.
 */
final class StoreHealth {
  final boolean failing;
  final Map<String, Object> details;

  private StoreHealth(boolean failing, Map<String, Object> details) {
    this.failing = failing;
    this.details = details;
  }

  static StoreHealth of(@Nullable WaitingRoom room, WaitingRooms rooms) {
    Objects.requireNonNull(rooms, "rooms");
    boolean failing = false;
    Map<String, Object> details = new LinkedHashMap<>();
    if (room != null) {
      boolean f = room.transportFailing();
      failing = f;
      details.put("room", room.config().roomId());
      details.put("storeFailing", f);
    }
    if (!rooms.asMap().isEmpty()) {
      Map<String, Object> named = new LinkedHashMap<>();
      for (Map.Entry<String, WaitingRoom> e : rooms.asMap().entrySet()) {
        boolean f = e.getValue().transportFailing();
        failing |= f;
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("room", e.getValue().config().roomId());
        d.put("storeFailing", f);
        named.put(e.getKey(), d);
      }
      details.put("rooms", named);
    }
    return new StoreHealth(failing, details);
  }
}
