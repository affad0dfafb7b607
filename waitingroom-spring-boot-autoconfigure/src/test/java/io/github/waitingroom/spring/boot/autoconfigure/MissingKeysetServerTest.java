package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import io.github.waitingroom.testsupport.FreePorts;
import io.github.waitingroom.testsupport.HttpVisitor;

/**
 * Adding the starter never breaks an application's own tests: real {@code SpringApplication} runs
 * on a real embedded Tomcat (port 0), configured as the docs say, on a machine without the keyset
 * secret (as CI is). One JVM with the in-memory store runs on a generated keyset and says so at
 * WARN; a store shared by several nodes stops startup with a report naming the property to set;
 * {@code waitingroom.enabled=false} switches the room off.
 */
@ExtendWith(OutputCaptureExtension.class)
class MissingKeysetServerTest {
  private static final String[] DOCUMENTED = {
    "--waitingroom.room-id=shop",
    "--waitingroom.total-active-users=1",
    "--waitingroom.new-users-per-minute=1",
    "--waitingroom.session-duration=5m",
    "--waitingroom.keyset.env=WR_TEST_KEYSET_NOT_ON_THIS_MACHINE"
  };

  private static SpringApplicationBuilder app() {
    return new SpringApplicationBuilder(ShopApplication.class)
        .web(WebApplicationType.SERVLET)
        .properties("server.port=0", "spring.main.banner-mode=off");
  }

  private static int port(ConfigurableApplicationContext context) {
    return ((WebServerApplicationContext) context).getWebServer().getPort();
  }

  @Test
  void oneJvmWithoutTheSecretRunsOnAGeneratedKeysetAndSaysSo(CapturedOutput output) throws Exception {
    try (ConfigurableApplicationContext context = app().run(DOCUMENTED)) {
      int port = port(context);
      HttpVisitor first = new HttpVisitor(port);
      HttpResponse<String> home = first.get("/");
      assertThat(home.body()).isEqualTo("shop home");
      assertThat(home.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("wr_shop="));
      // The generated keyset opens its own tickets: the admitted visitor keeps their place ...
      assertThat(first.get("/api/items").body()).isEqualTo("[\"tea\",\"cups\"]");
      // ... and the room still guards: the one slot is taken.
      assertThat(new HttpVisitor(port).get("/").body()).contains("You are in line");
    }
    assertThat(output.getOut())
        .containsPattern(
            "WARN .* waiting room 'shop': the environment variable WR_TEST_KEYSET_NOT_ON_THIS_MACHINE"
                + " \\(waitingroom.keyset.env\\) is not set, so this JVM seals tickets with a GENERATED keyset")
        .doesNotContain("APPLICATION FAILED TO START");
  }

  @Test
  void aSharedStoreWithoutTheSecretStopsStartupNamingTheProperty(CapturedOutput output) throws Exception {
    int closed = FreePorts.closed();
    String redis = "--waitingroom.store.redis-uri=redis://127.0.0.1:" + closed;
    assertThatThrownBy(() -> app().run(concat(DOCUMENTED, redis)).close()).isNotNull();
    assertThat(output.getOut() + output.getErr())
        .contains("APPLICATION FAILED TO START")
        .contains("configuration property 'waitingroom.keyset.env'")
        .contains("is not set, and the room's store is shared with other nodes");
  }

  @Test
  void enabledFalseSwitchesTheRoomOffForTests() throws Exception {
    // The whole configuration a test needs: no limits, no keyset.
    try (ConfigurableApplicationContext context = app().run("--waitingroom.enabled=false")) {
      int port = port(context);
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> home = new HttpVisitor(port).get("/");
        assertThat(home.body()).isEqualTo("shop home");
        assertThat(home.headers().allValues("Set-Cookie")).isEmpty();
      }
    }
  }

  private static String[] concat(String[] a, String b) {
    String[] r = java.util.Arrays.copyOf(a, a.length + 1);
    r[a.length] = b;
    return r;
  }
}
