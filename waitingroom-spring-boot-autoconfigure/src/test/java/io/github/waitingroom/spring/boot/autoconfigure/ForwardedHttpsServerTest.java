package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.testsupport.boot.ForwardedHttpsScenario;
import io.github.waitingroom.testsupport.boot.RunningApp;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.embedded.netty.NettyWebServer;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@link ForwardedHttpsScenario} on Spring Boot 3: {@link ShopApplication} on Tomcat, and a reactive
 * shop with the same two routes on Reactor Netty ({@link OnReactorNetty}). {@code
 * Boot4ForwardedHttpsTest} runs the same scenario on Spring Boot 4.
 */
class ForwardedHttpsServerTest extends ForwardedHttpsScenario {
  /** A reactive shop with the same two routes as {@link ShopApplication}'s. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import(OnReactorNetty.class)
  static class ReactiveShop {
    @Bean
    RouterFunction<ServerResponse> routes() {
      return RouterFunctions.route()
          .GET("/", request -> ServerResponse.ok().bodyValue("shop home"))
          .POST("/orders", request -> ServerResponse.ok().bodyValue("order placed"))
          .build();
    }
  }

  @Override
  protected RunningApp start(boolean reactive, String... args) {
    return reactive
        ? BootApps.run(ReactiveShop.class, WebApplicationType.REACTIVE, NettyWebServer.class, args)
        : BootApps.run(ShopApplication.class, WebApplicationType.SERVLET, TomcatWebServer.class, args);
  }

  @Override
  protected void checkBootVersion() {
    assertThat(SpringBootVersion.getVersion()).startsWith("3.");
  }
}
