package io.github.waitingroom.servlet;

import io.github.waitingroom.http.ResponseHeaders;
import io.github.waitingroom.http.WaitingRoomSession;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

/**
 * An application response on which the application may end the visitor's session by the
 * {@linkplain ResponseHeaders#REVOKE_HEADER revoke header}: the header never reaches the client; setting it
 * revokes the session and deletes the session cookie, as {@link WaitingRoomSession#revoke()}
 * does. The cookie can only be deleted while the response is not committed: set the header
 * before writing the body.
 */
final class RevokeResponse extends HttpServletResponseWrapper {
  private final WaitingRoomSession session;

  RevokeResponse(HttpServletResponse response, WaitingRoomSession session) {
    super(response);
    this.session = session;
  }

  /** Whether a header is the revoke header, which then revokes the session (unless it is removed) and is never set. */
  private boolean intercepted(String name, boolean set) {
    if (!ResponseHeaders.isRevokeHeader(name)) {
      return false;
    }
    if (set) {
      session.revoke();
    }
    return true;
  }

  @Override
  public void setHeader(String name, @Nullable String value) {
    if (!intercepted(name, value != null)) {
      super.setHeader(name, value);
    }
  }

  @Override
  public void addHeader(String name, @Nullable String value) {
    if (!intercepted(name, value != null)) {
      super.addHeader(name, value);
    }
  }

  @Override
  public void setIntHeader(String name, int value) {
    if (!intercepted(name, true)) {
      super.setIntHeader(name, value);
    }
  }

  @Override
  public void addIntHeader(String name, int value) {
    if (!intercepted(name, true)) {
      super.addIntHeader(name, value);
    }
  }

  @Override
  public boolean containsHeader(String name) {
    return !ResponseHeaders.isRevokeHeader(name) && super.containsHeader(name);
  }
}
