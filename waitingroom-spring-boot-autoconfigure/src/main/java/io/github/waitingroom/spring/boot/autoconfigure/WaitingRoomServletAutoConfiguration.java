package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.servlet.WaitingRoomDashboard;
import io.github.waitingroom.servlet.WaitingRoomFilter;
import io.github.waitingroom.spring.boot.WaitingRoomBypass;
import io.github.waitingroom.spring.boot.WaitingRooms;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.ResourcePatternResolver;

/**
 * Registers the waiting room's servlet filter in a servlet web application, on {@code /*} for
 * {@code REQUEST} dispatches, as a {@link FilterRegistrationBean} named {@value #REGISTRATION_BEAN}
 * (define a bean of that name to replace it). The filter guards {@code waitingroom.path-prefix}
 * minus {@code waitingroom.ignore-paths}, Spring's static resources, webjars, the favicon and
 * Actuator, and minus what the application's {@link WaitingRoomBypass} beans let through.
 *
 * <p>With further rooms ({@code waitingroom.rooms.<name>.*}, a {@link WaitingRooms} bean) the one
 * filter guards every room's {@code path-prefix}, each with its own ignore paths, cookie and page:
 * a request belongs to the room with the most specific prefix that covers it, and to no other.
 * Two rooms with one prefix or one cookie name stop the application at startup.
 *
 * <p>Its order is {@code waitingroom.filter-order}, by default -99: right after Spring Security's
 * filter chain (-100), so a bypass rule can ask for the user's roles and a request that Security
 * turns away never counts as a visitor.
 */
@AutoConfiguration(after = WaitingRoomAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({WaitingRoom.class, WaitingRoomFilter.class})
@ConditionalOnProperty(prefix = "waitingroom", name = "enabled", havingValue = "true", matchIfMissing = true)
@Conditional(RoomConditions.AnyRoom.class)
public class WaitingRoomServletAutoConfiguration {
  /** The name of the filter registration bean. */
  public static final String REGISTRATION_BEAN = "waitingRoomFilterRegistration";

  private static final Logger log = LoggerFactory.getLogger(WaitingRoomServletAutoConfiguration.class);

  /** Creates the auto-configuration; Spring calls it. */
  public WaitingRoomServletAutoConfiguration() {}

  /** The filter registration; see the class comment. */
  @Bean(name = REGISTRATION_BEAN)
  @ConditionalOnMissingBean(name = REGISTRATION_BEAN)
  public FilterRegistrationBean<Filter> waitingRoomFilterRegistration(
      ObjectProvider<WaitingRoom> mainRoom,
      ObjectProvider<WaitingRooms> namedRooms,
      WaitingRoomProperties p,
      ObjectProvider<WaitingRoomBypass> bypasses,
      Environment environment,
      ResourcePatternResolver resolver) {
    SpringResources spring =
        p.isIgnoreSpringResources()
            ? SpringResources.scan(SpringResources.Stack.MVC, environment, resolver)
            : SpringResources.none();
    List<String> guarded = new ArrayList<>();
    List<WaitingRoomFilter> filters =
        Gates.all(mainRoom.getIfAvailable(), namedRooms.getIfAvailable(), p, spring.prefixes, guarded).stream()
            .map(WaitingRoomFilter::of)
            .toList();
    List<WaitingRoomBypass> rules = bypasses.orderedStream().toList();
    FilterRegistrationBean<Filter> registration =
        new FilterRegistrationBean<>(new GuardFilter(filters, spring.files, rules));
    registration.setName("waitingRoomFilter");
    registration.addUrlPatterns("/*");
    registration.setDispatcherTypes(DispatcherType.REQUEST);
    registration.setOrder(p.getFilterOrder());
    log.info(
        "waiting room(s) {} at filter order {}; pass without a ticket: {} static files, {}, {} bypass rule(s)",
        guarded,
        p.getFilterOrder(),
        spring.files.size(),
        spring.prefixes,
        rules.size());
    return registration;
  }

  /**
   * The operator dashboard and live-settings API of every room at {@code waitingroom.dashboard.path},
   * when {@code waitingroom.dashboard.bearer-token} or {@code require-role} is set. Marked as the
   * operator API's ({@link WaitingRoomDashboard#OPERATOR_PARAM}), so no room decides its requests.
   *
   * @param mainRoom the main room, if configured
   * @param namedRooms further rooms, if configured
   * @param p the properties
   * @return the servlet's registration
   */
  @Bean
  @ConditionalOnMissingBean(name = "waitingRoomDashboardRegistration")
  @Conditional(Dashboards.On.class)
  public ServletRegistrationBean<WaitingRoomDashboard> waitingRoomDashboardRegistration(
      ObjectProvider<WaitingRoom> mainRoom, ObjectProvider<WaitingRooms> namedRooms, WaitingRoomProperties p) {
    String path = Dashboards.path(p.getDashboard());
    WaitingRoomDashboard dashboard =
        WaitingRoomDashboard.of(Dashboards.api(p.getDashboard(), mainRoom.getIfAvailable(), namedRooms.getIfAvailable()));
    ServletRegistrationBean<WaitingRoomDashboard> registration = new ServletRegistrationBean<>(dashboard, path + "/*");
    registration.setName("waitingRoomDashboard");
    registration.addInitParameter(WaitingRoomDashboard.OPERATOR_PARAM, "true");
    registration.setLoadOnStartup(1);
    log.info("waiting room dashboard at {}/", path);
    return registration;
  }
}
