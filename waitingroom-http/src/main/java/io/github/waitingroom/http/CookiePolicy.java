package io.github.waitingroom.http;

/**
 * The room's cookies and their attributes: the session cookie ({@code wr_<roomId>} by default),
 * the place cookie ({@code _q} appended) and the friction cookie ({@code _c} appended), each
 * {@code HttpOnly}, scoped to the guarded path, {@code Secure} and {@code SameSite} as configured.
 * A {@code __Host-} name is always {@code Secure} with {@code Path=/}; a {@code __Secure-} one
 * always {@code Secure}; {@code SameSite=None} always {@code Secure}.
 */
final class CookiePolicy {
  private final String sessionName;
  private final String placeName;
  private final String frictionName;
  private final String prefix;
  /** A {@code __Host-} cookie: always {@code Secure}, {@code Path=/}, never a {@code Domain}. */
  private final boolean hostCookie;
  private final CookieSecure secure;
  private final SameSite sameSite;

  /**
   * Checks the combination of settings.
   *
   * @throws IllegalArgumentException naming the setting that browsers would refuse
   */
  CookiePolicy(String name, CookieSecure secure, SameSite sameSite, String prefix) {
    this.sessionName = name;
    this.placeName = name + "_q";
    this.frictionName = name + "_c";
    this.prefix = prefix;
    if (sameSite == SameSite.NONE && secure == CookieSecure.NEVER) {
      throw new IllegalArgumentException(
          "cookieSameSite NONE requires a Secure cookie (browsers reject it otherwise) but cookieSecure was NEVER");
    }
    // Browsers match the cookie prefixes without regard to case.
    this.hostCookie = name.regionMatches(true, 0, "__Host-", 0, 7);
    boolean securePrefix = hostCookie || name.regionMatches(true, 0, "__Secure-", 0, 9);
    if (securePrefix && secure == CookieSecure.NEVER) {
      throw new IllegalArgumentException(
          "cookieName '" + name + "' requires a Secure cookie (browsers reject a __Host- or __Secure-"
              + " cookie without it) but cookieSecure was NEVER");
    }
    if (hostCookie && !prefix.equals("/")) {
      throw new IllegalArgumentException(
          "cookieName '" + name + "' requires Path=/ (browsers reject a __Host- cookie with any other"
              + " path) but pathPrefix was '" + prefix + "': guard '/' or use another cookie name");
    }
    this.secure = sameSite == SameSite.NONE || securePrefix ? CookieSecure.ALWAYS : secure;
    this.sameSite = sameSite;
  }

  String sessionName() {
    return sessionName;
  }

  String placeName() {
    return placeName;
  }

  String frictionName() {
    return frictionName;
  }

  CookieSecure secure() {
    return secure;
  }

  SameSite sameSite() {
    return sameSite;
  }

  /** The {@code Set-Cookie} of a ticket: the session cookie for one that lets through, the place cookie otherwise. */
  String ticket(boolean letsThrough, GateRequest request, String ticket, long maxAgeSeconds) {
    return set(letsThrough ? sessionName : placeName, request, ticket, maxAgeSeconds);
  }

  /** The {@code Set-Cookie} of the friction cookie (a challenge, or a flagged client's marker). */
  String friction(GateRequest request, String value, long maxAgeSeconds) {
    return set(frictionName, request, value, maxAgeSeconds);
  }

  /** The {@code Set-Cookie} that deletes the session cookie: empty, {@code Max-Age=0}. */
  String deleteSession(GateRequest request) {
    return set(sessionName, request, "", 0);
  }

  private String set(String name, GateRequest request, String value, long maxAgeSeconds) {
    String context = request.contextPath();
    String path = hostCookie || context.isEmpty() ? prefix : prefix.equals("/") ? context : context + prefix;
    StringBuilder c = new StringBuilder(160);
    c.append(name).append('=').append(value);
    c.append("; Path=").append(path);
    c.append("; Max-Age=").append(maxAgeSeconds);
    c.append("; HttpOnly");
    if (secure == CookieSecure.ALWAYS || (secure == CookieSecure.AUTO && request.secure())) {
      c.append("; Secure");
    }
    c.append("; SameSite=").append(sameSite == SameSite.LAX ? "Lax" : sameSite == SameSite.STRICT ? "Strict" : "None");
    return c.toString();
  }
}
