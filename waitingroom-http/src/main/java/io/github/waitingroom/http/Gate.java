package io.github.waitingroom.http;

import io.github.waitingroom.Decision;
import io.github.waitingroom.WaitingRoom;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The container-neutral part of a waiting room filter: which requests the room decides, and what
 * to answer them, as plain values. A servlet filter and a WebFlux {@code WebFilter} each read
 * their request into these calls and write the {@link GateResponse} back; neither holds any rule
 * of its own.
 *
 * <pre>{@code
 * Gate gate = Gate.builder(room).pathPrefix("/shop").ignorePaths("/shop/static/").build();
 * if (gate.decides(method, rawPath, path, origin, accessControlRequestMethod)) {
 *   GateResponse r = gate.handle(new GateRequest(contextPath, secure, sessionCookie, query, accept, placeCookie));
 *   // add r.setCookie(); then pass the request on, or write r.status(), r.headers(), r.body()
 * }
 * }</pre>
 *
 * <p>A decided request carrying the status query flag ({@code ?waitingRoomStatus=1} by default) is
 * answered with the JSON status only, even when it is let through: that is what the waiting page
 * polls. Otherwise an admitted request passes, and a waiting one gets the JSON status when it
 * sends {@code Accept: application/json} and the waiting page otherwise.
 *
 * <p>Headers: every answer carries {@code Cache-Control: private, no-store} and {@code
 * X-Content-Type-Options: nosniff}; the waiting page carries a Content-Security-Policy that allows
 * only its own inline script and style (by a fresh nonce per response, {@code {{cspNonce}}} in a
 * template) and same-origin requests, the JSON status {@code default-src 'none'}.
 *
 * <p>Cookies: two per room, with the same attributes ({@code HttpOnly}, scoped to the guarded
 * path, {@code Secure} and {@code SameSite} as configured), each re-issued only when its ticket
 * changes. The <b>session</b> cookie ({@link #cookieName()}, {@code wr_<roomId>} by default) holds
 * the ticket of an answer that lets the request through; the <b>place</b> cookie ({@link
 * #placeCookieName()}, the same name with {@code _q} appended) holds the ticket of any other
 * answer, the visitor's place in line. With one cookie, a page whose requests go at once to several
 * nodes (no session affinity) could be admitted by one and told to wait by another, and the
 * browser would keep whichever {@code Set-Cookie} came last, losing the session it was just given;
 * with two, a waiting answer never overwrites the session. The session cookie keeps the name a
 * single cookie had, so sessions survive an upgrade, and a waiting ticket left in it from before
 * keeps its place (see {@link WaitingRoom#decide(String, String)}).
 *
 * <p>Immutable and thread-safe; {@link #handle} calls {@link WaitingRoom#decide}, which takes no
 * lock and does no I/O, so an event loop may call it.
 */
public final class Gate {
  /** The default name of the query flag that asks for the JSON status only. */
  public static final String DEFAULT_STATUS_PARAM = "waitingRoomStatus";

  /** The {@code Cache-Control} of every answer and of every passed response that sets a ticket. */
  public static final String NO_STORE = "private, no-store";

  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final String JSON_POLICY = "default-src 'none'";
  private static final SecureRandom NONCES = new SecureRandom();
  private static final Base64.Encoder NONCE_ENCODER = Base64.getUrlEncoder().withoutPadding();

  private final WaitingRoom room;
  private final PathRules paths;
  private final String cookieName;
  private final String placeCookieName;
  /** A {@code __Host-} cookie: always {@code Secure}, {@code Path=/}, never a {@code Domain}. */
  private final boolean hostCookie;
  private final CookieSecure secure;
  private final SameSite sameSite;
  private final int waitingStatus;
  private final String statusParam;
  private final PageTemplate template;

  private Gate(Builder b) {
    this.room = b.room;
    this.paths = new PathRules(b.pathPrefix, b.ignorePaths);
    String name = b.cookieName != null ? b.cookieName : "wr_" + room.config().roomId();
    this.cookieName = checkToken("cookieName", name);
    this.placeCookieName = name + "_q";
    this.statusParam = checkToken("statusParam", b.statusParam);
    if (b.sameSite == SameSite.NONE && b.secure == CookieSecure.NEVER) {
      throw new IllegalArgumentException(
          "cookieSameSite NONE requires a Secure cookie (browsers reject it otherwise) but cookieSecure was NEVER");
    }
    // Browsers match the cookie prefixes without regard to case.
    this.hostCookie = name.regionMatches(true, 0, "__Host-", 0, 7);
    boolean securePrefix = hostCookie || name.regionMatches(true, 0, "__Secure-", 0, 9);
    if (securePrefix && b.secure == CookieSecure.NEVER) {
      throw new IllegalArgumentException(
          "cookieName '" + name + "' requires a Secure cookie (browsers reject a __Host- or __Secure-"
              + " cookie without it) but cookieSecure was NEVER");
    }
    if (hostCookie && !paths.prefix().equals("/")) {
      throw new IllegalArgumentException(
          "cookieName '" + name + "' requires Path=/ (browsers reject a __Host- cookie with any other"
              + " path) but pathPrefix was '" + paths.prefix() + "': guard '/' or use another cookie name");
    }
    this.secure = b.sameSite == SameSite.NONE || securePrefix ? CookieSecure.ALWAYS : b.secure;
    this.sameSite = b.sameSite;
    this.waitingStatus = b.waitingStatus;
    this.template = b.template;
  }

  private static String checkToken(String setting, String value) {
    if (!TOKEN.matcher(value).matches()) {
      throw new IllegalArgumentException(
          setting + " must be 1 to 64 characters out of A-Z a-z 0-9 . _ - but was '" + value + "'");
    }
    return value;
  }

  /**
   * Starts building a gate around a room that the caller owns (and closes).
   *
   * @param room the room; its id names the cookie unless {@link Builder#cookieName} says otherwise
   * @return a builder with every setting at its default
   */
  public static Builder builder(WaitingRoom room) {
    return new Builder(room);
  }

  /**
   * The room behind this gate.
   *
   * @return the room
   */
  public WaitingRoom room() {
    return room;
  }

  /**
   * Which paths the room guards.
   *
   * @return the path rules
   */
  public PathRules paths() {
    return paths;
  }

  /**
   * The session cookie's name: the cookie that holds the ticket of an answer that lets the request
   * through. Default: {@code wr_<roomId>}, the name of the single cookie of earlier versions.
   *
   * @return the name
   */
  public String cookieName() {
    return cookieName;
  }

  /**
   * The place cookie's name: the cookie that holds the ticket of an answer that keeps the request
   * waiting (the visitor's place in line), {@link #cookieName()} with {@code _q} appended. A
   * {@code __Host-} or {@code __Secure-} prefix carries over, with the same attributes.
   *
   * @return the name
   */
  public String placeCookieName() {
    return placeCookieName;
  }

  /**
   * When the cookie is {@code Secure}: {@link CookieSecure#ALWAYS} when its name or {@code
   * SameSite=None} demand it, else as configured.
   *
   * @return the effective setting
   */
  public CookieSecure cookieSecure() {
    return secure;
  }

  /**
   * The cookie's {@code SameSite}.
   *
   * @return the setting
   */
  public SameSite cookieSameSite() {
    return sameSite;
  }

  /**
   * The HTTP status of waiting responses.
   *
   * @return 200, 202 or 429
   */
  public int waitingStatus() {
    return waitingStatus;
  }

  /**
   * The query flag that asks for the JSON status only.
   *
   * @return the flag's name
   */
  public String statusParam() {
    return statusParam;
  }

  /**
   * Whether a path lies under the guarded prefix, ignored paths included.
   *
   * @param path the path within the application, decoded
   * @return whether the path is the room's
   */
  public boolean covers(String path) {
    return PathRules.under(path, paths.prefix());
  }

  /**
   * Whether the room decides a request. A CORS preflight, an {@code OPTIONS} request with both
   * {@code Origin} and {@code Access-Control-Request-Method}, never is: browsers never send cookies
   * with it, and queueing it would only add phantom users. Every other {@code OPTIONS} request is
   * decided like a {@code GET}. Then the {@linkplain PathRules path rules} apply.
   *
   * @param method the HTTP method
   * @param rawPath the path as the client sent it, after the context path (percent-escapes and
   *     path parameters intact)
   * @param path the path within the application as the server decoded it
   * @param origin the {@code Origin} header, or {@code null}
   * @param accessControlRequestMethod the {@code Access-Control-Request-Method} header, or {@code null}
   * @return whether to call {@link #handle}; if not, the request passes untouched
   */
  public boolean decides(
      String method,
      String rawPath,
      String path,
      @Nullable String origin,
      @Nullable String accessControlRequestMethod) {
    boolean preflight = "OPTIONS".equals(method) && origin != null && accessControlRequestMethod != null;
    return !preflight && paths.guards(method, rawPath, path);
  }

  /**
   * Decides a request on its two tickets ({@link WaitingRoom#decide(String, String)}) and says what
   * to do with it. The new ticket, if any, goes to the session cookie ({@link #cookieName()}) when
   * the decision lets the request through and to the place cookie ({@link #placeCookieName()})
   * otherwise, so a waiting answer never overwrites a session.
   *
   * @param request the request, for which {@link #decides} said yes
   * @return pass it on or answer it, with the new ticket cookie either way
   */
  public GateResponse handle(GateRequest request) {
    Decision d = room.decide(request.ticket(), request.place());
    String ticket = d.ticket();
    String setCookie =
        ticket == null
            ? null
            : setCookie(
                d.letsThrough() ? cookieName : placeCookieName,
                request.contextPath(),
                request.secure(),
                ticket,
                d.ticketMaxAgeSeconds());
    if (hasFlag(request.query(), statusParam)) {
      return json(d, setCookie, d.letsThrough() ? 200 : waitingStatus);
    }
    if (d.letsThrough()) {
      return GateResponse.pass(setCookie);
    }
    String accept = request.accept();
    if (accept != null && accept.contains("application/json")) {
      return json(d, setCookie, waitingStatus);
    }
    return page(d, setCookie);
  }

  private String setCookie(String name, String context, boolean secureRequest, String ticket, long maxAgeSeconds) {
    String prefix = paths.prefix();
    String path = hostCookie || context.isEmpty() ? prefix : prefix.equals("/") ? context : context + prefix;
    StringBuilder c = new StringBuilder(160);
    c.append(name).append('=').append(ticket);
    c.append("; Path=").append(path);
    c.append("; Max-Age=").append(maxAgeSeconds);
    c.append("; HttpOnly");
    if (secure == CookieSecure.ALWAYS || (secure == CookieSecure.AUTO && secureRequest)) {
      c.append("; Secure");
    }
    c.append("; SameSite=").append(sameSite == SameSite.LAX ? "Lax" : sameSite == SameSite.STRICT ? "Strict" : "None");
    return c.toString();
  }

  private GateResponse json(Decision d, @Nullable String setCookie, int status) {
    long viewTime = d.viewTime() > 0 ? d.viewTime() : room.status().now();
    String body = StatusJson.write(room.config().roomId(), d, viewTime);
    return answer(setCookie, status, "application/json", JSON_POLICY, body, d);
  }

  private GateResponse page(Decision d, @Nullable String setCookie) {
    String[] values = new String[PageTemplate.Var.values().length];
    values[PageTemplate.Var.ROOM_ID.ordinal()] = room.config().roomId();
    values[PageTemplate.Var.USERS_AHEAD.ordinal()] = Long.toString(d.usersAhead());
    values[PageTemplate.Var.WAIT_KNOWN.ordinal()] = Boolean.toString(d.waitKnown());
    values[PageTemplate.Var.WAIT_MINUTES.ordinal()] = d.waitKnown() ? Long.toString(d.waitMinutes()) : "unknown";
    values[PageTemplate.Var.WAIT_TIME_FORMATTED.ordinal()] = PageTemplate.formatWait(d.waitSeconds());
    values[PageTemplate.Var.REFRESH_SECONDS.ordinal()] = Long.toString(d.refreshSeconds());
    values[PageTemplate.Var.LAST_UPDATED.ordinal()] = Instant.ofEpochSecond(d.viewTime()).toString();
    values[PageTemplate.Var.STATUS_PARAM.ordinal()] = statusParam;
    String nonce = nonce();
    values[PageTemplate.Var.CSP_NONCE.ordinal()] = nonce;
    return answer(setCookie, waitingStatus, "text/html", pagePolicy(nonce), template.render(values), d);
  }

  private static GateResponse answer(
      @Nullable String setCookie, int status, String type, String policy, String body, Decision d) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Cache-Control", NO_STORE);
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("Content-Security-Policy", policy);
    if (status == 429 && d.refreshSeconds() > 0) {
      headers.put("Retry-After", Long.toString(d.refreshSeconds()));
    }
    return GateResponse.answer(setCookie, status, type + ";charset=UTF-8", headers, body);
  }

  /** 128 random bits, base64url: a Content-Security-Policy nonce for one page. */
  private static String nonce() {
    byte[] bytes = new byte[16];
    NONCES.nextBytes(bytes);
    return NONCE_ENCODER.encodeToString(bytes);
  }

  /**
   * The waiting page's policy: its own inline script and style (by nonce), requests to its own
   * origin (the status poll) and same-origin images; nothing from elsewhere, no plugins, no
   * {@code <base>}.
   */
  static String pagePolicy(String nonce) {
    return "default-src 'none'; script-src 'nonce-" + nonce + "'; style-src 'nonce-" + nonce
        + "'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'";
  }

  /** Whether the raw query string holds the flag {@code name} (with or without a value). */
  static boolean hasFlag(@Nullable String query, String name) {
    if (query == null) {
      return false;
    }
    int from = 0;
    while (from <= query.length()) {
      int end = query.indexOf('&', from);
      if (end < 0) {
        end = query.length();
      }
      if (query.startsWith(name, from)
          && (from + name.length() == end || query.charAt(from + name.length()) == '=')) {
        return true;
      }
      from = end + 1;
    }
    return false;
  }

  /**
   * Whether a response header would let a shared cache (a proxy or a CDN) keep the response: an
   * adapter drops these from an application response that carries a ticket cookie, which must
   * never be cached and replayed to someone else.
   *
   * @param name a header name, in any case
   * @return whether it is {@code Cache-Control}, {@code Expires}, {@code Surrogate-Control} or
   *     {@code *CDN-Cache-Control}
   */
  public static boolean cachingHeader(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.equals("cache-control")
        || n.equals("expires")
        || n.equals("surrogate-control")
        || n.endsWith("cdn-cache-control");
  }

  /**
   * Builds a {@link Gate} around a room. Every setting has a default; each is checked by {@link
   * #build()}, whose error names the setting and the bad value.
   */
  public static final class Builder {
    private final WaitingRoom room;
    private String pathPrefix = "/";
    private final List<String> ignorePaths = new ArrayList<>();
    private @Nullable String cookieName;
    private CookieSecure secure = CookieSecure.AUTO;
    private SameSite sameSite = SameSite.LAX;
    private int waitingStatus = 200;
    private String statusParam = DEFAULT_STATUS_PARAM;
    private PageTemplate template;

    private Builder(WaitingRoom room) {
      this.room = Objects.requireNonNull(room, "room");
      this.template = PageTemplate.defaultPage();
    }

    /**
     * The path (within the application) the room guards, with everything below it. Default:
     * {@code /}, the whole application. The ticket cookie is scoped to it.
     *
     * @param prefix a path starting with {@code /}
     * @return this builder
     */
    public Builder pathPrefix(String prefix) {
      this.pathPrefix = Objects.requireNonNull(prefix, "pathPrefix");
      return this;
    }

    /**
     * Paths that pass through without a ticket. Adds to earlier calls. An entry is
     *
     * <ul>
     *   <li>a path ({@code /static/}, {@code /health}): it and everything below it, segment by
     *       segment ({@code /health} does not cover {@code /healthz});
     *   <li>an extension under a path ({@code /static/*.css}): a last segment that ends in {@code
     *       .css}, anywhere below {@code /static};
     *   <li>a bare extension ({@code *.css}): the same at any depth, also below application routes
     *       ({@code /buy/x.css}); logged as a warning at start-up, prefer the scoped form.
     * </ul>
     *
     * <p>An ignore applies only to {@code GET} and {@code HEAD} requests whose path is canonical:
     * the path as sent (after the context path) holds only {@code A-Z a-z 0-9 - . _ ~ /}, has no
     * empty, {@code .} or {@code ..} segment, and equals the path the server decoded. A
     * percent-escape ({@code /buy%3B.css}, {@code /buy%20.css}), a path parameter ({@code
     * /buy;x.css}), a dot segment or any other method ({@code POST /static/x.css}) is decided by
     * the room like any other request. Static assets whose URLs need escapes are therefore not
     * exempt: an admitted visitor still gets them.
     *
     * @param paths the entries
     * @return this builder
     */
    public Builder ignorePaths(String... paths) {
      ignorePaths.addAll(Arrays.asList(paths));
      return this;
    }

    /**
     * The session cookie's name; the place cookie is named after it, with {@code _q} appended (see
     * {@link Gate#placeCookieName()}). Default: {@code wr_<roomId>}. A name starting with {@code __Host-} (in any
     * case) makes the cookie {@code Secure} with {@code Path=/} and no {@code Domain}, as browsers
     * require; it needs {@link #pathPrefix} {@code /}, and {@link #build()} refuses it with {@link
     * CookieSecure#NEVER} or another prefix. {@code __Secure-} makes it {@code Secure} and is
     * refused with {@link CookieSecure#NEVER}. The cookie is {@code Secure} for such names even over
     * plain HTTP, where browsers then drop it.
     *
     * @param name 1 to 64 characters out of {@code A-Z a-z 0-9 . _ -}
     * @return this builder
     */
    public Builder cookieName(String name) {
      this.cookieName = Objects.requireNonNull(name, "cookieName");
      return this;
    }

    /**
     * When the cookie is {@code Secure}. Default: {@link CookieSecure#AUTO}, which follows the
     * server: behind a TLS-terminating proxy, configure its forwarded-header handling (see {@link
     * CookieSecure#AUTO}) or choose {@link CookieSecure#ALWAYS}.
     *
     * @param secure the setting
     * @return this builder
     */
    public Builder cookieSecure(CookieSecure secure) {
      this.secure = Objects.requireNonNull(secure, "cookieSecure");
      return this;
    }

    /**
     * The cookie's {@code SameSite}. Default: {@link SameSite#LAX}.
     *
     * @param sameSite the setting
     * @return this builder
     */
    public Builder cookieSameSite(SameSite sameSite) {
      this.sameSite = Objects.requireNonNull(sameSite, "cookieSameSite");
      return this;
    }

    /**
     * The HTTP status of waiting responses: 200 (default), 202 or 429 (with {@code Retry-After}).
     *
     * @param status 200, 202 or 429
     * @return this builder
     */
    public Builder waitingStatus(int status) {
      if (status != 200 && status != 202 && status != 429) {
        throw new IllegalArgumentException("waitingStatus must be 200, 202 or 429 but was " + status);
      }
      this.waitingStatus = status;
      return this;
    }

    /**
     * The query flag that asks for the JSON status only. Default: {@value Gate#DEFAULT_STATUS_PARAM}.
     *
     * @param name 1 to 64 characters out of {@code A-Z a-z 0-9 . _ -}
     * @return this builder
     */
    public Builder statusParam(String name) {
      this.statusParam = Objects.requireNonNull(name, "statusParam");
      return this;
    }

    /**
     * Replaces the waiting page with your own HTML. Variables are written {@code {{name}}} and
     * filled in HTML-escaped: {@code roomId}, {@code usersAhead}, {@code waitKnown}, {@code
     * waitMinutes} (a number, or {@code unknown}), {@code waitTimeFormatted}, {@code
     * refreshSeconds}, {@code lastUpdated} (ISO-8601), {@code statusParam} and {@code cspNonce}.
     * The page must reload itself (for example {@code <meta http-equiv="refresh"
     * content="{{refreshSeconds}}">}).
     *
     * @param html the template
     * @return this builder
     * @throws IllegalArgumentException naming the first unknown variable
     */
    public Builder template(String html) {
      this.template = PageTemplate.parse(Objects.requireNonNull(html, "template"), "custom template");
      return this;
    }

    /**
     * Checks the settings and builds the gate.
     *
     * @return the gate
     * @throws IllegalArgumentException naming the first bad setting and its value
     */
    public Gate build() {
      return new Gate(this);
    }
  }
}
