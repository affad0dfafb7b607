package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.spring.boot.WaitingRooms;
import io.github.waitingroom.webflux.WaitingRoomWebFilter;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Adds the waiting room's {@link WaitingRoomWebFilter} to a reactive (WebFlux) web application,
 * from the same {@code waitingroom.*} properties as the servlet filter: it guards {@code
 * waitingroom.path-prefix} minus {@code waitingroom.ignore-paths}, with the same cookie, page,
 * JSON status and waiting status, at order {@code waitingroom.filter-order} (by default -99, right
 * after Spring Security's {@code WebFilterChainProxy}). Define a {@link WaitingRoomWebFilter} bean
 * to replace it.
 *
 * <p>Unlike the servlet filter, it guards the main room only, and it lets through only what
 * {@code waitingroom.ignore-paths} names: static resources, webjars, the favicon and Actuator are
 * not recognised by themselves, and {@code WaitingRoomBypass} beans are not consulted. Further
 * rooms ({@code waitingroom.rooms.*}) stop a reactive application at startup rather than go
 * unguarded.
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
   * The filter of the main room; see the class comment.
   *
   * @param mainRoom the main room
   * @param namedRooms further rooms, refused
   * @param p the properties
   * @return the filter
   */
  @Bean
  @ConditionalOnMissingBean
  public WaitingRoomWebFilter waitingRoomWebFilter(
      ObjectProvider<WaitingRoom> mainRoom, ObjectProvider<WaitingRooms> namedRooms, WaitingRoomProperties p) {
    if (namedRooms.getIfAvailable() != null) {
      throw new InvalidConfigurationPropertyValueException(
          "waitingroom.rooms",
          p.getRooms().keySet(),
          "further rooms are guarded in servlet applications only; a reactive application has one room,"
              + " configured at waitingroom.*");
    }
    WaitingRoom room = mainRoom.getObject();
    WaitingRoomWebFilter filter =
        WaitingRoomWebFilter.of(
            Gates.gate(WaitingRoomAutoConfiguration.MAIN_ROOM, p, room, List.of()), p.getFilterOrder());
    log.info(
        "waiting room '{}' guards {} at WebFilter order {}; pass without a ticket: {}",
        room.config().roomId(),
        p.getPathPrefix(),
        p.getFilterOrder(),
        p.getIgnorePaths());
    return filter;
  }
}
