package io.github.waitingroom.servlet;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.Gate;
import io.github.waitingroom.http.GateOptions;
import io.github.waitingroom.http.GateRequest;
import io.github.waitingroom.http.GateResponse;
import io.github.waitingroom.http.GateSettings;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A servlet filter that puts a {@link WaitingRoom} in front of an application. It only translates:
 * it reads the request into a {@link GateRequest} and writes the {@link GateResponse} back; every
 * rule (which requests the room decides, CORS preflights, the two ticket cookies, the waiting page,
 * the JSON status, the headers) is the container-neutral {@link Gate}'s, shared with the WebFlux
 * {@code WaitingRoomWebFilter}. The one answer that waits for I/O, a newcomer's human check ({@link
 * Gate#mayBlock}), completes asynchronously where the filter chain supports it ({@code
 * asyncSupported}, as Spring Boot registers filters), and on the request's thread only otherwise.
 * Every request the room lets through is timed, from the room's answer to the application's
 * response (an asynchronous one to its end), for the room ({@link Gate#answered}), which an
 * {@linkplain io.github.waitingroom.AdaptiveLimit adaptive limit} follows. Its settings are those of {@link GateOptions}, declared in {@link
 * io.github.waitingroom.http.GateSettings}.
 *
 * <pre>{@code
 * WaitingRoom room = WaitingRoom.builder(config, TicketKeys.fromJson(keysetJson)).build();
 * Filter filter = WaitingRoomFilter.builder(room).ignorePaths("/static/", "/health").build();
 * servletContext.addFilter("waitingRoom", filter).addMappingForUrlPatterns(null, false, "/*");
 * }</pre>
 *
 * <p>A filter created by the container (web.xml) with the no-argument constructor builds its room
 * from init-params in {@link #init}; a bad one fails it with a {@link
 * io.github.waitingroom.http.SettingException} that names the init-param. Several rooms in one
 * application: one filter per room, each on {@code /*} with its own path prefix, room id and cookie;
 * they find each other through their {@code ServletContext} ({@link Rooms}), and a request belongs
 * to the room with the most specific prefix that covers it, which marks it with {@value
 * #ROOM_ATTRIBUTE}.
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
  public static final String DEFAULT_STATUS_PARAM = GateSettings.DEFAULT_STATUS_PARAM;

  private static final Predicate<HttpServletRequest> NO_BYPASS = request -> false;

  private volatile @Nullable FilterSettings settings;
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

  private WaitingRoomFilter(FilterSettings settings, Predicate<HttpServletRequest> bypass) {
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
    return new WaitingRoomFilter(new FilterSettings(gate, false), NO_BYPASS);
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
    FilterSettings s = settings;
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
    FilterSettings given = settings;
    FilterSettings s = given;
    try {
      if (s == null) {
        s = InitParams.read(filterConfig::getInitParameter, filterConfig.getInitParameterNames(), System::getenv);
      }
      Rooms r = Rooms.of(filterConfig.getServletContext());
      r.join(this, s.gate());
      rooms = r;
      settings = s;
    } catch (IllegalArgumentException | IllegalStateException e) {
      if (given == null && s != null) {
        s.room().close(); // a room this filter built must leave no sync thread behind
      }
      throw new ServletException(
          "WaitingRoomFilter '" + filterConfig.getFilterName() + "': " + e.getMessage(), e);
    }
    if (given == null) {
      log.info("waiting {}", s.gate());
    }
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    FilterSettings s = settings;
    if (s == null) {
      throw new ServletException("WaitingRoomFilter was not initialised: init() has not run");
    }
    Gate gate = s.gate();
    if (!(request instanceof HttpServletRequest req)
        || !(response instanceof HttpServletResponse res)
        || req.getDispatcherType() != DispatcherType.REQUEST
        || Rooms.toOperatorApi(rooms, req)
        || !Rooms.claim(rooms, this, gate, req)
        || bypass.test(req)) {
      chain.doFilter(request, response);
      return;
    }
    ServletExchange.answer(gate, req, res, chain);
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
    Rooms.checkDistinct(filters);
  }

  /** The gate, or {@code null} before a container-created filter is initialised. */
  @Nullable Gate gate() {
    FilterSettings s = settings;
    return s == null ? null : s.gate();
  }

  /** Leaves the application's rooms, and closes the room if this filter built it from init-params. */
  @Override
  public void destroy() {
    Rooms r = rooms;
    if (r != null) {
      r.leave(this);
      rooms = null;
    }
    FilterSettings s = settings;
    if (s != null && s.ownsRoom()) {
      s.room().close();
    }
  }

  /** The room behind this filter; {@code null} before a container-created filter is initialised. */
  public @Nullable WaitingRoom room() {
    FilterSettings s = settings;
    return s == null ? null : s.room();
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

    FilterSettings settings(boolean ownsRoom) {
      return new FilterSettings(buildGate(), ownsRoom);
    }
  }
}
