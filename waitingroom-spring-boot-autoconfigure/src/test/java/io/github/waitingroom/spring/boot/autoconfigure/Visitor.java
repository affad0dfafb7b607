package io.github.waitingroom.spring.boot.autoconfigure;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** One browser-like visitor over real HTTP: a java.net.http client with its own cookie jar. */
final class Visitor {
  private final HttpClient client;
  private final int port;

  Visitor(int port) {
    this.port = port;
    this.client =
        HttpClient.newBuilder()
            .cookieHandler(new CookieManager())
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
    return send("GET", path, headers);
  }

  /** A request of any method, without a body. */
  HttpResponse<String> send(String method, String path, String... headers) throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
            .timeout(Duration.ofSeconds(10))
            .method(method, HttpRequest.BodyPublishers.noBody());
    for (int i = 0; i + 1 < headers.length; i += 2) {
      b.setHeader(headers[i], headers[i + 1]);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
