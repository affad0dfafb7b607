package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.testsupport.boot.Http2Scenario;
import io.github.waitingroom.testsupport.boot.RunningApp;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.tomcat.reactive.TomcatReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@link Http2Scenario} on Spring Boot 4: a real Tomcat 11, under Spring MVC and under WebFlux.
 * {@code Http2ServerTest} runs the same scenario on Spring Boot 3.
 */
class Boot4Http2Test extends Http2Scenario {
  /** One page on Spring MVC or on WebFlux alike (an annotated controller serves both). */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    @RestController
    static class Shop {
      @GetMapping("/")
      String home() {
        return "shop home";
      }
    }
  }

  /** {@link App} with WebFlux on Tomcat, which Spring Boot 4 would not choose over Reactor Netty. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class ReactiveOnTomcat extends App {
    @Bean
    TomcatReactiveWebServerFactory tomcat() {
      return new TomcatReactiveWebServerFactory();
    }
  }

  @Override
  protected RunningApp start(boolean reactive, String... args) {
    return reactive
        ? Boot4Apps.run(ReactiveOnTomcat.class, WebApplicationType.REACTIVE, TomcatWebServer.class, args)
        : Boot4Apps.run(App.class, WebApplicationType.SERVLET, TomcatWebServer.class, args);
  }

  @Override
  protected void checkBootVersion() {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.");
  }
}
