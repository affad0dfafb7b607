package io.github.waitingroom.http;

import static io.github.waitingroom.http.OperatorAnswers.DATA_POLICY;
import static io.github.waitingroom.http.OperatorAnswers.JSON;
import static io.github.waitingroom.http.OperatorAnswers.answer;
import static io.github.waitingroom.http.OperatorAnswers.error;
import static io.github.waitingroom.http.OperatorAnswers.isJson;
import static io.github.waitingroom.http.OperatorAnswers.json;
import static io.github.waitingroom.http.OperatorAnswers.printable;

import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.WaitingRoom;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator API of one or more rooms, for every stack: the live dashboard (a self-contained HTML
 * page with inline SVG charts, and the JSON data it polls), the rooms' status, and their live
 * settings, read and (when allowed) changed. The servlet {@code WaitingRoomDashboard} and the
 * WebFlux {@code WaitingRoomDashboardWebFilter} read their request into an {@link OperatorRequest}
 * and write the {@link GateResponse} back; the rules, the protection and the bytes are the same in
 * both.
 *
 * <p>It cannot be built unprotected: {@link Builder#build()} requires either a {@linkplain
 * Builder#bearerToken bearer token} or an explicit opt-in to the application's own security with a
 * {@linkplain Builder#requireRole required role}. Below its mapping it answers:
 *
 * <ul>
 *   <li>{@code GET /}: the page (the bare mapping is redirected to it). It holds no data: with a
 *       bearer token it asks for the token, keeps it in the tab's {@code sessionStorage}, and sends
 *       it as {@code Authorization: Bearer ...} with each poll.
 *   <li>{@code GET /data}: the JSON data, per room its limits, {@link WaitingRoom#status()} and
 *       {@link WaitingRoom#metrics()} (histograms as cumulative bucket counts). Without the right
 *       token: 401 with {@code WWW-Authenticate: Bearer}.
 *   <li>{@code GET /status}: per room its state in the words of Cloudflare's status API ({@code
 *       status} {@code queueing}, {@code not_queueing} or {@code suspended}, {@code
 *       estimatedQueuedUsers}, {@code estimatedTotalActiveUsers}, {@code maxEstimatedTimeMinutes},
 *       -1 when unknown) with its {@code roomId} and {@code settingsVersion}; {@code ?room=<id>}
 *       for one room.
 *   <li>{@code GET /settings?room=<id>}: the room's newest {@linkplain WaitingRoom#latestSettings()
 *       live settings} ({@code settings}, the document of {@link RoomSettings#toJson()}) and the
 *       version in force on this node ({@code versionInForce}).
 *   <li>{@code PUT /settings?room=<id>}, only with {@link Builder#settingsChanges
 *       settingsChanges(true)}: changes the room's settings on every node ({@link
 *       WaitingRoom#updateSettings}), the body a JSON document ({@code Content-Type:
 *       application/json}, else 415, so that no cross-site form can send it; at most {@value
 *       RoomSettings#MAX_JSON_LENGTH} characters, else 413) whose fields replace those of the
 *       newest settings ({@link RoomSettings#fromJson}). 200 with the new {@code settings} and
 *       {@code activeFrom}, the instant it takes effect on every node; 400 with {@code {"error":
 *       ...}} naming the field for a bad document; 409 when the version is not newer than one the
 *       node knows; 403 when changes are off. The room may be left out when there is only one.
 * </ul>
 *
 * <p>Every answer but the page needs the token (or the role). Any other method gets 405 with
 * {@code Allow: GET, HEAD, PUT} and is never echoed. Wrong bearer tokens are slowed per client
 * address: after {@value #FREE_FAILURES} wrong tokens, each further one locks the client out for
 * twice as long as the one before (1 s, 2 s, ... up to {@value #MAX_LOCKOUT_SECONDS} s), during
 * which every request of it that carries a token gets 429 with {@code Retry-After}, the right token
 * too; a right token outside a lockout forgets its failures. A {@code PUT} may raise the version by
 * at most {@value #MAX_VERSION_STEP} over the newest the node knows (400 otherwise).
 *
 * <p>Every response carries {@code Cache-Control: no-store}, {@code X-Content-Type-Options:
 * nosniff}, {@code Referrer-Policy: no-referrer}, {@code X-Frame-Options: DENY} and a
 * Content-Security-Policy that allows only the page's own inline script and style (by their SHA-256
 * hashes) and requests to its own origin. Thread-safe.
 */
public final class OperatorApi {
  private static final Logger log = LoggerFactory.getLogger(OperatorApi.class);

  /** The shortest bearer token {@link Builder#bearerToken} accepts. */
  public static final int MIN_TOKEN_LENGTH = 16;

  /** Wrong bearer tokens a client may send before it is slowed down. */
  public static final int FREE_FAILURES = 10;

  /** The longest a client that keeps sending wrong tokens is locked out, in seconds. */
  public static final long MAX_LOCKOUT_SECONDS = 300;

  /** The most a {@code PUT} may raise the settings' version over the newest the node knows. */
  public static final long MAX_VERSION_STEP = 1_000;

  /** The most bytes of a {@code PUT}'s body an adapter reads: 4 bytes of UTF-8 per character of a settings document. */
  public static final int MAX_BODY_BYTES = 4 * RoomSettings.MAX_JSON_LENGTH;

  private static final String ALLOW = "GET, HEAD, PUT";
  private static final DashboardPage PAGE = DashboardPage.load();

  private final List<WaitingRoom> rooms;
  private final OperatorAuth auth;
  private final @Nullable String role;
  private final InstantSource clock;
  private final byte[] page;
  private final boolean settingsChanges;
  private OperatorApi(Builder b, @Nullable String tokenDigest, @Nullable String role) {
    this.rooms = List.copyOf(b.rooms);
    this.settingsChanges = b.settingsChanges;
    this.auth = new OperatorAuth(tokenDigest, role, b.clock);
    this.role = role;
    this.clock = b.clock;
    this.page = PAGE.page(tokenDigest != null ? "bearer" : "role");
  }

  /**
   * Starts building the operator API of the given rooms, shown in this order.
   *
   * @param rooms one or more rooms with distinct ids; the caller owns (and closes) them
   * @return the builder
   */
  public static Builder builder(List<WaitingRoom> rooms) {
    return new Builder(List.copyOf(rooms));
  }

  /**
   * The rooms, in order.
   *
   * @return the rooms
   */
  public List<WaitingRoom> rooms() {
    return rooms;
  }

  /**
   * Whether {@code PUT /settings} changes settings ({@link Builder#settingsChanges}).
   *
   * @return whether changes are on
   */
  public boolean settingsChanges() {
    return settingsChanges;
  }

  /**
   * The role the application's own security must give the user, or {@code null} with a bearer token.
   *
   * @return the role
   */
  public @Nullable String requiredRole() {
    return role;
  }

  /**
   * Answers a request below the API's mapping.
   *
   * @param r the request
   * @return the answer to write (it never {@linkplain GateResponse#passes() passes})
   * @throws IOException when the body of a {@code PUT} cannot be read
   */
  public GateResponse handle(OperatorRequest r) throws IOException {
    String method = r.method();
    if ("GET".equals(method) || "HEAD".equals(method)) {
      return get(r);
    }
    if ("PUT".equals(method)) {
      return put(r);
    }
    return answer(405, JSON, DATA_POLICY, error("the dashboard answers GET, HEAD and PUT only"), Map.of("Allow", ALLOW));
  }

  private GateResponse get(OperatorRequest r) {
    String path = r.path();
    if (path.isEmpty()) {
      String uri = r.requestUri();
      if (!uri.endsWith("/")) {
        // Relative to the request's own URL (its last segment plus a slash): never another origin.
        return answer(302, "", DATA_POLICY, new byte[0], Map.of("Location", uri.substring(uri.lastIndexOf('/') + 1) + "/"));
      }
      path = "/";
    }
    if (path.equals("/")) {
      GateResponse refused = role != null ? auth.refusal(r) : null;
      return refused != null ? refused : answer(200, "text/html;charset=UTF-8", PAGE.policy, page, Map.of());
    }
    boolean data = path.equals("/data");
    if (!data && !path.equals("/status") && !path.equals("/settings")) {
      return answer(404, "text/plain;charset=UTF-8", DATA_POLICY, "not found\n".getBytes(StandardCharsets.UTF_8), Map.of());
    }
    GateResponse refused = auth.refusal(r);
    if (refused != null) {
      return refused;
    }
    if (data) {
      return json(200, OperatorJson.write(rooms, clock.millis()));
    }
    String id = r.parameter("room");
    if (path.equals("/status") && id == null) {
      return json(200, OperatorJson.statuses(rooms));
    }
    Object room = room(id);
    if (room instanceof GateResponse error) {
      return error;
    }
    WaitingRoom w = (WaitingRoom) room;
    return json(200, path.equals("/status") ? OperatorJson.status(w) : OperatorJson.settings(w, w.latestSettings(), null));
  }

  /**
   * The answer to a {@code PUT} that is refused before its body is read: for its path, its token
   * or role, settings changes turned off, its content type or its room ({@link #handle} answers
   * it alike). An adapter that reads a body before it calls {@link #handle} (as a reactive one
   * does) asks this first, so that a request refused anyway never makes it read up to {@link
   * #MAX_BODY_BYTES}.
   *
   * @param r a {@code PUT}, whose body this never asks for
   * @return the refusal, or {@code null} when {@link #handle} needs the body
   */
  public @Nullable GateResponse refusalBeforeBody(OperatorRequest r) {
    if (!"/settings".equals(r.path())) {
      return json(405, error("only <mapping>/settings takes a PUT"));
    }
    GateResponse refused = auth.refusal(r);
    if (refused != null) {
      return refused;
    }
    if (!settingsChanges) {
      return json(403, error("this dashboard does not change settings: build it with settingsChanges(true)"));
    }
    if (!isJson(r.header("Content-Type"))) {
      return json(415, error("the settings must be sent as Content-Type: application/json"));
    }
    return room(r.parameter("room")) instanceof GateResponse error ? error : null;
  }

  private GateResponse put(OperatorRequest r) throws IOException {
    GateResponse refused = refusalBeforeBody(r);
    if (refused != null) {
      return refused;
    }
    WaitingRoom w = (WaitingRoom) room(r.parameter("room"));
    String body = r.body();
    if (body == null || body.length() > RoomSettings.MAX_JSON_LENGTH) {
      return json(413, error("settings must be at most " + RoomSettings.MAX_JSON_LENGTH + " characters of JSON"));
    }
    RoomSettings next;
    Instant from;
    try {
      RoomSettings base = w.latestSettings();
      next = RoomSettings.fromJson(body, base);
      if (next.version() > base.version() + MAX_VERSION_STEP) {
        return json(400, error("version must be at most " + (base.version() + MAX_VERSION_STEP)
            + " (the newest this node knows, " + base.version() + ", plus " + MAX_VERSION_STEP + ") but was "
            + next.version() + "; leave it out to take the next one"));
      }
      from = w.updateSettings(next);
    } catch (IllegalArgumentException e) {
      return json(400, error(String.valueOf(e.getMessage())));
    } catch (IllegalStateException e) {
      return json(409, error(String.valueOf(e.getMessage())));
    }
    log.info("room '{}': settings version {} set through the dashboard, in force from {}", w.config().roomId(),
        next.version(), from);
    return json(200, OperatorJson.settings(w, next, from));
  }

  /** The room a request names with {@code ?room=<id>} (the only room when it names none), or the 400 or 404 answer. */
  private Object room(@Nullable String id) {
    if (id == null) {
      return rooms.size() == 1 ? rooms.get(0) : json(400, error("name the room: ?room=<id>, one of " + ids()));
    }
    for (WaitingRoom r : rooms) {
      if (r.config().roomId().equals(id)) {
        return r;
      }
    }
    return json(404, error("this dashboard has no room '" + printable(id) + "', only " + ids()));
  }

  private List<String> ids() {
    return rooms.stream().map(r -> r.config().roomId()).toList();
  }

  /**
   * Builds an {@link OperatorApi}. Exactly one protection is required: {@link #bearerToken} or
   * {@link #requireRole}.
   */
  public static final class Builder {
    private final List<WaitingRoom> rooms;
    private @Nullable String token;
    private @Nullable String role;
    private InstantSource clock = InstantSource.system();
    private boolean settingsChanges;

    private Builder(List<WaitingRoom> rooms) {
      for (WaitingRoom r : rooms) {
        Objects.requireNonNull(r, "room");
      }
      this.rooms = new ArrayList<>(rooms);
    }

    /**
     * Protects the data with a bearer token: the page asks for it, and each poll must send
     * {@code Authorization: Bearer <token>}. Keep it with the application's other secrets; a long
     * random one, for example {@code openssl rand -base64 24}.
     *
     * @param token at least {@value OperatorApi#MIN_TOKEN_LENGTH} characters, printable ASCII without spaces
     * @return this builder
     * @throws IllegalArgumentException when it is shorter or holds other characters (the message
     *     never repeats the token)
     */
    public Builder bearerToken(String token) {
      Objects.requireNonNull(token, "token");
      if (token.length() < MIN_TOKEN_LENGTH) {
        throw new IllegalArgumentException(
            "the dashboard's bearer token must be at least " + MIN_TOKEN_LENGTH + " characters long, but has "
                + token.length() + "; use a long random one, e.g. from 'openssl rand -base64 24'");
      }
      for (int i = 0; i < token.length(); i++) {
        char ch = token.charAt(i);
        if (ch <= ' ' || ch > '~') {
          throw new IllegalArgumentException(
              "the dashboard's bearer token may hold only printable ASCII characters without spaces"
                  + " (character " + (i + 1) + " is not one)");
        }
      }
      this.token = token;
      return this;
    }

    /**
     * Leaves authentication to the application's (or container's) own security, and lets in only
     * users in this role ({@link OperatorRequest#userInRole}); others get 403. Use it when the
     * API's path is behind your login: the page then asks for no token.
     *
     * @param role the role required, not blank
     * @return this builder
     * @throws IllegalArgumentException when it is blank
     */
    public Builder requireRole(String role) {
      Objects.requireNonNull(role, "role");
      if (role.isBlank()) {
        throw new IllegalArgumentException("the dashboard's required role must not be blank");
      }
      this.role = role;
      return this;
    }

    /**
     * The clock that time-stamps each reading, over which the page computes rates, and that times
     * the lockouts of clients that send wrong tokens. Default: the system clock.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Whether {@code PUT /settings} may change the rooms' live settings ({@link
     * WaitingRoom#updateSettings}) for whoever holds the token or the role. Default: off, and the
     * API only reads (a PUT answers 403).
     *
     * @param allowed whether settings may change
     * @return this builder
     */
    public Builder settingsChanges(boolean allowed) {
      this.settingsChanges = allowed;
      return this;
    }

    /**
     * Checks the settings and builds the API.
     *
     * @return the API
     * @throws IllegalArgumentException when there is no room, or two rooms share an id
     * @throws IllegalStateException when neither or both of a bearer token and a required role
     *     were given
     */
    public OperatorApi build() {
      if (rooms.isEmpty()) {
        throw new IllegalArgumentException("the dashboard needs at least one room to show");
      }
      Set<String> ids = new HashSet<>();
      for (WaitingRoom r : rooms) {
        if (!ids.add(r.config().roomId())) {
          throw new IllegalArgumentException(
              "the dashboard shows each room once, but got two rooms with the id '" + r.config().roomId() + "'");
        }
      }
      String t = token;
      String r = role;
      if (t == null && r == null) {
        throw new IllegalStateException(
            "the dashboard must be protected: give it a bearerToken(..) of at least " + MIN_TOKEN_LENGTH
                + " characters, or requireRole(..) to rely on the application's own security");
      }
      if (t != null && r != null) {
        throw new IllegalStateException("give the dashboard either a bearerToken(..) or requireRole(..), not both");
      }
      return new OperatorApi(this, t == null ? null : OperatorAuth.digest(t), r);
    }
  }
}
