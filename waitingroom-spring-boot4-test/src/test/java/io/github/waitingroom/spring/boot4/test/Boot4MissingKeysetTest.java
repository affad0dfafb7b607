package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import io.github.waitingroom.testsupport.HttpVisitor;

/**
 * A promise of docs/spring-boot.md on Spring Boot 4, on a real embedded Tomcat over real HTTP, as
 * {@code MissingKeysetServerTest} checks it on Boot 3: an application configured as the docs say,
 * on a machine without the keyset variable (as CI is), starts on a generated keyset, says so at
 * WARN, and that keyset opens its own tickets while the room still guards.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(
    classes = Boot4Home.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "waitingroom.room-id=boot4-keyset",
      "waitingroom.total-active-users=1",
      "waitingroom.new-users-per-minute=1",
      "waitingroom.session-duration=5m",
      "waitingroom.keyset.env=WR_BOOT4_KEYSET_NOT_ON_THIS_MACHINE"
    })
class Boot4MissingKeysetTest {
  @Value("${local.server.port}")
  int port;

  @Test
  void startsWithoutTheKeysetSecretOnAGeneratedKeysetAndSaysSo(CapturedOutput output) throws Exception {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.");
    assertThat(output.getOut())
        .containsPattern(
            "WARN .* waiting room 'boot4-keyset': the environment variable WR_BOOT4_KEYSET_NOT_ON_THIS_MACHINE"
                + " \\(waitingroom.keyset.env\\) is not set, so this JVM seals tickets with a GENERATED keyset");

    HttpVisitor first = new HttpVisitor(port);
    HttpResponse<String> in = first.get("/", "Accept", "text/html,*/*;q=0.8");
    assertThat(in.body()).isEqualTo("boot 4 home");
    assertThat(in.headers().allValues("Set-Cookie")).anySatisfy(c -> assertThat(c).startsWith("wr_boot4-keyset="));
    // The generated keyset opens its own tickets: the admitted visitor keeps their place ...
    assertThat(first.get("/", "Accept", "text/html,*/*;q=0.8").body()).isEqualTo("boot 4 home");
    // ... and the room still guards: the one slot is taken.
    assertThat(new HttpVisitor(port).get("/", "Accept", "text/html,*/*;q=0.8").body()).contains("You are in line");
  }
}
