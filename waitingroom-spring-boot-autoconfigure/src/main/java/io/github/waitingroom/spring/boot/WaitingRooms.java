package io.github.waitingroom.spring.boot;

import io.github.waitingroom.WaitingRoom;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The further rooms of an application, by name: the ones the starter makes from {@code
 * waitingroom.rooms.<name>.*}, next to the main room (the {@link WaitingRoom} bean, from {@code
 * waitingroom.*}). The starter's filter guards each room's path prefix; a request belongs to the
 * room with the most specific prefix that covers it, and to no other. Closing this closes every
 * room in it; Spring does so when the context closes.
 */
public final class WaitingRooms implements AutoCloseable {
  private final Map<String, WaitingRoom> rooms;

  /**
   * Rooms by name.
   *
   * @param rooms the rooms, in the order to report them; copied
   */
  public WaitingRooms(Map<String, WaitingRoom> rooms) {
    this.rooms = Collections.unmodifiableMap(new LinkedHashMap<>(rooms));
  }

  /** The rooms by name, in the order they were configured; unmodifiable. */
  public Map<String, WaitingRoom> asMap() {
    return rooms;
  }

  /**
   * One room.
   *
   * @param name the room's name, as in {@code waitingroom.rooms.<name>}
   * @return the room, or {@code null} when there is none of that name
   */
  public @Nullable WaitingRoom get(String name) {
    return rooms.get(name);
  }

  /** Closes every room. */
  @Override
  public void close() {
    rooms.values().forEach(WaitingRoom::close);
  }

  @Override
  public String toString() {
    return "WaitingRooms" + rooms.keySet();
  }
}
