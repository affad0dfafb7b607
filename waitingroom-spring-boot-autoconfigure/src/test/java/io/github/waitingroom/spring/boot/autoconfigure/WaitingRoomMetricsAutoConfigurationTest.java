package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.micrometer.WaitingRoomMetrics;
import io.github.waitingroom.spring.boot.actuate.WaitingRoomMeterBinder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The rooms' gauges in the application's registry, bound by Spring Boot's metrics support. */
class WaitingRoomMetricsAutoConfigurationTest {
  private static final String[] MAIN_AND_DROP = {
    "waitingroom.room-id=unit",
    "waitingroom.total-active-users=10",
    "waitingroom.new-users-per-minute=5",
    "waitingroom.session-duration=10m",
    "waitingroom.keyset.generate-ephemeral=true",
    "waitingroom.rooms.drop.path-prefix=/drop",
    "waitingroom.rooms.drop.total-active-users=3",
    "waitingroom.rooms.drop.new-users-per-minute=2",
    "waitingroom.rooms.drop.session-duration=1m"
  };

  private final WebApplicationContextRunner runner =
      new WebApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  WaitingRoomAutoConfiguration.class,
                  WaitingRoomServletAutoConfiguration.class,
                  WaitingRoomMetricsAutoConfiguration.class,
                  MetricsAutoConfiguration.class))
          .withUserConfiguration(Registry.class);

  @Configuration(proxyBeanMethods = false)
  static class Registry {
    @Bean
    SimpleMeterRegistry registry() {
      return new SimpleMeterRegistry();
    }
  }

  @Test
  void theMainRoomAndEveryFurtherRoomHaveTheirGauges() {
    runner
        .withPropertyValues(MAIN_AND_DROP)
        .run(
            context -> {
              assertThat(context).hasNotFailed().hasSingleBean(WaitingRoomMeterBinder.class);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertThat(registry.get("waitingroom.limit.active.users").tag("room", "unit").gauge().value()).isEqualTo(10);
              assertThat(registry.get("waitingroom.limit.active.users").tag("room", "drop").gauge().value()).isEqualTo(3);
              assertThat(registry.get("waitingroom.limit.new.users.per.minute").tag("room", "drop").gauge().value()).isEqualTo(2);
              assertThat(registry.get("waitingroom.store.failing").tag("room", "unit").gauge().value()).isZero();
              assertThat(registry.find("waitingroom.users.active").tag("scope", "room").gauges()).hasSize(2);
              assertThat(registry.find("waitingroom.users.waiting").gauges()).hasSize(2);

              // Live values: an admission shows on this node at once.
              assertThat(context.getBean(WaitingRoom.class).decide(null).letsThrough()).isTrue();
              assertThat(registry.get("waitingroom.users.active").tags("room", "unit", "scope", "node").gauge().value())
                  .isEqualTo(1);
            });
  }

  @Test
  void onlyFurtherRoomsStillHaveTheirGauges() {
    runner
        .withPropertyValues(
            "waitingroom.keyset.generate-ephemeral=true",
            "waitingroom.rooms.drop.path-prefix=/drop",
            "waitingroom.rooms.drop.total-active-users=3",
            "waitingroom.rooms.drop.new-users-per-minute=2",
            "waitingroom.rooms.drop.session-duration=1m")
        .run(
            context -> {
              assertThat(context).hasNotFailed().doesNotHaveBean(WaitingRoom.class);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertThat(registry.get("waitingroom.limit.active.users").tag("room", "drop").gauge().value()).isEqualTo(3);
              assertThat(registry.find("waitingroom.limit.active.users").gauges()).hasSize(1);
            });
  }

  @Test
  void backsOffWhenTheApplicationBindsItsOwnMetrics() {
    runner
        .withPropertyValues(MAIN_AND_DROP)
        .withUserConfiguration(OwnMetrics.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed().doesNotHaveBean(WaitingRoomMeterBinder.class);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              // Only the application's own: the main room, with its tag; no gauges for "drop".
              assertThat(registry.get("waitingroom.limit.active.users").tags("room", "unit", "app", "shop").gauge().value())
                  .isEqualTo(10);
              assertThat(registry.find("waitingroom.limit.active.users").gauges()).hasSize(1);
            });
    runner
        .withPropertyValues(MAIN_AND_DROP)
        .withUserConfiguration(OwnBinder.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed().hasSingleBean(WaitingRoomMeterBinder.class).hasBean("ownBinder");
            });
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnMetrics {
    @Bean
    WaitingRoomMetrics ownMetrics(WaitingRoom room) {
      return new WaitingRoomMetrics(room, Tags.of("app", "shop"));
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnBinder {
    @Bean
    WaitingRoomMeterBinder ownBinder(WaitingRoom room) {
      return new WaitingRoomMeterBinder(room, new io.github.waitingroom.spring.boot.WaitingRooms(java.util.Map.of()));
    }
  }

  @Test
  void nothingWithoutARegistryOrWithoutMicrometerOrWithoutARoom() {
    new WebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(WaitingRoomAutoConfiguration.class, WaitingRoomMetricsAutoConfiguration.class))
        .withPropertyValues(MAIN_AND_DROP)
        .run(context -> assertThat(context).hasNotFailed().hasSingleBean(WaitingRoom.class).doesNotHaveBean(WaitingRoomMeterBinder.class));
    runner
        .withPropertyValues(MAIN_AND_DROP)
        .withClassLoader(new FilteredClassLoader(WaitingRoomMetrics.class))
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(WaitingRoomMeterBinder.class));
    runner
        .withPropertyValues("waitingroom.enabled=false")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(WaitingRoomMeterBinder.class));
  }
}
