package io.github.waitingroom.spring.boot.actuate;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.spring.boot.WaitingRooms;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The health of the rooms' store on Spring Boot 4, which moved health indicators from {@code
 * org.springframework.boot.actuate.health} to {@code org.springframework.boot.health.contributor}
 * (module {@code spring-boot-health}). It reports exactly what {@link WaitingRoomHealthIndicator}
 * reports on Spring Boot 3.5: {@code DOWN} while this node's syncs of any room fail to reach the
 * store or any room has stopped planning, {@code UP} otherwise (a queueing room is healthy), with
 * the details {@code room}, {@code storeFailing}, {@code plansStalled} and {@code rooms.<name>}.
 * Opt-in, for the reason given there: {@code management.health.waitingroom.enabled=true}.
 *
 * <p>Compiled against Spring Boot 4's {@code spring-boot-health}, which this module declares as
 * provided; the starter registers it only when that module's {@code HealthIndicator} is on the
 * classpath, so a Spring Boot 3.5 application never loads it.
 */
public class Boot4WaitingRoomHealthIndicator implements HealthIndicator {
  private final StoreHealth store;

  /**
   * An indicator over one room.
   *
   * @param room the room whose store to report on
   */
  public Boot4WaitingRoomHealthIndicator(WaitingRoom room) {
    this(Objects.requireNonNull(room, "room"), new WaitingRooms(Map.of()));
  }

  /**
   * An indicator over the main room and further rooms.
   *
   * @param room the main room, or {@code null} when the application has only further rooms
   * @param rooms the further rooms, by name
   */
  public Boot4WaitingRoomHealthIndicator(@Nullable WaitingRoom room, WaitingRooms rooms) {
    this.store = new StoreHealth(room, rooms);
  }

  @Override
  public Health health() {
    StoreHealth.Result h = store.check();
    return (h.up() ? Health.up() : Health.down()).withDetails(h.details()).build();
  }
}
