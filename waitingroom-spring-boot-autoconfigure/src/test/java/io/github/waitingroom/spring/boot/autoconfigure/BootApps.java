package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.testsupport.boot.RunningApp;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.boot.web.server.WebServer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts a test application the Spring Boot 3 way for the scenarios of {@code
 * waitingroom-test-support} ({@code io.github.waitingroom.testsupport.boot}), which
 * {@code Boot4Apps} starts the Boot 4 way; {@link RunningApp#of} checks its server.
 */
final class BootApps {
  private BootApps() {}

  /**
   * Runs {@code app} on port 0, without a banner, and fails (closing it) unless it runs on {@code
   * server}.
   */
  static RunningApp run(Class<?> app, WebApplicationType type, Class<? extends WebServer> server, String... args) {
    ConfigurableApplicationContext context = new SpringApplicationBuilder(app)
        .web(type)
        .properties("server.port=0", "spring.main.banner-mode=off")
        .run(args);
    WebServer web = ((WebServerApplicationContext) context).getWebServer();
    return RunningApp.of(web, server, web::getPort, () -> context.getBean(WaitingRoom.class).status(), context::close);
  }
}
