package io.github.waitingroom.http;

import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.Seal;
import io.github.waitingroom.WaitingRoom;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
  private static final Logger LOG = LoggerFactory.getLogger(Gate.class);

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

  private static final String CHALLENGE_PREFIX = "c.";
  private static final String FLAG_PREFIX = "f.";
  private static final String WORKER_SCRIPT = resource("pow-worker.js");
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern RETURN_URL = Pattern.compile("/[A-Za-z0-9._~!$&()*+,;=:@/?%-]{0,2000}");
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
  private final int rejectStatus;
  private final boolean revoke;
  private final boolean corsPassThrough;
  private final String statusParam;
  private final PageTemplate template;
  private final Messages messages;
  private final String defaultLanguage;
  private final @Nullable String language;
  private final String brandName;
  private final String logoUrl;
  private final String brandColor;
  private final String brandTextColor;
  private final String imageSources;
  private final String frictionCookieName;
  /** Whether newcomers face a challenge while people wait: a proof of work, a human check, or both. */
  private final boolean friction;
  private final @Nullable ProofOfWork pow;
  private final @Nullable HumanCheck human;
  private final long penaltySeconds;
  /** Places per minute for waiting out the penalty alone ({@link Builder#noScriptPlaces}). */
  private final int noScriptPerMinute;
  /** This minute's no-script places: the minute (low 24 bits) above 40 bits of count. */
  private final java.util.concurrent.atomic.AtomicLong noScriptUsed = new java.util.concurrent.atomic.AtomicLong();
  private final @Nullable Seal flagSeal;
  /** The extra sources the challenge page's policy allows for the human check's widget ("" for none). */
  private final String widgetSources;
  /** The page texts of the live settings last seen, by language (see {@link #texts}). */
  private volatile @Nullable Overlay overlay;

  private Gate(Builder b) {
    this.room = b.room;
    this.paths = new PathRules(b.pathPrefix, b.ignorePaths);
    String name = b.cookieName != null ? b.cookieName : "wr_" + room.config().roomId();
    this.cookieName = checkToken("cookieName", name);
    this.placeCookieName = name + "_q";
    this.frictionCookieName = name + "_c";
    this.human = b.humanCheck;
    this.friction = b.powDifficulty > 0 || b.humanCheck != null;
    this.pow = friction ? new ProofOfWork(room.seal("pow"), b.powDifficulty, ProofOfWork.DEFAULT_TTL_SECONDS) : null;
    this.flagSeal = b.humanCheck != null ? room.seal("flag") : null;
    this.penaltySeconds = b.penalty.toSeconds();
    this.noScriptPerMinute = b.noScriptPerMinute;
    this.widgetSources = b.humanCheck == null ? "" : " " + String.join(" ", b.humanCheck.widget().sources());
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
    this.rejectStatus = b.rejectStatus;
    this.revoke = b.revoke;
    this.corsPassThrough = b.corsPassThrough;
    List<String> configured = new ArrayList<>();
    configured.add(b.defaultLanguage);
    if (b.language != null) {
      configured.add(b.language);
    }
    this.messages = Messages.load(b.messagesDirectory, configured);
    this.defaultLanguage = language("defaultLanguage", b.defaultLanguage);
    this.language = b.language == null ? null : language("language", b.language);
    this.brandName = b.brandName;
    this.brandColor = b.brandColor;
    this.brandTextColor = textColorOn(b.brandColor);
    this.logoUrl = b.logoUrl;
    this.imageSources = imageSources(b.logoUrl);
    Set<String> textKeys = textKeys(messages);
    this.template =
        b.templateHtml != null
            ? PageTemplate.parse(b.templateHtml, b.templateSource, textKeys)
            : PageTemplate.builtIn(b.pageStyle, textKeys);
  }

  private String language(String setting, String tag) {
    String found = messages.find(tag);
    if (found == null) {
      throw new IllegalArgumentException(
          setting + " '" + tag + "' has no texts; the waiting page has " + messages.tags()
              + " (add messages_" + tag + ".properties to the messagesDirectory or to waitingroom/ on the class path)");
    }
    return found;
  }

  /** The names a template may use after {@code text.}. */
  static Set<String> textKeys(Messages messages) {
    Set<String> keys = new TreeSet<>(messages.plainKeys());
    keys.removeAll(PageTemplate.PARTS);
    keys.addAll(COUNTED_TEXTS);
    return keys;
  }

  private static final List<String> COUNTED_TEXTS = List.of("usersAheadSentence", "usersWaitingSentence", "refreshNote");

  /** {@code 'self'}, and the origin of an absolute logo URL: the page's {@code img-src}. */
  private static String imageSources(String logoUrl) {
    if (logoUrl.startsWith("https://")) {
      URI u = URI.create(logoUrl);
      return "'self' https://" + u.getRawAuthority();
    }
    return "'self'";
  }

  /** White or near-black, whichever reads better on the brand colour (WCAG contrast). */
  static String textColorOn(String hex) {
    String h = hex.substring(1);
    if (h.length() == 3) {
      h = "" + h.charAt(0) + h.charAt(0) + h.charAt(1) + h.charAt(1) + h.charAt(2) + h.charAt(2);
    }
    double l = 0;
    double[] weights = {0.2126, 0.7152, 0.0722};
    for (int i = 0; i < 3; i++) {
      double c = Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16) / 255.0;
      c = c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
      l += weights[i] * c;
    }
    double onWhite = 1.05 / (l + 0.05);
    double onDark = (l + 0.05) / (0.0069 + 0.05); // #111111
    return onWhite >= onDark ? "#ffffff" : "#111111";
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
      GateRequest request, GateResponse passed, java.util.function.Consumer<String> deleteCookie) {
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
    return setCookie(cookieName, request.contextPath(), request.secure(), "", 0);
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
    if (!friction) {
      return respond(room.decide(request.ticket(), request.place()), request);
    }
    GateResponse unchallenged = unchallenged(request);
    if (unchallenged != null) {
      return unchallenged;
    }
    HumanCheck.Verdict verdict = null;
    String token = humanToken(request);
    if (token != null) {
      HumanCheck h = Objects.requireNonNull(human);
      try {
        // Never longer than the check's timeout on a request thread, whatever the check does.
        verdict = h.verify(token, request.remoteAddress()).toCompletableFuture()
            .get(waitNanos(h), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        verdict = HumanCheck.Verdict.FAILED;
      } catch (Exception e) {
        verdict = HumanCheck.Verdict.FAILED;
      }
    }
    return challenge(request, verdict);
  }

  /** How long a request thread waits for a human check: its timeout, at most 30 s. */
  private static long waitNanos(HumanCheck h) {
    Duration t = h.timeout();
    return t == null || t.isNegative() ? 0 : Math.min(t.toNanos(), TimeUnit.SECONDS.toNanos(30));
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
    if (!mayBlock(request)) {
      return CompletableFuture.completedFuture(handle(request));
    }
    GateResponse unchallenged = unchallenged(request);
    if (unchallenged != null) {
      return CompletableFuture.completedFuture(unchallenged);
    }
    HumanCheck h = Objects.requireNonNull(human);
    CompletionStage<HumanCheck.Verdict> asked;
    try {
      asked = h.verify(Objects.requireNonNull(humanToken(request)), request.remoteAddress());
    } catch (RuntimeException e) {
      asked = CompletableFuture.completedFuture(HumanCheck.Verdict.FAILED);
    }
    CompletableFuture<HumanCheck.Verdict> bounded = new CompletableFuture<>();
    asked.whenComplete((v, failure) -> bounded.complete(failure != null || v == null ? HumanCheck.Verdict.FAILED : v));
    bounded.completeOnTimeout(HumanCheck.Verdict.FAILED, waitNanos(h), TimeUnit.NANOSECONDS);
    return bounded.thenApply(v -> challenge(request, v));
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
    return human != null && humanToken(request) != null;
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
    return human != null && rawQuery != null && hasFlag(rawQuery, HUMAN_PARAM);
  }

  private @Nullable String humanToken(GateRequest request) {
    if (human == null) {
      return null;
    }
    String t = queryValue(request.query(), HUMAN_PARAM);
    if (t == null || t.isEmpty() || t.length() > 3 * MAX_HUMAN_TOKEN_LENGTH) {
      return null;
    }
    // As sent in the query: decoded once here, encoded once by the check's form.
    String decoded;
    try {
      decoded = t.indexOf('%') < 0 && t.indexOf('+') < 0 ? t : java.net.URLDecoder.decode(t, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
    return decoded.isEmpty() || decoded.length() > MAX_HUMAN_TOKEN_LENGTH ? null : decoded;
  }

  /**
   * With friction, the answer to a request that needs no challenge: the worker script, the
   * infinite queue, or the room's decision when it is not {@link Decision.Outcome#CHALLENGE}
   * (decided with {@code mayQueue} false). {@code null} when the request is a newcomer to challenge.
   */
  private @Nullable GateResponse unchallenged(GateRequest request) {
    GateResponse early = beforeDeciding(request);
    if (early != null) {
      return early;
    }
    Decision d = room.decide(request.ticket(), request.place(), false);
    return d.outcome() == Decision.Outcome.CHALLENGE ? null : respond(d, request);
  }

  /**
   * What a room with friction answers before deciding: the worker script, and the infinite queue
   * for a client the human check flagged. Neither looks at the request's tickets.
   */
  private @Nullable GateResponse beforeDeciding(GateRequest request) {
    String f = request.friction();
    if (f != null && flagSeal != null && f.startsWith(FLAG_PREFIX) && flagged(f.substring(2))) {
      return infiniteQueue(request);
    }
    String q = request.query();
    if (q != null && hasValue(q, statusParam, WORKER)) {
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("Cache-Control", "private, max-age=3600");
      headers.put("X-Content-Type-Options", "nosniff");
      headers.put("Content-Security-Policy", "default-src 'none'");
      return GateResponse.answer(null, 200, "text/javascript;charset=UTF-8", headers, WORKER_SCRIPT);
    }
    return null;
  }

  /** The answer to a decision, as without friction. */
  private GateResponse respond(Decision d, GateRequest request) {
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
      return json(d, setCookie, statusOf(d), request);
    }
    if (d.letsThrough()) {
      return GateResponse.pass(setCookie, ticket != null ? ticket : request.ticket());
    }
    String accept = request.accept();
    if (accept != null && accept.contains("application/json")) {
      return json(d, setCookie, statusOf(d), request);
    }
    return page(d, setCookie, request);
  }

  /** The HTTP status of an answer to a decision: 200 when it lets through, the reject or waiting status otherwise. */
  private int statusOf(Decision d) {
    if (d.letsThrough()) {
      return 200;
    }
    return d.outcome() == Decision.Outcome.REJECT ? rejectStatus : waitingStatus;
  }

  /**
   * A newcomer the room would put in line, not yet let queue: it gets a place if it passed the
   * human check, or sent a proof of work that solves the challenge its own cookie holds (bound to
   * the client that fetched it) and that was not spent on this node; or, within the {@linkplain
   * Builder#noScriptPlaces no-script budget}, holds a challenge at least the penalty old. A
   * flagged one goes to the infinite queue; anyone else gets the challenge page.
   */
  private GateResponse challenge(GateRequest request, HumanCheck.@Nullable Verdict verdict) {
    ProofOfWork p = Objects.requireNonNull(pow);
    long now = room.nowSecond();
    if (verdict == HumanCheck.Verdict.FLAGGED) {
      return infiniteQueue(request, flagCookie(request, now));
    }
    String f = request.friction();
    ProofOfWork.Challenge held = f != null && f.startsWith(CHALLENGE_PREFIX) ? p.open(f.substring(2), now) : null;
    boolean pass = verdict == HumanCheck.Verdict.PASSED;
    String proof = pass || p.difficulty() == 0 ? null : queryValue(request.query(), PROOF_PARAM);
    if (proof != null && held != null) {
      // Only the challenge this client's cookie holds: a challenge fetched by another client (a
      // harvester's) gets no place here, whoever solved it.
      String t = held.token();
      int dot = t.length();
      pass = proof.length() > dot + 1 && proof.charAt(dot) == '.' && proof.startsWith(t)
          && ProofOfWork.solves(t, proof.substring(dot + 1), held.difficulty()) && p.spend(held, now);
    }
    if (!pass && held != null && noScriptPerMinute > 0 && now - held.issued() >= penaltySeconds && !p.spent(held)
        && noScriptPlace(now)) {
      pass = p.spend(held, now);
    }
    if (pass) {
      return respond(room.decide(request.ticket(), request.place(), true), request);
    }
    String token;
    String setCookie = null;
    long remaining;
    if (held != null && !p.spent(held)) {
      token = held.token();
      long age = now - held.issued();
      // Past the penalty without a budget left (or none at all), the page asks again after a
      // whole penalty: never a reload every second.
      remaining = age < penaltySeconds ? penaltySeconds - age : noScriptPerMinute > 0 ? Math.min(penaltySeconds, 5) : penaltySeconds;
    } else {
      token = p.issue(now);
      setCookie = setCookie(frictionCookieName, request.contextPath(), request.secure(), CHALLENGE_PREFIX + token,
          p.ttlSeconds());
      remaining = Math.max(1, penaltySeconds);
    }
    Decision d = new Decision(Decision.Outcome.CHALLENGE, null, 0, 0, -1, -1, -1, remaining, now);
    Challenged c = new Challenged(token, p.difficulty(), remaining);
    String accept = request.accept();
    RoomSettings settings = room.settings();
    if (hasFlag(request.query(), statusParam) || accept != null && accept.contains("application/json")) {
      String body = StatusJson.write(room.config().roomId(), d, now,
          messages.texts(languageFor(request.acceptLanguage())).tag, null, c, settings, eventNow());
      return answer(setCookie, waitingStatus, "application/json", JSON_POLICY, body, d, null);
    }
    Messages.Texts t = texts(languageFor(request.acceptLanguage()), settings);
    String nonce = nonce();
    String html = template.render(values(d, t, nonce, now, request, c, settings));
    return answer(setCookie, waitingStatus, "text/html", challengePolicy(nonce), html, d, t.tag);
  }

  /**
   * Takes one place of this minute's {@linkplain Builder#noScriptPlaces no-script budget}: one
   * compare-and-set on a word that holds the minute and the count, no lock, no allocation.
   */
  private boolean noScriptPlace(long now) {
    long minute = Math.floorDiv(now, 60);
    while (true) {
      long state = noScriptUsed.get();
      long used = state >>> 40 == (minute & 0xFFFFFF) ? state & 0xFF_FFFF_FFFFL : 0;
      if (used >= noScriptPerMinute) {
        return false;
      }
      long next = ((minute & 0xFFFFFF) << 40) | (used + 1);
      if (noScriptUsed.compareAndSet(state, next)) {
        return true;
      }
    }
  }

  /** A challenge shown to a newcomer: its token, difficulty, and the seconds left of the penalty. */
  record Challenged(String token, int difficulty, long remainingSeconds) {}

  private String challengePolicy(String nonce) {
    String w = widgetSources;
    return "default-src 'none'; script-src 'nonce-" + nonce + "'" + w + "; style-src 'nonce-" + nonce + "'" + w
        + "; connect-src 'self'" + w + "; img-src " + imageSources + "; worker-src 'self'"
        + (w.isEmpty() ? "" : "; frame-src" + w) + "; base-uri 'none'; form-action 'self'";
  }

  private String flagCookie(GateRequest request, long now) {
    byte[] marker = ByteBuffer.allocate(16).putLong(now).putLong(NONCES.nextLong()).array();
    return setCookie(frictionCookieName, request.contextPath(), request.secure(),
        FLAG_PREFIX + Objects.requireNonNull(flagSeal).seal(marker), FLAGGED_SECONDS);
  }

  private boolean flagged(String marker) {
    byte[] m = Objects.requireNonNull(flagSeal).open(marker);
    if (m == null || m.length != 16) {
      return false;
    }
    long age = room.nowSecond() - ByteBuffer.wrap(m).getLong();
    return age >= -30 && age < FLAGGED_SECONDS;
  }

  private GateResponse infiniteQueue(GateRequest request) {
    return infiniteQueue(request, null);
  }

  /**
   * The infinite queue: a waiting answer that looks like any other (the people waiting ahead, the
   * wait unknown) and never lets the client in. Nothing is decided or counted by the room.
   */
  private GateResponse infiniteQueue(GateRequest request, @Nullable String setCookie) {
    io.github.waitingroom.RoomStatus s = room.status();
    Decision d = new Decision(Decision.Outcome.WAIT, null, 0, Math.max(1, s.waitingUsers()), -1, -1, -1,
        room.config().refreshSeconds(), s.now());
    String accept = request.accept();
    if (hasFlag(request.query(), statusParam) || accept != null && accept.contains("application/json")) {
      return json(d, setCookie, waitingStatus, request);
    }
    return page(d, setCookie, request);
  }

  /** Whether the raw query holds {@code name=value} exactly, without allocating. */
  static boolean hasValue(String query, String name, String value) {
    int from = 0;
    while (from <= query.length()) {
      int end = query.indexOf('&', from);
      if (end < 0) {
        end = query.length();
      }
      int after = from + name.length();
      if (end - from == name.length() + 1 + value.length()
          && query.startsWith(name, from)
          && query.charAt(after) == '='
          && query.startsWith(value, after + 1)) {
        return true;
      }
      from = end + 1;
    }
    return false;
  }

  /** The value of a query parameter ({@code ""} without one), as sent (not decoded), or {@code null}. */
  static @Nullable String queryValue(@Nullable String query, String name) {
    if (query == null) {
      return null;
    }
    int from = 0;
    while (from <= query.length()) {
      int end = query.indexOf('&', from);
      if (end < 0) {
        end = query.length();
      }
      if (query.startsWith(name, from)) {
        int after = from + name.length();
        if (after == end) {
          return "";
        }
        if (query.charAt(after) == '=') {
          return query.substring(after + 1, end);
        }
      }
      from = end + 1;
    }
    return null;
  }

  private static String resource(String name) {
    try (InputStream in = Gate.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The name of the cookie that holds a newcomer's challenge (or a flagged client's infinite-queue
   * marker): {@link #cookieName()} with {@code _c} appended, with the same attributes.
   *
   * @return the name
   */
  public String frictionCookieName() {
    return frictionCookieName;
  }

  /**
   * Whether newcomers face a challenge while people wait ({@link Builder#proofOfWork} or {@link
   * Builder#humanCheck}): adapters then read the {@linkplain #frictionCookieName() challenge cookie}.
   *
   * @return whether friction is on
   */
  public boolean frictionOn() {
    return friction;
  }

  /**
   * The language a request gets: the {@code language} setting if set, else the best of its {@code
   * Accept-Language} that the room has texts for, else {@code defaultLanguage}.
   *
   * @param acceptLanguage the header, or {@code null}
   * @return a language tag the room has texts for ({@code en}, {@code pt}, {@code zh})
   */
  public String languageFor(@Nullable String acceptLanguage) {
    return Languages.choose(acceptLanguage, messages.tags(), defaultLanguage, language);
  }

  /**
   * The languages the waiting page has texts for: the shipped ones and those added by the
   * messages directory or the class path.
   *
   * @return the language tags
   */
  public Set<String> languages() {
    return messages.tags();
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

  private GateResponse json(Decision d, @Nullable String setCookie, int status, GateRequest request) {
    long viewTime = viewTime(d);
    RoomSettings settings = room.settings();
    Messages.Texts t = texts(languageFor(request.acceptLanguage()), settings);
    Map<String, String> texts = null;
    if (!d.letsThrough() && d.outcome() != Decision.Outcome.REJECT) {
      Map<String, Object> v = values(d, t, "", viewTime, request, null, settings);
      texts = new LinkedHashMap<>();
      for (String name : StatusJson.TEXTS) {
        if (name.startsWith("text.")) {
          @SuppressWarnings("unchecked")
          Map<String, String> text = (Map<String, String>) Objects.requireNonNull(v.get("text"));
          texts.put(name, text.get(name.substring(5)));
        } else {
          texts.put(name, String.valueOf(v.get(name)));
        }
      }
    }
    String body = StatusJson.write(room.config().roomId(), d, viewTime, t.tag, texts, null, settings, eventNow());
    return answer(setCookie, status, "application/json", JSON_POLICY, body, d, null);
  }

  private long viewTime(Decision d) {
    return d.viewTime() > 0 ? d.viewTime() : room.status().now();
  }

  /**
   * The waiting page, or for a {@link Decision.Outcome#REJECT} the "sold out" page: the same
   * template with {@code rejected} true, its own heading and text, and neither poll script nor
   * meta refresh.
   */
  private GateResponse page(Decision d, @Nullable String setCookie, GateRequest request) {
    RoomSettings settings = room.settings();
    Messages.Texts t = texts(languageFor(request.acceptLanguage()), settings);
    String nonce = nonce();
    String html = template.render(values(d, t, nonce, viewTime(d), request, null, settings));
    return answer(setCookie, statusOf(d), "text/html", pagePolicy(nonce, imageSources), html, d, t.tag);
  }

  /**
   * The room's state as a page shows it: {@code rejected}, {@code suspended}, {@code prequeue}
   * (a scheduled event pre-queues: the countdown page), {@code queueAll} or {@code open}.
   */
  static String pageState(Decision d, RoomSettings settings, boolean prequeueing) {
    if (d.outcome() == Decision.Outcome.REJECT) {
      return "rejected";
    }
    if (settings.suspended()) {
      return "suspended";
    }
    if (prequeueing) {
      return "prequeue";
    }
    return settings.queueAll() ? "queueAll" : "open";
  }

  /**
   * The scheduled event as a page or the JSON status shows it at one second: its name ({@code ""}
   * for none), whether it pre-queues, and the seconds until its start and its end (0 for none).
   */
  record EventNow(String name, boolean active, boolean prequeueing, long untilStart, long untilEnd, boolean shuffle) {
    static final EventNow NONE = new EventNow("", false, false, 0, 0, false);
  }

  /** The event pre-queueing or running on this node now ({@link WaitingRoom#event()}). */
  EventNow eventNow() {
    RoomSettings.Event e = room.event();
    if (e == null) {
      return EventNow.NONE;
    }
    long now = room.nowSecond();
    boolean prequeueing = room.eventPrequeueing();
    return new EventNow(e.name(), true, prequeueing, Math.max(0, e.start().getEpochSecond() - now),
        Math.max(0, e.end().getEpochSecond() - now), e.shuffleAtEventStart());
  }

  /** The page texts of the settings in force on this node, by language: built-in ones with their {@code texts} on top. */
  private record Overlay(RoomSettings settings, Map<String, String> replaced, Map<String, Messages.Texts> byTag) {}

  /**
   * The texts of one language under these settings: the built-in (and configured) ones, with the
   * settings' {@link RoomSettings#texts() texts} on top. A key the page does not know is ignored,
   * and logged once per settings version.
   */
  Messages.Texts texts(String tag, RoomSettings settings) {
    if (settings.texts().isEmpty()) {
      return messages.texts(tag);
    }
    Overlay o = overlay;
    if (o == null || o.settings() != settings) {
      Map<String, String> replaced = new LinkedHashMap<>();
      List<String> unknown = new ArrayList<>();
      settings.texts().forEach((k, v) -> {
        if (messages.knows(k)) {
          replaced.put(k, v);
        } else {
          unknown.add(k);
        }
      });
      if (!unknown.isEmpty() && (o == null || o.settings().version() != settings.version())) {
        LOG.warn("room '{}': settings version {} replace page texts the page does not have, ignored: {}"
                + " (keys: see messages_en.properties; a counted text takes its plural category, e.g. refreshNote.other)",
            room.config().roomId(), settings.version(), unknown);
      }
      o = new Overlay(settings, Map.copyOf(replaced), new ConcurrentHashMap<>());
      overlay = o;
    }
    Overlay in = o;
    return in.byTag().computeIfAbsent(tag, k -> messages.texts(k).with(in.replaced()));
  }

  /** The values of every template variable ({@link PageTemplate#VARIABLES}) for one waiting decision. */
  private Map<String, Object> values(
      Decision d, Messages.Texts t, String nonce, long viewTime, GateRequest request, @Nullable Challenged challenged,
      RoomSettings settings) {
    boolean known = d.waitKnown();
    EventNow event = eventNow();
    String state = pageState(d, settings, event.prequeueing());
    boolean rejected = state.equals("rejected");
    boolean random = settings.queueingMethod() == RoomSettings.QueueingMethod.RANDOM;
    String back = returnUrl(request);
    // In a random queue the figure is everyone waiting, the visitor among them (at least 1, also
    // before a plan has counted a newcomer).
    long ahead = random && !rejected ? Math.max(1, d.usersAhead()) : d.usersAhead();
    long refresh = Math.max(1, d.refreshSeconds());
    Instant updated = Instant.ofEpochSecond(viewTime);
    String unknown = t.text("waitUnknown");
    Map<String, Object> v = new HashMap<>(64);
    v.put("roomId", room.config().roomId());
    v.put("locale", t.tag);
    v.put("dir", t.rightToLeft ? "rtl" : "ltr");
    v.put("usersAhead", ahead);
    v.put("usersAheadFormatted", t.number(ahead));
    v.put("waitTimeKnown", known);
    v.put("waitTime", known ? (Object) d.waitMinutes() : "");
    v.put("waitTimeSeconds", known ? (Object) d.waitSeconds() : "");
    v.put("waitTimeFormatted", t.waitText(known ? d.waitSeconds() : -1));
    v.put("waitTimeLow", known ? (Object) (d.waitLowSeconds() / 60) : "");
    v.put("waitTimeHigh", known ? (Object) ((d.waitHighSeconds() + 59) / 60) : "");
    v.put("waitTimeLowFormatted", known ? t.duration(d.waitLowSeconds()) : unknown);
    v.put("waitTimeHighFormatted", known ? t.duration(d.waitHighSeconds()) : unknown);
    v.put("waitTimeRangeFormatted", known ? t.range(d.waitLowSeconds(), d.waitHighSeconds()) : unknown);
    v.put("refreshIntervalSeconds", refresh);
    v.put("lastUpdated", updated.toString());
    String time = t.time(updated);
    v.put("lastUpdatedFormatted", time);
    v.put("statusParam", statusParam);
    v.put("cspNonce", nonce);
    // The "sold out" page is static: it neither polls nor refreshes.
    v.put("refreshMeta", rejected ? "" : "<noscript><meta http-equiv=\"refresh\" content=\"" + refresh
        + (back.isEmpty() ? "" : ";url=" + back.replace("&", "&amp;")) + "\"></noscript>");
    v.put("formNotSent", request.sendsContent());
    v.put("returnUrl", back);
    v.put("challenge", challenged != null);
    String widget = challenged == null || human == null ? "" : widget(nonce, Objects.requireNonNull(human).widget());
    v.put("humanCheckWidget", widget);
    v.put("rejected", rejected);
    v.put("suspended", state.equals("suspended"));
    v.put("queueAll", state.equals("queueAll"));
    v.put("queueingMethod", settings.queueingMethod().jsonName());
    v.put("settingsVersion", settings.version());
    v.put("isRandom", random);
    v.put("isEventActive", event.active());
    v.put("isEventPrequeueing", event.prequeueing());
    v.put("eventName", event.name());
    v.put("shuffleAtEventStart", event.shuffle());
    v.put("timeUntilEventStart", event.untilStart());
    v.put("timeUntilEventStartFormatted", event.active() ? t.duration(event.untilStart()) : unknown);
    v.put("timeUntilEventEnd", event.untilEnd());
    v.put("timeUntilEventEndFormatted", event.active() ? t.duration(event.untilEnd()) : unknown);
    v.put("eventCountdown", t.clock(event.untilStart()));
    if (rejected) {
      v.put("refreshScript", "");
    } else if (challenged == null) {
      v.put("refreshScript", refreshScript(nonce, refresh, back, pollState(state, random), event));
    } else {
      String script = challengeScript(nonce, challenged, back);
      v.put("refreshScript", template.usesWidget() ? script : widget + "\n" + script);
    }
    v.put("brandName", brandName);
    v.put("logoUrl", logoUrl);
    v.put("brandColor", brandColor);
    v.put("brandTextColor", brandTextColor);
    Map<String, String> text = new HashMap<>(64);
    for (String key : messages.plainKeys()) {
      if (!PageTemplate.PARTS.contains(key)) {
        text.put(key, t.text(key, "time", time));
      }
    }
    text.put("usersAheadSentence", t.counted("usersAheadSentence", ahead));
    text.put("usersWaitingSentence", t.counted("usersWaitingSentence", ahead));
    text.put("refreshNote", t.counted("refreshNote", refresh));
    if (random) {
      // Nobody is ahead of anyone in a random queue: the page tells how many wait, that each has
      // the same chance, and the estimate as a typical wait.
      text.put("usersAheadLabel", t.text("usersWaitingLabel"));
      text.put("usersAheadSentence", text.get("usersWaitingSentence"));
      text.put("waitLabel", t.text("typicalWaitLabel"));
      text.put("intro", t.text("randomIntro"));
    }
    if (!state.equals("open")) {
      // The page's heading and introduction say what state the room is in (also in a template of
      // one's own, which shows text.heading and text.intro).
      String key = state.equals("suspended") ? "paused" : state;
      String heading = t.text(key + "Heading");
      text.put("title", heading);
      text.put("heading", heading);
      text.put("intro", t.text(key + "Intro"));
    }
    v.put("text", text);
    v.put("waitKnown", known);
    v.put("waitMinutes", known ? Long.toString(d.waitMinutes()) : "unknown");
    v.put("refreshSeconds", refresh);
    return v;
  }

  /** The state the poll script compares with the JSON status's: the page state, {@code +random} for a random queue. */
  static String pollState(String state, boolean random) {
    return random ? state + "+random" : state;
  }

  /** The human check's widget: the service's script and the element it fills in. */
  private static String widget(String nonce, HumanCheck.Widget w) {
    return "<script nonce=\"" + nonce + "\" src=\"" + w.scriptUrl() + "\" async defer></script>\n"
        + "<div class=\"" + w.cssClass() + "\" data-sitekey=\"" + w.siteKey() + "\" data-callback=\"wrHumanCheck\"></div>";
  }

  /**
   * The challenge page's script: solves the proof of work in a worker ({@value #WORKER}, served by
   * the gate) and sends it with a status poll; the human check's widget calls {@code
   * wrHumanCheck(token)}, which sends its token the same way. Either answer that is no longer a
   * challenge (a place, or the room let the visitor in) reloads the page. Whatever fails (no
   * worker, a refused proof, a network error), the page reloads once the penalty is over, as the
   * {@code <noscript>} meta refresh does without JavaScript.
   */
  private String challengeScript(String nonce, Challenged c, String back) {
    return "<script nonce=\"" + nonce + "\">\n"
        + "(function () {\n"
        + "  var token = \"" + c.token() + "\", bits = " + c.difficulty() + ", wait = " + c.remainingSeconds() + ";\n"
        + "  var done = false, started = Date.now(), back = \"" + back + "\";\n"
        + "  // A GET of the page (or of the page a sent form came from): never a resent form.\n"
        + "  function again() { location.replace(back || location.href); }\n"
        + "  var later = setTimeout(again, wait * 1000 + 500);\n"
        + "  function send(name, value) {\n"
        + "    var u = new URL(location.href);\n"
        + "    u.searchParams.set(\"" + statusParam + "\", \"1\");\n"
        + "    u.searchParams.set(name, value);\n"
        + "    return fetch(u, { headers: { \"Accept\": \"application/json\" }, credentials: \"same-origin\", cache: \"no-store\" })\n"
        + "      .then(function (r) { return r.json(); })\n"
        + "      .then(function (body) {\n"
        + "        if (body.waitingRoom.status !== \"challenge\") { done = true; clearTimeout(later); again(); }\n"
        + "      })\n"
        + "      .catch(function () {});\n"
        + "  }\n"
        + "  window.wrHumanCheck = function (t) { if (!done) { send(\"" + HUMAN_PARAM + "\", t); } };\n"
        + "  if (bits > 0 && window.Worker) {\n"
        + "    try {\n"
        + "      var w = new Worker(\"?" + statusParam + "=" + WORKER + "\");\n"
        + "      w.onmessage = function (e) {\n"
        + "        window.wrProofOfWork = { nonce: e.data.nonce, hashes: e.data.hashes, ms: e.data.ms, pageMs: Date.now() - started };\n"
        + "        if (!done) { send(\"" + PROOF_PARAM + "\", token + \".\" + e.data.nonce); }\n"
        + "      };\n"
        + "      w.postMessage({ token: token, bits: bits });\n"
        + "    } catch (e) { /* the reload after the penalty takes over */ }\n"
        + "  }\n"
        + "})();\n"
        + "</script>";
  }

  /**
   * The page's poll: asks for the JSON status every refresh interval, puts the new texts into the
   * elements marked {@code data-wr="<name>"} (those inside an {@code aria-live} region at most once
   * a minute, so that a screen reader is not made to announce every poll), and reloads the page
   * once the visitor may go in. A page that answered a sent form goes back instead to the page the
   * form was sent from ({@code back}): by the browser's history when that is where the visitor came
   * from, which gives back what they typed where the browser kept it, else by loading it.
   */
  private String refreshScript(String nonce, long refresh, String back, String state, EventNow event) {
    return "<script nonce=\"" + nonce + "\">\n"
        + "(function () {\n"
        + "  var refresh = " + refresh + ";\n"
        + "  var untilStart = " + (event.prequeueing() ? event.untilStart() : -1) + ";\n"
        + "  var back = \"" + back + "\";\n"
        + "  var state = \"" + state + "\";\n"
        + "  function enter() {\n"
        + "    if (!back) { location.replace(location.href); return; }\n"
        + "    var from = document.referrer ? new URL(document.referrer) : null;\n"
        + "    if (from && from.origin === location.origin && from.pathname + from.search === back && history.length > 1) {\n"
        + "      history.back();\n"
        + "    } else {\n"
        + "      location.replace(back);\n"
        + "    }\n"
        + "  }\n"
        + "  var status = new URL(location.href);\n"
        + "  status.searchParams.set(\"" + statusParam + "\", \"1\");\n"
        + "  var announced = Date.now();\n"
        + "  function show(texts) {\n"
        + "    var now = Date.now(), announce = now - announced >= 60000, all = document.querySelectorAll(\"[data-wr]\");\n"
        + "    for (var i = 0; i < all.length; i++) {\n"
        + "      var e = all[i], v = texts[e.getAttribute(\"data-wr\")];\n"
        + "      if (typeof v !== \"string\" || e.textContent === v) { continue; }\n"
        + "      // What a screen reader announces changes at most once a minute.\n"
        + "      if (e.closest(\"[aria-live]\")) { if (!announce) { continue; } announced = now; }\n"
        + "      e.textContent = v;\n"
        + "    }\n"
        + "  }\n"
        + "  function poll() {\n"
        + "    fetch(status, { headers: { \"Accept\": \"application/json\" }, credentials: \"same-origin\", cache: \"no-store\" })\n"
        + "      .then(function (r) { return r.json(); })\n"
        + "      .then(function (body) {\n"
        + "        var s = body.waitingRoom;\n"
        + "        if (!s.inWaitingRoom) { enter(); return; }\n"
        + "        // The room changed state (paused, opened, sold out): the page shows the new one.\n"
        + "        var now = s.status === \"rejected\" ? \"rejected\" : s.suspended ? \"suspended\""
        + " : s.isEventPrequeueing ? \"prequeue\" : s.queueAll ? \"queueAll\" : \"open\";\n"
        + "        if (s.isRandom) { now += \"+random\"; }\n"
        + "        if (now !== state) { location.replace(back || location.href); return; }\n"
        + "        if (s.texts) { show(s.texts); }\n"
        + "        var next = Math.max(1, s.refreshIntervalSeconds);\n"
        + "        if (s.isEventPrequeueing) { countdown(s.timeUntilEventStart); next = Math.min(next, s.timeUntilEventStart + 1); }\n"
        + "        schedule(next);\n"
        + "      })\n"
        + "      .catch(function () { setTimeout(function () { location.reload(); }, refresh * 1000); });\n"
        + "  }\n"
        + "  var timer = 0;\n"
        + "  function schedule(seconds) { clearTimeout(timer); timer = setTimeout(poll, seconds * 1000); }\n"
        + "  // The countdown to an event's start: ticks each second from the server's figure, which\n"
        + "  // every poll checks again; at zero the page asks at once whether the line moves.\n"
        + "  var ends = 0, ticking = 0, two = null, one = null;\n"
        + "  try {\n"
        + "    two = new Intl.NumberFormat(document.documentElement.lang, { minimumIntegerDigits: 2, useGrouping: false });\n"
        + "    one = new Intl.NumberFormat(document.documentElement.lang, { useGrouping: false });\n"
        + "  } catch (e) { two = null; }\n"
        + "  function clock(s) {\n"
        + "    var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;\n"
        + "    var f2 = function (n) { return two ? two.format(n) : (n < 10 ? \"0\" : \"\") + n; };\n"
        + "    var f1 = function (n) { return one ? one.format(n) : String(n); };\n"
        + "    return h > 0 ? f1(h) + \":\" + f2(m) + \":\" + f2(r) : f1(m) + \":\" + f2(r);\n"
        + "  }\n"
        + "  function tick() {\n"
        + "    var left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));\n"
        + "    var all = document.querySelectorAll(\"[data-wr-countdown]\");\n"
        + "    for (var i = 0; i < all.length; i++) { all[i].textContent = clock(left); all[i].setAttribute(\"data-wr-countdown\", left); }\n"
        + "    if (left === 0) { clearInterval(ticking); ticking = 0; schedule(1); }\n"
        + "  }\n"
        + "  function countdown(seconds) {\n"
        + "    // The server's figure wins only when the page's has drifted from it: no jumps between polls.\n"
        + "    var left = Math.ceil((ends - Date.now()) / 1000);\n"
        + "    if (!ends || Math.abs(left - seconds) > 2) { ends = Date.now() + seconds * 1000; }\n"
        + "    if (!ticking) { ticking = setInterval(tick, 1000); }\n"
        + "    tick();\n"
        + "  }\n"
        + "  if (untilStart >= 0) { countdown(untilStart); }\n"
        + "  schedule(untilStart >= 0 ? Math.min(refresh, untilStart + 1) : refresh);\n"
        + "})();\n"
        + "</script>";
  }

  private static GateResponse answer(
      @Nullable String setCookie,
      int status,
      String type,
      String policy,
      String body,
      Decision d,
      @Nullable String contentLanguage) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Cache-Control", NO_STORE);
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("Content-Security-Policy", policy);
    if (contentLanguage != null) {
      headers.put("Content-Language", contentLanguage);
    }
    if (status == 429 && d.refreshSeconds() > 0) {
      headers.put("Retry-After", Long.toString(d.refreshSeconds()));
    }
    return GateResponse.answer(setCookie, status, type + ";charset=UTF-8", headers, body);
  }

  /**
   * Where a waiting page that answered a sent form takes the visitor once they may go in: the path
   * and query of its {@code Referer} when that names this request's host, else {@code ""} (the page
   * then loads its own address, as for any other request). Only a path (always this origin) and
   * only the characters a URI allows unescaped, other than quotes: the value is written into the
   * page's script and its refresh meta.
   */
  static String returnUrl(GateRequest request) {
    String referer = request.referer();
    String host = request.host();
    if (!request.sendsContent() || referer == null || host == null) {
      return "";
    }
    URI from;
    try {
      from = new URI(referer);
    } catch (URISyntaxException e) {
      return "";
    }
    String path = from.getRawPath();
    if (!host.equalsIgnoreCase(from.getRawAuthority()) || path == null || !path.startsWith("/") || path.startsWith("//")) {
      return "";
    }
    String url = from.getRawQuery() == null ? path : path + "?" + from.getRawQuery();
    return RETURN_URL.matcher(url).matches() ? url : "";
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
    return pagePolicy(nonce, "'self'");
  }

  static String pagePolicy(String nonce, String imageSources) {
    return "default-src 'none'; script-src 'nonce-" + nonce + "'; style-src 'nonce-" + nonce
        + "'; connect-src 'self'; img-src " + imageSources + "; base-uri 'none'; form-action 'self'";
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
    private int rejectStatus = DEFAULT_REJECT_STATUS;
    private boolean revoke;
    private boolean corsPassThrough;
    private String statusParam = DEFAULT_STATUS_PARAM;
    private @Nullable String templateHtml;
    private String templateSource = "custom template";
    private PageStyle pageStyle = PageStyle.PLAIN;
    private String defaultLanguage = "en";
    private @Nullable String language;
    private @Nullable Path messagesDirectory;
    private String brandName = "";
    private String logoUrl = "";
    private String brandColor = "#2f6fdf";
    private int powDifficulty;
    private Duration penalty = DEFAULT_CHALLENGE_PENALTY;
    private int noScriptPerMinute;
    private @Nullable HumanCheck humanCheck;

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
