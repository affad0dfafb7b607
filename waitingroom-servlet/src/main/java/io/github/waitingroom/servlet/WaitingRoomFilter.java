package io.github.waitingroom.servlet;

import io.github.waitingroom.Decision;
import io.github.waitingroom.WaitingRoom;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A servlet filter that puts a {@link WaitingRoom} in front of an application.
 *
 * <p>For each request under the guarded path the filter reads the room's ticket cookie, asks
 * {@link WaitingRoom#decide} what to do, sets the new ticket as a cookie when the decision carries
 * one, and then either passes the request on to the application or answers it itself: with the
 * waiting page, or with the JSON status when the client sends {@code Accept: application/json}.
 * A request carrying the status query flag ({@code ?waitingRoomStatus=1} by default) is answered
 * with the JSON status only, even when it is let through: that is what the waiting page polls.
 * The filter holds no admission logic of its own; the request path never blocks.
 *
 * <p>Programmatic registration, for {@code ServletContext.addFilter} or Spring's {@code
 * FilterRegistrationBean}:
 *
 * <pre>{@code
 * WaitingRoom room = WaitingRoom.builder(config, TicketKeys.fromJson(keysetJson)).build();
 * Filter filter = WaitingRoomFilter.builder(room).ignorePaths("/static/", "/health").build();
 * servletContext.addFilter("waitingRoom", filter).addMappingForUrlPatterns(null, false, "/*");
 * }</pre>
 *
 * <p>A filter created by the container (web.xml) with the no-argument constructor builds its room
 * from init-params when it starts; see the README for the list. Bad settings fail {@link #init}
 * with a message that names the setting and the value.
 *
 * <p>Which requests the room decides:
 *
 * <ul>
 *   <li>A CORS preflight, an {@code OPTIONS} request with both {@code Origin} and {@code
 *       Access-Control-Request-Method}, passes through untouched: browsers never send cookies with
 *       it. Every other {@code OPTIONS} request is decided like a {@code GET}.
 *   <li>Paths outside the {@linkplain Builder#pathPrefix guarded prefix} pass through.
 *   <li>{@linkplain Builder#ignorePaths Ignored paths} pass through only for {@code GET} and {@code
 *       HEAD} requests whose path is canonical (no percent-escape, path parameter or dot segment);
 *       see {@link Builder#ignorePaths} for the exact rule.
 * </ul>
 *
 * <p>Several rooms in one application: register one filter per room, each on {@code /*} with its
 * own {@linkplain Builder#pathPrefix path prefix}, room id and cookie. A request belongs to the
 * room with the most specific prefix that covers it and is decided by that room alone, whatever
 * order the filters run in: with a loose room on {@code /} and a tight one on {@code /drop},
 * {@code /drop/x} counts in the tight room only. The filters find each other through their
 * {@code ServletContext} when the container initialises them, and {@link #init} refuses a second
 * room with the same prefix or cookie name. The room that a request belongs to marks it with the
 * request attribute {@value #ROOM_ATTRIBUTE} (its room id), and every other waiting room filter
 * lets a marked request through, so a request is never counted twice.
 *
 * <p>Headers: everything the filter writes carries {@code Cache-Control: private, no-store} and
 * {@code X-Content-Type-Options: nosniff}; the waiting page carries a Content-Security-Policy that
 * allows only its own inline script and style (by a fresh nonce per response, {@code {{cspNonce}}}
 * in a template) and same-origin requests, the JSON status {@code default-src 'none'}. An
 * application response on which the filter sets the ticket cookie gets {@code Cache-Control:
 * private, no-store}, and whatever the application later sets for {@code Cache-Control}, {@code
 * Expires}, {@code Surrogate-Control} or {@code *CDN-Cache-Control} on it is dropped: a shared cache
 * must never hand one visitor's ticket to another. The ticket cookie is {@code HttpOnly}, scoped to
 * the guarded path, and re-issued only when the ticket changes.
 */
public final class WaitingRoomFilter implements Filter {
  private static final Logger log = LoggerFactory.getLogger(WaitingRoomFilter.class);

  /**
   * The request attribute that holds the id of the room a request belongs to, set by the filter of
   * that room before it decides (or ignores) the request. Any other waiting room filter lets a
   * request that carries it through.
   */
  public static final String ROOM_ATTRIBUTE = "io.github.waitingroom.room";

  /** The default name of the query flag that asks for the JSON status only. */
  public static final String DEFAULT_STATUS_PARAM = "waitingRoomStatus";

  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final String NO_STORE = "private, no-store";
  private static final String JSON_POLICY = "default-src 'none'";
  private static final SecureRandom NONCES = new SecureRandom();
  private static final Base64.Encoder NONCE_ENCODER = Base64.getUrlEncoder().withoutPadding();

  /** When the ticket cookie carries the {@code Secure} attribute. */
  public enum CookieSecure {
    /**
     * When the container says the request came over HTTPS ({@link ServletRequest#isSecure()}). The
     * default. Behind a TLS-terminating proxy or load balancer, the container must be told to
     * trust its forwarded headers (Jetty: {@code ForwardedRequestCustomizer}; Tomcat: {@code
     * RemoteIpValve}; Spring Boot: {@code server.forward-headers-strategy=native} or {@code
     * framework}), or every cookie goes out without {@code Secure}. The filter never reads {@code
     * X-Forwarded-Proto} itself: only the container knows which proxies to trust. When in doubt,
     * use {@link #ALWAYS}.
     */
    AUTO,
    /** Always. */
    ALWAYS,
    /** Never (only for plain-HTTP development setups). */
    NEVER
  }

  /** The ticket cookie's {@code SameSite} attribute. */
  public enum SameSite {
    /** {@code SameSite=Lax}: the default; sent on top-level navigation from other sites. */
    LAX,
    /** {@code SameSite=Strict}. */
    STRICT,
    /** {@code SameSite=None}, for rooms embedded in other sites; implies {@code Secure}. */
    NONE
  }

  private volatile @Nullable Settings settings;
  /** The application's rooms, once {@link #init} has run; until then this filter stands alone. */
  private volatile @Nullable Rooms rooms;

  /**
   * The constructor for containers (web.xml): the filter builds its room from init-params in
   * {@link #init}, and closes it in {@link #destroy}.
   */
  public WaitingRoomFilter() {}

  private WaitingRoomFilter(Settings settings) {
    this.settings = settings;
  }

  /**
   * Starts building a filter around a room that the caller owns (and closes).
   *
   * @param room the room; its id names the cookie unless {@link Builder#cookieName} says otherwise
   */
  public static Builder builder(WaitingRoom room) {
    return new Builder(room);
  }

  /**
   * Reads the init-params when the filter was created by the container (a filter made by {@link
   * #builder} has its settings already), then joins the application's other waiting rooms, so
   * that each request belongs to one room only.
   *
   * @throws ServletException when a setting is missing or wrong, or when another room of the
   *     application has the same path prefix or cookie name; the message names it
   */
  @Override
  public void init(FilterConfig filterConfig) throws ServletException {
    Settings given = settings;
    Settings s = given;
    try {
      if (s == null) {
        s = InitParams.read(filterConfig::getInitParameter, filterConfig.getInitParameterNames(), System::getenv);
      }
      Rooms r = Rooms.of(filterConfig.getServletContext());
      r.join(this, s.paths.prefix(), s.cookieName, s.room.config().roomId());
      rooms = r;
      settings = s;
    } catch (IllegalArgumentException | IllegalStateException e) {
      if (given == null && s != null) {
        s.room.close(); // a room this filter built must leave no sync thread behind
      }
      throw new ServletException(
          "WaitingRoomFilter '" + filterConfig.getFilterName() + "': " + e.getMessage(), e);
    }
    if (given == null) {
      log.info(
          "waiting room '{}' guards {} (cookie {}, {} active users, {} new users per minute)",
          s.room.config().roomId(),
          s.paths.prefix(),
          s.cookieName,
          s.room.config().totalActiveUsers(),
          s.room.config().newUsersPerMinute());
    }
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    Settings s = settings;
    if (s == null) {
      throw new ServletException("WaitingRoomFilter was not initialised: init() has not run");
    }
    if (!(request instanceof HttpServletRequest req)
        || !(response instanceof HttpServletResponse res)
        || req.getDispatcherType() != DispatcherType.REQUEST
        || !claim(s, req)
        // CORS preflights never carry cookies: queueing them would only add phantom users.
        || isCorsPreflight(req)
        || !s.paths.guards(req.getMethod(), rawPathWithinApplication(req), pathWithinApplication(req))) {
      chain.doFilter(request, response);
      return;
    }
    Decision d = s.room.decide(ticketOf(req, s.cookieName));
    String ticket = d.ticket();
    String setCookie = ticket == null ? null : s.cookie(req, ticket, d.ticketMaxAgeSeconds());
    if (setCookie != null) {
      res.addHeader("Set-Cookie", setCookie);
    }
    if (hasFlag(req.getQueryString(), s.statusParam)) {
      writeJson(s, d, res, d.letsThrough() ? HttpServletResponse.SC_OK : s.waitingStatus);
      return;
    }
    if (d.letsThrough()) {
      // A response that sets a ticket must never be cached and replayed to someone else, whatever
      // the application sets on it later.
      chain.doFilter(request, setCookie == null ? res : new TicketResponse(res, setCookie));
      return;
    }
    if (wantsJson(req)) {
      writeJson(s, d, res, s.waitingStatus);
    } else {
      writePage(s, d, res);
    }
  }

  /**
   * Checks, before they are registered, that filters can guard one application together: no two
   * of them have the same path prefix or cookie name. {@link #init} checks the same of the filters
   * of one servlet context; this lets code that registers several filters at once fail before the
   * container starts (containers report a filter that fails {@code init} only in their log).
   * Filters made by the container (web.xml), whose settings come only with {@code init}, are left
   * out.
   *
   * @param filters the filters that are to guard one application
   * @throws IllegalArgumentException naming both rooms and the setting they share
   */
  public static void checkDistinct(List<WaitingRoomFilter> filters) {
    Rooms rooms = new Rooms();
    for (WaitingRoomFilter f : filters) {
      Settings s = f.settings;
      if (s != null) {
        rooms.join(f, s.paths.prefix(), s.cookieName, s.room.config().roomId());
      }
    }
  }

  /**
   * Whether a request belongs to this filter's room, which then marks it with {@link
   * #ROOM_ATTRIBUTE}: it lies under the room's prefix, no more specific room of the application
   * covers it, and no other room has marked it.
   */
  private boolean claim(Settings s, HttpServletRequest req) {
    if (req.getAttribute(ROOM_ATTRIBUTE) != null) {
      return false;
    }
    String path = pathWithinApplication(req);
    Rooms r = rooms;
    if (!PathRules.under(path, s.paths.prefix()) || (r != null && r.owner(path) != this)) {
      return false;
    }
    req.setAttribute(ROOM_ATTRIBUTE, s.room.config().roomId());
    return true;
  }

  /** Leaves the application's rooms, and closes the room if this filter built it from init-params. */
  @Override
  public void destroy() {
    Rooms r = rooms;
    if (r != null) {
      r.leave(this);
      rooms = null;
    }
    Settings s = settings;
    if (s != null && s.ownsRoom) {
      s.room.close();
    }
  }

  /** The room behind this filter; {@code null} before a container-created filter is initialised. */
  public @Nullable WaitingRoom room() {
    Settings s = settings;
    return s == null ? null : s.room;
  }

  /** A CORS preflight: {@code OPTIONS} with both {@code Origin} and {@code Access-Control-Request-Method}. */
  private static boolean isCorsPreflight(HttpServletRequest req) {
    return "OPTIONS".equals(req.getMethod())
        && req.getHeader("Origin") != null
        && req.getHeader("Access-Control-Request-Method") != null;
  }

  /** The path as the client sent it (not decoded), after the context path. */
  private static String rawPathWithinApplication(HttpServletRequest req) {
    String uri = req.getRequestURI();
    String context = req.getContextPath();
    if (uri == null) {
      return "";
    }
    return context != null && !context.isEmpty() && uri.startsWith(context) ? uri.substring(context.length()) : uri;
  }

  private static String pathWithinApplication(HttpServletRequest req) {
    String servletPath = req.getServletPath();
    String pathInfo = req.getPathInfo();
    String path = (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
    return path.isEmpty() ? "/" : path;
  }

  private static @Nullable String ticketOf(HttpServletRequest req, String name) {
    Cookie[] cookies = req.getCookies();
    if (cookies == null) {
      return null;
    }
    for (Cookie c : cookies) {
      if (name.equals(c.getName())) {
        return c.getValue();
      }
    }
    return null;
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

  private static boolean wantsJson(HttpServletRequest req) {
    String accept = req.getHeader("Accept");
    return accept != null && accept.contains("application/json");
  }

  private static void writeJson(Settings s, Decision d, HttpServletResponse res, int status)
      throws IOException {
    long viewTime = d.viewTime() > 0 ? d.viewTime() : s.room.status().now();
    write(res, status, "application/json", JSON_POLICY, StatusJson.write(s.room.config().roomId(), d, viewTime), d);
  }

  private static void writePage(Settings s, Decision d, HttpServletResponse res) throws IOException {
    String[] values = new String[PageTemplate.Var.values().length];
    values[PageTemplate.Var.ROOM_ID.ordinal()] = s.room.config().roomId();
    values[PageTemplate.Var.USERS_AHEAD.ordinal()] = Long.toString(d.usersAhead());
    values[PageTemplate.Var.WAIT_KNOWN.ordinal()] = Boolean.toString(d.waitKnown());
    values[PageTemplate.Var.WAIT_MINUTES.ordinal()] =
        d.waitKnown() ? Long.toString(d.waitMinutes()) : "unknown";
    values[PageTemplate.Var.WAIT_TIME_FORMATTED.ordinal()] = PageTemplate.formatWait(d.waitSeconds());
    values[PageTemplate.Var.REFRESH_SECONDS.ordinal()] = Long.toString(d.refreshSeconds());
    values[PageTemplate.Var.LAST_UPDATED.ordinal()] = Instant.ofEpochSecond(d.viewTime()).toString();
    values[PageTemplate.Var.STATUS_PARAM.ordinal()] = s.statusParam;
    String nonce = nonce();
    values[PageTemplate.Var.CSP_NONCE.ordinal()] = nonce;
    write(res, s.waitingStatus, "text/html", pagePolicy(nonce), s.template.render(values), d);
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

  private static void write(
      HttpServletResponse res, int status, String type, String policy, String body, Decision d)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    res.setStatus(status);
    res.setHeader("Cache-Control", NO_STORE);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Content-Security-Policy", policy);
    if (status == 429 && d.refreshSeconds() > 0) {
      res.setHeader("Retry-After", Long.toString(d.refreshSeconds()));
    }
    res.setContentType(type + ";charset=UTF-8");
    res.setContentLength(bytes.length);
    res.getOutputStream().write(bytes);
  }

  /**
   * An application response that carries the room's ticket cookie: it stays {@code Cache-Control:
   * private, no-store} whatever the application sets later, and keeps the cookie through {@code
   * reset()} and an application's {@code setHeader("Set-Cookie", ..)}.
   */
  static final class TicketResponse extends HttpServletResponseWrapper {
    private final String setCookie;

    TicketResponse(HttpServletResponse response, String setCookie) {
      super(response);
      this.setCookie = setCookie;
      super.setHeader("Cache-Control", NO_STORE);
    }

    /** Whether a header would let a shared cache (a proxy or a CDN) keep the response. */
    static boolean cachingHeader(String name) {
      String n = name.toLowerCase(Locale.ROOT);
      return n.equals("cache-control")
          || n.equals("expires")
          || n.equals("surrogate-control")
          || n.endsWith("cdn-cache-control");
    }

    @Override
    public void setHeader(String name, @Nullable String value) {
      if (cachingHeader(name)) {
        return;
      }
      super.setHeader(name, value);
      if ("set-cookie".equalsIgnoreCase(name)) {
        super.addHeader("Set-Cookie", setCookie);
      }
    }

    @Override
    public void addHeader(String name, @Nullable String value) {
      if (!cachingHeader(name)) {
        super.addHeader(name, value);
      }
    }

    @Override
    public void setDateHeader(String name, long date) {
      if (!cachingHeader(name)) {
        super.setDateHeader(name, date);
      }
    }

    @Override
    public void addDateHeader(String name, long date) {
      if (!cachingHeader(name)) {
        super.addDateHeader(name, date);
      }
    }

    @Override
    public void setIntHeader(String name, int value) {
      if (!cachingHeader(name)) {
        super.setIntHeader(name, value);
      }
    }

    @Override
    public void addIntHeader(String name, int value) {
      if (!cachingHeader(name)) {
        super.addIntHeader(name, value);
      }
    }

    @Override
    public void reset() {
      super.reset();
      super.addHeader("Set-Cookie", setCookie);
      super.setHeader("Cache-Control", NO_STORE);
    }
  }

  /** The filter's fixed settings. */
  static final class Settings {
    final WaitingRoom room;
    final boolean ownsRoom;
    final PathRules paths;
    final String cookieName;
    /** A {@code __Host-} cookie: always {@code Secure}, {@code Path=/}, never a {@code Domain}. */
    final boolean hostCookie;
    final CookieSecure secure;
    final SameSite sameSite;
    final int waitingStatus;
    final String statusParam;
    final PageTemplate template;

    Settings(Builder b, boolean ownsRoom) {
      this.room = b.room;
      this.ownsRoom = ownsRoom;
      this.paths = new PathRules(b.pathPrefix, b.ignorePaths);
      String name = b.cookieName != null ? b.cookieName : "wr_" + room.config().roomId();
      this.cookieName = checkToken("cookieName", name);
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

    String cookie(HttpServletRequest req, String ticket, long maxAgeSeconds) {
      String context = req.getContextPath();
      String prefix = paths.prefix();
      String path =
          hostCookie || context == null || context.isEmpty() ? prefix : prefix.equals("/") ? context : context + prefix;
      StringBuilder c = new StringBuilder(160);
      c.append(cookieName).append('=').append(ticket);
      c.append("; Path=").append(path);
      c.append("; Max-Age=").append(maxAgeSeconds);
      c.append("; HttpOnly");
      if (secure == CookieSecure.ALWAYS || (secure == CookieSecure.AUTO && req.isSecure())) {
        c.append("; Secure");
      }
      c.append("; SameSite=").append(sameSite == SameSite.LAX ? "Lax" : sameSite == SameSite.STRICT ? "Strict" : "None");
      return c.toString();
    }
  }

  /**
   * Builds a {@link WaitingRoomFilter} around a room. Every setting has a default; each is
   * checked by {@link #build()}, whose error names the setting and the bad value.
   */
  public static final class Builder {
    private final WaitingRoom room;
    private String pathPrefix = "/";
    private final List<String> ignorePaths = new ArrayList<>();
    private @Nullable String cookieName;
    private CookieSecure secure = CookieSecure.AUTO;
    private SameSite sameSite = SameSite.LAX;
    private int waitingStatus = HttpServletResponse.SC_OK;
    private String statusParam = DEFAULT_STATUS_PARAM;
    private PageTemplate template;

    private Builder(WaitingRoom room) {
      this.room = Objects.requireNonNull(room, "room");
      this.template = PageTemplate.defaultPage();
    }

    /**
     * The path (within the application) the room guards, with everything below it. Default:
     * {@code /}, the whole application. The ticket cookie is scoped to it.
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
     * empty, {@code .} or {@code ..} segment, and equals the path the container decoded. A
     * percent-escape ({@code /buy%3B.css}, {@code /buy%20.css}), a path parameter ({@code
     * /buy;x.css}), a dot segment or any other method ({@code POST /static/x.css}) is decided by
     * the room like any other request. Static assets whose URLs need escapes are therefore not
     * exempt: an admitted visitor still gets them.
     */
    public Builder ignorePaths(String... paths) {
      ignorePaths.addAll(Arrays.asList(paths));
      return this;
    }

    /**
     * The cookie's name. Default: {@code wr_<roomId>}. A name starting with {@code __Host-} (in any
     * case) makes the cookie {@code Secure} with {@code Path=/} and no {@code Domain}, as browsers
     * require; it needs {@link #pathPrefix} {@code /}, and {@link #build()} refuses it with {@link
     * CookieSecure#NEVER} or another prefix. {@code __Secure-} makes it {@code Secure} and is
     * refused with {@link CookieSecure#NEVER}. The cookie is {@code Secure} for such names even over
     * plain HTTP, where browsers then drop it.
     */
    public Builder cookieName(String name) {
      this.cookieName = Objects.requireNonNull(name, "cookieName");
      return this;
    }

    /**
     * When the cookie is {@code Secure}. Default: {@link CookieSecure#AUTO}, which follows the
     * container's {@code isSecure()}: behind a TLS-terminating proxy, configure the container's
     * forwarded-header handling (see {@link CookieSecure#AUTO}) or choose {@link CookieSecure#ALWAYS}.
     */
    public Builder cookieSecure(CookieSecure secure) {
      this.secure = Objects.requireNonNull(secure, "cookieSecure");
      return this;
    }

    /** The cookie's {@code SameSite}. Default: {@link SameSite#LAX}. */
    public Builder cookieSameSite(SameSite sameSite) {
      this.sameSite = Objects.requireNonNull(sameSite, "cookieSameSite");
      return this;
    }

    /** The HTTP status of waiting responses: 200 (default), 202 or 429 (with {@code Retry-After}). */
    public Builder waitingStatus(int status) {
      if (status != 200 && status != 202 && status != 429) {
        throw new IllegalArgumentException("waitingStatus must be 200, 202 or 429 but was " + status);
      }
      this.waitingStatus = status;
      return this;
    }

    /** The query flag that asks for the JSON status only. Default: {@value #DEFAULT_STATUS_PARAM}. */
    public Builder statusParam(String name) {
      this.statusParam = Objects.requireNonNull(name, "statusParam");
      return this;
    }

    /**
     * Replaces the waiting page with your own HTML. Variables are written {@code {{name}}} and
     * filled in HTML-escaped: {@code roomId}, {@code usersAhead}, {@code waitKnown}, {@code
     * waitMinutes} (a number, or {@code unknown}), {@code waitTimeFormatted}, {@code
     * refreshSeconds}, {@code lastUpdated} (ISO-8601) and {@code statusParam}. The page must
     * reload itself (for example {@code <meta http-equiv="refresh" content="{{refreshSeconds}}">}).
     *
     * @throws IllegalArgumentException naming the first unknown variable
     */
    public Builder template(String html) {
      this.template = PageTemplate.parse(Objects.requireNonNull(html, "template"), "custom template");
      return this;
    }

    /** Checks the settings and builds the filter. */
    public WaitingRoomFilter build() {
      return new WaitingRoomFilter(new Settings(this, false));
    }

    Settings settings(boolean ownsRoom) {
      return new Settings(this, ownsRoom);
    }
  }
}
