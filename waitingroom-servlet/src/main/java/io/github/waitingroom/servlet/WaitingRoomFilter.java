package io.github.waitingroom.servlet;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.Gate;
import io.github.waitingroom.http.GateOptions;
import io.github.waitingroom.http.GateRequest;
import io.github.waitingroom.http.GateResponse;
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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A servlet filter that puts a {@link WaitingRoom} in front of an application. It only translates:
 * it reads the request into a {@link GateRequest} and writes the {@link GateResponse} back, and
 * every rule (which requests the room decides, CORS preflights, the two ticket cookies, the
 * waiting page, the JSON status, the headers) is the container-neutral {@link Gate}'s, which the
 * WebFlux {@code WaitingRoomWebFilter} shares; the request path never blocks but for a newcomer's
 * human check ({@link Gate#mayBlock}). Its settings are those of {@link GateOptions}, declared in
 * {@link io.github.waitingroom.http.GateSettings}.
 *
 * <pre>{@code
 * WaitingRoom room = WaitingRoom.builder(config, TicketKeys.fromJson(keysetJson)).build();
 * Filter filter = WaitingRoomFilter.builder(room).ignorePaths("/static/", "/health").build();
 * servletContext.addFilter("waitingRoom", filter).addMappingForUrlPatterns(null, false, "/*");
 * }</pre>
 *
 * <p>A filter created by the container (web.xml) with the no-argument constructor builds its room
 * from init-params when it starts (see the docs' configuration reference); a bad one fails {@link
 * #init} with a {@link io.github.waitingroom.http.SettingException} that names the init-param.
 *
 * <p>Several rooms in one application: one filter per room, each on {@code /*} with its own path
 * prefix, room id and cookie. The filters find each other through their {@code ServletContext} in
 * {@link #init} (which refuses a second room with the same prefix or cookie name); a request
 * belongs to the room with the most specific prefix that covers it, which marks it with {@value
 * #ROOM_ATTRIBUTE}, and every other room lets it through. An application response on which the
 * filter sets a ticket is kept {@code Cache-Control: private, no-store} ({@link TicketResponse}).
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
          s.gate.paths().prefix(),
          s.gate.cookieName(),
          s.gate.placeCookieName(),
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
    // A newcomer's human check waits for the service on this request's thread (Gate.mayBlock).
    GateRequest gr = s.gate.read(
        GateRequest.builder(context == null ? "" : context, req.getMethod()).secure(req.isSecure()).host(host(req)),
        req.getQueryString(), req.getRemoteAddr(), name -> ticketOf(req, name), req::getHeader);
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
   * Whether the container sends the request to the operator API (a {@link WaitingRoomDashboard}):
   * a servlet that told the application's rooms its name, or whose registration carries {@link
   * WaitingRoomDashboard#OPERATOR_PARAM}. The room never decides it, whatever its path, so that
   * operators never wait in line for their own dashboard, nor for the operator endpoints whose
   * {@code PUT} no {@code ignorePaths} entry covers. The dashboard is protected by its own token or role.
   */
  private boolean toDashboard(HttpServletRequest req) {
    HttpServletMapping m = req.getHttpServletMapping();
    String name = m == null ? null : m.getServletName();
    if (name == null || name.isEmpty()) {
      return false;
    }
    Rooms r = rooms;
    if (r != null && r.isOperatorServlet(name)) {
      return true;
    }
    ServletContext context = req.getServletContext();
    ServletRegistration registration = context == null ? null : context.getServletRegistration(name);
    return registration != null && "true".equals(registration.getInitParameter(WaitingRoomDashboard.OPERATOR_PARAM));
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

  /** The host the client addressed, as the container resolved it ({@link Gate#authority}). */
  static @Nullable String host(HttpServletRequest req) {
    return Gate.authority(req.getScheme(), req.getServerName(), req.getServerPort());
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
        return unquoted(c.getValue());
      }
    }
    return null;
  }

  /**
   * A cookie value without the double quotes a client may put around it (RFC 6265's {@code DQUOTE
   * *cookie-octet DQUOTE}). The JDK's {@code CookieManager} quotes every value of a cookie set with
   * {@code Max-Age}, as ours are; Tomcat 10 removed the quotes, Tomcat 11 (Servlet 6.1) hands them
   * on, and a ticket with them would not open: such a client would lose its place at every poll.
   * A ticket never contains a quote, so removing one enclosing pair changes no real ticket.
   */
  static @Nullable String unquoted(@Nullable String value) {
    if (value != null && value.length() >= 2 && value.charAt(0) == '"' && value.charAt(value.length() - 1) == '"') {
      return value.substring(1, value.length() - 1);
    }
    return value;
  }

  /** Writes an answer (of the gate, or of the operator API): its status, headers and body. */
  static void write(HttpServletResponse res, GateResponse g) throws IOException {
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

  /** The filter's fixed settings: the gate, and whether the filter owns (and closes) its room. */
  static final class Settings {
    final WaitingRoom room;
    final boolean ownsRoom;
    final Gate gate;

    Settings(Gate gate, boolean ownsRoom) {
      this.gate = gate;
      this.room = gate.room();
      this.ownsRoom = ownsRoom;
    }
  }

  /**
   * Builds a {@link WaitingRoomFilter} around a room: the settings of {@link GateOptions}, declared
   * in {@link io.github.waitingroom.http.GateSettings}, each checked when it is set; errors name the
   * setting and the bad value.
   */
  public static final class Builder extends GateOptions<Builder> {
    private Builder(WaitingRoom room) {
      super(room);
    }

    /**
     * Checks the settings and builds the filter.
     *
     * @return the filter
     * @throws io.github.waitingroom.http.SettingException naming the first bad setting
     */
    public WaitingRoomFilter build() {
      return new WaitingRoomFilter(settings(false), NO_BYPASS);
    }

    Settings settings(boolean ownsRoom) {
      return new Settings(buildGate(), ownsRoom);
    }
  }
}
