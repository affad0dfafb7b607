package io.github.waitingroom.servlet;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.CookieSecure;
import io.github.waitingroom.http.Gate;
import io.github.waitingroom.http.GateRequest;
import io.github.waitingroom.http.GateResponse;
import io.github.waitingroom.http.PageStyle;
import io.github.waitingroom.http.PathRules;
import io.github.waitingroom.http.SameSite;
import io.github.waitingroom.http.WaitingRoomSession;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A servlet filter that puts a {@link WaitingRoom} in front of an application.
 *
 * <p>For each request under the guarded path the filter reads the room's two ticket cookies (the
 * session cookie {@code wr_<roomId>} and the place cookie {@code wr_<roomId>_q}, see {@link
 * Gate}), asks {@link WaitingRoom#decide(String, String)} what to do, sets the new ticket as a
 * cookie when the decision carries one (the session cookie when the request is let through, the
 * place cookie otherwise, so a waiting answer to one of a page's parallel requests never
 * overwrites the session another one was given), and then either passes the request on to the application or answers it itself: with the
 * waiting page, or with the JSON status when the client sends {@code Accept: application/json}.
 * A request carrying the status query flag ({@code ?waitingRoomStatus=1} by default) is answered
 * with the JSON status only, even when it is let through: that is what the waiting page polls.
 * The filter holds no admission logic of its own; the request path never blocks. It only
 * translates: which requests the room decides, the cookie, the page and the JSON come from the
 * container-neutral {@link Gate}, which the WebFlux {@code WaitingRoomWebFilter} shares.
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
 *       Access-Control-Request-Method}, is answered by the filter itself ({@link Gate#preflight}:
 *       {@code 204}, no CORS headers), never counted and never passed on, unless {@link
 *       Builder#corsPassThrough} lets it through untouched. Every other {@code OPTIONS} request is
 *       decided like a {@code GET}.
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
 * must never hand one visitor's ticket to another. The ticket cookies are {@code HttpOnly}, scoped to
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
  public static final String DEFAULT_STATUS_PARAM = Gate.DEFAULT_STATUS_PARAM;


  private static final Predicate<HttpServletRequest> NO_BYPASS = request -> false;

  private volatile @Nullable Settings settings;
  /** Bypass rules: pass without a ticket, whatever the method ({@link #bypassing}). */
  private final Predicate<HttpServletRequest> bypass;
  /** The application's rooms, once {@link #init} has run; until then this filter stands alone. */
  private volatile @Nullable Rooms rooms;

  /**
   * The constructor for containers (web.xml): the filter builds its room from init-params in
   * {@link #init}, and closes it in {@link #destroy}.
   */
  public WaitingRoomFilter() {
    this.bypass = NO_BYPASS;
  }

  private WaitingRoomFilter(Settings settings, Predicate<HttpServletRequest> bypass) {
    this.settings = settings;
    this.bypass = bypass;
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
   * A filter over a gate built elsewhere, for code that configures both stacks alike (the Spring
   * Boot auto-configuration does): the gate's settings are the filter's.
   *
   * @param gate the gate; its room is owned (and closed) by the caller
   * @return the filter
   */
  public static WaitingRoomFilter of(Gate gate) {
    return new WaitingRoomFilter(new Settings(gate, false), NO_BYPASS);
  }

  /**
   * This filter, but also letting through every request that {@code bypass} accepts, without a
   * ticket and without counting it: operators, monitoring, a partner's IP range (the servlet twin
   * of {@code WaitingRoomWebFilter.bypassing}). The rule is asked for requests that belong to this
   * filter's room, before the room decides (and before a CORS preflight is answered); it runs on
   * every such request: keep it cheap.
   *
   * <pre>{@code
   * WaitingRoomFilter.builder(room).build()
   *     .bypassing(request -> "10.1.2.3".equals(request.getRemoteAddr()));
   * }</pre>
   *
   * @param bypass requests that pass without a ticket
   * @return a new filter over the same gate; this one is unchanged
   * @throws IllegalStateException for a filter the container made (web.xml), whose settings come
   *     only with {@link #init}
   */
  public WaitingRoomFilter bypassing(Predicate<HttpServletRequest> bypass) {
    Objects.requireNonNull(bypass, "bypass");
    Settings s = settings;
    if (s == null) {
      throw new IllegalStateException("bypassing needs a filter built in code (builder or of), not one made from init-params");
    }
    return new WaitingRoomFilter(s, this.bypass.or(bypass));
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
      r.join(this, s.gate);
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
          "waiting room '{}' guards {} (cookies {} and {}, {} active users, {} new users per minute)",
          s.room.config().roomId(),
          s.paths.prefix(),
          s.cookieName,
          s.placeCookieName,
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
        || toDashboard(req)
        || !claim(s, req)
        || bypass.test(req)) {
      chain.doFilter(request, response);
      return;
    }
    GateResponse preflight =
        s.gate.preflight(req.getMethod(), req.getHeader("Origin"), req.getHeader("Access-Control-Request-Method"));
    if (preflight != null) {
      // A CORS preflight never reaches the application, unless it opted in (corsPassThrough).
      write(res, preflight);
      return;
    }
    if (!s.gate.decides(
            req.getMethod(),
            rawPathWithinApplication(req),
            pathWithinApplication(req),
            req.getHeader("Origin"),
            req.getHeader("Access-Control-Request-Method"))) {
      chain.doFilter(request, response);
      return;
    }
    String context = req.getContextPath();
    String query = req.getQueryString();
    boolean friction = s.gate.frictionOn();
    // A newcomer's human check waits for the service on this request's thread (Gate.mayBlock).
    GateRequest gr = GateRequest.builder(context == null ? "" : context, req.getMethod())
        .secure(req.isSecure())
        .ticket(ticketOf(req, s.cookieName))
        .place(ticketOf(req, s.placeCookieName))
        .friction(friction ? ticketOf(req, s.gate.frictionCookieName()) : null)
        .query(query)
        .accept(req.getHeader("Accept"))
        .acceptLanguage(req.getHeader("Accept-Language"))
        .referer(req.getHeader("Referer"))
        .host(host(req))
        .remoteAddress(friction && s.gate.wantsRemoteAddress(query) ? req.getRemoteAddr() : null)
        .build();
    GateResponse g = s.gate.handle(gr);
    String setCookie = g.setCookie();
    if (setCookie != null) {
      res.addHeader("Set-Cookie", setCookie);
    }
    if (g.passes()) {
      // A response that sets a ticket must never be cached and replayed to someone else, whatever
      // the application sets on it later.
      HttpServletResponse out = setCookie == null ? res : new TicketResponse(res, setCookie);
      if (s.gate.revokeOn()) {
        HttpServletResponse committed = out;
        WaitingRoomSession session = s.gate.session(gr, g, deletion -> {
          if (!committed.isCommitted()) {
            committed.addHeader("Set-Cookie", deletion);
          }
        });
        if (session != null) {
          req.setAttribute(WaitingRoomSession.ATTRIBUTE, session);
          out = new RevokeResponse(out, session);
        }
      }
      chain.doFilter(request, out);
      return;
    }
    write(res, g);
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
        rooms.join(f, s.gate);
      }
    }
  }

  /**
   * Whether the container sends the request to a {@link WaitingRoomDashboard} (its servlet is
   * registered under the dashboard's class): the room never decides it, whatever its path, so
   * that operators never wait in line for their own dashboard, nor for the operator endpoints
   * whose {@code PUT} no {@code ignorePaths} entry covers (those cover only {@code GET} and {@code
   * HEAD}). The dashboard is protected by its own token or role.
   */
  private static boolean toDashboard(HttpServletRequest req) {
    HttpServletMapping m = req.getHttpServletMapping();
    String name = m == null ? null : m.getServletName();
    if (name == null || name.isEmpty()) {
      return false;
    }
    ServletContext context = req.getServletContext();
    ServletRegistration r = context == null ? null : context.getServletRegistration(name);
    return r != null && WaitingRoomDashboard.class.getName().equals(r.getClassName());
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
    if (!s.gate.covers(path) || (r != null && r.owner(path) != this)) {
      return false;
    }
    req.setAttribute(ROOM_ATTRIBUTE, s.room.config().roomId());
    return true;
  }

  /**
   * Whether this filter's room decides a request (it lies under the prefix and is not ignored),
   * for {@link WaitingRoomDashboard}, which warns when operators would queue for their own
   * dashboard. Which room a request belongs to is {@link Rooms#owner}'s.
   */
  boolean decides(HttpServletRequest req) {
    Settings s = settings;
    String path = pathWithinApplication(req);
    return s != null
        && s.gate.covers(path)
        && s.gate.decides(
            req.getMethod(),
            rawPathWithinApplication(req),
            path,
            req.getHeader("Origin"),
            req.getHeader("Access-Control-Request-Method"));
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

  /**
   * The host (and port, when not the scheme's default) the client addressed, as the container
   * resolved it: behind a reverse proxy, what its forwarded headers say once the container is told
   * to trust them (Tomcat's {@code RemoteIpValve}, Spring's {@code ForwardedHeaderFilter}), where
   * the {@code Host} header names the proxy's upstream instead.
   */
  static String host(HttpServletRequest req) {
    String name = req.getServerName();
    String h = name.indexOf(':') >= 0 && !name.startsWith("[") ? "[" + name + "]" : name;
    int port = req.getServerPort();
    String scheme = req.getScheme();
    boolean defaultPort =
        port <= 0 || ("https".equalsIgnoreCase(scheme) && port == 443) || ("http".equalsIgnoreCase(scheme) && port == 80);
    return defaultPort ? h : h + ":" + port;
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

  private static void write(HttpServletResponse res, GateResponse g) throws IOException {
    byte[] body = g.body();
    res.setStatus(g.status());
    for (Map.Entry<String, String> h : g.headers().entrySet()) {
      res.setHeader(h.getKey(), h.getValue());
    }
    if (!g.contentType().isEmpty()) {
      res.setContentType(g.contentType());
    }
    res.setContentLength(body.length);
    if (body.length > 0) {
      res.getOutputStream().write(body);
    }
  }

  /** The filter's fixed settings: the gate, and what it says of itself. */
  static final class Settings {
    final WaitingRoom room;
    final boolean ownsRoom;
    final Gate gate;
    final PathRules paths;
    final String cookieName;
    final String placeCookieName;
    final CookieSecure secure;
    final SameSite sameSite;
    final int waitingStatus;
    final String statusParam;

    Settings(Builder b, boolean ownsRoom) {
      this(b.gate.build(), ownsRoom);
    }

    Settings(Gate gate, boolean ownsRoom) {
      this.gate = gate;
      this.room = gate.room();
      this.ownsRoom = ownsRoom;
      this.paths = gate.paths();
      this.cookieName = gate.cookieName();
      this.placeCookieName = gate.placeCookieName();
      this.secure = gate.cookieSecure();
      this.sameSite = gate.cookieSameSite();
      this.waitingStatus = gate.waitingStatus();
      this.statusParam = gate.statusParam();
    }
  }

  /**
   * Builds a {@link WaitingRoomFilter} around a room. Every setting has a default; each is
   * checked by {@link #build()}, whose error names the setting and the bad value.
   */
  public static final class Builder {
    private final Gate.Builder gate;

    private Builder(WaitingRoom room) {
      this.gate = Gate.builder(room);
    }

    /**
     * The path (within the application) the room guards, with everything below it. Default:
     * {@code /}, the whole application. The ticket cookie is scoped to it.
     */
    public Builder pathPrefix(String prefix) {
      gate.pathPrefix(prefix);
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
     * empty, {@code .} or {@code ..} segment, and equals the path the container decoded. A
     * percent-escape ({@code /buy%3B.css}, {@code /buy%20.css}), a path parameter ({@code
     * /buy;x.css}), a dot segment or any other method ({@code POST /static/x.css}) is decided by
     * the room like any other request. Static assets whose URLs need escapes are therefore not
     * exempt: an admitted visitor still gets them.
     */
    public Builder ignorePaths(String... paths) {
      gate.ignorePaths(paths);
      return this;
    }

    /**
     * The session cookie's name; the place cookie is named after it, with {@code _q} appended.
     * Default: {@code wr_<roomId>}. A name starting with {@code __Host-} (in any
     * case) makes the cookie {@code Secure} with {@code Path=/} and no {@code Domain}, as browsers
     * require; it needs {@link #pathPrefix} {@code /}, and {@link #build()} refuses it with {@link
     * CookieSecure#NEVER} or another prefix. {@code __Secure-} makes it {@code Secure} and is
     * refused with {@link CookieSecure#NEVER}. The cookie is {@code Secure} for such names even over
     * plain HTTP, where browsers then drop it.
     */
    public Builder cookieName(String name) {
      gate.cookieName(name);
      return this;
    }

    /**
     * When the cookie is {@code Secure}. Default: {@link CookieSecure#AUTO}, which follows the
     * container's {@code isSecure()}: behind a TLS-terminating proxy, configure the container's
     * forwarded-header handling (see {@link CookieSecure#AUTO}) or choose {@link CookieSecure#ALWAYS}.
     */
    public Builder cookieSecure(CookieSecure secure) {
      gate.cookieSecure(secure);
      return this;
    }

    /** The cookie's {@code SameSite}. Default: {@link SameSite#LAX}. */
    public Builder cookieSameSite(SameSite sameSite) {
      gate.cookieSameSite(sameSite);
      return this;
    }

    /** The HTTP status of waiting responses: 200 (default), 202 or 429 (with {@code Retry-After}). */
    public Builder waitingStatus(int status) {
      gate.waitingStatus(status);
      return this;
    }

    /**
     * The HTTP status of the "sold out" page (and its JSON status) while the room takes no new
     * users (live settings' queueing method {@code reject}): 403 (default), 200, 410, 429 or 503.
     */
    public Builder rejectStatus(int status) {
      gate.rejectStatus(status);
      return this;
    }

    /**
     * Lets the application end a visitor's session: by the response header {@value
     * Gate#REVOKE_HEADER}, which the filter removes, or by {@link WaitingRoomSession#revoke()} on
     * the request attribute {@value WaitingRoomSession#ATTRIBUTE}; either deletes the session
     * cookie while the response is not committed. Default: off.
     *
     * @param enabled whether the application may revoke sessions
     * @return this builder
     * @see Gate.Builder#revoke
     */
    public Builder revoke(boolean enabled) {
      gate.revoke(enabled);
      return this;
    }

    /**
     * Lets CORS preflights on the room's paths go on to the application. Default: off, the filter
     * answers them itself ({@code 204}, no {@code Access-Control-Allow-*}), so that no preflight
     * reaches application code that acts on any method.
     *
     * @param enabled whether preflights pass on to the application
     * @return this builder
     * @see Gate.Builder#corsPassThrough
     */
    public Builder corsPassThrough(boolean enabled) {
      gate.corsPassThrough(enabled);
      return this;
    }

    /** The query flag that asks for the JSON status only. Default: {@value #DEFAULT_STATUS_PARAM}. */
    public Builder statusParam(String name) {
      gate.statusParam(name);
      return this;
    }

    /**
     * Replaces the waiting page with your own HTML: a Mustache template, HTML-escaped by default,
     * with the variables listed in the README ("Your own waiting page").
     *
     * @throws io.github.waitingroom.http.PageTemplateException when it does not parse or names an
     *     unknown variable, with the line and column
     * @see Gate.Builder#template
     */
    public Builder template(String html) {
      gate.template(html);
      return this;
    }

    /**
     * Which built-in page to show without a {@link #template}. Default: {@link PageStyle#PLAIN}.
     *
     * @param style the page
     * @return this builder
     * @see Gate.Builder#pageStyle
     */
    public Builder pageStyle(PageStyle style) {
      gate.pageStyle(style);
      return this;
    }

    /**
     * The language of visitors whose {@code Accept-Language} the room has no texts for. Default: {@code en}.
     *
     * @param tag a language tag
     * @return this builder
     * @see Gate.Builder#defaultLanguage
     */
    public Builder defaultLanguage(String tag) {
      gate.defaultLanguage(tag);
      return this;
    }

    /**
     * One language for every visitor, whatever their {@code Accept-Language}. Default: none.
     *
     * @param tag a language tag, or {@code null} to follow the header
     * @return this builder
     * @see Gate.Builder#language
     */
    public Builder language(@Nullable String tag) {
      gate.language(tag);
      return this;
    }

    /**
     * A directory of {@code messages_<tag>.properties} files that override or add texts.
     *
     * @param directory the directory, or {@code null}
     * @return this builder
     * @see Gate.Builder#messagesDirectory
     */
    public Builder messagesDirectory(@Nullable Path directory) {
      gate.messagesDirectory(directory);
      return this;
    }

    /**
     * The site's name on the branded page.
     *
     * @param name up to 100 characters
     * @return this builder
     * @see Gate.Builder#brandName
     */
    public Builder brandName(String name) {
      gate.brandName(name);
      return this;
    }

    /**
     * The logo of the branded page.
     *
     * @param url a path on this site or an {@code https://} URL
     * @return this builder
     * @see Gate.Builder#logoUrl
     */
    public Builder logoUrl(String url) {
      gate.logoUrl(url);
      return this;
    }

    /**
     * The brand colour of the branded page.
     *
     * @param color {@code #rgb} or {@code #rrggbb}
     * @return this builder
     * @see Gate.Builder#brandColor
     */
    public Builder brandColor(String color) {
      gate.brandColor(color);
      return this;
    }

    /**
     * Asks newcomers for a proof of work while people wait (0: off, the default).
     *
     * @param bits the leading zero bits of a solution, 0 to 32
     * @return this builder
     * @see Gate.Builder#proofOfWork
     */
    public Builder proofOfWork(int bits) {
      gate.proofOfWork(bits);
      return this;
    }

    /**
     * How long a newcomer who solves no challenge waits before it may get a place within the
     * {@linkplain #noScriptPlaces no-script budget}. Default: 30 s.
     *
     * @param penalty 1 s to 5 min
     * @return this builder
     * @see Gate.Builder#challengePenalty
     */
    public Builder challengePenalty(java.time.Duration penalty) {
      gate.challengePenalty(penalty);
      return this;
    }

    /**
     * How many newcomers per minute this node lets queue for only waiting out the penalty (the
     * path of a browser without JavaScript). Default: 0, none: every place costs a solution or a
     * passed human check.
     *
     * @param perMinute 0 to 10,000
     * @return this builder
     * @see Gate.Builder#noScriptPlaces
     */
    public Builder noScriptPlaces(int perMinute) {
      gate.noScriptPlaces(perMinute);
      return this;
    }

    /**
     * A CAPTCHA service newcomers may pass to get their place at once (Turnstile, hCaptcha,
     * reCAPTCHA: {@link io.github.waitingroom.http.SiteVerify}). Default: none.
     *
     * @param check the service, or {@code null}
     * @return this builder
     * @see Gate.Builder#humanCheck
     */
    public Builder humanCheck(io.github.waitingroom.http.@org.jspecify.annotations.Nullable HumanCheck check) {
      gate.humanCheck(check);
      return this;
    }

    /** Checks the settings and builds the filter. */
    public WaitingRoomFilter build() {
      return new WaitingRoomFilter(new Settings(this, false), NO_BYPASS);
    }

    Settings settings(boolean ownsRoom) {
      return new Settings(this, ownsRoom);
    }
  }
}
