package io.github.waitingroom.servlet;

import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** One browser-like visitor: a java.net.http client with its own cookie jar. */
final class Visitor {
  final CookieManager jar = new CookieManager();
  private final HttpClient client;
  private final TestServer server;
  /** The client address a proxy in front would forward ({@code X-Forwarded-For}), or null. */
  private final @Nullable String address;

  Visitor(TestServer server) {
    this(server, null);
  }

  /**
   * A visitor from another address, as a proxy in front tells it: for a server started {@linkplain
   * TestServer#startBehindProxy behind a proxy}, whose container then reports it as the remote address.
   */
  Visitor(TestServer server, @Nullable String address) {
    this.server = server;
    this.address = address;
    this.client =
        HttpClient.newBuilder().cookieHandler(jar).connectTimeout(Duration.ofSeconds(5)).build();
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send(path, "text/html,application/xhtml+xml,*/*;q=0.8");
  }

  HttpResponse<String> getJson(String path) throws IOException, InterruptedException {
    return send(path, "application/json");
  }

  HttpResponse<String> options(String path) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(server.uri(path))
            .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
            .header("Origin", "https://elsewhere.example")
            .header("Access-Control-Request-Method", "POST")
            .timeout(Duration.ofSeconds(10))
            .build();
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Sends {@code method} (without a body) with exactly the given headers; the path is sent as
   * written, percent-escapes and {@code ;} included.
   */
  HttpResponse<String> send(String method, String path, Map<String, String> headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(server.uri(path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(10));
    headers.forEach(b::header);
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Sends a form ({@code application/x-www-form-urlencoded}) as a browser does, with its {@code Referer}. */
  HttpResponse<String> postForm(String path, String form, String referer) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(server.uri(path))
            .header("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Referer", referer)
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build();
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> send(String path, String accept) throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(server.uri(path)).header("Accept", accept).timeout(Duration.ofSeconds(10)).GET();
    if (address != null) {
      b.header("X-Forwarded-For", address);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The ticket cookie's value in the jar, or null. */
  @Nullable String ticket(String cookieName) {
    for (HttpCookie c : jar.getCookieStore().getCookies()) {
      if (c.getName().equals(cookieName)) {
        return c.getValue();
      }
    }
    return null;
  }

  /** Replaces the jar's ticket cookie with the given value, as a client that edits its cookie would. */
  void setTicket(String cookieName, String value) {
    URI uri = server.uri("/");
    for (HttpCookie c : List.copyOf(jar.getCookieStore().getCookies())) {
      if (c.getName().equals(cookieName)) {
        jar.getCookieStore().remove(null, c);
      }
    }
    HttpCookie c = new HttpCookie(cookieName, value);
    c.setPath("/");
    c.setVersion(0);
    jar.getCookieStore().add(uri, c);
  }
}
