package io.github.waitingroom.spring.boot.actuate;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.spring.boot.WaitingRooms;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code waitingroom} Actuator endpoint ({@code /actuator/waitingroom} once exposed with
 * {@code management.endpoints.web.exposure.include=waitingroom}): the main room's limits and the
 * room-wide counts as this node last synced them; {@code /actuator/waitingroom/<name>} the same
 * for a further room of {@code waitingroom.rooms}. Every node of a room reports the same counts,
 * give or take one sync interval. A room that does not exist answers 404.
 */
@Endpoint(id = "waitingroom")
public class WaitingRoomEndpoint {
  private final @Nullable WaitingRoom room;
  private final WaitingRooms rooms;

  /**
   * An endpoint over one room.
   *
   * @param room the room to report on
   */
  public WaitingRoomEndpoint(WaitingRoom room) {
    this(Objects.requireNonNull(room, "room"), new WaitingRooms(Map.of()));
  }

  /**
   * An endpoint over the main room and further rooms.
   *
   * @param room the main room, or {@code null} when the application has only further rooms
   * @param rooms the further rooms, by name
   */
  public WaitingRoomEndpoint(@Nullable WaitingRoom room, WaitingRooms rooms) {
    this.room = room;
    this.rooms = Objects.requireNonNull(rooms, "rooms");
  }

  /** A snapshot of the main room; {@code null} (404) when there is none. */
  @ReadOperation
  public @Nullable RoomStatus status() {
    WaitingRoom r = room;
    return r == null ? null : status(r);
  }

  /**
   * A snapshot of a further room.
   *
   * @param name the room's name, as in {@code waitingroom.rooms.<name>}
   * @return the snapshot; {@code null} (404) when there is no such room
   */
  @ReadOperation
  public @Nullable RoomStatus room(@Selector String name) {
    WaitingRoom r = rooms.get(name);
    return r == null ? null : status(r);
  }

  private static RoomStatus status(WaitingRoom room) {
    RoomConfig c = room.config();
    io.github.waitingroom.RoomStatus v = room.status();
    // The limits in force: the live settings' (the configuration's until an operator changes them).
    io.github.waitingroom.RoomSettings live = v.settings();
    return new RoomStatus(
        c.roomId(),
        v.totalActiveUsers(),
        v.newUsersPerMinute(),
        live.sessionDuration().toString(),
        v.activeUsers(),
        v.waitingUsers(),
        v.admissionsPerMinute(),
        Instant.ofEpochSecond(v.now()).toString(),
        v.transportFailing(),
        v.settingsVersion(),
        v.queueingStatus(),
        live.queueingMethod().jsonName());
  }

  /**
   * The endpoint's answer.
   *
   * @param roomId the room's id
   * @param totalActiveUsers the most users active at once, room-wide
   * @param newUsersPerMinute the most users admitted per minute, room-wide
   * @param sessionDuration how long an admitted user stays active, ISO-8601
   * @param activeUsers users active now, room-wide, as of {@code viewTime}
   * @param waitingUsers users waiting now, room-wide, as of {@code viewTime}
   * @param admissionsPerMinute admissions in the minute before the last plan, room-wide
   * @param viewTime when this node last synced the counts, ISO-8601
   * @param storeFailing whether this node's last sync failed to reach the store
   * @param settingsVersion the version of the live settings in force on this node (0: the
   *     configuration, as no operator changed it)
   * @param queueingStatus {@code queueing}, {@code not_queueing} or {@code suspended} (Cloudflare's names)
   * @param queueingMethod {@code fifo}, {@code passthrough} or {@code reject}
   */
  public record RoomStatus(
      String roomId,
      int totalActiveUsers,
      int newUsersPerMinute,
      String sessionDuration,
      long activeUsers,
      long waitingUsers,
      long admissionsPerMinute,
      String viewTime,
      boolean storeFailing,
      long settingsVersion,
      String queueingStatus,
      String queueingMethod) {}
}
