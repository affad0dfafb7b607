package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.micrometer.WaitingRoomMetrics;
import io.github.waitingroom.spring.boot.WaitingRooms;
import io.github.waitingroom.spring.boot.actuate.WaitingRoomMeterBinder;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Micrometer metrics, when {@code waitingroom-micrometer} and Micrometer are on the classpath and
 * the application has a {@link MeterRegistry} (Actuator makes one): a {@link WaitingRoomMeterBinder}
 * that binds the gauges of {@link WaitingRoomMetrics} for the main room and every room of {@code
 * waitingroom.rooms}, each tagged {@code room=<room id>}. Spring Boot's metrics auto-configuration
 * binds it to every registry. An application that defines its own {@link WaitingRoomMeterBinder} or
 * {@link WaitingRoomMetrics} bean (other tags, say) replaces it; {@code
 * management.metrics.enable.waitingroom=false} turns the meters off as for any other meter.
 *
 * <p>Ordered after Spring Boot's metrics auto-configurations by name, as they moved between Spring
 * Boot 3.5 ({@code org.springframework.boot.actuate.autoconfigure.metrics}) and 4 ({@code
 * org.springframework.boot.micrometer.metrics.autoconfigure}).
 */
@AutoConfiguration(
    after = WaitingRoomAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
      "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"
    })
@ConditionalOnClass({WaitingRoom.class, MeterRegistry.class, WaitingRoomMetrics.class})
@ConditionalOnBean(MeterRegistry.class)
@Conditional(RoomConditions.AnyRoom.class)
public class WaitingRoomMetricsAutoConfiguration {
  /** Creates the auto-configuration; Spring calls it. */
  public WaitingRoomMetricsAutoConfiguration() {}

  /**
   * The gauges of every room.
   *
   * @param room the main room, if any
   * @param rooms the further rooms, if any
   * @return a binder over all of them
   */
  @Bean
  @ConditionalOnMissingBean({WaitingRoomMeterBinder.class, WaitingRoomMetrics.class})
  public WaitingRoomMeterBinder waitingRoomMeterBinder(ObjectProvider<WaitingRoom> room, ObjectProvider<WaitingRooms> rooms) {
    return new WaitingRoomMeterBinder(room.getIfAvailable(), rooms.getIfAvailable(() -> new WaitingRooms(Map.of())));
  }
}
