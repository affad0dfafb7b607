package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.Gate;
import io.github.waitingroom.spring.boot.ReactiveWaitingRoomBypass;
import io.github.waitingroom.spring.boot.WaitingRooms;
import io.github.waitingroom.webflux.WaitingRoomDashboardWebFilter;
import io.github.waitingroom.webflux.WaitingRoomWebFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.ResourcePatternResolver;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * Adds the waiting room's {@link WaitingRoomWebFilter} to a reactive (WebFlux) web application,
 * from the same {@code waitingroom.*} properties as the servlet filter: it guards {@code
 * waitingroom.path-prefix} minus {@code waitingroom.ignore-paths}, Spring's static resources
 * ({@code spring.webflux.static-path-pattern}, {@code spring.web.resources.static-locations}),
 * webjars, the favicon and Actuator (unless {@code waitingroom.ignore-spring-resources} is off),
 * and minus what the application's {@link ReactiveWaitingRoomBypass} beans let through, with the
 * same cookie, page, JSON status and waiting status, at order {@code
 * waitingroom.filter-order} (by default -99, right after Spring Security's {@code
 * WebFilterChainProxy}). Define a {@link WaitingRoomWebFilter} bean to replace it.
 *
 * <p>With further rooms ({@code waitingroom.rooms.<name>.*}, a {@link WaitingRooms} bean) the one
 * filter guards every room's {@code path-prefix}, each with its own ignore paths, cookie and page:
 * a request belongs to the room with the most specific prefix that covers it, and to no other.
 * Two rooms with one prefix or one cookie name stop the application at startup.
 *
 * <p>The bypass rules are asked in their {@link org.springframework.core.annotation.Order order},
 * on the event loop, before the room decides a request it guards; the first that says yes lets the
 * request through without a ticket and without counting it. At the default order they run after
 * Spring Security's {@code WebFilterChainProxy} (-100), so a request that Security turns away never
 * reaches them or the room. {@code WaitingRoomBypass} beans are not consulted: that type reads a
 * servlet request.
 */
@AutoConfiguration(after = WaitingRoomAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({WaitingRoom.class, WaitingRoomWebFilter.class})
@ConditionalOnProperty(prefix = "waitingroom", name = "enabled", havingValue = "true", matchIfMissing = true)
@Conditional(RoomConditions.AnyRoom.class)
public class WaitingRoomReactiveAutoConfiguration {
  private static final Logger log = LoggerFactory.getLogger(WaitingRoomReactiveAutoConfiguration.class);

  /** Creates the auto-configuration; Spring calls it. */
  public WaitingRoomReactiveAutoConfiguration() {}

  /**
   * The filter of every room; see the class comment.
   *
   * @param mainRoom the main room, if configured
   * @param namedRooms further rooms, if configured
   * @param p the properties
   * @param bypasses the application's bypass rules, if any
   * @param environment where Spring's static resource settings are read
   * @param resolver lists the static resources
   * @return the filter
   */
  @Bean
  @ConditionalOnMissingBean
  public WaitingRoomWebFilter waitingRoomWebFilter(
      ObjectProvider<WaitingRoom> mainRoom,
      ObjectProvider<WaitingRooms> namedRooms,
      WaitingRoomProperties p,
      ObjectProvider<ReactiveWaitingRoomBypass> bypasses,
      ObjectProvider<WaitingRoomDashboardWebFilter> dashboard,
      Environment environment,
      ResourcePatternResolver resolver) {
    SpringResources spring =
        p.isIgnoreSpringResources()
            ? SpringResources.scan(SpringResources.Stack.WEBFLUX, environment, resolver)
            : SpringResources.none();
    List<String> guarded = new ArrayList<>();
    List<Gate> gates =
        Gates.all(mainRoom.getIfAvailable(), namedRooms.getIfAvailable(), p, spring.prefixes, guarded);
    WaitingRoomWebFilter filter = WaitingRoomWebFilter.of(gates, staticFile(spring.files), p.getFilterOrder());
    List<ReactiveWaitingRoomBypass> rules = bypasses.orderedStream().toList();
    if (!rules.isEmpty()) {
      filter = filter.bypassing(exchange -> bypassed(rules, exchange));
    }
    WaitingRoomDashboardWebFilter operators = dashboard.getIfAvailable();
    if (operators != null) {
      // Operators never wait in line for their own dashboard, nor for a change of live settings.
      filter = filter.bypassing(operators::covers);
    }
    log.info(
        "waiting room(s) {} at WebFilter order {}; pass without a ticket: {} static files, {}, {}, {} bypass rule(s)",
        guarded,
        p.getFilterOrder(),
        spring.files.size(),
        spring.prefixes,
        p.getIgnorePaths(),
        rules.size());
    return filter;
  }

  /**
   * The operator dashboard and live-settings API of every room at {@code waitingroom.dashboard.path},
   * when {@code waitingroom.dashboard.bearer-token} is set; the room's filter lets its requests
   * through. A required role ({@code require-role}) is for servlet applications: here it stops the
   * start, naming the property.
   *
   * @param mainRoom the main room, if configured
   * @param namedRooms further rooms, if configured
   * @param p the properties
   * @return the filter
   */
  @Bean
  @ConditionalOnMissingBean
  @Conditional(Dashboards.On.class)
  public WaitingRoomDashboardWebFilter waitingRoomDashboardWebFilter(
      ObjectProvider<WaitingRoom> mainRoom, ObjectProvider<WaitingRooms> namedRooms, WaitingRoomProperties p) {
    String role = p.getDashboard().getRequireRole();
    if (role != null && !role.isBlank()) {
      String property = Dashboards.PREFIX + "require-role";
      throw new io.github.waitingroom.http.SettingException(property, io.github.waitingroom.http.SettingException.Source.PROPERTY,
          property, role, "a required role is for servlet applications; a reactive one sets bearer-token", null);
    }
    String path = Dashboards.path(p.getDashboard());
    log.info("waiting room dashboard at {}/", path);
    return WaitingRoomDashboardWebFilter.of(
            Dashboards.api(p.getDashboard(), mainRoom.getIfAvailable(), namedRooms.getIfAvailable()), path)
        .order(p.getFilterOrder());
  }

  private static boolean bypassed(List<ReactiveWaitingRoomBypass> rules, ServerWebExchange exchange) {
    for (ReactiveWaitingRoomBypass b : rules) {
      if (b.bypass(exchange)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A request for one of the static files, by its path as sent: a file is found by its exact
   * path, so another spelling of it goes through the room.
   */
  private static Predicate<ServerHttpRequest> staticFile(Set<String> files) {
    if (files.isEmpty()) {
      return request -> false;
    }
    return request -> files.contains(request.getPath().pathWithinApplication().value());
  }
}
