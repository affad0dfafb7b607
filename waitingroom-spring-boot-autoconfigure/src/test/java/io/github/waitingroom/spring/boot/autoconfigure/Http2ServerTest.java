package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.testsupport.boot.Http2Scenario;
import io.github.waitingroom.testsupport.boot.RunningApp;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@link Http2Scenario} on Spring Boot 3: {@link ShopApplication} on Tomcat, and a reactive shop on
 * Tomcat too (Spring Boot 3's choice when both Tomcat and Reactor Netty are there). {@code
 * Boot4Http2Test} runs the same scenario on Spring Boot 4.
 */
class Http2ServerTest extends Http2Scenario {
  /** A reactive shop of one route, no Spring MVC. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class ReactiveShop {
    @Bean
    RouterFunction<ServerResponse> routes() {
      return RouterFunctions.route().GET("/", request -> ServerResponse.ok().bodyValue("shop home")).build();
    }
  }

  @Override
  protected RunningApp start(boolean reactive, String... args) {
    return reactive
        ? BootApps.run(ReactiveShop.class, WebApplicationType.REACTIVE, TomcatWebServer.class, args)
        : BootApps.run(ShopApplication.class, WebApplicationType.SERVLET, TomcatWebServer.class, args);
  }

  @Override
  protected void checkBootVersion() {
    assertThat(SpringBootVersion.getVersion()).startsWith("3.");
  }
}
