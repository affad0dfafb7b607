package io.github.waitingroom.servlet;

import io.github.waitingroom.http.Gate;
import io.github.waitingroom.http.GateRouter;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The rooms of one web application, so that several {@link WaitingRoomFilter}s share its path
 * space: a request belongs to the room whose path prefix is the most specific one that covers it,
 * and to no other, whatever order the container runs the filters in. With {@code /} guarded by a
 * shop room and {@code /drop} by a drop room, {@code /drop/x} belongs to the drop room alone.
 *
 * <p>Kept as an attribute of the {@link ServletContext}; a filter joins in {@code init} and leaves
 * in {@code destroy}. The routing, and the rule that two rooms share no prefix and no cookie name,
 * are {@link GateRouter}'s; this class only ties each gate to its filter.
 */
final class Rooms {
  private static final String ATTRIBUTE = Rooms.class.getName();

  /** The rooms' gates and the filter of each; replaced whole on every change, read without a lock. */
  private record State(GateRouter router, Map<Gate, WaitingRoomFilter> filters) {}

  private volatile State state = new State(GateRouter.empty(), Map.of());
  /** The names of the servlets that serve the operator API ({@link WaitingRoomDashboard}). */
  private final Set<String> operatorServlets = ConcurrentHashMap.newKeySet();

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
   *     cookie name; the message names both rooms (see {@link GateRouter#with})
   */
  synchronized void join(WaitingRoomFilter filter, Gate gate) {
    State s = state;
    if (s.filters.containsValue(filter)) {
      return;
    }
    Map<Gate, WaitingRoomFilter> filters = new IdentityHashMap<>(s.filters);
    filters.put(gate, filter);
    state = new State(s.router.with(List.of(gate)), filters);
  }

  /** Removes a filter's room. */
  synchronized void leave(WaitingRoomFilter filter) {
    State s = state;
    GateRouter router = s.router;
    Map<Gate, WaitingRoomFilter> filters = new IdentityHashMap<>(s.filters);
    for (Map.Entry<Gate, WaitingRoomFilter> e : s.filters.entrySet()) {
      if (e.getValue() == filter) {
        router = router.without(e.getKey());
        filters.remove(e.getKey());
      }
    }
    state = new State(router, filters);
  }

  /** Records a servlet that serves the operator API: no room decides the requests mapped to it. */
  void operatorServlet(String name) {
    operatorServlets.add(name);
  }

  /** Whether the servlet of this name serves the operator API. */
  boolean isOperatorServlet(String name) {
    return operatorServlets.contains(name);
  }

  /**
   * Whether the container sends the request to the operator API (a {@link WaitingRoomDashboard}):
   * a servlet that told the application's rooms its name, or whose registration carries {@link
   * WaitingRoomDashboard#OPERATOR_PARAM}. No room decides it, whatever its path, so that operators
   * never wait in line for their own dashboard, nor for the operator endpoints whose {@code PUT} no
   * {@code ignorePaths} entry covers. The dashboard is protected by its own token or role.
   *
   * @param rooms the application's rooms, or {@code null} before the filter asking has joined them
   */
  static boolean toOperatorApi(@Nullable Rooms rooms, HttpServletRequest req) {
    HttpServletMapping m = req.getHttpServletMapping();
    String name = m == null ? null : m.getServletName();
    if (name == null || name.isEmpty()) {
      return false;
    }
    if (rooms != null && rooms.isOperatorServlet(name)) {
      return true;
    }
    ServletContext context = req.getServletContext();
    ServletRegistration registration = context == null ? null : context.getServletRegistration(name);
    return registration != null && "true".equals(registration.getInitParameter(WaitingRoomDashboard.OPERATOR_PARAM));
  }

  /**
   * Whether a request belongs to a filter's room, which then marks it with {@link
   * WaitingRoomFilter#ROOM_ATTRIBUTE}: it lies under the room's prefix, no more specific room of the
   * application covers it ({@link #owner}), and no other room has marked it.
   *
   * @param rooms the application's rooms, or {@code null} before the filter has joined them
   */
  static boolean claim(@Nullable Rooms rooms, WaitingRoomFilter filter, Gate gate, HttpServletRequest req) {
    if (req.getAttribute(WaitingRoomFilter.ROOM_ATTRIBUTE) != null) {
      return false;
    }
    String path = ServletExchange.path(req);
    if (!gate.covers(path) || (rooms != null && rooms.owner(path) != filter)) {
      return false;
    }
    req.setAttribute(WaitingRoomFilter.ROOM_ATTRIBUTE, gate.room().config().roomId());
    return true;
  }

  /**
   * Checks that filters can guard one application together ({@link
   * WaitingRoomFilter#checkDistinct}); those not yet initialised are left out.
   */
  static void checkDistinct(List<WaitingRoomFilter> filters) {
    Rooms rooms = new Rooms();
    for (WaitingRoomFilter f : filters) {
      Gate gate = f.gate();
      if (gate != null) {
        rooms.join(f, gate);
      }
    }
  }

  /**
   * Whether a filter's room decides a request (it lies under the prefix and is not ignored), for
   * {@link WaitingRoomDashboard}, which warns when operators would queue for their own dashboard.
   */
  static boolean decides(WaitingRoomFilter filter, HttpServletRequest req) {
    Gate gate = filter.gate();
    return gate != null && gate.covers(ServletExchange.path(req)) && ServletExchange.decides(gate, req);
  }

  /** The filter whose room {@code path} belongs to: the most specific prefix covering it, or null. */
  @Nullable WaitingRoomFilter owner(String path) {
    State s = state;
    Gate gate = s.router.route(path);
    return gate == null ? null : s.filters.get(gate);
  }
}
