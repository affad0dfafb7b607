package io.github.waitingroom.http;

import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.WaitingRoom;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
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
 * <p><b>Friction</b> ({@link Builder#proofOfWork}, {@link Builder#humanCheck}): while people wait,
 * a newcomer the room would put in line gets a challenge page (the waiting page with {@code
 * challenge} true) instead of a place, and its place once it has solved the proof of work, passed
 * the human check, or (within a {@linkplain Builder#noScriptPlaces budget}, none by default)
 * waited out the {@linkplain Builder#challengePenalty penalty}; see the README
 * ("Bots and floods"). An admitted or waiting visitor's request costs what it costs without.
 *
 * <p>Thread-safe (its one piece of state, the {@linkplain Builder#noScriptPlaces no-script budget}, is an
 * atomic word); {@link #handle} calls {@link WaitingRoom#decide}, which takes no
 * lock and does no I/O, so an event loop may call it, except for the one request that {@link
 * #mayBlock} (a newcomer's human check): call {@link #handleAsync} for it.
 */
public final class Gate {
  /** The default {@linkplain Builder#rejectStatus status} of the "sold out" page. */
  public static final int DEFAULT_REJECT_STATUS = 403;

  /**
   * The response header by which an application ends the visitor's session ({@link
   * Builder#revoke}): the filter removes it from the response, revokes the session and deletes the
   * session cookie.
   */
  public static final String REVOKE_HEADER = "X-WaitingRoom-Revoke";

  /** The default name of the query flag that asks for the JSON status only. */
  public static final String DEFAULT_STATUS_PARAM = "waitingRoomStatus";

  /** The {@code Cache-Control} of every answer and of every passed response that sets a ticket. */
  public static final String NO_STORE = "private, no-store";

  /** The query parameter that carries a proof of work: {@code <challenge>.<nonce>}. */
  public static final String PROOF_PARAM = "waitingRoomProof";

  /** The query parameter that carries the token of the {@linkplain Builder#humanCheck human check}'s widget. */
  public static final String HUMAN_PARAM = "waitingRoomHuman";

  /** The value of the status flag that asks for the proof-of-work worker script. */
  public static final String WORKER = "pow-worker.js";

  /** The longest human-check token passed on to the service. */
  public static final int MAX_HUMAN_TOKEN_LENGTH = 4096;

  /** How long a client flagged by the human check stays in the infinite queue (its marker cookie's life). */
  public static final long FLAGGED_SECONDS = 86_400;

  /** The default {@linkplain Builder#challengePenalty penalty} of a newcomer who solves no challenge. */
  public static final Duration DEFAULT_CHALLENGE_PENALTY = Duration.ofSeconds(30);

  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  // The roles a gate is made of, each in its own package-private class: PathRules (routing),
  // CookiePolicy, PageModel (texts, template values), Answers (headers, JSON, pages), Csp,
  // Friction (proof of work, human check, infinite queue), PageScripts (the page's scripts).
  private final WaitingRoom room;
  private final PathRules paths;
  private final CookiePolicy cookies;
  private final PageModel pages;
  private final Answers answers;
  /** With friction on ({@link Builder#proofOfWork} or {@link Builder#humanCheck}), its challenges; else {@code null}. */
  private final @Nullable Friction friction;
  private final int rejectStatus;
  private final boolean revoke;
  private final boolean corsPassThrough;
  private final String statusParam;

  private Gate(Builder b) {
    this.room = b.room;
    this.paths = new PathRules(b.pathPrefix, b.ignorePaths);
    String name = checkToken("cookieName", b.cookieName != null ? b.cookieName : "wr_" + room.config().roomId());
    this.statusParam = checkToken("statusParam", b.statusParam);
    this.cookies = new CookiePolicy(name, b.secure, b.sameSite, paths.prefix());
    this.rejectStatus = b.rejectStatus;
    this.revoke = b.revoke;
    this.corsPassThrough = b.corsPassThrough;
    this.pages = new PageModel(b, statusParam);
    this.answers = new Answers(room, cookies, pages, statusParam, b.waitingStatus, b.rejectStatus,
        Csp.imageSources(b.logoUrl));
    this.friction = b.powDifficulty > 0 || b.humanCheck != null
        ? new Friction(b, cookies, answers, statusParam)
        : null;
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
    return cookies.sessionName();
  }

  /**
   * The place cookie's name: the cookie that holds the ticket of an answer that keeps the request
   * waiting (the visitor's place in line), {@link #cookieName()} with {@code _q} appended. A
   * {@code __Host-} or {@code __Secure-} prefix carries over, with the same attributes.
   *
   * @return the name
   */
  public String placeCookieName() {
    return cookies.placeName();
  }

  /**
   * When the cookie is {@code Secure}: {@link CookieSecure#ALWAYS} when its name or {@code
   * SameSite=None} demand it, else as configured.
   *
   * @return the effective setting
   */
  public CookieSecure cookieSecure() {
    return cookies.secure();
  }

  /**
   * The cookie's {@code SameSite}.
   *
   * @return the setting
   */
  public SameSite cookieSameSite() {
    return cookies.sameSite();
  }

  /**
   * The HTTP status of waiting responses.
   *
   * @return 200, 202 or 429
   */
  public int waitingStatus() {
    return answers.waitingStatus();
  }

  /**
   * The HTTP status of the "sold out" page (and its JSON status) while the room takes no new
   * users ({@link RoomSettings.QueueingMethod#REJECT}).
   *
   * @return 200, 403, 410, 429 or 503
   */
  public int rejectStatus() {
    return rejectStatus;
  }

  /**
   * Whether the application may end a visitor's session ({@link Builder#revoke}).
   *
   * @return whether revoke is on
   */
  public boolean revokeOn() {
    return revoke;
  }

  /**
   * Whether a response header is the {@linkplain #REVOKE_HEADER revoke header}, in any case.
   *
   * @param name a header name
   * @return whether it is {@value #REVOKE_HEADER}
   */
  public static boolean revokeHeader(String name) {
    return REVOKE_HEADER.equalsIgnoreCase(name);
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
   * The {@code Set-Cookie} value that deletes the session cookie: the same name, path and
   * attributes, empty, {@code Max-Age=0}.
   *
   * @param request the request
   * @return the header value
   */
  public String deleteCookie(GateRequest request) {
    return cookies.deleteSession(request);
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
   * Whether a request is a CORS preflight: an {@code OPTIONS} request with both {@code Origin} and
   * {@code Access-Control-Request-Method}, whatever their values (empty ones too).
   *
   * @param method the HTTP method
   * @param origin the {@code Origin} header, or {@code null}
   * @param accessControlRequestMethod the {@code Access-Control-Request-Method} header, or {@code null}
   * @return whether it is a preflight
   */
  public static boolean isPreflight(
      String method, @Nullable String origin, @Nullable String accessControlRequestMethod) {
    return "OPTIONS".equals(method) && origin != null && accessControlRequestMethod != null;
  }

  /**
   * Whether CORS preflights pass on to the application ({@link Builder#corsPassThrough}).
   *
   * @return whether pass-through is on
   */
  public boolean corsPassThrough() {
    return corsPassThrough;
  }

  /**
   * The gate's own answer to a CORS preflight ({@link #isPreflight}) on a path the room {@linkplain
   * #covers covers}, or {@code null} when the request is no preflight or {@linkplain
   * Builder#corsPassThrough pass-through} is on. Adapters ask this before {@link #decides}, after
   * their bypass rules, and write the answer as they write any other: a preflight then never
   * reaches application code, which could act on it (a servlet's {@code service} books on any
   * method). The answer is {@code 204} with no {@code Access-Control-Allow-*} header, so the
   * browser refuses the cross-origin request it asked about; no cookie, nothing counted.
   *
   * @param method the HTTP method
   * @param origin the {@code Origin} header, or {@code null}
   * @param accessControlRequestMethod the {@code Access-Control-Request-Method} header, or {@code null}
   * @return the answer to write, or {@code null} to go on as usual
   */
  public @Nullable GateResponse preflight(
      String method, @Nullable String origin, @Nullable String accessControlRequestMethod) {
    return corsPassThrough || !isPreflight(method, origin, accessControlRequestMethod) ? null : PREFLIGHT_ANSWER;
  }

  private static final GateResponse PREFLIGHT_ANSWER =
      GateResponse.answer(null, 204, "", Map.of("Cache-Control", NO_STORE, "X-Content-Type-Options", "nosniff",
          "Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"), "");

  /**
   * Whether the room decides a request. A CORS preflight ({@link #isPreflight}) never is: with
   * {@linkplain Builder#corsPassThrough pass-through} on it goes on to the application untouched
   * (browsers never send cookies with it, and queueing it would only add phantom users), and
   * otherwise the adapter has already written {@link #preflight}'s answer. Every other {@code
   * OPTIONS} request is decided like a {@code GET}. Then the {@linkplain PathRules path rules} apply.
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
   * Decides a request on its two tickets ({@link WaitingRoom#decide(String, String)}) and says what
   * to do with it. The new ticket, if any, goes to the session cookie ({@link #cookieName()}) when
   * the decision lets the request through and to the place cookie ({@link #placeCookieName()})
   * otherwise, so a waiting answer never overwrites a session.
   *
   * @param request the request, for which {@link #decides} said yes
   * @return pass it on or answer it, with the new ticket cookie either way
   */
  public GateResponse handle(GateRequest request) {
    Friction f = friction;
    return f == null ? answers.respond(room.decide(request.ticket(), request.place()), request) : f.handle(request);
  }

  /**
   * Like {@link #handle}, without blocking: the one answer that waits for I/O, a newcomer's
   * {@linkplain Builder#humanCheck human check}, completes when the service has answered. For an
   * event loop (the WebFlux filter): call it when {@link #mayBlock} says so, and {@link #handle}
   * otherwise, which costs no future.
   *
   * @param request the request, for which {@link #decides} said yes
   * @return the answer
   */
  public CompletionStage<GateResponse> handleAsync(GateRequest request) {
    Friction f = friction;
    if (f == null || !f.mayBlock(request)) {
      return CompletableFuture.completedFuture(handle(request));
    }
    return f.handleAsync(request);
  }

  /**
   * Whether {@link #handle} may wait for I/O on this request: it carries a token for the
   * {@linkplain Builder#humanCheck human check}. Only a newcomer's request can; an admitted or
   * waiting visitor's never does.
   *
   * @param request the request
   * @return whether to call {@link #handleAsync} on an event loop
   */
  public boolean mayBlock(GateRequest request) {
    Friction f = friction;
    return f != null && f.mayBlock(request);
  }

  /**
   * Whether the human check would use the client's address for this request (its query carries a
   * token for it): an adapter reads the address into {@link GateRequest#remoteAddress()} only
   * then.
   *
   * @param rawQuery the raw query string, or {@code null}
   * @return whether to pass the client's address
   */
  public boolean wantsRemoteAddress(@Nullable String rawQuery) {
    Friction f = friction;
    return f != null && f.wantsRemoteAddress(rawQuery);
  }

  /**
   * The name of the cookie that holds a newcomer's challenge (or a flagged client's infinite-queue
   * marker): {@link #cookieName()} with {@code _c} appended, with the same attributes.
   *
   * @return the name
   */
  public String frictionCookieName() {
    return cookies.frictionName();
  }

  /**
   * Whether newcomers face a challenge while people wait ({@link Builder#proofOfWork} or {@link
   * Builder#humanCheck}): adapters then read the {@linkplain #frictionCookieName() challenge cookie}.
   *
   * @return whether friction is on
   */
  public boolean frictionOn() {
    return friction != null;
  }

  /**
   * The language a request gets: the {@code language} setting if set, else the best of its {@code
   * Accept-Language} that the room has texts for, else {@code defaultLanguage}.
   *
   * @param acceptLanguage the header, or {@code null}
   * @return a language tag the room has texts for ({@code en}, {@code pt}, {@code zh})
   */
  public String languageFor(@Nullable String acceptLanguage) {
    return pages.languageFor(acceptLanguage);
  }

  /**
   * The languages the waiting page has texts for: the shipped ones and those added by the
   * messages directory or the class path.
   *
   * @return the language tags
   */
  public Set<String> languages() {
    return pages.languages();
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
    // Package-private: the roles read their settings from the builder (PageModel, Friction).
    final WaitingRoom room;
    String pathPrefix = "/";
    final List<String> ignorePaths = new ArrayList<>();
    @Nullable String cookieName;
    CookieSecure secure = CookieSecure.AUTO;
    SameSite sameSite = SameSite.LAX;
    int waitingStatus = 200;
    int rejectStatus = DEFAULT_REJECT_STATUS;
    boolean revoke;
    boolean corsPassThrough;
    String statusParam = DEFAULT_STATUS_PARAM;
    @Nullable String templateHtml;
    String templateSource = "custom template";
    PageStyle pageStyle = PageStyle.PLAIN;
    String defaultLanguage = "en";
    @Nullable String language;
    @Nullable Path messagesDirectory;
    String brandName = "";
    String logoUrl = "";
    String brandColor = "#2f6fdf";
    int powDifficulty;
    Duration penalty = DEFAULT_CHALLENGE_PENALTY;
    int noScriptPerMinute;
    @Nullable HumanCheck humanCheck;

    private Builder(WaitingRoom room) {
      this.room = Objects.requireNonNull(room, "room");
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
     *       .css}, anywhere below {@code /static}. A bare extension ({@code *.css}) is refused: it
     *       would also cover the application's own routes ({@code /admin/x.css}).
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
     * The HTTP status of the "sold out" page, and of its JSON status, while the room takes no new
     * users ({@link RoomSettings.QueueingMethod#REJECT}): 403 (default; Cloudflare documents no
     * status of its own for its reject page), 200, 410, 429 or 503.
     *
     * @param status 200, 403, 410, 429 or 503
     * @return this builder
     */
    public Builder rejectStatus(int status) {
      if (status != 200 && status != 403 && status != 410 && status != 429 && status != 503) {
        throw new IllegalArgumentException("rejectStatus must be 200, 403, 410, 429 or 503 but was " + status);
      }
      this.rejectStatus = status;
      return this;
    }

    /**
     * Lets the application end a visitor's session (after a checkout, a logout), so that the next
     * person in line gets the place: by setting the response header {@value Gate#REVOKE_HEADER}
     * (any value, {@code 1} say), which the filter removes, or by calling {@link
     * WaitingRoomSession#revoke()} on the request attribute {@value WaitingRoomSession#ATTRIBUTE}.
     * Either way the room revokes the session ({@link WaitingRoom#revoke}: the slot frees within
     * two to three sync intervals, and every node refuses the ticket from then on; a copy of the
     * cookie sent to another node in that window may still pass there) and the filter deletes
     * the session cookie, which it can only do while the response is not committed: set the
     * header, or call {@code revoke()}, before writing the body. Default: off, the header passes
     * through untouched and no attribute is set.
     *
     * @param enabled whether the application may revoke sessions
     * @return this builder
     */
    public Builder revoke(boolean enabled) {
      this.revoke = enabled;
      return this;
    }

    /**
     * Lets CORS preflights ({@code OPTIONS} with {@code Origin} and {@code
     * Access-Control-Request-Method}) on the room's paths go on to the application, untouched and
     * uncounted, for an application that answers them itself (Spring's CORS support does, without
     * calling a handler). Default: off, the gate answers every preflight itself ({@link
     * Gate#preflight}: {@code 204}, no {@code Access-Control-Allow-*} header, which refuses the
     * cross-origin request), so that no preflight ever reaches application code that might act
     * on it. Turn it on only when everything behind the room answers an {@code OPTIONS} without
     * side effects.
     *
     * @param enabled whether preflights pass on to the application
     * @return this builder
     */
    public Builder corsPassThrough(boolean enabled) {
      this.corsPassThrough = enabled;
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
     * Replaces the waiting page with your own HTML: a logic-less Mustache template (JMustache),
     * HTML-escaped by default ({@code {{name}}}; {@code {{{name}}}} writes a value as it is). The
     * variables are listed in the README ("Your own waiting page"): among them {@code usersAhead},
     * {@code waitTimeKnown}, {@code waitTime}, {@code waitTimeFormatted}, {@code
     * waitTimeRangeFormatted}, {@code refreshIntervalSeconds}, {@code lastUpdated}, {@code locale},
     * {@code dir}, {@code cspNonce}, {@code text.<key>} for the page's texts in the visitor's
     * language, and the names of the first syntax ({@code waitKnown}, {@code waitMinutes}, {@code
     * refreshSeconds}). A template without {@code {{{refreshScript}}}} gets the page's poll script
     * added before {@code </body>}, and one without {@code {{{refreshMeta}}}} (or a meta refresh of
     * its own) a {@code <noscript>} meta refresh before {@code </head>}, so that it always lets the
     * visitor in.
     *
     * @param html the template
     * @return this builder
     * @throws PageTemplateException when the template does not parse or names an unknown
     *     variable, with the line and column
     */
    public Builder template(String html) {
      PageTemplate.check(Objects.requireNonNull(html, "template"), templateSource, null);
      this.templateHtml = html;
      return this;
    }

    /**
     * Which built-in page to show when there is no {@link #template}. Default: {@link PageStyle#PLAIN}.
     *
     * @param style the page
     * @return this builder
     */
    public Builder pageStyle(PageStyle style) {
      this.pageStyle = Objects.requireNonNull(style, "pageStyle");
      return this;
    }

    /**
     * The language of visitors whose {@code Accept-Language} names none the room has texts for
     * (and of those who send none). Default: {@code en}. Checked by {@link #build()}: the room needs
     * texts for it.
     *
     * @param tag a language tag ({@code de}, {@code pt}, {@code zh})
     * @return this builder
     */
    public Builder defaultLanguage(String tag) {
      this.defaultLanguage = checkTag("defaultLanguage", tag);
      return this;
    }

    /**
     * One language for every visitor, whatever their {@code Accept-Language} says. Default: none
     * (follow the header). Checked by {@link #build()}: the room needs texts for it.
     *
     * @param tag a language tag, or {@code null} to follow the header
     * @return this builder
     */
    public Builder language(@Nullable String tag) {
      this.language = tag == null || tag.isBlank() ? null : checkTag("language", tag);
      return this;
    }

    private static String checkTag(String setting, String tag) {
      Objects.requireNonNull(tag, setting);
      if (!tag.matches("[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*")) {
        throw new IllegalArgumentException(
            setting + " must be a language tag such as 'de' or 'pt-BR' but was '" + tag + "'");
      }
      return tag.replace('_', '-');
    }

    /**
     * A directory of {@code messages_<tag>.properties} files (UTF-8) whose texts replace the
     * shipped ones key by key, or add languages. A key missing from a new language is taken from
     * its parent tag, then from English (logged at start-up). Default: none. Texts can also come from
     * {@code waitingroom/messages_<tag>.properties} on the class path.
     *
     * @param directory the directory
     * @return this builder
     */
    public Builder messagesDirectory(@Nullable Path directory) {
      this.messagesDirectory = directory;
      return this;
    }

    /**
     * The name of the site, shown by the {@link PageStyle#BRANDED} page (and the logo's {@code
     * alt} text); {@code {{brandName}}} in a template. Default: none.
     *
     * @param name up to 100 characters
     * @return this builder
     */
    public Builder brandName(String name) {
      Objects.requireNonNull(name, "brandName");
      if (name.length() > 100) {
        throw new IllegalArgumentException("brandName must be at most 100 characters but was " + name.length());
      }
      this.brandName = name.strip();
      return this;
    }

    /**
     * The logo of the {@link PageStyle#BRANDED} page; {@code {{logoUrl}}} in a template. A path on
     * this site ({@code /static/logo.svg}: ignore it, see {@link #ignorePaths}) or an {@code
     * https://} URL, whose origin the page's Content-Security-Policy then allows for images.
     * Default: none.
     *
     * @param url the URL
     * @return this builder
     */
    public Builder logoUrl(String url) {
      Objects.requireNonNull(url, "logoUrl");
      String u = url.strip();
      boolean path = u.startsWith("/") && !u.startsWith("//");
      boolean https = false;
      if (u.startsWith("https://")) {
        try {
          URI parsed = new URI(u);
          https = parsed.getRawAuthority() != null && parsed.getHost() != null;
        } catch (java.net.URISyntaxException e) {
          https = false;
        }
      }
      if (!u.isEmpty() && (!(path || https) || !u.matches("[^\\s\"'<>\\\\]+"))) {
        throw new IllegalArgumentException(
            "logoUrl must be a path on this site (/static/logo.svg) or an https:// URL but was '" + url + "'");
      }
      this.logoUrl = u;
      return this;
    }

    /**
     * The brand colour of the {@link PageStyle#BRANDED} page (its band and progress bar); the
     * text on it is white or black, whichever has more contrast. {@code {{brandColor}}} in a
     * template. Default: {@code #2f6fdf}.
     *
     * @param color {@code #rgb} or {@code #rrggbb}
     * @return this builder
     */
    public Builder brandColor(String color) {
      Objects.requireNonNull(color, "brandColor");
      String c = color.strip();
      if (!c.matches("#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})")) {
        throw new IllegalArgumentException("brandColor must be a colour written #rgb or #rrggbb but was '" + color + "'");
      }
      this.brandColor = c.toLowerCase(Locale.ROOT);
      return this;
    }

    /**
     * Asks newcomers for a proof of work while people wait: a newcomer the room would put in line
     * gets a challenge page first, whose script solves a {@link ProofOfWork} challenge in a Web
     * Worker (about 2<sup>bits</sup> SHA-256 hashes) and gets its place when the gate has checked
     * the solution (one AEAD decryption and one hash). Nothing changes while the room has slots
     * for new arrivals, nor for admitted or waiting visitors. A solution counts only for the
     * challenge in the solving client's own challenge cookie, and once per node: every place costs
     * one solution. A visitor without JavaScript, or whose browser fails, gets a place only within
     * the {@linkplain #noScriptPlaces no-script budget} (none by default), once the {@linkplain
     * #challengePenalty penalty} is over. The costs measured on a desktop and an emulated phone are
     * in the README ("Bots and floods"). Default: 0, off.
     *
     * @param bits the leading zero bits of a solution, 0 (off) to {@value ProofOfWork#MAX_DIFFICULTY}
     * @return this builder
     */
    public Builder proofOfWork(int bits) {
      if (bits < 0 || bits > ProofOfWork.MAX_DIFFICULTY) {
        throw new IllegalArgumentException(
            "proofOfWork must be 0 (off) to " + ProofOfWork.MAX_DIFFICULTY + " bits but was " + bits);
      }
      this.powDifficulty = bits;
      return this;
    }

    /**
     * How long a newcomer who solves no challenge (no JavaScript, a failed worker, no human check
     * passed) waits on the challenge page before it may get a place within the {@linkplain
     * #noScriptPlaces no-script budget}: counted from its first challenge, which its challenge
     * cookie keeps; also how often the challenge page reloads. Without a budget (the default),
     * waiting gets no place: only a solution or a passed human check does. Default: 30 seconds.
     *
     * @param penalty 1 s to 5 min
     * @return this builder
     */
    public Builder challengePenalty(Duration penalty) {
      Objects.requireNonNull(penalty, "challengePenalty");
      if (penalty.compareTo(Duration.ofSeconds(1)) < 0 || penalty.compareTo(Duration.ofMinutes(5)) > 0) {
        throw new IllegalArgumentException("challengePenalty must be 1 s to 5 min but was " + penalty);
      }
      this.penalty = penalty;
      return this;
    }

    /**
     * How many newcomers per minute this node lets queue for only waiting out the {@linkplain
     * #challengePenalty penalty} on the challenge page, without a solution or a passed human
     * check: the path of a browser without JavaScript. The budget is the node's, shared by every
     * such client, so a bot that fetches (harvests) many challenges and waits gets at most this
     * many places a minute, and no more with more challenges. Default: 0, none: with friction on,
     * every place in line costs a solved proof of work or a passed human check (a failed or never
     * answered check stays failed however long the client waits).
     *
     * @param perMinute 0 (none) to 10,000
     * @return this builder
     */
    public Builder noScriptPlaces(int perMinute) {
      if (perMinute < 0 || perMinute > 10_000) {
        throw new IllegalArgumentException("noScriptPlaces must be 0 to 10000 a minute but was " + perMinute);
      }
      this.noScriptPerMinute = perMinute;
      return this;
    }

    /**
     * A CAPTCHA service that newcomers may pass instead of the proof of work (or with none: then
     * the widget, or the penalty within the {@linkplain #noScriptPlaces no-script budget}), such as {@link SiteVerify#turnstile}, {@link SiteVerify#hcaptcha}
     * or {@link SiteVerify#recaptcha}. Asked once per newcomer the room would put in line; a
     * client it {@linkplain HumanCheck.Verdict#FLAGGED flags} goes to the infinite queue. The
     * challenge page's Content-Security-Policy allows the widget's sources. Default: none.
     *
     * @param check the service, or {@code null} for none
     * @return this builder
     */
    public Builder humanCheck(@Nullable HumanCheck check) {
      this.humanCheck = check;
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