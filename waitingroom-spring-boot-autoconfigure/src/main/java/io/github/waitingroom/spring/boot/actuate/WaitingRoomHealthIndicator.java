package io.github.waitingroom.spring.boot.actuate;

import io.github.waitingroom.WaitingRoom;
import java.util.Objects;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Health of the room's store: {@code DOWN} while this node's syncs fail to reach it, {@code UP}
 * otherwise. A room that is queueing visitors is working as designed and stays {@code UP}.
 *
 * <p>Opt-in ({@code management.health.waitingroom.enabled=true}): every node of a room shares one
 * store, so when it fails they would all report {@code DOWN} at once, and a load balancer that
 * reads the health endpoint would take the whole site out, although each node keeps serving its
 * admitted users under the room's failure policy. Enable it for monitoring, and keep it out of
 * the health group the load balancer reads.
 */
public class WaitingRoomHealthIndicator implements HealthIndicator {
  private final WaitingRoom room;

  /**
   * An indicator over one room.
   *
   * @param room the room whose store to report on
   */
  public WaitingRoomHealthIndicator(WaitingRoom room) {
    this.room = Objects.requireNonNull(room, "room");
  }

  @Override
  public Health health() {
    Health.Builder b = room.transportFailing() ? Health.down() : Health.up();
    return b.withDetail("room", room.config().roomId())
        .withDetail("storeFailing", room.transportFailing())
        .build();
  }
}
