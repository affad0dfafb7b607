package io.github.waitingroom.spring.boot.actuate;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.spring.boot.WaitingRooms;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Health of the rooms' store and plans: {@code DOWN} while this node's syncs of any room fail to
 * reach the store, or while any room has stopped planning (it admits nobody new: see {@link
 * io.github.waitingroom.RoomStatus#plansStalled()}; a node whose keyset shares no key with the
 * other nodes' is one), {@code UP} otherwise. A room that is queueing visitors is working as
 * designed and stays {@code UP}. The main room is reported in the details {@code room} (its id),
 * {@code storeFailing} and {@code plansStalled}; each further room of {@code waitingroom.rooms}
 * under {@code rooms.<name>}, with the same three details, so the details name the room that is
 * down:
 *
 * <pre>{@code
 * {"status":"DOWN","details":{"room":"shop","storeFailing":false,"plansStalled":false,
 *   "rooms":{"drop":{"room":"drop","storeFailing":true,"plansStalled":false}}}}
 * }</pre>
 *
 * <p>Opt-in ({@code management.health.waitingroom.enabled=true}): every node of a room shares one
 * store, so when it fails they would all report {@code DOWN} at once, and a load balancer that
 * reads the health endpoint would take the whole site out, although each node keeps serving its
 * admitted users under the room's failure policy. Enable it for monitoring, and keep it out of
 * the health group the load balancer reads.
 *
 * <p>This class is for Spring Boot 3.5 ({@code org.springframework.boot.actuate.health}); Spring
 * Boot 4 moved health indicators to {@code org.springframework.boot.health.contributor}, and gets
 * {@link Boot4WaitingRoomHealthIndicator}, which reports the same. The starter registers the one
 * that fits the application's Boot, under the bean name {@code waitingRoomHealthIndicator}.
 */
public class WaitingRoomHealthIndicator implements HealthIndicator {
  private final StoreHealth store;

  /**
   * An indicator over one room.
   *
   * @param room the room whose store to report on
   */
  public WaitingRoomHealthIndicator(WaitingRoom room) {
    this(Objects.requireNonNull(room, "room"), new WaitingRooms(Map.of()));
  }

  /**
   * An indicator over the main room and further rooms.
   *
   * @param room the main room, or {@code null} when the application has only further rooms
   * @param rooms the further rooms, by name
   */
  public WaitingRoomHealthIndicator(@Nullable WaitingRoom room, WaitingRooms rooms) {
    this.store = new StoreHealth(room, rooms);
  }

  @Override
  public Health health() {
    StoreHealth.Result h = store.check();
    return (h.up() ? Health.up() : Health.down()).withDetails(h.details()).build();
  }
}
