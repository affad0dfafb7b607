package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import io.github.waitingroom.testsupport.FreePorts;
import io.github.waitingroom.testsupport.HttpVisitor;

/**
 * The health indicator on Spring Boot 4 while the store cannot be reached, on a real embedded
 * server over real HTTP: two further rooms (and no main room) on a Redis URI where nothing
 * listens. The indicator is {@code DOWN}, names each room whose store fails, and turns the health
 * endpoint's answer to 503.
 */
@SpringBootTest(
    classes = Boot4HealthDownTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "waitingroom.keyset.generate-ephemeral=true",
      "waitingroom.store.command-timeout=200ms",
      "waitingroom.rooms.drop.path-prefix=/drop",
      "waitingroom.rooms.drop.total-active-users=1",
      "waitingroom.rooms.drop.new-users-per-minute=1",
      "waitingroom.rooms.drop.session-duration=5m",
      "waitingroom.rooms.shop.path-prefix=/shop",
      "waitingroom.rooms.shop.total-active-users=1",
      "waitingroom.rooms.shop.new-users-per-minute=1",
      "waitingroom.rooms.shop.session-duration=5m",
      "management.endpoints.web.exposure.include=health",
      "management.health.waitingroom.enabled=true",
      "management.endpoint.health.show-details=always"
    })
class Boot4HealthDownTest {
  @Value("${local.server.port}")
  int port;

  @DynamicPropertySource
  static void closedRedis(DynamicPropertyRegistry registry) {
    int closed = FreePorts.closed();
    registry.add("waitingroom.store.redis-uri", () -> "redis://127.0.0.1:" + closed);
  }

  @Test
  void theHealthIndicatorIsDownAndNamesEachRoomWhoseStoreFails() throws Exception {
    HttpResponse<String> health = new HttpVisitor(port).get("/actuator/health/waitingRoom", "Accept", "application/json");
    assertThat(health.statusCode()).as(health.body()).isEqualTo(503);
    assertThat(health.body())
        .contains("\"status\":\"DOWN\"")
        .doesNotContain("\"room\":\"boot4")
        .contains("\"drop\":{\"room\":\"drop\",\"storeFailing\":true,", "\"shop\":{\"room\":\"shop\",\"storeFailing\":true,");
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}
}
