package io.github.waitingroom.http;

import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.WaitingRoom;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
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
 *   GateResponse r = gate.handle(GateRequest.builder(contextPath, method).secure(secure)
 *       .ticket(sessionCookie).place(placeCookie).query(query).accept(accept).build());
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
 * template) and same-origin requests, the JSON status {@code default-src 'none'}. What an adapter
 * does to the headers of a response the gate passes on is {@link ResponseHeaders}.
 *
 * <p>Cookies: two per room, with the same attributes ({@code HttpOnly}, scoped to the guarded
 * path, {@code Secure} and {@code SameSite} as configured), each re-issued only when its ticket
 * changes: the <b>session</b> cookie ({@link #cookieName()}) holds the ticket of an answer that lets
 * the request through, the <b>place</b> cookie ({@link #placeCookieName()}) that of any other
 * answer, so that a waiting answer from one node never overwrites the session another node just
 * gave (see {@link WaitingRoom#decide(String, String)}).
 *
 * <p><b>Friction</b> ({@link Builder#proofOfWork}, {@link Builder#humanCheck}): while people wait,
 * a newcomer the room would put in line gets a challenge page instead of a place, and its place
 * once it has met the challenge (see those settings and the README, "Bots and floods"). An
 * admitted or waiting visitor's request costs what it costs without.
 *
 * <p><b>Timing</b>: an adapter times every request the gate passes to the application, from the
 * gate's answer to the application's response, and tells the room with {@link #answered} (or
 * {@link #failedToAnswer} when the application threw or timed out); the room's {@linkplain
 * io.github.waitingroom.AdaptiveLimit adaptive limit}, when it has one, follows these times.
 *
 * <p>Thread-safe (its one piece of state, the {@linkplain Builder#noScriptPlaces no-script budget}, is
 * held in atomic words); {@link #handle} calls {@link WaitingRoom#decide}, which takes no
 * lock and does no I/O, so an event loop may call it, except for the one request that {@link
 * #mayBlock} (a newcomer's human check): call {@link #handleAsync} for it.
 *
 * <p>The gate only wires its roles together, each in its own type: {@link PathRules} (which
 * requests it decides), {@code RequestReader} (a request into a {@link GateRequest}), {@code
 * CookiePolicy} (the cookies' names and attributes), {@code Friction} (challenges for newcomers),
 * {@code Answers} (a decision into a {@link GateResponse}), {@code PageModel} and {@code Csp} (the
 * waiting page and its policy) and {@link ResponseHeaders} (the headers of a passed response).
 */
public final class Gate {
  /** The answer of {@link #screen} for a request the room does not decide: it passes untouched. */
  private static final GateResponse UNTOUCHED = GateResponse.pass(null, null);

  private final WaitingRoom room;
  private final PathRules paths;
  private final CookiePolicy cookies;
  private final PageModel pages;
  private final Answers answers;
  /** With friction on ({@link Builder#proofOfWork} or {@link Builder#humanCheck}), its challenges; else {@code null}. */
  private final @Nullable Friction friction;
  /** With {@link Builder#confirmNewcomers} on, the newcomers' round trip; else {@code null}. */
  private final @Nullable Confirmation confirmation;
  private final RequestReader reader;
  private final int rejectStatus;
  private final boolean revoke;
  private final boolean corsPassThrough;
  private final String statusParam;

  private Gate(GateOptions<?> b) {
    this.room = b.room;
    this.paths = new PathRules(b.get(GateSettings.PATH_PREFIX), b.get(GateSettings.IGNORE_PATHS));
    String named = b.get(GateSettings.COOKIE_NAME);
    String name = SettingChecks.token("cookieName", named != null ? named : "wr_" + room.config().roomId());
    this.statusParam = b.get(GateSettings.STATUS_PARAM);
    this.cookies = new CookiePolicy(
        name, b.get(GateSettings.COOKIE_SECURE), b.get(GateSettings.COOKIE_SAME_SITE), paths.prefix());
    this.rejectStatus = b.get(GateSettings.REJECT_STATUS);
    this.revoke = b.get(GateSettings.REVOKE);
    this.corsPassThrough = b.get(GateSettings.CORS_PASS_THROUGH);
    this.pages = new PageModel(b, statusParam);
    this.answers = new Answers(room, cookies, pages, statusParam, b.get(GateSettings.WAITING_STATUS), rejectStatus,
        Csp.imageSources(b.get(GateSettings.LOGO_URL)));
    this.friction = b.get(GateSettings.PROOF_OF_WORK) > 0 || b.get(GateSettings.HUMAN_CHECK) != null
        ? new Friction(b, cookies, answers, statusParam)
        : null;
    this.confirmation = b.get(GateSettings.CONFIRM_NEWCOMERS) ? new Confirmation(room, cookies, answers, friction) : null;
    this.reader = new RequestReader(cookies, friction != null || confirmation != null);
  }

  /**
   * {@return a builder with every setting at its default, of a gate around a room}
   *
   * @param room the room, which the caller owns (and closes); its id names the cookies by default
   */
  public static Builder builder(WaitingRoom room) {
    return new Builder(room);
  }

  /** {@return the room behind this gate} */
  public WaitingRoom room() {
    return room;
  }

  /** {@return which paths the room guards} */
  public PathRules paths() {
    return paths;
  }

  /** {@return the session cookie's name} Default: {@code wr_<roomId>}, the single cookie of earlier versions. */
  public String cookieName() {
    return cookies.sessionName();
  }

  /** {@return the place cookie's name} It is {@link #cookieName()} with {@code _q} appended, prefix included. */
  public String placeCookieName() {
    return cookies.placeName();
  }

  /** {@return the challenge cookie's name} It is {@link #cookieName()} with {@code _c} appended. */
  public String frictionCookieName() {
    return cookies.frictionName();
  }

  /** {@return when the cookies are {@code Secure}} {@code ALWAYS} when the name or {@code SameSite=None} demand it. */
  public CookieSecure cookieSecure() {
    return cookies.secure();
  }

  /** {@return the cookie's {@code SameSite}} */
  public SameSite cookieSameSite() {
    return cookies.sameSite();
  }

  /** {@return the HTTP status of waiting responses} 200, 202 or 429. */
  public int waitingStatus() {
    return answers.waitingStatus();
  }

  /** {@return the HTTP status of the "sold out" page} See {@link RoomSettings.QueueingMethod#REJECT}. */
  public int rejectStatus() {
    return rejectStatus;
  }

  /** {@return the query flag that asks for the JSON status only} */
  public String statusParam() {
    return statusParam;
  }

  /** {@return whether the application may end a visitor's session} ({@link Builder#revoke}) */
  public boolean revokeOn() {
    return revoke;
  }

  /** {@return whether CORS preflights pass on to the application} ({@link Builder#corsPassThrough}) */
  public boolean corsPassThrough() {
    return corsPassThrough;
  }

  /** {@return whether newcomers face a challenge while people wait} Adapters then read its cookie. */
  public boolean frictionOn() {
    return friction != null;
  }

  /** {@return the languages the waiting page has texts for} Shipped and added ones. */
  public Set<String> languages() {
    return pages.languages();
  }

  /**
   * {@return the language a request gets} The {@code language} setting if set, else the best of
   * its {@code Accept-Language} that the room has texts for, else {@code defaultLanguage}.
   *
   * @param acceptLanguage the header, or {@code null}
   */
  public String languageFor(@Nullable String acceptLanguage) {
    return pages.languageFor(acceptLanguage);
  }

  /**
   * {@return whether a path lies under the guarded prefix, ignored paths included}
   *
   * @param path the path within the application, decoded
   */
  public boolean covers(String path) {
    return PathRules.under(path, paths.prefix());
  }

  /**
   * {@return whether a request is a CORS preflight} An {@code OPTIONS} request with both {@code
   * Origin} and {@code Access-Control-Request-Method}, whatever their values (empty ones too).
   *
   * @param method the HTTP method
   * @param origin the {@code Origin} header, or {@code null}
   * @param accessControlRequestMethod the {@code Access-Control-Request-Method} header, or {@code null}
   */
  public static boolean isPreflight(
      String method, @Nullable String origin, @Nullable String accessControlRequestMethod) {
    return "OPTIONS".equals(method) && origin != null && accessControlRequestMethod != null;
  }

  /**
   * The gate's own answer to a CORS preflight ({@link #isPreflight}) on a path the room {@linkplain
   * #covers covers} unless {@linkplain Builder#corsPassThrough pass-through} is on: {@code 204}
   * with no {@code Access-Control-Allow-*} header, which refuses the cross-origin request; no
   * cookie, nothing counted. Adapters ask this before {@link #decides}, after their bypass rules, so
   * that a preflight never reaches application code, which could act on it.
   *
   * @param method the HTTP method
   * @param origin the {@code Origin} header, or {@code null}
   * @param accessControlRequestMethod the {@code Access-Control-Request-Method} header, or {@code null}
   * @return the answer to write, or {@code null} to go on as usual
   */
  public @Nullable GateResponse preflight(
      String method, @Nullable String origin, @Nullable String accessControlRequestMethod) {
    return corsPassThrough || !isPreflight(method, origin, accessControlRequestMethod) ? null : Answers.PREFLIGHT;
  }

  /**
   * Whether the room decides a request: by the {@linkplain PathRules path rules}, except a CORS
   * preflight, which {@link #preflight} answered or, with pass-through on, goes on untouched
   * (queueing it would only add phantom users). Any other {@code OPTIONS} is decided like a {@code GET}.
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
    return !isPreflight(method, origin, accessControlRequestMethod) && paths.guards(method, rawPath, path);
  }

  /**
   * The gate's first look at a request of its room, after the adapter's bypass rules, in the order
   * every adapter asks: the answer to a CORS preflight ({@link #preflight}), else whether the room
   * {@linkplain #decides decides} the request.
   *
   * @param method the HTTP method
   * @param rawPath the path as the client sent it, after the context path ({@link #decides})
   * @param path the path within the application as the server decoded it
   * @param headers a header's first value by name ({@code Origin}, {@code Access-Control-Request-Method})
   * @return {@code null} when the room decides the request ({@link #read}, then {@link #handle});
   *     else an answer that {@linkplain GateResponse#passes() passes} untouched (no cookie, nothing
   *     counted), or the preflight's answer to write
   */
  public @Nullable GateResponse screen(String method, String rawPath, String path, Lookup headers) {
    String origin = headers.get("Origin");
    String preflightMethod = headers.get("Access-Control-Request-Method");
    GateResponse preflight = preflight(method, origin, preflightMethod);
    if (preflight != null) {
      return preflight;
    }
    return decides(method, rawPath, path, origin, preflightMethod) ? null : UNTOUCHED;
  }

  /**
   * Decides a request on its two tickets ({@link WaitingRoom#decide(String, String)}) and says what
   * to do with it; the new ticket, if any, goes to the session or the place cookie (see above).
   *
   * @param request the request, for which {@link #decides} said yes
   * @return pass it on or answer it, with the new ticket cookie either way
   */
  public GateResponse handle(GateRequest request) {
    Confirmation c = confirmation;
    GateResponse unconfirmed = c == null ? null : c.answer(request);
    if (unconfirmed != null) {
      return unconfirmed;
    }
    Friction f = friction;
    return f == null ? answers.respond(room.decide(request.ticket(), request.place()), request) : f.handle(request);
  }

  /**
   * Like {@link #handle}, without blocking: a newcomer's {@linkplain Builder#humanCheck human check}
   * completes when the service has answered. For an event loop: call it when {@link #mayBlock}
   * says so, and {@link #handle} otherwise, which costs no future.
   *
   * @param request the request, for which {@link #decides} said yes
   * @return the answer
   */
  public CompletionStage<GateResponse> handleAsync(GateRequest request) {
    Friction f = friction;
    if (f == null || !f.mayBlock(request)) {
      return CompletableFuture.completedFuture(handle(request));
    }
    Confirmation c = confirmation;
    GateResponse unconfirmed = c == null ? null : c.answer(request);
    return unconfirmed != null ? CompletableFuture.completedFuture(unconfirmed) : f.handleAsync(request);
  }

  /**
   * {@return whether {@link #handle} may wait for I/O on this request} It carries a token for the
   * {@linkplain Builder#humanCheck human check}, as only a newcomer's request can.
   *
   * @param request the request
   */
  public boolean mayBlock(GateRequest request) {
    Friction f = friction;
    return f != null && f.mayBlock(request);
  }

  /**
   * {@return whether the gate's answer never lets the request through} It asks for the JSON status
   * only ({@link #statusParam()}), as polls, proofs of work and human-check tokens do; an adapter
   * answering off its own thread then needs no way back to the application.
   *
   * @param request the request
   */
  public boolean alwaysAnswers(GateRequest request) {
    return QueryFlags.hasFlag(request.query(), statusParam);
  }

  /**
   * The visitor's session on a passed request, for the application to end ({@link
   * WaitingRoomSession#revoke()}), when {@linkplain Builder#revoke revoke} is on.
   *
   * @param request the request
   * @param passed the gate's answer, which {@linkplain GateResponse#passes() passes}
   * @param deleteCookie what the adapter does to delete the session cookie on the response (given
   *     the {@code Set-Cookie} value, {@link #deleteCookie}): nothing once the response is committed
   * @return the session, or {@code null} when revoke is off or the request holds no session
   */
  public @Nullable WaitingRoomSession session(
      GateRequest request, GateResponse passed, Consumer<String> deleteCookie) {
    String ticket = passed.session();
    if (!revoke || !passed.passes() || ticket == null) {
      return null;
    }
    String deletion = deleteCookie(request);
    return new WaitingRoomSession(room, ticket, () -> deleteCookie.accept(deletion));
  }

  /**
   * Tells the room how the application answered a request this gate {@linkplain
   * GateResponse#passes() passed} ({@link WaitingRoom#originAnswered}): the time since {@code
   * startNanos}, and whether it {@linkplain #failed(int) failed}. Adapters call it once for every
   * request they pass on after {@link #handle}, and for no other: not for a request the gate
   * answers itself (the waiting page, the JSON status the page polls), nor for one it never decides
   * (ignored paths, bypass rules, CORS preflights, the operator API). Takes no lock, allocates
   * nothing and does no I/O.
   *
   * @param startNanos {@link System#nanoTime()} when the gate let the request through, right
   *     before the adapter handed it to the application
   * @param status the status of the application's response
   */
  public void answered(long startNanos, int status) {
    room.originAnswered(System.nanoTime() - startNanos, failed(status));
  }

  /**
   * Tells the room that the application gave no answer to a request this gate {@linkplain
   * GateResponse#passes() passed}: it threw, or an asynchronous request timed out or failed. The
   * request counts as failed, with the time since {@code startNanos} (see {@link #answered}).
   *
   * @param startNanos {@link System#nanoTime()} when the gate let the request through
   */
  public void failedToAnswer(long startNanos) {
    room.originAnswered(System.nanoTime() - startNanos, true);
  }

  /**
   * {@return whether a response of the application counts as failed for the room's {@linkplain
   * io.github.waitingroom.AdaptiveLimit adaptive limit}} A server error: 500 or above.
   *
   * @param status the response's HTTP status
   */
  public static boolean failed(int status) {
    return status >= 500;
  }

  /**
   * {@return the {@code Set-Cookie} value that deletes the session cookie} The same name, path and
   * attributes, empty, {@code Max-Age=0}.
   *
   * @param request the request
   */
  public String deleteCookie(GateRequest request) {
    return cookies.deleteSession(request);
  }

  /**
   * A value by name, {@code null} when there is none: of the request, a cookie's, a header's, a
   * query parameter's; of the configuration, an init-param's or an environment variable's.
   */
  @FunctionalInterface
  public interface Lookup {
    /**
     * {@return the value of a name, or {@code null}}
     *
     * @param name the cookie's, header's, parameter's or variable's name
     */
    @Nullable String get(String name);
  }

  /**
   * Reads a request that the gate {@linkplain #decides decides} into a {@link GateRequest}: the
   * adapter gives what only it can read (the context path, the method, whether it came over TLS,
   * the host) and how to read a cookie, a header and the client's address; the gate reads the
   * cookies it names, the headers the page needs, and the address only when friction is on.
   *
   * @param request the request so far: {@link GateRequest#builder}, with {@code secure} and {@code host}
   * @param rawQuery the raw query string, or {@code null}
   * @param remoteAddress the client's address, or {@code null}; kept only with friction on
   * @param cookies a cookie's value by name
   * @param headers a header's first value by name
   * @return the request
   */
  public GateRequest read(
      GateRequest.Builder request, @Nullable String rawQuery, @Nullable String remoteAddress, Lookup cookies, Lookup headers) {
    return reader.read(request, rawQuery, remoteAddress, cookies, headers);
  }

  /**
   * {@return what the gate guards, for a start-up log line} {@code room 'shop' guards /shop
   * (cookies wr_shop and wr_shop_q, 100 active users, 20 new users per minute)}; with an adaptive
   * limit, {@code 100 active users (adaptive: 20 to 400, 90 % within PT0.5S)}.
   */
  @Override
  public String toString() {
    io.github.waitingroom.AdaptiveLimit adaptive = room.config().adaptiveLimit();
    return "room '" + room.config().roomId() + "' guards " + paths.prefix() + " (cookies " + cookieName() + " and "
        + placeCookieName() + ", " + room.config().totalActiveUsers() + " active users"
        + (adaptive == null ? "" : " (adaptive: " + adaptive.min() + " to " + adaptive.max() + ", 90 % within "
            + adaptive.latency() + ")")
        + ", " + room.config().newUsersPerMinute() + " new users per minute)";
  }

  /**
   * Builds a {@link Gate} around a room. Every setting has a default; each is checked when it is
   * set, and those that depend on each other by {@link #build()}; errors ({@link SettingException})
   * name the setting and the bad value. The settings are declared in {@link GateSettings}.
   */
  public static final class Builder extends GateOptions<Builder> {
    private Builder(WaitingRoom room) {
      super(room);
    }

    /**
     * {@return the gate, its settings checked}
     *
     * @throws SettingException naming the first bad setting and its value
     */
    public Gate build() {
      return buildGate();
    }
  }

  /** Builds a gate; {@link GateOptions#buildGate} turns an error of a check that spans settings into a {@link SettingException}. */
  static Gate build(GateOptions<?> options) {
    return new Gate(options);
  }
}
