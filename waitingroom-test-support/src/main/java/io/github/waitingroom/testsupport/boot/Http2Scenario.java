package io.github.waitingroom.testsupport.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.testsupport.HttpVisitor;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The starter on a real embedded Tomcat that speaks HTTP/2 ({@code server.http2.enabled}: h2c here,
 * as behind TLS), with Spring MVC and with WebFlux. HTTP/2 forbids {@code Connection} in a response,
 * and Tomcat sends it when an application sets it, which browsers and curl refuse as a protocol
 * error (the JDK's client shows the header); so the waiting page the gate writes for a queued
 * visitor's form, whose body it never reads, says it over HTTP/1.1 only.
 *
 * <p>The application serves {@code shop home} at {@code GET /}. A subclass per Boot version starts
 * it on Tomcat, as a servlet application or a reactive one.
 */
public abstract class Http2Scenario {
  private static final String QUEUED = "You are in line";

  /** Creates the scenario; a subclass per Boot version. */
  protected Http2Scenario() {}

  /**
   * Starts the application with these command-line arguments on port 0, on Tomcat: a servlet
   * application, or a reactive one. Fails unless it runs on Tomcat.
   */
  protected abstract RunningApp start(boolean reactive, String... args);

  /** Checks that the test runs on the Boot version its module is for; called by each test. */
  protected abstract void checkBootVersion();

  @ParameterizedTest(name = "reactive={0}")
  @ValueSource(booleans = {false, true})
  void aQueuedVisitorsFormGetsTheWaitingPageOverHttp2WithoutConnectionClose(boolean reactive) throws Exception {
    checkBootVersion();
    try (RunningApp app = start(reactive, "--server.http2.enabled=true", "--waitingroom.room-id=shop",
        "--waitingroom.total-active-users=2", "--waitingroom.new-users-per-minute=2",
        "--waitingroom.session-duration=5m", "--waitingroom.keyset.generate-ephemeral=true")) {
      int port = app.port();
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

      // Over HTTP/1.1 the same answer says the connection closes (the gate contract says why).
      HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      HttpResponse<String> old = http1.send(form(port), HttpResponse.BodyHandlers.ofString());
      assertThat(old.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
      assertThat(old.body()).contains(QUEUED);
      assertThat(old.headers().firstValue("Connection")).hasValue("close");
    }
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
