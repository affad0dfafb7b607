package io.github.waitingroom.spring.boot4.test;

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
 * {@code BootApps} of the auto-configuration module starts the Boot 3 way; {@link RunningApp#of}
 * checks its server.
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
    return RunningApp.of(web, server, web::getPort, () -> context.getBean(WaitingRoom.class).status(), context::close);
  }
}
