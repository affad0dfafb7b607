package io.github.waitingroom.servlet;

import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.WaitingRoom;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live operator dashboard for one or more {@link WaitingRoom}s: a servlet that serves a
 * self-contained HTML page (inline SVG charts drawn by a small inline script; nothing loads from
 * anywhere else, so it works offline) and the JSON data the page polls every two seconds.
 *
 * <p>It is off unless an application registers it, and it cannot be built unprotected: {@link
 * Builder#build()} requires either a {@linkplain Builder#bearerToken bearer token} or an explicit
 * opt-in to the application's own security with a {@linkplain Builder#requireRole required role}.
 *
 * <pre>{@code
 * WaitingRoomDashboard dashboard = WaitingRoomDashboard.builder(room)
 *     .bearerToken(System.getenv("WAITINGROOM_DASHBOARD_TOKEN"))  // 16 characters or more
 *     .build();
 * servletContext.addServlet("waitingRoomDashboard", dashboard).addMapping("/waitingroom/dashboard/*");
 * }</pre>
 *
 * <p>Map it to a path pattern ending in {@code /*}. It answers:
 *
 * <ul>
 *   <li>{@code GET <mapping>/}: the page (a request without the trailing slash is redirected to
 *       it). It holds no data: with a bearer token it asks for the token, keeps it in the tab's
 *       {@code sessionStorage}, and sends it as {@code Authorization: Bearer ...} with each poll.
 *   <li>{@code GET <mapping>/data}: the JSON data, per room its limits, {@link
 *       WaitingRoom#status()} and {@link WaitingRoom#metrics()} (histograms as cumulative bucket
 *       counts). Without the right token: 401 with {@code WWW-Authenticate: Bearer}.
 *   <li>{@code GET <mapping>/status}: per room its state in the words of Cloudflare's status
 *       API ({@code status} {@code queueing}, {@code not_queueing} or {@code suspended}, {@code
 *       estimatedQueuedUsers}, {@code estimatedTotalActiveUsers}, {@code maxEstimatedTimeMinutes},
 *       -1 when unknown) with its {@code roomId} and {@code settingsVersion}; {@code ?room=<id>}
 *       for one room.
 *   <li>{@code GET <mapping>/settings?room=<id>}: the room's newest {@linkplain
 *       WaitingRoom#latestSettings() live settings} ({@code settings}, the document of {@link
 *       RoomSettings#toJson()}) and the version in force on this node ({@code versionInForce}).
 *   <li>{@code PUT <mapping>/settings?room=<id>}, only with {@link Builder#settingsChanges
 *       settingsChanges(true)}: changes the room's settings on every node ({@link
 *       WaitingRoom#updateSettings}), the body a JSON document ({@code Content-Type:
 *       application/json}, else 415, so that no cross-site form can send it; at most {@value
 *       RoomSettings#MAX_JSON_LENGTH} characters, else 413) whose fields replace those of the
 *       newest settings ({@link RoomSettings#fromJson}). 200 with the new {@code settings} and
 *       {@code activeFrom}, the instant it takes effect on every node; 400 with {@code {"error":
 *       ...}} naming the field for a bad document; 409 when the version is not newer than one the
 *       node knows (another operator changed the settings: read them again); 403 when changes are
 *       off. The room may be left out when the dashboard has only one.
 * </ul>
 *
 * <p>Every answer but the page needs the token (or the role), as the data do. Any other method
 * ({@code TRACE}, {@code OPTIONS}, {@code POST}, ...) gets 405 with {@code Allow: GET, HEAD, PUT}
 * and is never echoed. Wrong bearer tokens are slowed per client address: after {@value
 * #FREE_FAILURES} wrong tokens, each further one locks the client out for twice as long as the
 * one before (1 s, 2 s, ... up to {@value #MAX_LOCKOUT_SECONDS} s), during which every request of
 * it that carries a token gets 429 with {@code Retry-After}, the right token too; a right token
 * outside a lockout forgets its failures. Behind a proxy, set the container to read the client's
 * address from it, or all clients share one count. A {@code PUT} may raise the version by at most
 * {@value #MAX_VERSION_STEP} over the newest the node knows (400 otherwise), so that no document
 * can take a version no later change could exceed.
 *
 * <p>Every response carries {@code Cache-Control: no-store}, {@code X-Content-Type-Options:
 * nosniff}, {@code Referrer-Policy: no-referrer} and a Content-Security-Policy that allows only the
 * page's own inline script and style (by their SHA-256 hashes) and requests to its own origin, and
 * no framing.
 *
 * <p>The dashboard's path must lie outside every waiting room's guarded prefix, or in its {@code
 * ignorePaths}: otherwise operators would queue for their own dashboard. The dashboard logs a
 * warning, once, when a request for it was decided by a {@link WaitingRoomFilter}.
 */
public final class WaitingRoomDashboard extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(WaitingRoomDashboard.class);

  /** The shortest bearer token {@link Builder#bearerToken} accepts. */
  public static final int MIN_TOKEN_LENGTH = 16;

  /** Wrong bearer tokens a client may send before it is slowed down. */
  public static final int FREE_FAILURES = 10;

  /** The longest a client that keeps sending wrong tokens is locked out, in seconds. */
  public static final long MAX_LOCKOUT_SECONDS = 300;

  /** The most a {@code PUT} may raise the settings' version over the newest the node knows. */
  public static final long MAX_VERSION_STEP = 1_000;

  /** The most client addresses whose wrong tokens are counted apart; beyond, they share one count. */
  static final int MAX_CLIENTS = 10_000;

  /** How long a client's wrong tokens are remembered after its last one, in milliseconds. */
  private static final long FORGET_MILLIS = 15 * 60 * 1000L;

  private static final String ALLOW = "GET, HEAD, PUT";
  private static final String NO_STORE = "no-store";
  private static final String DATA_POLICY = "default-src 'none'; frame-ancestors 'none'";
  private static final Shell SHELL = Shell.load();

  private final transient List<WaitingRoom> rooms;
  private final transient @Nullable String tokenDigest;
  private final transient @Nullable String role;
  private final transient InstantSource clock;
  private final transient byte[] page;
  private final transient AtomicBoolean warned = new AtomicBoolean();
  private final transient boolean settingsChanges;
  /** Wrong tokens by client address ({@code ""}: the shared count when the map is full). */
  private final transient ConcurrentHashMap<String, Failures> failures = new ConcurrentHashMap<>();

  /** A client's wrong tokens: how many, the last one's time, and until when it is locked out (epoch ms). */
  private record Failures(int count, long last, long lockedUntil) {}

  private WaitingRoomDashboard(Builder b, @Nullable String tokenDigest, @Nullable String role) {
    this.rooms = List.copyOf(b.rooms);
    this.settingsChanges = b.settingsChanges;
    this.tokenDigest = tokenDigest;
    this.role = role;
    this.clock = b.clock;
    this.page = SHELL.page(tokenDigest != null ? "bearer" : "role");
  }

  /**
   * Starts building a dashboard of the given rooms, shown in this order.
   *
   * @param rooms one or more rooms with distinct ids; the caller owns (and closes) them
   */
  public static Builder builder(WaitingRoom... rooms) {
    return new Builder(List.of(rooms));
  }

  /**
   * Starts building a dashboard of the given rooms, shown in this order.
   *
   * @param rooms one or more rooms with distinct ids; the caller owns (and closes) them
   */
  public static Builder builder(List<WaitingRoom> rooms) {
    return new Builder(List.copyOf(rooms));
  }

  /** The rooms this dashboard shows, in order. */
  public List<WaitingRoom> rooms() {
    return rooms;
  }

  /** Whether {@code PUT <mapping>/settings} changes settings ({@link Builder#settingsChanges}). */
  public boolean settingsChanges() {
    return settingsChanges;
  }

  /**
   * Lets {@code GET}, {@code HEAD} and {@code PUT} through to their handlers and answers every
   * other method 405 itself: never the default {@code TRACE}, which would echo the request's
   * {@code Authorization} header.
   */
  @Override
  protected void service(HttpServletRequest req, HttpServletResponse res) throws jakarta.servlet.ServletException, IOException {
    String method = req.getMethod();
    if ("GET".equals(method) || "HEAD".equals(method) || "PUT".equals(method)) {
      super.service(req, res);
      return;
    }
    commonHeaders(res);
    res.setHeader("Allow", ALLOW);
    write(res, HttpServletResponse.SC_METHOD_NOT_ALLOWED, "application/json", DATA_POLICY,
        error("the dashboard answers GET, HEAD and PUT only"));
  }

  /** Serves the page, its data, the rooms' status and settings, or 404. */
  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    warnIfDecided(req);
    String path = req.getPathInfo();
    commonHeaders(res);
    if (path == null || path.isEmpty()) {
      String uri = req.getRequestURI();
      if (uri != null && !uri.endsWith("/")) {
        res.setHeader("Content-Security-Policy", DATA_POLICY);
        res.setStatus(HttpServletResponse.SC_FOUND);
        // Relative to the request's own URL (its last segment plus a slash): never another origin.
        res.setHeader("Location", uri.substring(uri.lastIndexOf('/') + 1) + "/");
        return;
      }
      path = "/";
    }
    if (path.equals("/")) {
      if (role != null && !allowed(req, res)) {
        return;
      }
      write(res, HttpServletResponse.SC_OK, "text/html;charset=UTF-8", SHELL.policy, page);
    } else if (path.equals("/data")) {
      if (!allowed(req, res)) {
        return;
      }
      byte[] body = DashboardJson.write(rooms, clock.millis());
      write(res, HttpServletResponse.SC_OK, "application/json", DATA_POLICY, body);
    } else if (path.equals("/status") || path.equals("/settings")) {
      if (!allowed(req, res)) {
        return;
      }
      String id = req.getParameter("room");
      if (path.equals("/status") && id == null) {
        json(res, HttpServletResponse.SC_OK, DashboardJson.statuses(rooms));
        return;
      }
      WaitingRoom room = room(id, res);
      if (room == null) {
        return;
      }
      json(res, HttpServletResponse.SC_OK, path.equals("/status")
          ? DashboardJson.status(room)
          : DashboardJson.settings(room, room.latestSettings(), null));
    } else {
      write(res, HttpServletResponse.SC_NOT_FOUND, "text/plain;charset=UTF-8", DATA_POLICY,
          "not found\n".getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * Changes a room's live settings ({@code PUT <mapping>/settings?room=<id>}; see the class
   * comment).
   */
  @Override
  protected void doPut(HttpServletRequest req, HttpServletResponse res) throws IOException {
    warnIfDecided(req);
    commonHeaders(res);
    if (!"/settings".equals(req.getPathInfo())) {
      write(res, HttpServletResponse.SC_METHOD_NOT_ALLOWED, "application/json", DATA_POLICY,
          error("only <mapping>/settings takes a PUT"));
      return;
    }
    if (!allowed(req, res)) {
      return;
    }
    if (!settingsChanges) {
      json(res, HttpServletResponse.SC_FORBIDDEN,
          error("this dashboard does not change settings: build it with settingsChanges(true)"));
      return;
    }
    if (!isJson(req.getContentType())) {
      json(res, HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE,
          error("the settings must be sent as Content-Type: application/json"));
      return;
    }
    WaitingRoom room = room(req.getParameter("room"), res);
    if (room == null) {
      return;
    }
    String body = body(req);
    if (body == null) {
      json(res, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
          error("settings must be at most " + RoomSettings.MAX_JSON_LENGTH + " characters of JSON"));
      return;
    }
    RoomSettings next;
    Instant from;
    try {
      RoomSettings base = room.latestSettings();
      next = RoomSettings.fromJson(body, base);
      if (next.version() > base.version() + MAX_VERSION_STEP) {
        json(res, HttpServletResponse.SC_BAD_REQUEST, error("version must be at most " + (base.version() + MAX_VERSION_STEP)
            + " (the newest this node knows, " + base.version() + ", plus " + MAX_VERSION_STEP + ") but was " + next.version()
            + "; leave it out to take the next one"));
        return;
      }
      from = room.updateSettings(next);
    } catch (IllegalArgumentException e) {
      json(res, HttpServletResponse.SC_BAD_REQUEST, error(String.valueOf(e.getMessage())));
      return;
    } catch (IllegalStateException e) {
      json(res, HttpServletResponse.SC_CONFLICT, error(String.valueOf(e.getMessage())));
      return;
    }
    log.info("room '{}': settings version {} set through the dashboard, in force from {}", room.config().roomId(),
        next.version(), from);
    json(res, HttpServletResponse.SC_OK, DashboardJson.settings(room, next, from));
  }

  /** {@code application/json}, with any parameters ({@code ; charset=UTF-8}), in any case. */
  static boolean isJson(@Nullable String contentType) {
    if (contentType == null) {
      return false;
    }
    int semi = contentType.indexOf(';');
    String type = (semi < 0 ? contentType : contentType.substring(0, semi)).strip();
    return type.equalsIgnoreCase("application/json");
  }

  /** The request's body as UTF-8, or {@code null} when it is longer than a settings document may be. */
  private static @Nullable String body(HttpServletRequest req) throws IOException {
    long declared = req.getContentLengthLong();
    // A character takes up to 4 bytes of UTF-8.
    long most = 4L * RoomSettings.MAX_JSON_LENGTH;
    if (declared > most) {
      return null;
    }
    byte[] bytes = req.getInputStream().readNBytes((int) most + 1);
    if (bytes.length > most) {
      return null;
    }
    String text = new String(bytes, StandardCharsets.UTF_8);
    return text.length() > RoomSettings.MAX_JSON_LENGTH ? null : text;
  }

  /**
   * The room a request names with {@code ?room=<id>} (the only room when it names none); else
   * answers 400 or 404 and returns {@code null}.
   */
  private @Nullable WaitingRoom room(@Nullable String id, HttpServletResponse res) throws IOException {
    if (id == null) {
      if (rooms.size() == 1) {
        return rooms.get(0);
      }
      json(res, HttpServletResponse.SC_BAD_REQUEST, error("name the room: ?room=<id>, one of " + ids()));
      return null;
    }
    for (WaitingRoom r : rooms) {
      if (r.config().roomId().equals(id)) {
        return r;
      }
    }
    json(res, HttpServletResponse.SC_NOT_FOUND, error("this dashboard has no room '" + printable(id) + "', only " + ids()));
    return null;
  }

  private List<String> ids() {
    return rooms.stream().map(r -> r.config().roomId()).toList();
  }

  /** At most 64 printable ASCII characters of a value from the request, for an error message. */
  private static String printable(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length() && b.length() < 64; i++) {
      char c = s.charAt(i);
      b.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return b.toString();
  }

  private static byte[] error(String message) {
    return DashboardJson.error(message);
  }

  private static void json(HttpServletResponse res, int status, byte[] body) throws IOException {
    write(res, status, "application/json", DATA_POLICY, body);
  }

  private static void commonHeaders(HttpServletResponse res) {
    res.setHeader("Cache-Control", NO_STORE);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "no-referrer");
  }

  /**
   * Whether the request may see the data; if not, the refusal is written: 401 (or 403 for the
   * role), or 429 while the client is locked out for wrong tokens.
   */
  private boolean allowed(HttpServletRequest req, HttpServletResponse res) throws IOException {
    String expected = tokenDigest;
    if (expected == null) {
      String r = Objects.requireNonNull(role);
      if (req.getUserPrincipal() != null && req.isUserInRole(r)) {
        return true;
      }
      refuse(res);
      return false;
    }
    String header = req.getHeader("Authorization");
    if (header == null) {
      refuse(res);
      return false;
    }
    long now = clock.millis();
    String client = clientKey(req);
    Failures f = failures.get(client);
    if (f != null && now < f.lockedUntil()) {
      tooMany(res, f.lockedUntil() - now);
      return false;
    }
    // Digests of equal length, compared in constant time: neither the token's length nor its
    // characters show in how long a refusal takes.
    boolean right = header.length() >= 7 && header.regionMatches(true, 0, "Bearer ", 0, 7)
        && MessageDigest.isEqual(
            digest(header.substring(7).trim()).getBytes(StandardCharsets.US_ASCII),
            expected.getBytes(StandardCharsets.US_ASCII));
    if (right) {
      if (f != null) {
        failures.remove(client, f);
      }
      return true;
    }
    Failures counted = failures.compute(client, (k, old) -> failed(old, now));
    if (counted != null && now < counted.lockedUntil()) {
      log.warn("dashboard: {} wrong bearer tokens from {}, locked out for {} ms", counted.count(),
          client.isEmpty() ? "many clients" : client, counted.lockedUntil() - now);
    }
    refuse(res);
    return false;
  }

  /** One more wrong token on top of {@code old}: counted, and past the free ones, a lockout twice as long as the last. */
  private static Failures failed(@Nullable Failures old, long now) {
    int count = old == null || now - old.last() > FORGET_MILLIS ? 1 : old.count() + 1;
    long locked = 0;
    if (count > FREE_FAILURES) {
      int doublings = Math.min(count - FREE_FAILURES - 1, 30);
      locked = now + Math.min(MAX_LOCKOUT_SECONDS * 1000, 1000L << doublings);
    }
    return new Failures(count, now, locked);
  }

  /** The client's address, or the shared key when too many clients are counted already. */
  private String clientKey(HttpServletRequest req) {
    String address = req.getRemoteAddr();
    String key = address == null ? "" : address;
    if (failures.size() >= MAX_CLIENTS && !failures.containsKey(key)) {
      long now = clock.millis();
      failures.entrySet().removeIf(e -> now >= e.getValue().lockedUntil() && now - e.getValue().last() > 60_000);
      if (failures.size() >= MAX_CLIENTS) {
        return "";
      }
    }
    return key;
  }

  private void tooMany(HttpServletResponse res, long millis) throws IOException {
    long seconds = Math.max(1, (millis + 999) / 1000);
    res.setHeader("Retry-After", Long.toString(seconds));
    write(res, 429, "application/json", DATA_POLICY,
        error("too many wrong bearer tokens from this client: try again in " + seconds + " s"));
  }

  private void refuse(HttpServletResponse res) throws IOException {
    byte[] body;
    int status;
    if (tokenDigest != null) {
      status = HttpServletResponse.SC_UNAUTHORIZED;
      res.setHeader("WWW-Authenticate", "Bearer realm=\"waitingroom-dashboard\"");
      body = "{\"error\":\"a valid bearer token is required\"}".getBytes(StandardCharsets.UTF_8);
    } else {
      // The application's own security authenticates; the dashboard only checks the role.
      status = HttpServletResponse.SC_FORBIDDEN;
      body = "{\"error\":\"the dashboard's role is required\"}".getBytes(StandardCharsets.UTF_8);
    }
    write(res, status, "application/json", DATA_POLICY, body);
  }

  private static void write(HttpServletResponse res, int status, String type, String policy, byte[] body)
      throws IOException {
    res.setStatus(status);
    res.setHeader("Content-Security-Policy", policy);
    res.setHeader("X-Frame-Options", "DENY");
    res.setContentType(type);
    res.setContentLength(body.length);
    res.getOutputStream().write(body);
  }

  /**
   * Logs once when a waiting room filter decided this request: then the dashboard's path lies in
   * a guarded prefix and is not ignored, and operators would wait in line for their own dashboard.
   */
  private void warnIfDecided(HttpServletRequest req) {
    Object roomId = req.getAttribute(WaitingRoomFilter.ROOM_ATTRIBUTE);
    if (roomId == null || warned.get()) {
      return;
    }
    // The filter marks the requests it ignores too: only a request its room decides counts.
    String path = (req.getServletPath() == null ? "" : req.getServletPath())
        + (req.getPathInfo() == null ? "" : req.getPathInfo());
    WaitingRoomFilter owner = Rooms.of(req.getServletContext()).owner(path.isEmpty() ? "/" : path);
    if ((owner == null || owner.decides(req)) && warned.compareAndSet(false, true)) {
      log.warn(
          "the waiting room dashboard at {} is guarded by waiting room '{}': operators would wait in line for"
              + " it. Map the dashboard outside the room's pathPrefix, or add its path to the room's ignorePaths",
          req.getRequestURI(),
          roomId);
    }
  }

  /** Whether the warning that a waiting room decides the dashboard's own path was logged (for tests). */
  boolean warned() {
    return warned.get();
  }

  private static String digest(String token) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(d);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** The page: its text with the auth mode left open, and the CSP that allows its inline parts. */
  private static final class Shell {
    private final String html;
    final String policy;

    private Shell(String html, String policy) {
      this.html = html;
      this.policy = policy;
    }

    static Shell load() {
      String html;
      try (InputStream in = WaitingRoomDashboard.class.getResourceAsStream("dashboard.html")) {
        if (in == null) {
          throw new IllegalStateException("dashboard.html is missing from the waitingroom-servlet jar");
        }
        html = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      String policy =
          "default-src 'none'; script-src " + hash(html, "<script>", "</script>")
              + "; style-src " + hash(html, "<style>", "</style>")
              + "; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
      return new Shell(html, policy);
    }

    /** The CSP source of the one inline element between {@code open} and {@code close}. */
    private static String hash(String html, String open, String close) {
      int start = html.indexOf(open);
      int end = html.indexOf(close, start);
      if (start < 0 || end < 0 || html.indexOf(open, start + 1) >= 0) {
        throw new IllegalStateException("dashboard.html must hold exactly one " + open);
      }
      try {
        byte[] d = MessageDigest.getInstance("SHA-256")
            .digest(html.substring(start + open.length(), end).getBytes(StandardCharsets.UTF_8));
        return "'sha256-" + Base64.getEncoder().encodeToString(d) + "'";
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("SHA-256 is missing from this JVM", e);
      }
    }

    /** The page for one auth mode ({@code bearer} or {@code role}); outside the hashed parts. */
    byte[] page(String auth) {
      return html.replace("data-auth=\"{{auth}}\"", "data-auth=\"" + auth + "\"").getBytes(StandardCharsets.UTF_8);
    }
  }

  /**
   * Builds a {@link WaitingRoomDashboard}. Exactly one protection is required: {@link
   * #bearerToken} or {@link #requireRole}.
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
     * @param token at least {@value WaitingRoomDashboard#MIN_TOKEN_LENGTH} characters, printable ASCII without spaces
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
     * users in this role ({@code HttpServletRequest.isUserInRole}); others get 403. Use it when the
     * dashboard's path is behind your login (a security constraint, Spring Security): the page then
     * asks for no token.
     *
     * @param role the role the dashboard requires, not blank
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
     * the lockouts of clients that send wrong tokens. Default: the system clock. Simulations and
     * tests pass the rooms' own clock.
     */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Whether {@code PUT <mapping>/settings} may change the rooms' live settings ({@link
     * WaitingRoom#updateSettings}) for whoever holds the token or the role. Default: off, and the
     * dashboard only reads (a PUT answers 403). Reading the settings and the status needs no
     * such switch.
     */
    public Builder settingsChanges(boolean allowed) {
      this.settingsChanges = allowed;
      return this;
    }

    /**
     * Checks the settings and builds the dashboard.
     *
     * @throws IllegalArgumentException when there is no room, or two rooms share an id
     * @throws IllegalStateException when neither or both of a bearer token and a required role
     *     were given
     */
    public WaitingRoomDashboard build() {
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
        throw new IllegalStateException(
            "give the dashboard either a bearerToken(..) or requireRole(..), not both");
      }
      return new WaitingRoomDashboard(this, t == null ? null : digest(t), r);
    }
  }
}
