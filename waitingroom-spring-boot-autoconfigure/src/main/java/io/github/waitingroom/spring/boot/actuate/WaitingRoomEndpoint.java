package io.github.waitingroom.spring.boot.actuate;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import java.time.Instant;
import java.util.Objects;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code waitingroom} Actuator endpoint ({@code /actuator/waitingroom} once exposed with
 * {@code management.endpoints.web.exposure.include=waitingroom}): the room's limits and the
 * room-wide counts as this node last synced them. Every node of a room reports the same counts,
 * give or take one sync interval.
 */
@Endpoint(id = "waitingroom")
public class WaitingRoomEndpoint {
  private final WaitingRoom room;

  /**
   * An endpoint over one room.
   *
   * @param room the room to report on
   */
  public WaitingRoomEndpoint(WaitingRoom room) {
    this.room = Objects.requireNonNull(room, "room");
  }

  /** A snapshot of the room. */
  @ReadOperation
  public RoomStatus status() {
    RoomConfig c = room.config();
    io.github.waitingroom.RoomStatus v = room.status();
    return new RoomStatus(
        c.roomId(),
        c.totalActiveUsers(),
        c.newUsersPerMinute(),
        c.sessionDuration().toString(),
        v.activeUsers(),
        v.waitingUsers(),
        v.admissionsPerMinute(),
        Instant.ofEpochSecond(v.now()).toString(),
        v.transportFailing());
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
      boolean storeFailing) {}
}
