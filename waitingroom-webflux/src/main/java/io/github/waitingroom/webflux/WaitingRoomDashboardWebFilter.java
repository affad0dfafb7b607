package io.github.waitingroom.webflux;

import io.github.waitingroom.http.GateResponse;
import io.github.waitingroom.http.OperatorApi;
import io.github.waitingroom.http.OperatorRequest;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiPredicate;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The {@linkplain OperatorApi operator API} (live dashboard, status, live settings) of a reactive
 * application: the WebFlux twin of the servlet {@code WaitingRoomDashboard}, over the same {@link
 * OperatorApi}, so both answer with the same status, headers and bytes. It serves the requests under
 * its path and passes every other one on.
 *
 * <pre>{@code
 * OperatorApi api = OperatorApi.builder(List.of(room)).bearerToken(System.getenv("WAITINGROOM_DASHBOARD_TOKEN")).build();
 * WaitingRoomDashboardWebFilter dashboard = WaitingRoomDashboardWebFilter.of(api, "/waitingroom/dashboard");
 * WaitingRoomWebFilter rooms = WaitingRoomWebFilter.builder(room).build().bypassing(dashboard::covers);
 * }</pre>
 *
 * <p>Let the room's filter {@linkplain WaitingRoomWebFilter#bypassing bypass} the dashboard, as above,
 * so that operators never wait in line for it (the Spring Boot auto-configuration does). With
 * {@link OperatorApi.Builder#requireRole}, give the role check of the application's security
 * ({@link #roles}); without one, every request for the data gets 403.
 */
public final class WaitingRoomDashboardWebFilter implements WebFilter, Ordered {
  /** The default {@linkplain #getOrder() order}: that of the room's filter, after Spring Security's (-100). */
  public static final int DEFAULT_ORDER = WaitingRoomWebFilter.DEFAULT_ORDER;

  private final OperatorApi api;
  private final String path;
  private final BiPredicate<Principal, String> roles;
  private final int order;

  private WaitingRoomDashboardWebFilter(OperatorApi api, String path, BiPredicate<Principal, String> roles, int order) {
    this.api = api;
    this.path = path;
    this.roles = roles;
    this.order = order;
  }

  /**
   * The operator API under a path of the application.
   *
   * @param api the API
   * @param path where it answers, within the application: {@code /waitingroom/dashboard} serves
   *     the page at {@code /waitingroom/dashboard/}, the data at {@code .../data}
   * @return the filter, at {@link #DEFAULT_ORDER}
   * @throws IllegalArgumentException when the path does not start with {@code /} or ends with one
   */
  public static WaitingRoomDashboardWebFilter of(OperatorApi api, String path) {
    Objects.requireNonNull(api, "api");
    if (!path.startsWith("/") || path.length() < 2 || path.endsWith("/")) {
      throw new IllegalArgumentException("the dashboard's path must start with '/' and not end with one but was '" + path + "'");
    }
    return new WaitingRoomDashboardWebFilter(api, path, (principal, role) -> false, DEFAULT_ORDER);
  }

  /**
   * This filter, with the role check of the application's security, for an API built with {@link
   * OperatorApi.Builder#requireRole}: whether the authenticated principal holds the role.
   *
   * @param roles the check, given the exchange's principal and the role
   * @return a new filter
   */
  public WaitingRoomDashboardWebFilter roles(BiPredicate<Principal, String> roles) {
    return new WaitingRoomDashboardWebFilter(api, path, Objects.requireNonNull(roles, "roles"), order);
  }

  /**
   * This filter at another order among the application's {@code WebFilter}s.
   *
   * @param order the order; lower runs first
   * @return a new filter
   */
  public WaitingRoomDashboardWebFilter order(int order) {
    return new WaitingRoomDashboardWebFilter(api, path, roles, order);
  }

  /**
   * Whether an exchange is for the operator API: its path within the application is the filter's
   * path or lies below it. For the room's {@linkplain WaitingRoomWebFilter#bypassing bypass}.
   *
   * @param exchange the exchange
   * @return whether this filter answers it
   */
  public boolean covers(ServerWebExchange exchange) {
    return below(exchange.getRequest()) != null;
  }

  @Override
  public int getOrder() {
    return order;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    ServerHttpRequest request = exchange.getRequest();
    String below = below(request);
    if (below == null) {
      return chain.filter(exchange);
    }
    boolean put = "PUT".equals(request.getMethod().name());
    // Read only for a PUT that passed the checks. A body longer than the API reads is empty here,
    // which it answers 413, the rest of it unread.
    Mono<Optional<String>> body = DataBufferUtils.join(request.getBody(), OperatorApi.MAX_BODY_BYTES)
        .map(b -> {
          String text = b.toString(StandardCharsets.UTF_8);
          DataBufferUtils.release(b);
          return Optional.of(text);
        })
        .onErrorResume(DataBufferLimitException.class, e -> Mono.just(Optional.empty()))
        .defaultIfEmpty(Optional.of(""));
    Mono<Optional<Principal>> principal = api.requiredRole() == null
        ? Mono.just(Optional.empty())
        : exchange.getPrincipal().map(Optional::of).defaultIfEmpty(Optional.empty());
    return principal.flatMap(p -> {
      Principal user = p.orElse(null);
      if (!put) {
        // The API reads the body of no other method.
        return Mono.fromCallable(() -> api.handle(request(request, below, "", user)))
            .flatMap(answer -> WebFluxExchange.writeUnread(exchange, answer));
      }
      // Refused before its body is read (as without the token): the body is never read.
      GateResponse refused = api.refusalBeforeBody(request(request, below, null, user));
      if (refused != null) {
        return WebFluxExchange.writeUnread(exchange, refused);
      }
      // A change of settings reaches the room's store: never on the event loop.
      return body.flatMap(b -> Mono.fromCallable(() -> api.handle(request(request, below, b.orElse(null), user)))
          .subscribeOn(Schedulers.boundedElastic())
          .flatMap(answer -> b.isPresent() ? WebFluxExchange.write(exchange.getResponse(), answer)
              : WebFluxExchange.writeUnread(exchange, answer)));
    });
  }

  /** The path below the filter's, or {@code null} when the request is not the filter's. */
  private @Nullable String below(ServerHttpRequest request) {
    String p = request.getPath().pathWithinApplication().value();
    if (p.equals(path)) {
      return "";
    }
    return p.startsWith(path + "/") ? p.substring(path.length()) : null;
  }

  /** A WebFlux request as the operator API reads it, its body read already. */
  private OperatorRequest request(ServerHttpRequest request, String below, @Nullable String body, @Nullable Principal principal) {
    return OperatorRequest.of(request.getMethod().name(), below, request.getPath().value(), WebFluxExchange.address(request),
        request.getQueryParams()::getFirst, request.getHeaders()::getFirst,
        role -> principal != null && roles.test(principal, role), () -> body);
  }
}
