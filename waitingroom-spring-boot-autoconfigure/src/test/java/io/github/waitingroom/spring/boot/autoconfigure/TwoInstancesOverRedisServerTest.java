package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.testsupport.boot.RunningApp;
import io.github.waitingroom.testsupport.boot.TwoInstancesOverRedisScenario;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@link TwoInstancesOverRedisScenario} on Spring Boot 3: two instances of {@link ShopApplication},
 * each on its own embedded Tomcat, over the real Redis. {@code Boot4TwoInstancesOverRedisTest} runs
 * the same scenario on Spring Boot 4.
 */
class TwoInstancesOverRedisServerTest extends TwoInstancesOverRedisScenario {
  @Override
  protected RunningApp start(String... args) {
    ConfigurableApplicationContext context = new SpringApplicationBuilder(ShopApplication.class)
        .web(WebApplicationType.SERVLET)
        .properties("server.port=0", "spring.main.banner-mode=off")
        .run(args);
    return new RunningApp() {
      @Override
      public int port() {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
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

  @Override
  protected void checkBootVersion() {
    assertThat(SpringBootVersion.getVersion()).startsWith("3.");
  }

  @Override
  protected String keysetVariable() {
    return "WR_TWO_INSTANCES_KEYSET";
  }
}
