package io.github.waitingroom.http;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What {@link Gate#handle} needs to know of a request that the room decides, read by an adapter
 * from its own request type.
 *
 * @param contextPath the application's context path ({@code ""} for the root), which scopes the
 *     ticket cookie
 * @param secure whether the server says the request came over HTTPS (see {@link CookieSecure#AUTO})
 * @param ticket the value of the room's ticket cookie, or {@code null} when the request has none
 * @param query the raw query string, or {@code null} when there is none
 * @param accept the {@code Accept} header, or {@code null}
 */
public record GateRequest(
    String contextPath, boolean secure, @Nullable String ticket, @Nullable String query, @Nullable String accept) {

  /** Checks that the context path is given. */
  public GateRequest {
    Objects.requireNonNull(contextPath, "contextPath");
  }
}
