package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.testsupport.boot.RunningApp;
import java.util.Objects;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts a test application the Spring Boot 4 way for the scenarios of {@code
 * waitingroom-test-support} ({@code io.github.waitingroom.testsupport.boot}), which
 * {@code BootApps} of the auto-configuration module starts the Boot 3 way.
 */
final class Boot4Apps {
  private Boot4Apps() {}

  /**
   * Runs {@code app} on port 0, without a banner, and fails (closing it) unless it runs on {@code
   * server}.
   */
  static RunningApp run(Class<?> app, WebApplicationType type, Class<? extends WebServer> server, String... args) {
    ConfigurableApplicationContext context = new SpringApplicationBuilder(app)
        .web(type)
        .properties("server.port=0", "spring.main.banner-mode=off")
        .run(args);
    WebServer web = Objects.requireNonNull(((WebServerApplicationContext) context).getWebServer());
    try {
      assertThat(web).isInstanceOf(server);
    } catch (AssertionError e) {
      context.close();
      throw e;
    }
    return new RunningApp() {
      @Override
      public int port() {
        return web.getPort();
      }

      @Override
      public RoomStatus status() {
        return context.getBean(WaitingRoom.class).status();
      }

      @Override
      public void close() {
        context.close();
      }
    };
  }
}
