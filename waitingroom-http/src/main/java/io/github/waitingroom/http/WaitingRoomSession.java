package io.github.waitingroom.http;

import io.github.waitingroom.WaitingRoom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The visitor's waiting-room session on a request the room let through, for the application to
 * end it: the servlet filter sets it as the request attribute {@value #ATTRIBUTE}, the WebFlux
 * filter as the exchange attribute of that name, when {@linkplain Gate.Builder#revoke revoke} is
 * on.
 *
 * <pre>{@code
 * // after the checkout, before the response is written:
 * if (request.getAttribute(WaitingRoomSession.ATTRIBUTE) instanceof WaitingRoomSession s) {
 *   s.revoke();
 * }
 * }</pre>
 *
 * <p>Thread-safe; {@link #revoke()} takes no lock and does no I/O.
 */
public final class WaitingRoomSession {
  /** The name of the request (or exchange) attribute that holds the session. */
  public static final String ATTRIBUTE = "io.github.waitingroom.session";

  private final WaitingRoom room;
  private final String ticket;
  private final Runnable deleteCookie;
  private final AtomicBoolean revoked = new AtomicBoolean();

  WaitingRoomSession(WaitingRoom room, String ticket, Runnable deleteCookie) {
    this.room = room;
    this.ticket = ticket;
    this.deleteCookie = deleteCookie;
  }

  /**
   * The id of the room the session is in.
   *
   * @return the room id
   */
  public String roomId() {
    return room.config().roomId();
  }

  /**
   * Ends the session ({@link WaitingRoom#revoke}): its slot frees within two to three sync
   * intervals for the next person in line, and the ticket is refused on every node from then on.
   * Deletes the session cookie on the response too, if it is not committed yet. Once per request:
   * a second call does nothing.
   *
   * @return whether a live session was ended (false: called before, or the session had ended)
   */
  public boolean revoke() {
    if (!revoked.compareAndSet(false, true)) {
      return false;
    }
    boolean ended = room.revoke(ticket);
    deleteCookie.run();
    return ended;
  }

  /**
   * Whether {@link #revoke()} was called on this request.
   *
   * @return whether the session was revoked here
   */
  public boolean revoked() {
    return revoked.get();
  }
}
