package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.testsupport.boot.RunningApp;
import io.github.waitingroom.testsupport.boot.TwoInstancesOverRedisScenario;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;

/**
 * {@link TwoInstancesOverRedisScenario} on Spring Boot 3: two instances of {@link ShopApplication},
 * each on its own embedded Tomcat, over the real Redis. {@code Boot4TwoInstancesOverRedisTest} runs
 * the same scenario on Spring Boot 4.
 */
class TwoInstancesOverRedisServerTest extends TwoInstancesOverRedisScenario {
  @Override
  protected RunningApp start(String... args) {
    return BootApps.run(ShopApplication.class, WebApplicationType.SERVLET, TomcatWebServer.class, args);
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
