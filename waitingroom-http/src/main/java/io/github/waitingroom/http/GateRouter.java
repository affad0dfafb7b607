package io.github.waitingroom.http;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Several rooms of one application, sharing its path space: a request belongs to the room whose
 * path prefix is the most specific one that covers it, and to no other. With {@code /} guarded by
 * a shop room and {@code /drop} by a drop room, {@code /drop/x} belongs to the drop room alone and
 * {@code /shop/y} to the shop room. Immutable; the servlet and WebFlux filters both route through
 * it.
 *
 * <p>Two rooms may not share a prefix (which one would decide?) or a cookie name: a browser sends a
 * {@code Path=/} cookie along to {@code /drop} too, so one name would mix two rooms' tickets. Each
 * room has two cookies, its session cookie ({@link Gate#cookieName()}) and its place cookie ({@link
 * Gate#placeCookieName()}, the same name with {@code _q} appended), and no name of one room may be
 * a name of another: a room named {@code wr} and one named {@code wr_q} clash too.
 */
public final class GateRouter {
  private static final GateRouter EMPTY = new GateRouter(List.of());

  /** Most specific prefix first. */
  private final List<Gate> gates;

  private GateRouter(List<Gate> gates) {
    this.gates = gates;
  }

  /**
   * A router over no gate; {@link #route} finds none.
   *
   * @return the empty router
   */
  public static GateRouter empty() {
    return EMPTY;
  }

  /**
   * A router over the given gates.
   *
   * @param gates the gates of one application, in any order
   * @return the router
   * @throws IllegalArgumentException when two gates have the same path prefix or cookie name; the
   *     message names both rooms and the setting they share
   */
  public static GateRouter of(List<Gate> gates) {
    return EMPTY.with(gates);
  }

  /**
   * This router and further gates.
   *
   * @param more gates to add, in any order
   * @return a new router with all gates
   * @throws IllegalArgumentException when a gate has the path prefix or cookie name of another one;
   *     the message names both rooms and the setting they share
   */
  public GateRouter with(List<Gate> more) {
    List<Gate> next = new ArrayList<>(gates);
    for (Gate g : more) {
      check(next, g);
      next.add(g);
    }
    next.sort(Comparator.comparingInt((Gate g) -> specificity(g.paths().prefix())).reversed());
    return new GateRouter(List.copyOf(next));
  }

  /**
   * This router without a gate.
   *
   * @param gate the gate to drop, compared by identity
   * @return a new router without it
   */
  public GateRouter without(Gate gate) {
    return new GateRouter(gates.stream().filter(g -> g != gate).toList());
  }

  /**
   * The gates, most specific prefix first.
   *
   * @return the gates
   */
  public List<Gate> gates() {
    return gates;
  }

  /**
   * The gate whose room a path belongs to: the one with the most specific prefix that covers it.
   *
   * @param path the path within the application, decoded
   * @return the gate, or {@code null} when no room covers the path
   */
  public @Nullable Gate route(String path) {
    for (Gate g : gates) {
      if (g.covers(path)) {
        return g;
      }
    }
    return null;
  }

  private static int specificity(String prefix) {
    return prefix.equals("/") ? 0 : prefix.length();
  }

  private static void check(List<Gate> members, Gate gate) {
    String roomId = gate.room().config().roomId();
    String prefix = gate.paths().prefix();
    for (Gate m : members) {
      if (m == gate) {
        continue;
      }
      String other = m.room().config().roomId();
      if (m.paths().prefix().equals(prefix)) {
        throw new IllegalArgumentException(
            "pathPrefix '" + prefix + "' of room '" + roomId + "' is already guarded by room '" + other
                + "': give each room its own prefix (a request belongs to the room with the most specific one)");
      }
      String clash = clash(gate, m);
      if (clash != null) {
        String which = clash.equals(gate.cookieName()) && clash.equals(m.cookieName())
            ? ""
            : " (cookie '" + clash + "': each room has a session cookie, its cookieName, and a place cookie,"
                + " its cookieName + _q)";
        throw new IllegalArgumentException(
            "cookieName '" + gate.cookieName() + "' of room '" + roomId + "' is already used by room '" + other
                + "'" + which
                + ": give each room its own cookie name (the default, wr_<roomId>, needs distinct room ids)");
      }
    }
  }

  /** A cookie name that two gates share, their session or place cookies crossed; {@code null} if none. */
  private static @Nullable String clash(Gate a, Gate b) {
    for (String mine : List.of(a.cookieName(), a.placeCookieName())) {
      if (mine.equals(b.cookieName()) || mine.equals(b.placeCookieName())) {
        return mine;
      }
    }
    return null;
  }
}
