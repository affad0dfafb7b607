package io.github.waitingroom.redis;

import com.google.crypto.tink.KeysetHandle;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.waitingroom.Decision;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One node of a room as its own JVM, for the multi-process test: the filterless core behind the
 * JDK's HTTP server, coordinated through Redis, on a manual clock that the test sets over HTTP.
 * The answers carry the manual clock as the store's instead of Redis's {@code TIME}, so that the
 * manual clock is the room's clock (the test runs minutes of sessions in seconds, and sets every
 * node's clock alike; where time comes from is {@link ClockSkewTest}'s subject).
 *
 * <ul>
 *   <li>{@code POST /admin/join?millis=...} builds the room (its first sync is its join) with the
 *       clock at {@code millis}. Nothing else works before.
 *   <li>{@code GET /visit?ticket=...} decides one request; answers {@code <outcome> <ticket>}.
 *   <li>{@code POST /admin/clock?millis=...} sets this node's clock (epoch milliseconds).
 *   <li>{@code POST /admin/sync} runs one sync; answers {@code <failing> <active users of the room
 *       in the last plan>}.
 * </ul>
 *
 * Arguments: {@code redisUri keyPrefix roomId dataCenter nodeId keysetFile limit}. Prints {@code
 * PORT <n>} once it listens, connected to Redis and ready to join.
 */
public final class NodeMain {
  private NodeMain() {}

  public static void main(String[] args) throws Exception {
    String redisUri = args[0];
    String prefix = args[1];
    String roomId = args[2];
    String dc = args[3];
    String node = args[4];
    KeysetHandle keys = TicketKeys.fromJson(Files.readString(Path.of(args[5])));
    int limit = Integer.parseInt(args[6]);
    RoomConfig config =
        RoomConfig.builder(roomId)
            .totalActiveUsers(limit)
            .newUsersPerMinute(limit)
            .sessionDuration(Duration.ofMinutes(10))
            .refreshInterval(Duration.ofSeconds(20))
            .waitingTimeout(Duration.ofMinutes(2))
            .build();
    ManualClock clock = new ManualClock(Instant.EPOCH);
    TestTransport transport = new TestTransport(RedisTransport.builder(redisUri).keyPrefix(prefix).build(), clock);
    // Connects now: joining is then one quick round trip.
    transport.exchange("warm-up", List.of(new Transport.Publication("warm-up", "warm-up", new byte[0])), Duration.ofSeconds(5));
    AtomicReference<WaitingRoom> joined = new AtomicReference<>();
    HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    http.createContext(
        "/admin/join",
        ex -> {
          Map<String, String> q = query(ex);
          clock.set(Instant.ofEpochMilli(Long.parseLong(q.getOrDefault("millis", "0"))));
          joined.set(
              WaitingRoom.builder(config, keys)
                  .clock(clock)
                  .transport(transport)
                  .dataCenter(dc)
                  .nodeId(node)
                  .backgroundSync(false)
                  .build());
          reply(ex, "ok");
        });
    http.createContext(
        "/visit",
        ex -> {
          String ticket = query(ex).get("ticket");
          Decision d = joined(joined).decide(ticket == null || ticket.isEmpty() ? null : ticket);
          reply(ex, d.outcome() + " " + (d.ticket() == null ? "" : d.ticket()));
        });
    http.createContext(
        "/admin/clock",
        ex -> {
          clock.set(Instant.ofEpochMilli(Long.parseLong(query(ex).getOrDefault("millis", "0"))));
          reply(ex, "ok");
        });
    http.createContext(
        "/admin/sync",
        ex -> {
          WaitingRoom room = joined(joined);
          room.sync();
          reply(ex, room.transportFailing() + " " + room.status().activeUsers());
        });
    http.start();
    System.out.println("PORT " + http.getAddress().getPort());
    System.out.flush();
  }

  private static WaitingRoom joined(AtomicReference<WaitingRoom> joined) {
    WaitingRoom room = joined.get();
    if (room == null) {
      throw new IllegalStateException("not joined yet");
    }
    return room;
  }

  private static Map<String, String> query(HttpExchange ex) {
    Map<String, String> out = new HashMap<>();
    String q = ex.getRequestURI().getRawQuery();
    if (q != null) {
      for (String pair : q.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          out.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return out;
  }

  private static void reply(HttpExchange ex, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(200, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}
