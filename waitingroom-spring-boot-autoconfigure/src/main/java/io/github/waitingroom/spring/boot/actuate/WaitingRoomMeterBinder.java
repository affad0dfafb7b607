package io.github.waitingroom.spring.boot.actuate;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.micrometer.WaitingRoomMetrics;
import io.github.waitingroom.spring.boot.WaitingRooms;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Binds the {@link WaitingRoomMetrics} of every room of the application: the main room (the {@link
 * WaitingRoom} bean) and each further room of {@code waitingroom.rooms}. Each room's meters carry
 * the tag {@code room} with its room id. Spring Boot binds every {@link MeterBinder} bean to the
 * application's registries; the starter makes this one when a {@link MeterRegistry} exists, and
 * backs off when the application defines its own bean of this type or a {@link
 * WaitingRoomMetrics} bean.
 */
public final class WaitingRoomMeterBinder implements MeterBinder {
  private final List<WaitingRoomMetrics> metrics;

  /**
   * A binder over the application's rooms.
   *
   * @param room the main room, or {@code null} when there is none
   * @param rooms the further rooms, by name
   */
  public WaitingRoomMeterBinder(@Nullable WaitingRoom room, WaitingRooms rooms) {
    Set<WaitingRoom> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    List<WaitingRoomMetrics> all = new ArrayList<>();
    if (room != null && seen.add(room)) {
      all.add(new WaitingRoomMetrics(room));
    }
    for (Map.Entry<String, WaitingRoom> e : rooms.asMap().entrySet()) {
      if (seen.add(e.getValue())) {
        all.add(new WaitingRoomMetrics(e.getValue()));
      }
    }
    this.metrics = List.copyOf(all);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    metrics.forEach(m -> m.bindTo(registry));
  }

  @Override
  public String toString() {
    return "WaitingRoomMeterBinder" + metrics;
  }
}
