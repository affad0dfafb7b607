package io.github.waitingroom.spring.boot4.test;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** One browser-like visitor over real HTTP: a java.net.http client with its own cookie jar. */
final class Http {
  private final HttpClient client =
      HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(5)).build();
  private final int port;

  Http(int port) {
    this.port = port;
  }

  HttpResponse<String> get(String path, String accept) throws IOException, InterruptedException {
    HttpRequest r =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Accept", accept)
            .timeout(Duration.ofSeconds(10))
            .build();
    return client.send(r, HttpResponse.BodyHandlers.ofString());
  }
}
