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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * <p>{@code OPTIONS} requests (CORS preflights, which never carry cookies) pass through untouched.
 * Everything the filter writes carries {@code Cache-Control: no-store}. The ticket cookie is
 * {@code HttpOnly}, scoped to the guarded path, and re-issued only when the ticket changes.
 */
public final class WaitingRoomFilter implements Filter {
  private static final Logger log = LoggerFactory.getLogger(WaitingRoomFilter.class);

  /** The default name of the query flag that asks for the JSON status only. */
  public static final String DEFAULT_STATUS_PARAM = "waitingRoomStatus";

  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final String NO_STORE = "no-store";

  /** When the ticket cookie carries the {@code Secure} attribute. */
  public enum CookieSecure {
    /** When the request came over HTTPS ({@link ServletRequest#isSecure()}). The default. */
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
   * Reads the init-params when the filter was created by the container; does nothing for a filter
   * made by {@link #builder}, whose settings are already fixed.
   *
   * @throws ServletException when a setting is missing or wrong; the message names it
   */
  @Override
  public void init(FilterConfig filterConfig) throws ServletException {
    if (settings != null) {
      return;
    }
    try {
      Settings s = InitParams.read(filterConfig::getInitParameter, filterConfig.getInitParameterNames(), System::getenv);
      settings = s;
      log.info(
          "waiting room '{}' guards {} (cookie {}, {} active users, {} new users per minute)",
          s.room.config().roomId(),
          s.paths.prefix(),
          s.cookieName,
          s.room.config().totalActiveUsers(),
          s.room.config().newUsersPerMinute());
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new ServletException(
          "WaitingRoomFilter '" + filterConfig.getFilterName() + "': " + e.getMessage(), e);
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
        // CORS preflights never carry cookies: queueing them would only add phantom users.
        || "OPTIONS".equals(req.getMethod())
        || !s.paths.guards(pathWithinApplication(req))) {
      chain.doFilter(request, response);
      return;
    }
    Decision d = s.room.decide(ticketOf(req, s.cookieName));
    String ticket = d.ticket();
    if (ticket != null) {
      res.addHeader("Set-Cookie", s.cookie(req, ticket, d.ticketMaxAgeSeconds()));
    }
    if (hasFlag(req.getQueryString(), s.statusParam)) {
      writeJson(s, d, res, d.letsThrough() ? HttpServletResponse.SC_OK : s.waitingStatus);
      return;
    }
    if (d.letsThrough()) {
      if (ticket != null) {
        // A response that sets a ticket must never be cached and replayed to someone else.
        res.setHeader("Cache-Control", NO_STORE);
      }
      chain.doFilter(request, response);
      return;
    }
    if (wantsJson(req)) {
      writeJson(s, d, res, s.waitingStatus);
    } else {
      writePage(s, d, res);
    }
  }

  /** Closes the room if this filter built it from init-params. */
  @Override
  public void destroy() {
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
    write(res, status, "application/json", StatusJson.write(s.room.config().roomId(), d, viewTime), d);
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
    write(res, s.waitingStatus, "text/html", s.template.render(values), d);
  }

  private static void write(HttpServletResponse res, int status, String type, String body, Decision d)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    res.setStatus(status);
    res.setHeader("Cache-Control", NO_STORE);
    if (status == 429 && d.refreshSeconds() > 0) {
      res.setHeader("Retry-After", Long.toString(d.refreshSeconds()));
    }
    res.setContentType(type + ";charset=UTF-8");
    res.setContentLength(bytes.length);
    res.getOutputStream().write(bytes);
  }

  /** The filter's fixed settings. */
  static final class Settings {
    final WaitingRoom room;
    final boolean ownsRoom;
    final PathRules paths;
    final String cookieName;
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
      this.secure = b.sameSite == SameSite.NONE ? CookieSecure.ALWAYS : b.secure;
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
      String path = context == null || context.isEmpty() ? prefix : prefix.equals("/") ? context : context + prefix;
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
     * Paths that pass through without a ticket: a path ({@code /static/}, {@code /health}) covers
     * itself and everything below it; {@code *.css} covers an extension. Adds to earlier calls.
     */
    public Builder ignorePaths(String... paths) {
      ignorePaths.addAll(Arrays.asList(paths));
      return this;
    }

    /** The ticket cookie's name. Default: {@code wr_<roomId>}. */
    public Builder cookieName(String name) {
      this.cookieName = Objects.requireNonNull(name, "cookieName");
      return this;
    }

    /** When the cookie is {@code Secure}. Default: {@link CookieSecure#AUTO}. */
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
