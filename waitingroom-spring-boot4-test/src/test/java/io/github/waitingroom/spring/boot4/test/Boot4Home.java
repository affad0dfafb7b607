package io.github.waitingroom.spring.boot4.test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The application of several Boot 4 tests: the starter's auto-configuration and one page, {@code
 * boot 4 home} at {@code /}, on Spring MVC or on WebFlux alike (an annotated controller serves both).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class Boot4Home {
  /** Starts it as a {@code type} application on a free port, with these command-line arguments. */
  static ConfigurableApplicationContext run(WebApplicationType type, String... args) {
    return new SpringApplicationBuilder(Boot4Home.class)
        .web(type)
        .properties("server.port=0", "spring.main.banner-mode=off")
        .run(args);
  }

  /** The one page. */
  @RestController
  static class Home {
    @GetMapping("/")
    String home() {
      return "boot 4 home";
    }
  }
}
