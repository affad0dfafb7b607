package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.testsupport.HttpVisitor;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.context.ApplicationContext;

/**
 * The starter on a real embedded Tomcat that speaks HTTP/2 ({@code server.http2.enabled}: h2c
 * here, as behind TLS), with Spring MVC ({@link ReactiveHttp2ServerTest}: with WebFlux). HTTP/2
 * forbids {@code Connection} in a response, and Tomcat sends it when an application sets it, which
 * browsers and curl refuse as a protocol error (the JDK's client shows the header); so the waiting
 * page the gate writes for a queued visitor's form, whose body it never reads, says it over
 * HTTP/1.1 only.
 */
@SpringBootTest(
    classes = ShopApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "server.http2.enabled=true",
      "waitingroom.room-id=shop",
      "waitingroom.total-active-users=2",
      "waitingroom.new-users-per-minute=2",
      "waitingroom.session-duration=5m",
      "waitingroom.keyset.generate-ephemeral=true"
    })
class Http2ServerTest {
  private static final String QUEUED = "You are in line";

  @LocalServerPort int port;
  @Autowired ApplicationContext context;

  @Test
  void aQueuedVisitorsFormGetsTheWaitingPageOverHttp2WithoutConnectionClose() throws Exception {
    check(context, port);
  }

  /** What both tests check, on the application of {@code context} at {@code port}; see the class comment. */
  static void check(ApplicationContext context, int port) throws Exception {
    assertThat(((WebServerApplicationContext) context).getWebServer()).isInstanceOf(TomcatWebServer.class);
    assertThat(new HttpVisitor(port).get("/").body()).isEqualTo("shop home");
    assertThat(new HttpVisitor(port).get("/").body()).isEqualTo("shop home");

    HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).cookieHandler(new CookieManager())
        .connectTimeout(Duration.ofSeconds(5)).build();
    // The first request upgrades the connection to HTTP/2 (h2c); the form then goes over HTTP/2.
    HttpResponse<String> page = h2.send(HttpRequest.newBuilder(uri(port, "/")).header("Accept", "text/html").build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(page.version()).isEqualTo(HttpClient.Version.HTTP_2);
    assertThat(page.body()).contains(QUEUED);
    HttpResponse<String> form = h2.send(form(port), HttpResponse.BodyHandlers.ofString());
    assertThat(form.version()).isEqualTo(HttpClient.Version.HTTP_2);
    assertThat(form.statusCode()).isEqualTo(200);
    assertThat(form.body()).contains(QUEUED);
    assertThat(form.headers().firstValue("Connection")).as("a header HTTP/2 forbids").isEmpty();

    // Over HTTP/1.1 the same answer says the connection closes (GateContract says why).
    HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpResponse<String> old = http1.send(form(port), HttpResponse.BodyHandlers.ofString());
    assertThat(old.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
    assertThat(old.body()).contains(QUEUED);
    assertThat(old.headers().firstValue("Connection")).hasValue("close");
  }

  private static HttpRequest form(int port) {
    return HttpRequest.newBuilder(uri(port, "/owners"))
        .header("Accept", "text/html").header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("firstName=Ada&lastName=Lovelace")).build();
  }

  private static URI uri(int port, String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }
}
