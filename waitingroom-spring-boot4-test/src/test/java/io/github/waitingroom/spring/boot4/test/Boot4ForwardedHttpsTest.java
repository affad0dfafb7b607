package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.testsupport.boot.ForwardedHttpsScenario;
import io.github.waitingroom.testsupport.boot.RunningApp;
import org.junit.jupiter.api.Tag;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.reactor.netty.NettyWebServer;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@link ForwardedHttpsScenario} on Spring Boot 4: a real Tomcat 11 (servlet) and a real Reactor
 * Netty (reactive). {@code ForwardedHttpsServerTest} runs the same scenario on Spring Boot 3 in
 * every build; this one is tagged {@code slow} (-P full).
 */
@Tag("slow")
class Boot4ForwardedHttpsTest extends ForwardedHttpsScenario {
  /** One application with the same routes on Spring MVC and on WebFlux (annotated controllers serve both). */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    @RestController
    static class Shop {
      @GetMapping("/")
      String home() {
        return "shop home";
      }

      @PostMapping("/orders")
      String order() {
        return "order placed";
      }
    }
  }

  @Override
  protected RunningApp start(boolean reactive, String... args) {
    return Boot4Apps.run(
        App.class,
        reactive ? WebApplicationType.REACTIVE : WebApplicationType.SERVLET,
        reactive ? NettyWebServer.class : TomcatWebServer.class,
        args);
  }

  @Override
  protected void checkBootVersion() {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.");
  }
}
