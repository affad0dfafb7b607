package io.github.waitingroom.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.redis.RedisTransport;
import io.github.waitingroom.servlet.WaitingRoomDashboard;
import io.github.waitingroom.servlet.WaitingRoomFilter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import io.github.waitingroom.testsupport.LocalRedis;

/**
 * Two nodes of one room over a real Redis (127.0.0.1:6379, keys under a prefix of their own,
 * deleted afterwards), each a {@link WaitingRoom} behind its own real Jetty with the filter and
 * the operator dashboard: a change sent to node A's {@code PUT /settings} is what node B's site
 * answers within a bounded number of syncs. The nodes share a {@link ManualClock}, sync only when
 * the test says (four times an epoch, as their background threads would), and keep time by it:
 * the answers carry it as the store's clock instead of Redis's {@code TIME}, so nothing depends on
 * how fast real time passes.
 */
class LiveSettingsOverRedisTest {
  private static final String REDIS = LocalRedis.URI_STRING;
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final String TOKEN = "redis-operator-token-0123";
  /** Syncs of both nodes after which a change must be in force on each: two epochs and a margin. */
  private static final int MAX_ROUNDS = 16;

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final String prefix = "wr-test:live-settings:" + UUID.randomUUID().toString().substring(0, 8) + ":";
  private final List<WaitingRoom> rooms = new ArrayList<>();
  private final List<Server> servers = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** Answers whose store clock is the test's manual clock, which the nodes then keep time by. */
  private record ManualTime(Transport redis, InstantSource clock) implements Transport, AutoCloseable {
    @Override
    public Map<String, Map<String, byte[]>> exchange(String roomId, List<Publication> publications, Duration retention)
        throws IOException {
      Map<String, Map<String, byte[]>> answer = new HashMap<>(redis.exchange(roomId, publications, retention));
      answer.put(Transport.CLOCK_SCOPE, Map.of("now", ByteBuffer.allocate(8).putLong(clock.millis()).array()));
      return answer;
    }

    @Override
    public void close() throws Exception {
      if (redis instanceof AutoCloseable c) {
        c.close();
      }
    }
  }

  /** A node: its room over Redis, and a Jetty with the filter, the dashboard and an application. */
  private URI node(String id) throws Exception {
    RoomConfig config =
        RoomConfig.builder("sale")
            .totalActiveUsers(1)
            .newUsersPerMinute(1)
            .sessionDuration(Duration.ofSeconds(60))
            .refreshInterval(Duration.ofSeconds(10))
            .build();
    WaitingRoom room =
        WaitingRoom.builder(config, KEYS)
            .clock(clock)
            .transport(new ManualTime(RedisTransport.builder(REDIS).keyPrefix(prefix).build(), clock))
            .nodeId(id)
            .backgroundSync(false)
            .build();
    rooms.add(room);
    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    context.addFilter(new FilterHolder(WaitingRoomFilter.builder(room).build()), "/*", EnumSet.of(DispatcherType.REQUEST));
    context.addServlet(new ServletHolder(new HttpServlet() {
      @Override
      protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        res.setContentType("text/plain;charset=UTF-8");
        res.getWriter().write("app:" + id);
      }
    }), "/");
    context.addServlet(new ServletHolder(WaitingRoomDashboard.builder(room).bearerToken(TOKEN).settingsChanges(true).build()),
        "/ops/*");
    jetty.setHandler(context);
    jetty.start();
    servers.add(jetty);
    return URI.create("http://127.0.0.1:" + connector.getLocalPort());
  }

  /** One round: a quarter epoch on, both nodes synced. */
  private void round() {
    clock.advance(Duration.ofMillis(250));
    rooms.forEach(WaitingRoom::sync);
  }

  @AfterEach
  void stop() throws Exception {
    for (Server s : servers) {
      s.stop();
    }
    rooms.forEach(WaitingRoom::close);
    try (RedisClient client = RedisClient.create(REDIS); StatefulRedisConnection<String, String> c = client.connect()) {
      for (String key : c.sync().keys(prefix + "*")) {
        c.sync().del(key);
      }
    } catch (RuntimeException e) {
      // Redis was not there: nothing to delete.
    }
  }

  private HttpResponse<String> get(URI node, String path, Map<String, String> headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(node.resolve(path)).timeout(Duration.ofSeconds(10)).GET();
    headers.forEach(b::header);
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> put(URI node, String body) throws Exception {
    HttpRequest r = HttpRequest.newBuilder(node.resolve("/ops/settings?room=sale"))
        .timeout(Duration.ofSeconds(10))
        .header("Authorization", "Bearer " + TOKEN)
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(body))
        .build();
    return http.send(r, HttpResponse.BodyHandlers.ofString());
  }

  /** Rounds until {@code until} holds; how many it took (fails past {@link #MAX_ROUNDS}). */
  private int roundsUntil(java.util.concurrent.Callable<Boolean> until, String what) throws Exception {
    for (int i = 1; i <= MAX_ROUNDS; i++) {
      round();
      if (until.call()) {
        return i;
      }
    }
    throw new AssertionError(what + " not within " + MAX_ROUNDS + " syncs of each node");
  }

  @Test
  void aChangeOnNodeAIsWhatNodeBServesWithinTwoEpochs() throws Exception {
    LocalRedis.require();
    URI a = node("a");
    URI b = node("b");
    for (int i = 0; i < 24; i++) {
      round(); // both join the room and settle their plans
    }
    HttpResponse<String> before = get(b, "/shop", Map.of("Accept", "text/html"));
    assertThat(before.statusCode()).isEqualTo(200);
    assertThat(before.body()).doesNotContain("Sold out");

    // Reject, sent to node A: node B's newcomers get the sold-out page.
    HttpResponse<String> changed = put(a, "{\"queueingMethod\":\"reject\"}");
    assertThat(changed.statusCode()).isEqualTo(200);
    assertThat(changed.body()).contains("\"version\":1");
    int rounds = roundsUntil(() -> get(b, "/shop", Map.of("Accept", "text/html")).statusCode() == 403, "node B rejecting");
    HttpResponse<String> soldOut = get(b, "/shop", Map.of("Accept", "text/html"));
    assertThat(soldOut.body()).contains("<h1>Sold out</h1>");
    assertThat(get(b, "/ops/status?room=sale", Map.of("Authorization", "Bearer " + TOKEN)).body())
        .contains("\"settingsVersion\":1");
    assertThat(rooms.get(1).settings().queueingMethod().jsonName()).isEqualTo("reject");
    assertThat(rooms.get(0).settings().version()).as("node A too").isEqualTo(1);
    assertThat(rounds).isLessThanOrEqualTo(12);

    // Node B knows version 1 now: a change built on an old version is refused there too.
    HttpResponse<String> stale = put(b, "{\"version\":1,\"suspended\":true}");
    assertThat(stale.statusCode()).isEqualTo(409);

    // Suspended, sent to node B: node A's site pauses, and the settings read on A say so.
    assertThat(put(b, "{\"queueingMethod\":\"fifo\",\"suspended\":true}").statusCode()).isEqualTo(200);
    roundsUntil(() -> get(a, "/shop", Map.of("Accept", "text/html")).body().contains("The site is paused for maintenance"),
        "node A paused");
    assertThat(get(a, "/ops/settings?room=sale", Map.of("Authorization", "Bearer " + TOKEN)).body())
        .contains("\"suspended\":true", "\"versionInForce\":2");
  }
}
