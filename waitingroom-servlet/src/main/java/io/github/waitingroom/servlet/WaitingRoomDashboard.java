package io.github.waitingroom.servlet;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.GateResponse;
import io.github.waitingroom.http.OperatorApi;
import io.github.waitingroom.http.OperatorBody;
import io.github.waitingroom.http.OperatorRequest;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@linkplain OperatorApi operator API} (live dashboard, status, live settings) of one or more
 * {@link WaitingRoom}s as a servlet: it reads the request into an {@link OperatorRequest} and writes
 * the answer back; the API's rules, protection and bytes are those of {@link OperatorApi}, the same
 * as the WebFlux {@code WaitingRoomDashboardWebFilter}'s.
 *
 * <p>It is off unless an application registers it, and it cannot be built unprotected: {@link
 * Builder#build()} requires either a {@linkplain Builder#bearerToken bearer token} or an explicit
 * opt-in to the application's own security with a {@linkplain Builder#requireRole required role}
 * ({@code HttpServletRequest.isUserInRole}).
 *
 * <pre>{@code
 * WaitingRoomDashboard dashboard = WaitingRoomDashboard.builder(room)
 *     .bearerToken(System.getenv("WAITINGROOM_DASHBOARD_TOKEN"))  // 16 characters or more
 *     .build();
 * servletContext.addServlet("waitingRoomDashboard", dashboard).addMapping("/waitingroom/dashboard/*");
 * }</pre>
 *
 * <p>Map it to a path pattern ending in {@code /*}; {@link OperatorApi} lists what it answers below
 * it. Behind a proxy, set the container to read the client's address from it, or all clients share
 * one count of wrong tokens.
 *
 * <p>A waiting room filter never decides a request for the dashboard, whatever its path, so that
 * operators never queue for their own dashboard, nor for the {@code PUT} of live settings that no
 * {@code ignorePaths} entry covers: the dashboard tells the application's filters its servlet's name
 * when the container initialises it, and the filters let the requests mapped to that servlet
 * through. A container initialises a servlet given as an instance when it starts (Jetty) or on its
 * first request (Tomcat without a load-on-startup): register it with {@code setLoadOnStartup(1)},
 * or set the init-parameter {@link #OPERATOR_PARAM} on its registration, so that this holds from
 * the first request. The dashboard logs a warning,
 * once, when a request for it was decided by a {@link WaitingRoomFilter} all the same.
 */
public final class WaitingRoomDashboard extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(WaitingRoomDashboard.class);

  /**
   * The init-parameter that marks a servlet registration as the operator API's before the
   * container initialises the servlet: a waiting room filter lets the requests mapped to it
   * through. Set it to {@code true} on a dashboard registered without a load-on-startup.
   */
  public static final String OPERATOR_PARAM = "io.github.waitingroom.operator";

  /** The shortest bearer token {@link Builder#bearerToken} accepts. */
  public static final int MIN_TOKEN_LENGTH = OperatorApi.MIN_TOKEN_LENGTH;

  /** Wrong bearer tokens a client may send before it is slowed down. */
  public static final int FREE_FAILURES = OperatorApi.FREE_FAILURES;

  /** The longest a client that keeps sending wrong tokens is locked out, in seconds. */
  public static final long MAX_LOCKOUT_SECONDS = OperatorApi.MAX_LOCKOUT_SECONDS;

  /** The most a {@code PUT} may raise the settings' version over the newest the node knows. */
  public static final long MAX_VERSION_STEP = OperatorApi.MAX_VERSION_STEP;

  private final transient OperatorApi api;
  private final transient AtomicBoolean warned = new AtomicBoolean();

  private WaitingRoomDashboard(OperatorApi api) {
    this.api = api;
  }

  /**
   * Starts building a dashboard of the given rooms, shown in this order.
   *
   * @param rooms one or more rooms with distinct ids; the caller owns (and closes) them
   */
  public static Builder builder(WaitingRoom... rooms) {
    return new Builder(OperatorApi.builder(List.of(rooms)));
  }

  /**
   * Starts building a dashboard of the given rooms, shown in this order.
   *
   * @param rooms one or more rooms with distinct ids; the caller owns (and closes) them
   */
  public static Builder builder(List<WaitingRoom> rooms) {
    return new Builder(OperatorApi.builder(rooms));
  }

  /**
   * The dashboard of an operator API built elsewhere, for code that configures both stacks alike.
   *
   * @param api the API
   * @return the servlet
   */
  public static WaitingRoomDashboard of(OperatorApi api) {
    return new WaitingRoomDashboard(java.util.Objects.requireNonNull(api, "api"));
  }

  /** The rooms this dashboard shows, in order. */
  public List<WaitingRoom> rooms() {
    return api.rooms();
  }

  /** Whether {@code PUT <mapping>/settings} changes settings ({@link Builder#settingsChanges}). */
  public boolean settingsChanges() {
    return api.settingsChanges();
  }

  /** Tells the application's waiting room filters that the requests mapped to this servlet are the operator API's. */
  @Override
  public void init() {
    Rooms.of(getServletContext()).operatorServlet(getServletName());
  }

  /**
   * Answers every method through the {@link OperatorApi}: {@code GET}, {@code HEAD} and {@code PUT}
   * as it says, any other with 405 (never the default {@code TRACE}, which would echo the request's
   * {@code Authorization} header).
   */
  @Override
  protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
    warnIfDecided(req);
    boolean[] bodyRead = {false};
    GateResponse answer = api.handle(request(req, bodyRead));
    if (!bodyRead[0]) {
      ServletExchange.closeIfBodyUnread(req, res); // refused before its body was asked for, as without a token
    }
    ServletExchange.write(res, answer);
  }

  /** A servlet request as the operator API reads it; {@code bodyRead[0]} is set when its body is read. */
  private static OperatorRequest request(HttpServletRequest req, boolean[] bodyRead) {
    String path = req.getPathInfo();
    String uri = req.getRequestURI();
    return OperatorRequest.of(req.getMethod(), path == null ? "" : path, uri == null ? "/" : uri, req.getRemoteAddr(),
        req::getParameter, req::getHeader, role -> req.getUserPrincipal() != null && req.isUserInRole(role),
        () -> {
          bodyRead[0] = true;
          return OperatorBody.read(req.getInputStream(), req.getContentLengthLong());
        });
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
    WaitingRoomFilter owner = Rooms.of(req.getServletContext()).owner(ServletExchange.path(req));
    if ((owner == null || Rooms.decides(owner, req)) && warned.compareAndSet(false, true)) {
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

  /**
   * Builds a {@link WaitingRoomDashboard}: the settings of {@link OperatorApi.Builder}. Exactly one
   * protection is required: {@link #bearerToken} or {@link #requireRole}.
   */
  public static final class Builder {
    private final OperatorApi.Builder api;

    private Builder(OperatorApi.Builder api) {
      this.api = api;
    }

    /**
     * Protects the data with a bearer token ({@link OperatorApi.Builder#bearerToken}).
     *
     * @param token at least {@value OperatorApi#MIN_TOKEN_LENGTH} characters, printable ASCII without spaces
     * @throws IllegalArgumentException when it is shorter or holds other characters (the message
     *     never repeats the token)
     */
    public Builder bearerToken(String token) {
      api.bearerToken(token);
      return this;
    }

    /**
     * Leaves authentication to the container's or application's security and lets in only users in
     * this role ({@code HttpServletRequest.isUserInRole}); others get 403.
     *
     * @param role the role, not blank
     * @throws IllegalArgumentException when it is blank
     */
    public Builder requireRole(String role) {
      api.requireRole(role);
      return this;
    }

    /** The clock of the readings and of the lockouts ({@link OperatorApi.Builder#clock}). */
    public Builder clock(InstantSource clock) {
      api.clock(clock);
      return this;
    }

    /** Whether {@code PUT <mapping>/settings} may change the rooms' live settings. Default: off. */
    public Builder settingsChanges(boolean allowed) {
      api.settingsChanges(allowed);
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
      return new WaitingRoomDashboard(api.build());
    }
  }
}
