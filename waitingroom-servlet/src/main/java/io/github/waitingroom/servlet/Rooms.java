package io.github.waitingroom.servlet;

import io.github.waitingroom.http.PathRules;
import jakarta.servlet.ServletContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The rooms of one web application, so that several {@link WaitingRoomFilter}s share its path
 * space: a request belongs to the room whose path prefix is the most specific one that covers it,
 * and to no other, whatever order the container runs the filters in. With {@code /} guarded by a
 * shop room and {@code /drop} by a drop room, {@code /drop/x} belongs to the drop room alone.
 *
 * <p>Kept as an attribute of the {@link ServletContext}; a filter joins in {@code init} and leaves
 * in {@code destroy}. Two rooms may not share a prefix or a cookie name: a browser sends a {@code
 * Path=/} cookie along to {@code /drop} too, so one name would mix two rooms' tickets.
 */
final class Rooms {
  private static final String ATTRIBUTE = Rooms.class.getName();

  /** One filter's room: its guarded prefix and cookie. */
  private record Member(WaitingRoomFilter filter, String prefix, String cookieName, String roomId) {}

  /** Most specific prefix first; replaced whole on every change, read without a lock. */
  private volatile List<Member> members = List.of();

  /** An empty set of rooms, outside any servlet context (see {@link WaitingRoomFilter#checkDistinct}). */
  Rooms() {}

  /** The rooms of an application, made on first use. */
  static Rooms of(ServletContext context) {
    synchronized (Rooms.class) {
      Object rooms = context.getAttribute(ATTRIBUTE);
      if (rooms instanceof Rooms r) {
        return r;
      }
      Rooms r = new Rooms();
      context.setAttribute(ATTRIBUTE, r);
      return r;
    }
  }

  /**
   * Adds a filter's room.
   *
   * @throws IllegalArgumentException when another room guards the same prefix or uses the same
   *     cookie name; the message names both rooms
   */
  synchronized void join(WaitingRoomFilter filter, String prefix, String cookieName, String roomId) {
    for (Member m : members) {
      if (m.filter == filter) {
        return;
      }
      if (m.prefix.equals(prefix)) {
        throw new IllegalArgumentException(
            "pathPrefix '" + prefix + "' of room '" + roomId + "' is already guarded by room '" + m.roomId
                + "': give each room its own prefix (a request belongs to the room with the most specific one)");
      }
      if (m.cookieName.equals(cookieName)) {
        throw new IllegalArgumentException(
            "cookieName '" + cookieName + "' of room '" + roomId + "' is already used by room '" + m.roomId
                + "': give each room its own cookie name (the default, wr_<roomId>, needs distinct room ids)");
      }
    }
    List<Member> next = new ArrayList<>(members);
    next.add(new Member(filter, prefix, cookieName, roomId));
    next.sort(Comparator.comparingInt((Member m) -> m.prefix.equals("/") ? 0 : m.prefix.length()).reversed());
    members = List.copyOf(next);
  }

  /** Removes a filter's room. */
  synchronized void leave(WaitingRoomFilter filter) {
    members = members.stream().filter(m -> m.filter != filter).toList();
  }

  /** The filter whose room {@code path} belongs to: the most specific prefix covering it, or null. */
  @Nullable WaitingRoomFilter owner(String path) {
    for (Member m : members) {
      if (PathRules.under(path, m.prefix)) {
        return m.filter;
      }
    }
    return null;
  }
}
