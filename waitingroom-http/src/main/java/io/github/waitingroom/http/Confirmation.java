package io.github.waitingroom.http;

import io.github.waitingroom.Decision;
import io.github.waitingroom.Seal;
import io.github.waitingroom.WaitingRoom;
import java.nio.ByteBuffer;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The round trip a newcomer makes before the room counts it ({@link GateOptions#confirmNewcomers}):
 * a request without a ticket the room knows gets a {@code 307} to the same address and a sealed
 * cookie (the challenge cookie, {@value #PREFIX} and the second it was issued, bound to the
 * client's {@linkplain ClientAddress address}); the request that brings it back, within {@value
 * #TTL_SECONDS} s and from the same address, is decided as a newcomer. Requests that never come
 * back (a flood) cost a seal each and change nothing: no slot, no place, no user counted. Keeps
 * no state.
 */
final class Confirmation {
  /** How the challenge cookie marks a confirmation. */
  static final String PREFIX = "p.";

  /**
   * How long a confirmation counts: a browser follows a redirect at once; 30 s covers a slow
   * connection, and a confirmation harvested to be used later is worth nothing after it.
   */
  static final long TTL_SECONDS = 30;

  private final WaitingRoom room;
  private final CookiePolicy cookies;
  private final Answers answers;
  /** The gate's friction, whose challenges and flags count as coming back; {@code null} without. */
  private final @Nullable Friction friction;
  private final Seal seal;

  Confirmation(WaitingRoom room, CookiePolicy cookies, Answers answers, @Nullable Friction friction) {
    this.room = room;
    this.cookies = cookies;
    this.answers = answers;
    this.friction = friction;
    this.seal = room.seal("confirm");
  }

  /**
   * The answer to a request ({@link Gate#handle}): the room's decision for a ticket it knows
   * ({@link WaitingRoom#decideKnown}, the request's one decision, at the cost of any other); for a
   * newcomer that brings nothing back, the round trip ({@link #send}), nothing counted; {@code
   * null}, decide as usual, for a newcomer that came back (with its confirmation, or a challenge
   * or flag the friction issued it).
   */
  @Nullable GateResponse answer(GateRequest request) {
    Decision d = room.decideKnown(request.ticket(), request.place());
    if (d.outcome() != Decision.Outcome.CHALLENGE) {
      return answers.respond(d, request);
    }
    Friction f = friction;
    return confirmed(request) || f != null && f.holdsOwn(request) ? null : send(request);
  }

  /** Whether the request brings back a confirmation issued to its address within the last {@value #TTL_SECONDS} s. */
  boolean confirmed(GateRequest request) {
    String f = request.friction();
    if (f == null || !f.startsWith(PREFIX)) {
      return false;
    }
    byte[] m = seal.open(f.substring(PREFIX.length()));
    if (m == null || m.length != 16) {
      return false;
    }
    ByteBuffer b = ByteBuffer.wrap(m);
    long age = room.nowSecond() - b.getLong();
    return age >= -io.github.waitingroom.TicketCodec.MAX_CLOCK_SKEW_SECONDS && age <= TTL_SECONDS && b.getLong() == ClientAddress.key(request.remoteAddress());
  }

  /** Back to the same address, with a confirmation: nothing stored, nothing counted. */
  private GateResponse send(GateRequest request) {
    byte[] m = ByteBuffer.allocate(16).putLong(room.nowSecond()).putLong(ClientAddress.key(request.remoteAddress())).array();
    String cookie = cookies.friction(request, PREFIX + seal.seal(m), TTL_SECONDS);
    String query = request.query();
    String path = request.rawPath();
    // Without the path, a reference of the query alone resolves to the same path (RFC 3986, 5.2).
    String location = (path != null ? path : "") + "?" + (query != null ? query : "");
    if (path != null && (query == null || query.isEmpty())) {
      location = path;
    }
    return GateResponse.answer(cookie, 307, "text/plain; charset=utf-8",
        Map.of("Location", location, "Cache-Control", ResponseHeaders.NO_STORE), "");
  }
}
