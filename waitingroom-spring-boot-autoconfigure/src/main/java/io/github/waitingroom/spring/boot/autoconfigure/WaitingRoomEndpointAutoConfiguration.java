package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.spring.boot.WaitingRooms;
import io.github.waitingroom.spring.boot.actuate.Boot4WaitingRoomHealthIndicator;
import io.github.waitingroom.spring.boot.actuate.WaitingRoomEndpoint;
import io.github.waitingroom.spring.boot.actuate.WaitingRoomHealthIndicator;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Actuator support, when Actuator is on the classpath and a room exists: the {@link
 * WaitingRoomEndpoint} (available like any endpoint once exposed; the main room and the further
 * rooms of {@code waitingroom.rooms}), and the opt-in {@link WaitingRoomHealthIndicator} over the
 * same rooms ({@code management.health.waitingroom.enabled=true}; see its comment for why it is not
 * on by default). On Spring Boot 4, whose health indicators live in {@code
 * org.springframework.boot.health.contributor}, the indicator is a {@link
 * Boot4WaitingRoomHealthIndicator} under the same bean name.
 */
@AutoConfiguration(after = WaitingRoomAutoConfiguration.class)
@ConditionalOnClass({WaitingRoom.class, Endpoint.class, ConditionalOnAvailableEndpoint.class})
@Conditional(RoomConditions.AnyRoom.class)
public class WaitingRoomEndpointAutoConfiguration {
  /** Creates the auto-configuration; Spring calls it. */
  public WaitingRoomEndpointAutoConfiguration() {}

  /** The {@code waitingroom} endpoint: the main room, and the further rooms by name. */
  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnAvailableEndpoint
  public WaitingRoomEndpoint waitingRoomEndpoint(ObjectProvider<WaitingRoom> room, ObjectProvider<WaitingRooms> rooms) {
    return new WaitingRoomEndpoint(room.getIfAvailable(), rooms.getIfAvailable(() -> new WaitingRooms(Map.of())));
  }

  /** Spring Boot 3.5: health indicators in {@code org.springframework.boot.actuate.health}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
  @ConditionalOnProperty(prefix = "management.health.waitingroom", name = "enabled", havingValue = "true")
  static class HealthConfiguration {
    @Bean
    @ConditionalOnMissingBean(name = "waitingRoomHealthIndicator")
    WaitingRoomHealthIndicator waitingRoomHealthIndicator(
        ObjectProvider<WaitingRoom> room, ObjectProvider<WaitingRooms> rooms) {
      return new WaitingRoomHealthIndicator(room.getIfAvailable(), rooms.getIfAvailable(() -> new WaitingRooms(Map.of())));
    }
  }

  /**
   * Spring Boot 4: health indicators in {@code org.springframework.boot.health.contributor}. The
   * same bean name as on Boot 3.5, so the indicator answers at {@code /actuator/health/waitingRoom}
   * on both.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  @ConditionalOnProperty(prefix = "management.health.waitingroom", name = "enabled", havingValue = "true")
  static class Boot4HealthConfiguration {
    @Bean
    @ConditionalOnMissingBean(name = "waitingRoomHealthIndicator")
    Boot4WaitingRoomHealthIndicator waitingRoomHealthIndicator(
        ObjectProvider<WaitingRoom> room, ObjectProvider<WaitingRooms> rooms) {
      return new Boot4WaitingRoomHealthIndicator(
          room.getIfAvailable(), rooms.getIfAvailable(() -> new WaitingRooms(Map.of())));
    }
  }
}
