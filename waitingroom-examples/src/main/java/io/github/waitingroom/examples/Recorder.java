package io.github.waitingroom.examples;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The {@link LoadGenerator}'s {@code --csv}: a line per report interval with what the room said
 * (its operator status at {@code --status-url}: the limit in force {@code limits.totalActiveUsers},
 * {@code status.activeUsers}, {@code status.waitingUsers} and the adaptive limit's last reason)
 * and what the crowd measured (the shop's pages it got in the interval and their p50 and p90
 * latency, nearest rank). Columns the status did not give are empty.
 */
final class Recorder {
  static final String HEADER =
      "seconds,limit,active_users,waiting_users,p90_ms,p50_ms,pages,in_shop,in_line,reason";

  private static final JsonFactory JSON = new JsonFactory();

  private final PrintWriter out;
  private final @Nullable URI statusUrl;
  private final @Nullable String token;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  Recorder(Path file, @Nullable URI statusUrl, @Nullable String token) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    this.out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), true);
    this.statusUrl = statusUrl;
    this.token = token;
    out.println(HEADER);
  }

  /** What the operator status said. */
  record RoomLine(long limit, long activeUsers, long waitingUsers, String reason) {}

  /** Writes the line of an interval. */
  synchronized void line(long seconds, int inLine, int inShop, long[] sortedPageMillis) {
    RoomLine room = null;
    try {
      room = status();
    } catch (IOException e) {
      // the columns stay empty
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    int n = sortedPageMillis.length;
    out.printf(Locale.ROOT, "%d,%s,%s,%s,%s,%s,%d,%d,%d,%s%n", seconds,
        room == null ? "" : room.limit(), room == null ? "" : room.activeUsers(),
        room == null ? "" : room.waitingUsers(),
        n == 0 ? "" : quantile(sortedPageMillis, 0.9), n == 0 ? "" : quantile(sortedPageMillis, 0.5), n, inShop, inLine,
        room == null ? "" : "\"" + room.reason().replace("\"", "'") + "\"");
  }

  private @Nullable RoomLine status() throws IOException, InterruptedException {
    URI url = statusUrl;
    if (url == null) {
      return null;
    }
    HttpRequest.Builder b = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(5)).GET();
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return r.statusCode() == 200 ? parse(r.body()) : null;
  }

  /** Reads the first room of the operator status: its limit in force, active and waiting users, the reason. */
  static @Nullable RoomLine parse(String body) throws IOException {
    long limit = -1;
    long active = -1;
    long waiting = -1;
    String reason = "";
    try (JsonParser p = JSON.createParser(body)) {
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t != JsonToken.FIELD_NAME) {
          continue;
        }
        String name = p.currentName();
        JsonToken v = p.nextToken();
        if (name.equals("totalActiveUsers") && limit < 0 && v == JsonToken.VALUE_NUMBER_INT) {
          limit = p.getLongValue();
        } else if (name.equals("activeUsers") && active < 0 && v == JsonToken.VALUE_NUMBER_INT) {
          active = p.getLongValue();
        } else if (name.equals("waitingUsers") && waiting < 0 && v == JsonToken.VALUE_NUMBER_INT) {
          waiting = p.getLongValue();
        } else if (name.equals("reason") && reason.isEmpty() && v == JsonToken.VALUE_STRING) {
          reason = p.getText();
        }
      }
    }
    return limit < 0 ? null : new RoomLine(limit, active, waiting, reason);
  }

  /** The {@code q} quantile (nearest rank) of sorted values. */
  static long quantile(long[] sorted, double q) {
    int i = (int) Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
    return sorted[i];
  }
}
