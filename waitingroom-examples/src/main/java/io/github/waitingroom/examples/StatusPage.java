package io.github.waitingroom.examples;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How a visitor of the {@link LoadGenerator} asks for the page, as the waiting page's script
 * does: with {@code Accept: application/json} and the visitor's own cookies (kept and dropped as
 * the {@code Set-Cookie} headers say), reading the room's JSON status from the answer.
 */
final class StatusPage {
  private static final JsonFactory JSON = new JsonFactory();

  private final URI url;
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NORMAL).build();

  StatusPage(URI url) {
    this.url = url;
  }

  /** What the JSON status said. */
  record Status(long usersAhead, long waitMinutes, long refreshSeconds) {}

  /** Asks for the page; the status when the visitor is (still) in line, otherwise null. */
  @Nullable Status ask(Map<String, String> cookies)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).header("Accept", "application/json").GET();
    if (!cookies.isEmpty()) {
      StringBuilder c = new StringBuilder();
      cookies.forEach((k, v) -> c.append(c.length() == 0 ? "" : "; ").append(k).append('=').append(v));
      b.header("Cookie", c.toString());
    }
    HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    for (String set : r.headers().allValues("Set-Cookie")) {
      String pair = set.split(";", 2)[0];
      int eq = pair.indexOf('=');
      if (eq > 0) {
        if (set.contains("Max-Age=0")) {
          cookies.remove(pair.substring(0, eq).trim());
        } else {
          cookies.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
      }
    }
    if (r.statusCode() >= 500) {
      throw new IOException("HTTP " + r.statusCode());
    }
    boolean json = r.headers().firstValue("Content-Type").orElse("").startsWith("application/json");
    return json ? parse(r.body()) : null;
  }

  /** Reads the waiting room's JSON status; null when it says the visitor is not in line. */
  static @Nullable Status parse(String body) throws IOException {
    boolean inLine = false;
    long ahead = 0;
    long wait = -1;
    long refresh = 1;
    try (JsonParser p = JSON.createParser(body)) {
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t != JsonToken.FIELD_NAME) {
          continue;
        }
        String name = p.currentName();
        JsonToken v = p.nextToken();
        switch (name) {
          case "inWaitingRoom" -> inLine = v == JsonToken.VALUE_TRUE;
          case "usersAhead" -> ahead = p.getLongValue();
          case "waitTime" -> wait = v == JsonToken.VALUE_NULL ? -1 : p.getLongValue();
          case "refreshIntervalSeconds" -> refresh = p.getLongValue();
          default -> {}
        }
      }
    }
    return inLine ? new Status(ahead, wait, refresh) : null;
  }
}
