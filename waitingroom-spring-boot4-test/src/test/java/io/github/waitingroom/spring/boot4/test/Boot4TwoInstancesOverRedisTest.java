package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.testsupport.boot.RunningApp;
import io.github.waitingroom.testsupport.boot.TwoInstancesOverRedisScenario;
import org.junit.jupiter.api.Tag;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.boot.tomcat.TomcatWebServer;

/**
 * {@link TwoInstancesOverRedisScenario} on Spring Boot 4: two instances of a Boot 4 application,
 * each on its own Tomcat 11, over the real Redis. {@code TwoInstancesOverRedisServerTest} runs the
 * same scenario on Spring Boot 3 in every build; this one is tagged {@code slow} (-P full).
 */
@Tag("slow")
class Boot4TwoInstancesOverRedisTest extends TwoInstancesOverRedisScenario {
  /** The pages the scenario asks for. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    @RestController
    static class Pages {
      @GetMapping("/")
      String home() {
        return HOME;
      }

      @GetMapping("/api/items")
      String items() {
        return "[\"tea\",\"cups\"]";
      }
    }
  }

  @Override
  protected RunningApp start(String... args) {
    return Boot4Apps.run(App.class, WebApplicationType.SERVLET, TomcatWebServer.class, args);
  }

  @Override
  protected void checkBootVersion() {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.");
  }

  @Override
  protected String keysetVariable() {
    return "WR_BOOT4_TWO_INSTANCES_KEYSET";
  }
}
