package io.github.waitingroom.spring.boot;

import jakarta.servlet.http.HttpServletRequest;

/**
 * A rule that lets a request past the waiting room without a ticket and without counting it:
 * operators, monitoring, a partner's IP range. Declare one or more as beans; the starter's filter
 * asks each of them, in {@link org.springframework.core.annotation.Order order}, before the room.
 *
 * <pre>{@code
 * @Bean
 * WaitingRoomBypass operators() {
 *   return request -> request.isUserInRole("OPERATOR");
 * }
 * }</pre>
 *
 * <p>The filter runs right after Spring Security by default ({@code waitingroom.filter-order=-99}),
 * so {@link HttpServletRequest#isUserInRole} and {@link HttpServletRequest#getUserPrincipal} see
 * the authenticated user. A rule runs on every guarded request: keep it cheap, and never let it
 * block.
 *
 * <p>Servlet applications only: the rule reads an {@link HttpServletRequest}, so the reactive
 * (WebFlux) auto-configuration does not consult it; declare a {@link ReactiveWaitingRoomBypass}
 * there.
 */
@FunctionalInterface
public interface WaitingRoomBypass {
  /**
   * Whether this request passes without a ticket.
   *
   * @param request the request, as the application would see it
   */
  boolean bypass(HttpServletRequest request);
}
