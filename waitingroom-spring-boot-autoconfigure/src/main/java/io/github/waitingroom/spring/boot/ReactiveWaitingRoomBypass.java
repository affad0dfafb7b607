package io.github.waitingroom.spring.boot;

import org.springframework.web.server.ServerWebExchange;

/**
 * The reactive (WebFlux) twin of {@link WaitingRoomBypass}: a rule that lets a request past the
 * waiting room without a ticket and without counting it: operators, monitoring, a partner's IP
 * range. Declare one or more as beans; the starter's {@code WaitingRoomWebFilter} asks each of
 * them, in {@link org.springframework.core.annotation.Order order}, before the room decides a
 * request it guards.
 *
 * <pre>{@code
 * @Bean
 * ReactiveWaitingRoomBypass monitoring() {
 *   return exchange -> {
 *     InetSocketAddress from = exchange.getRequest().getRemoteAddress();
 *     return from != null && from.getAddress() != null && from.getAddress().isSiteLocalAddress();
 *   };
 * }
 * }</pre>
 *
 * <p>The rule runs on the event loop, on every request a room guards: keep it cheap, and never let
 * it block. It reads what the exchange holds already (the request's headers and remote address,
 * the exchange's attributes). The authenticated user is not among them: WebFlux gives the principal
 * only as a {@code Mono} ({@link ServerWebExchange#getPrincipal()}), which a rule must not wait on.
 * For a rule by role, resolve the principal in a {@code WebFilter} of your own that runs after
 * Spring Security's {@code WebFilterChainProxy} (order -100) and before the room (for example your
 * filter at -99 and {@code waitingroom.filter-order=-98}), put the answer in an exchange attribute,
 * and read that attribute here.
 *
 * <p>Reactive applications only; a servlet application's filter consults {@link WaitingRoomBypass}
 * beans instead.
 */
@FunctionalInterface
public interface ReactiveWaitingRoomBypass {
  /**
   * Whether this exchange passes without a ticket.
   *
   * @param exchange the exchange, as the application would see it
   * @return {@code true} to let it through without a ticket and without counting it
   */
  boolean bypass(ServerWebExchange exchange);
}
