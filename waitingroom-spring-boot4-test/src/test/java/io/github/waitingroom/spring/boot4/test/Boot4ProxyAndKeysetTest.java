package io.github.waitingroom.spring.boot4.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Two promises of docs/spring-boot.md on Spring Boot 4, on a real embedded Tomcat over real HTTP:
 * an application configured as the docs say, on a machine without the keyset variable (as CI is),
 * starts on a generated keyset and says so at WARN; and behind a TLS-terminating proxy ({@code
 * server.forward-headers-strategy=framework}) the ticket cookies are {@code Secure} and the waiting
 * page's way back to a posted form stays on the https origin.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(
    classes = Boot4ProxyAndKeysetTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.forward-headers-strategy=framework",
      "waitingroom.room-id=boot4-proxy",
      "waitingroom.total-active-users=1",
      "waitingroom.new-users-per-minute=1",
      "waitingroom.session-duration=5m",
      "waitingroom.keyset.env=WR_BOOT4_KEYSET_NOT_ON_THIS_MACHINE"
    })
class Boot4ProxyAndKeysetTest {
  @Value("${local.server.port}")
  int port;

  private static HttpClient client() {
    return HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(5)).build();
  }

  private HttpRequest.Builder proxied(String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .header("X-Forwarded-Proto", "https")
        .header("X-Forwarded-Host", "shop.example")
        .header("X-Forwarded-Port", "443")
        .header("Accept", "text/html,*/*;q=0.8")
        .timeout(Duration.ofSeconds(10));
  }

  @Test
  void startsWithoutTheKeysetSecretAndKeepsHttpsBehindAProxy(CapturedOutput output) throws Exception {
    assertThat(SpringBootVersion.getVersion()).startsWith("4.");
    assertThat(output.getOut())
        .containsPattern(
            "WARN .* waiting room 'boot4-proxy': the environment variable WR_BOOT4_KEYSET_NOT_ON_THIS_MACHINE"
                + " \\(waitingroom.keyset.env\\) is not set, so this JVM seals tickets with a GENERATED keyset");

    HttpClient first = client();
    HttpResponse<String> in = first.send(proxied("/").GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(in.body()).isEqualTo("boot 4 home");
    List<String> cookies = in.headers().allValues("Set-Cookie");
    assertThat(cookies).anySatisfy(c -> assertThat(c).startsWith("wr_boot4-proxy="));
    assertThat(cookies).allSatisfy(c -> assertThat(c).containsIgnoringCase("; Secure"));
    // The generated keyset opens its own tickets. (The browser sends its Secure cookie over https
    // to the proxy; this client speaks plain http to the server, so it is sent by hand.)
    String ticket = cookies.stream().filter(c -> c.startsWith("wr_boot4-proxy=")).findFirst().orElseThrow();
    HttpResponse<String> again =
        HttpClient.newHttpClient()
            .send(proxied("/").header("Cookie", ticket.substring(0, ticket.indexOf(';'))).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(again.body()).isEqualTo("boot 4 home");

    HttpResponse<String> queued =
        client()
            .send(
                proxied("/orders")
                    .header("Referer", "https://shop.example/order-form")
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("item=tea"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(queued.body()).contains("You are in line", "url=/order-form\"").doesNotContain("http://");
    assertThat(queued.headers().allValues("Set-Cookie")).allSatisfy(c -> assertThat(c).containsIgnoringCase("; Secure"));
  }

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    @RestController
    static class Home {
      @GetMapping("/")
      String home() {
        return "boot 4 home";
      }

      @PostMapping("/orders")
      String order() {
        return "order placed";
      }
    }
  }
}
