package io.github.waitingroom.http;

import org.jspecify.annotations.Nullable;

/**
 * Reads what an adapter hands over into a {@link GateRequest} ({@link Gate#read}): the cookies the
 * gate names, the headers its pages need, and the challenge cookie and the client's address only
 * with friction on or newcomers confirmed, since only a challenge or a confirmation is bound to it.
 */
final class RequestReader {
  private final CookiePolicy cookies;
  /** Whether the gate reads its challenge cookie and the client's address (friction, or confirmed newcomers). */
  private final boolean challenged;

  RequestReader(CookiePolicy cookies, boolean challenged) {
    this.cookies = cookies;
    this.challenged = challenged;
  }

  GateRequest read(GateRequest.Builder request, @Nullable String rawQuery, @Nullable String remoteAddress,
      Gate.Lookup cookieValues, Gate.Lookup headers) {
    return request
        .ticket(cookieValues.get(cookies.sessionName()))
        .place(cookieValues.get(cookies.placeName()))
        .friction(challenged ? cookieValues.get(cookies.frictionName()) : null)
        .query(rawQuery)
        .accept(headers.get("Accept"))
        .acceptLanguage(headers.get("Accept-Language"))
        .referer(headers.get("Referer"))
        // With friction on, every challenge is bound to the address it was issued to (ClientAddress),
        // and the human check passes it on to its service; so is a newcomer's confirmation. Without
        // either, the address is never used.
        .remoteAddress(challenged ? remoteAddress : null)
        .build();
  }
}
