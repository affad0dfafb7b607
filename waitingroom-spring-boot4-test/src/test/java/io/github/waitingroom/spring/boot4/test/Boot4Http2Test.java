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

/**
 * {@link Http2Scenario} on Spring Boot 4: a real Tomcat 11, under Spring MVC and under WebFlux.
 * {@code Http2ServerTest} runs the same scenario on Spring Boot 3.
 */
class Boot4Http2Test extends Http2Scenario {
  /**
   * The shop of {@link Boot4ForwardedHttpsTest} ({@code shop home} at {@code /}) with WebFlux on
   * Tomcat, which Spring Boot 4 would not choose over Reactor Netty.
   */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class ReactiveOnTomcat extends Boot4ForwardedHttpsTest.App {
    @Bean
    TomcatReactiveWebServerFactory tomcat() {
      return new TomcatReactiveWebServerFactory();
    }
  }

  @Override
  protected RunningApp start(boolean reactive, String... args) {
    return reactive
        ? Boot4Apps.run(ReactiveOnTomcat.class, WebApplicationType.REACTIVE, TomcatWebServer.class, args)
        : Boot4Apps.run(Boot4ForwardedHttpsTest.App.class, WebApplicationType.SERVLET, TomcatWebServer.class, args);
  }

  @Override
  protected void checkBootVersion() {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.");
  }
}
