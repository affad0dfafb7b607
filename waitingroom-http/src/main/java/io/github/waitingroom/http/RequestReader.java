package io.github.waitingroom.http;

import org.jspecify.annotations.Nullable;

/**
 * Reads what an adapter hands over into a {@link GateRequest} ({@link Gate#read}): the cookies the
 * gate names, the headers its pages need, and the client's address only with friction on, since
 * only a challenge is bound to it.
 */
final class RequestReader {
  private final CookiePolicy cookies;
  private final @Nullable Friction friction;

  RequestReader(CookiePolicy cookies, @Nullable Friction friction) {
    this.cookies = cookies;
    this.friction = friction;
  }

  GateRequest read(GateRequest.Builder request, @Nullable String rawQuery, @Nullable String remoteAddress,
      Gate.Lookup cookieValues, Gate.Lookup headers) {
    boolean challenged = friction != null;
    return request
        .ticket(cookieValues.get(cookies.sessionName()))
        .place(cookieValues.get(cookies.placeName()))
        .friction(challenged ? cookieValues.get(cookies.frictionName()) : null)
        .query(rawQuery)
        .accept(headers.get("Accept"))
        .acceptLanguage(headers.get("Accept-Language"))
        .referer(headers.get("Referer"))
        .remoteAddress(challenged && wantsRemoteAddress(rawQuery) ? remoteAddress : null)
        .build();
  }

  /** Whether the client's address matters to a request with this query: with friction on, always. */
  boolean wantsRemoteAddress(@Nullable String rawQuery) {
    Friction f = friction;
    return f != null && f.wantsRemoteAddress(rawQuery);
  }

  /** {@link Gate#authority}: {@code host[:port]}, the port only when not the scheme's default, IPv6 in brackets. */
  static @Nullable String authority(@Nullable String scheme, @Nullable String host, int port) {
    if (host == null || host.isEmpty()) {
      return null;
    }
    String h = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    boolean defaultPort =
        port <= 0 || ("https".equalsIgnoreCase(scheme) && port == 443) || ("http".equalsIgnoreCase(scheme) && port == 80);
    return defaultPort ? h : h + ":" + port;
  }
}
