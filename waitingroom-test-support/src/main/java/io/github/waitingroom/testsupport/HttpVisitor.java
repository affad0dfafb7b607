package io.github.waitingroom.testsupport;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * One browser-like visitor of a server on 127.0.0.1 over real HTTP: a {@code java.net.http} client
 * with its own cookie jar, asking for HTML as a browser does unless told otherwise.
 */
public final class HttpVisitor {
  private static final String BROWSER_ACCEPT = "text/html,application/xhtml+xml,*/*;q=0.8";

  private final HttpClient client =
      HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(5)).build();
  private final int port;

  /** A visitor of the server on {@code http://127.0.0.1:port}, with an empty cookie jar. */
  public HttpVisitor(int port) {
    this.port = port;
  }

  /**
   * A {@code GET}.
   *
   * @param path the path and query, sent as written
   * @param headers names and values, alternately; each replaces the default of that name ({@code Accept})
   */
  public HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
    return send("GET", path, headers);
  }

  /** A request of any method, without a body; {@code headers} as for {@link #get}. */
  public HttpResponse<String> send(String method, String path, String... headers) throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("Accept", BROWSER_ACCEPT)
            .timeout(Duration.ofSeconds(10))
            .method(method, HttpRequest.BodyPublishers.noBody());
    for (int i = 0; i + 1 < headers.length; i += 2) {
      b.setHeader(headers[i], headers[i + 1]);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
