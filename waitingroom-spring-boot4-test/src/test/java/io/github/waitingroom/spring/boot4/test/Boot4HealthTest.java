package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.spring.boot.actuate.Boot4WaitingRoomHealthIndicator;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import io.github.waitingroom.testsupport.HttpVisitor;

/**
 * The opt-in health indicator in a Spring Boot 4 application (which moved health indicators to
 * {@code org.springframework.boot.health.contributor}), on a real embedded server over real HTTP:
 * the main room and a further room, both on this JVM's store, answer {@code UP} at {@code
 * /actuator/health/waitingRoom} with each room's details, and the indicator is part of the overall
 * health.
 */
@SpringBootTest(
    classes = Boot4Home.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "waitingroom.room-id=boot4-shop",
      "waitingroom.total-active-users=1",
      "waitingroom.new-users-per-minute=1",
      "waitingroom.session-duration=5m",
      "waitingroom.rooms.drop.path-prefix=/drop",
      "waitingroom.rooms.drop.total-active-users=1",
      "waitingroom.rooms.drop.new-users-per-minute=1",
      "waitingroom.rooms.drop.session-duration=5m",
      "management.endpoints.web.exposure.include=health",
      "management.health.waitingroom.enabled=true",
      "management.endpoint.health.show-details=always"
    })
class Boot4HealthTest {
  @Value("${local.server.port}")
  int port;

  @Autowired ApplicationContext context;

  @Test
  void theHealthIndicatorReportsTheMainRoomAndEachFurtherRoomOnBoot4() throws Exception {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.");
    assertThat(context.getBean("waitingRoomHealthIndicator")).isInstanceOf(Boot4WaitingRoomHealthIndicator.class);

    HttpResponse<String> health = new HttpVisitor(port).get("/actuator/health/waitingRoom", "Accept", "application/json");
    assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
    assertThat(health.body())
        .contains("\"status\":\"UP\"")
        .contains("\"room\":\"boot4-shop\"", "\"storeFailing\":false")
        .contains("\"rooms\":{\"drop\":{\"room\":\"drop\",\"storeFailing\":false,\"plansStalled\":false}}");
    // Actuator is not guarded: no ticket cookie.
    assertThat(health.headers().allValues("Set-Cookie")).isEmpty();

    HttpResponse<String> all = new HttpVisitor(port).get("/actuator/health", "Accept", "application/json");
    assertThat(all.statusCode()).isEqualTo(200);
    assertThat(all.body()).contains("\"waitingRoom\":{\"details\":{\"room\":\"boot4-shop\"");
  }
}
