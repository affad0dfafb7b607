package io.github.waitingroom.webflux;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.Gate;
import io.github.waitingroom.http.GateOptions;
import io.github.waitingroom.http.GateRouter;
import io.github.waitingroom.http.GateRequest;
import io.github.waitingroom.http.GateResponse;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * A Spring WebFlux {@link WebFilter} that puts a {@link WaitingRoom} in front of a reactive
 * application: the twin of the servlet {@code WaitingRoomFilter}, over the same {@link Gate}, so
 * both decide the same requests and answer with the same status, headers, cookies and bytes. It
 * only translates: it reads the exchange into a {@link GateRequest} and writes the {@link
 * GateResponse} back. The decision takes no lock and does no I/O, so it runs on the event loop;
 * a newcomer's human check, which asks a service, completes asynchronously ({@link
 * Gate#handleAsync}). Its settings are those of {@link GateOptions}, declared in {@link
 * io.github.waitingroom.http.GateSettings}.
 *
 * <pre>{@code
 * @Bean
 * WaitingRoomWebFilter waitingRoomWebFilter(WaitingRoom room) {
 *   return WaitingRoomWebFilter.builder(room).ignorePaths("/static/", "/health").build();
 * }
 * }</pre>
 *
 * <p>Paths are read from {@link RequestPath#pathWithinApplication()}: the raw form decides whether
 * an ignore applies, the decoded one which prefix covers the request. One filter can guard several
 * rooms ({@link #of(List, Predicate, int)}), each request belonging to the room with the most
 * specific prefix that covers it; {@link #bypassing} lets operators' requests through uncounted.
 * An application response on which the filter sets a ticket is {@code Cache-Control: private,
 * no-store} when it commits, whatever the application set. Every exchange the room lets through
 * is timed to the end of its response for the room ({@link Gate#answered}), which an {@linkplain
 * io.github.waitingroom.AdaptiveLimit adaptive limit} follows. The default order, {@value
 * #DEFAULT_ORDER}, runs it right after Spring Security's {@code WebFilterChainProxy} (-100).
 */
public final class WaitingRoomWebFilter implements WebFilter, Ordered {
  /** The default {@linkplain #getOrder() order}: right after Spring Security's filter chain (-100). */
  public static final int DEFAULT_ORDER = -99;

  private final List<Gate> given;
  private final Gate gate;
  private final GateRouter router;
  /** Static files: pass without a ticket, for {@code GET} and {@code HEAD} only. */
  private final Predicate<ServerHttpRequest> staticFiles;
  /** Bypass rules: pass without a ticket, whatever the method. */
  private final Predicate<ServerWebExchange> bypass;
  private final int order;

  private WaitingRoomWebFilter(
      List<Gate> gates, Predicate<ServerHttpRequest> staticFiles, Predicate<ServerWebExchange> bypass, int order) {
    this.given = gates;
    this.router = GateRouter.of(gates);
    this.gate = gates.get(0);
    this.staticFiles = staticFiles;
    this.bypass = bypass;
    this.order = order;
  }

  /**
   * Starts building a filter around a room that the caller owns (and closes).
   *
   * @param room the room; its id names the cookie unless {@link Builder#cookieName} says otherwise
   * @return a builder with every setting at its default
   */
  public static Builder builder(WaitingRoom room) {
    return new Builder(room);
  }

  /**
   * A filter over a gate built elsewhere, for code that configures both stacks alike (the Spring
   * Boot auto-configuration does): the gate's settings are the filter's.
   *
   * @param gate the gate; its room is owned (and closed) by the caller
   * @param order the filter's order among the application's {@code WebFilter}s
   * @return the filter
   */
  public static WaitingRoomWebFilter of(Gate gate, int order) {
    return new WaitingRoomWebFilter(List.of(Objects.requireNonNull(gate, "gate")), request -> false, exchange -> false, order);
  }

  /**
   * One filter over several rooms of one application: a request belongs to the room with the most
   * specific path prefix that covers it, and only that room decides (and counts) it; a request
   * that no room covers, or a {@code GET} or {@code HEAD} that {@code passes} accepts, passes
   * untouched.
   *
   * @param gates the rooms' gates, at least one; their rooms are owned (and closed) by the caller
   * @param passes the application's static files: {@code GET} and {@code HEAD} requests it accepts
   *     pass without a ticket and without counting, before any room is asked; any other method is
   *     decided by the room whatever this says (a write is never a static fetch). It runs on the
   *     event loop and must not block; for rules that pass any method, see {@link #bypassing}
   * @param order the filter's order among the application's {@code WebFilter}s
   * @return the filter
   * @throws IllegalArgumentException when there is no gate, or two gates share a path prefix or a
   *     cookie name; the message names both rooms
   */
  public static WaitingRoomWebFilter of(List<Gate> gates, Predicate<ServerHttpRequest> passes, int order) {
    if (gates.isEmpty()) {
      throw new IllegalArgumentException("gates is empty: give the filter at least one room");
    }
    Objects.requireNonNull(passes, "passes");
    return new WaitingRoomWebFilter(List.copyOf(gates), passes, exchange -> false, order);
  }

  /**
   * This filter, but also letting through every exchange that {@code bypass} accepts, without a
   * ticket and without counting it: operators, monitoring, a partner's IP range. The rule sees the
   * whole {@link ServerWebExchange} (its request, remote address and attributes), and is asked for
   * requests that one of the rooms covers, before the room decides; this filter's other rules still
   * apply. The rule runs on the event loop for every such request: keep it cheap, and never let it
   * block (the principal, a {@link Mono} in WebFlux, is not for it to wait on).
   *
   * <pre>{@code
   * WaitingRoomWebFilter.builder(room).build()
   *     .bypassing(exchange -> "10.1.2.3".equals(exchange.getRequest().getHeaders().getFirst("X-Real-IP")));
   * }</pre>
   *
   * @param bypass exchanges that pass without a ticket
   * @return a new filter over the same gates, at the same order; this one is unchanged
   */
  public WaitingRoomWebFilter bypassing(Predicate<ServerWebExchange> bypass) {
    Objects.requireNonNull(bypass, "bypass");
    return new WaitingRoomWebFilter(given, staticFiles, this.bypass.or(bypass), order);
  }

  /**
   * The room behind this filter; with several rooms, the first one given.
   *
   * @return the room
   */
  public WaitingRoom room() {
    return gate.room();
  }

  /**
   * The gate that decides for this filter, with its settings; with several rooms, the first one
   * given (see {@link #gates()}).
   *
   * @return the gate
   */
  public Gate gate() {
    return gate;
  }

  /**
   * Every gate of this filter, most specific path prefix first.
   *
   * @return the gates
   */
  public List<Gate> gates() {
    return router.gates();
  }

  @Override
  public int getOrder() {
    return order;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    ServerHttpRequest request = exchange.getRequest();
    PathContainer within = request.getPath().pathWithinApplication();
    HttpHeaders headers = request.getHeaders();
    String path = WebFluxExchange.decoded(within);
    Gate gate = router.route(path);
    String method = request.getMethod().name();
    if (gate == null
        || (("GET".equals(method) || "HEAD".equals(method)) && staticFiles.test(request))
        || bypass.test(exchange)) {
      return chain.filter(exchange);
    }
    GateResponse early = gate.screen(method, within.value(), path, headers::getFirst);
    if (early != null) {
      // A CORS preflight never reaches the application, unless it opted in (corsPassThrough).
      return early.passes() ? chain.filter(exchange) : WebFluxExchange.writeUnread(exchange, early);
    }
    GateRequest r = WebFluxExchange.read(gate, request, method);
    if (gate.mayBlock(r)) {
      // A newcomer's human check asks the service over the network: never on the event loop.
      return Mono.fromCompletionStage(gate.handleAsync(r)).flatMap(g -> answer(exchange, chain, gate, r, g));
    }
    return answer(exchange, chain, gate, r, gate.handle(r));
  }

  private static Mono<Void> answer(
      ServerWebExchange exchange, WebFilterChain chain, Gate gate, GateRequest r, GateResponse g) {
    if (g.passes()) {
      WebFluxExchange.passOn(exchange, gate, r, g);
      return WebFluxExchange.timed(gate, exchange, chain);
    }
    return WebFluxExchange.writeUnread(exchange, g);
  }

  /**
   * Builds a {@link WaitingRoomWebFilter} around a room, with the settings of the servlet filter:
   * those of {@link GateOptions}, declared in {@link io.github.waitingroom.http.GateSettings}, each
   * checked when it is set (errors name the setting and the bad value), and the filter's {@link
   * #order}.
   */
  public static final class Builder extends GateOptions<Builder> {
    private int order = DEFAULT_ORDER;

    private Builder(WaitingRoom room) {
      super(room);
    }

    /**
     * The filter's order among the application's {@code WebFilter}s. Default: {@value
     * WaitingRoomWebFilter#DEFAULT_ORDER}.
     *
     * @param order the order; lower runs first
     * @return this builder
     */
    public Builder order(int order) {
      this.order = order;
      return this;
    }

    /**
     * Checks the settings and builds the filter.
     *
     * @return the filter
     * @throws io.github.waitingroom.http.SettingException naming the first bad setting and its value
     */
    public WaitingRoomWebFilter build() {
      return new WaitingRoomWebFilter(List.of(buildGate()), request -> false, exchange -> false, order);
    }
  }
}
