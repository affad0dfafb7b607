package io.github.waitingroom.spring.boot.actuate;

import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.spring.boot.WaitingRooms;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What both health indicators report, in no Spring Boot type, so that the Boot 3.5 indicator
 * ({@link WaitingRoomHealthIndicator}) and the Boot 4 one ({@link Boot4WaitingRoomHealthIndicator})
 * say the same: whether any room's store fails or any room has stopped planning, and the details
 * by room.
 *
 * <p>A room has stopped planning when its plan is older than {@link
 * RoomStatus#STALLED_AFTER_EPOCHS} epochs ({@link RoomStatus#plansStalled()}), or when it has made
 * none for that long since the indicator was made (at start-up, with the room): a node whose
 * keyset shares no key with the others' never plans at all.
 */
final class StoreHealth {
  private final @Nullable WaitingRoom room;
  private final WaitingRooms rooms;
  /** The room clock's second at which this indicator began to watch each room. */
  private final Map<WaitingRoom, Long> watchedSince = new IdentityHashMap<>();

  StoreHealth(@Nullable WaitingRoom room, WaitingRooms rooms) {
    this.room = room;
    this.rooms = Objects.requireNonNull(rooms, "rooms");
    if (room != null) {
      watchedSince.put(room, room.nowSecond());
    }
    rooms.asMap().values().forEach(r -> watchedSince.put(r, r.nowSecond()));
  }

  /** Whether every room is up, and the details. */
  record Result(boolean up, Map<String, Object> details) {}

  Result check() {
    boolean up = true;
    Map<String, Object> details = new LinkedHashMap<>();
    if (room != null) {
      up = put(room, details);
    }
    if (!rooms.asMap().isEmpty()) {
      Map<String, Object> named = new LinkedHashMap<>();
      for (Map.Entry<String, WaitingRoom> e : rooms.asMap().entrySet()) {
        Map<String, Object> d = new LinkedHashMap<>();
        up &= put(e.getValue(), d);
        named.put(e.getKey(), d);
      }
      details.put("rooms", named);
    }
    return new Result(up, details);
  }

  /** Puts a room's details and returns whether it is up. */
  private boolean put(WaitingRoom r, Map<String, Object> details) {
    boolean failing = r.transportFailing();
    RoomStatus s = r.status();
    long since = watchedSince.getOrDefault(r, s.now());
    boolean stalled = s.plansStalled() || (s.planEpoch() == Long.MIN_VALUE
        && (s.now() - since) * 1000 > RoomStatus.STALLED_AFTER_EPOCHS * s.epochMillis());
    details.put("room", r.config().roomId());
    details.put("storeFailing", failing);
    details.put("plansStalled", stalled);
    return !failing && !stalled;
  }
}
