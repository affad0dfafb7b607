package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.InMemoryTransport;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two nodes of one room without session affinity, each a real Jetty with its own {@link
 * WaitingRoomFilter} and its own {@link WaitingRoom}; the rooms share an {@link InMemoryTransport}
 * and a {@link ManualClock}, and the test syncs both four times a second as their background
 * threads would. The test is the browser: it keeps the cookies itself, sends exactly the cookies
 * it chooses and applies each answer's {@code Set-Cookie} headers in the order it chooses.
 *
 * <p>A page of a waiting user sends two requests at once, with the same cookies: node A, whose
 * plan calls the user, admits one; node B, which has just joined the room and has no plan yet (as
 * any node whose plan does not call the user yet), answers the other with "keep waiting" and a
 * new ticket. With one cookie the browser keeps whichever
 * answer comes last, and if that is B's, the session A just gave is lost and the next request is
 * turned away. With two cookies the session and the place never overwrite each other.
 */
class TwoNodesParallelRequestsTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final String SESSION = "wr_shop";
  private static final String PLACE = "wr_shop_q";
  private static final Duration STEP = Duration.ofMillis(250);

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final InMemoryTransport transport = new InMemoryTransport(clock);
  private final List<WaitingRoom> rooms = new ArrayList<>();
  private final List<TestServer> servers = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private @Nullable TestServer nodeA;
  private @Nullable TestServer nodeB;

  /** One active user, sessions of 60 s, refresh every 10 s, places kept 5 min. */
  private static RoomConfig config() {
    return RoomConfig.builder("shop")
        .totalActiveUsers(1)
        .newUsersPerMinute(1)
        .sessionDuration(Duration.ofSeconds(60))
        .bucketWidth(Duration.ofSeconds(60))
        .sliceWidth(Duration.ofSeconds(10))
        .refreshInterval(Duration.ofSeconds(10))
        .waitingTimeout(Duration.ofMinutes(5))
        .build();
  }

  private TestServer node(String id) throws Exception {
    WaitingRoom room =
        WaitingRoom.builder(config(), KEYS)
            .clock(clock)
            .transport(transport)
            .nodeId(id)
            .backgroundSync(false)
            .build();
    rooms.add(room);
    TestServer server = TestServer.start(WaitingRoomFilter.builder(room).build());
    servers.add(server);
    return server;
  }

  @BeforeEach
  void start() throws Exception {
    nodeA = node("a");
    advance(Duration.ofSeconds(6)); // node A joins the room and applies its plans
  }

  @AfterEach
  void stop() throws Exception {
    for (TestServer s : servers) {
      s.close();
    }
    rooms.forEach(WaitingRoom::close);
  }

  /** Moves time on in quarter seconds, syncing both nodes at each, as their sync threads would. */
  private void advance(Duration by) {
    for (long ms = 0; ms < by.toMillis(); ms += STEP.toMillis()) {
      clock.advance(STEP);
      rooms.forEach(WaitingRoom::sync);
    }
  }

  /** One answer: whether the application served it, and the cookies it set, by name. */
  private record Answer(HttpResponse<String> response, Map<String, String> setCookies) {
    boolean passed() {
      return response.statusCode() == 200 && response.body().startsWith("app:");
    }

    boolean waiting() {
      return response.body().contains("<h1>You are in line</h1>");
    }
  }

  /** A page request with exactly these cookies. */
  private Answer get(@Nullable TestServer node, Map<String, String> cookies) throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(java.util.Objects.requireNonNull(node).uri("/tickets"))
            .header("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
            .timeout(Duration.ofSeconds(10))
            .GET();
    if (!cookies.isEmpty()) {
      b.header(
          "Cookie",
          cookies.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("; ")));
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    Map<String, String> set = new LinkedHashMap<>();
    for (String c : r.headers().allValues("Set-Cookie")) {
      String pair = c.split(";", 2)[0];
      int eq = pair.indexOf('=');
      assertThat(set.put(pair.substring(0, eq), pair.substring(eq + 1))).as("one Set-Cookie per name").isNull();
    }
    return new Answer(r, set);
  }

  /** A browser's cookie jar after it applied these answers' {@code Set-Cookie} headers in this order. */
  private static Map<String, String> applied(Map<String, String> jar, Answer... answers) {
    Map<String, String> next = new LinkedHashMap<>(jar);
    for (Answer a : answers) {
      next.putAll(a.setCookies());
    }
    return next;
  }

  /**
   * Cookie-less visitors come to node A until the room is full: the admitted get the session
   * cookie only; the first who is queued gets the place cookie only, and is the user.
   *
   * @return the queued user's cookies
   */
  private Map<String, String> fillTheRoomAndQueue() throws IOException, InterruptedException {
    for (int i = 0; i < 10; i++) {
      Answer a = get(nodeA, Map.of());
      if (a.passed()) {
        assertThat(a.setCookies()).as("an admitted visitor's cookies").containsOnlyKeys(SESSION);
      } else {
        assertThat(a.waiting()).isTrue();
        assertThat(a.setCookies()).as("a queued visitor's cookies").containsOnlyKeys(PLACE);
        return new LinkedHashMap<>(a.setCookies());
      }
    }
    return fail("the room never filled up");
  }

  @Test
  void aWaitingAnswerToOneOfTwoParallelRequestsNeverOverwritesTheSessionTheOtherWasGiven() throws Exception {
    Map<String, String> user = fillTheRoomAndQueue();

    // The waiting page reloads itself every 2 s, one request at a time, on node A, until node A
    // calls the user in. Then the page's requests go out two at once, with the same cookies: the
    // one that reaches node A is admitted, the one that reaches node B (which joins the room at
    // that moment, so no plan of its own calls anyone yet) is told to keep waiting, with a new
    // place ticket. (A node with the room's plan lets a called user in wherever it polls.)
    for (int s = 1; s <= 4 * 240; s++) {
      advance(STEP);
      if (s % 8 != 0) {
        continue;
      }
      Map<String, String> sent = Map.copyOf(user);
      Answer onA = get(nodeA, sent);
      if (!onA.passed()) {
        assertThat(onA.waiting()).isTrue();
        assertThat(onA.setCookies()).as("a waiting answer never writes the session cookie").doesNotContainKey(SESSION);
        user = applied(user, onA);
        continue;
      }
      nodeB = node("b");
      Answer onB = get(nodeB, sent); // sent at the same moment as onA, with the same cookies
      assertThat(onA.setCookies()).as("node A lets the user in: a session").containsOnlyKeys(SESSION);
      assertThat(onB.waiting()).as("node B keeps the user waiting").isTrue();
      assertThat(onB.setCookies()).as("node B's answer carries a place, in the place cookie").containsOnlyKeys(PLACE);

      // Whichever answer the browser applies last, its next request passes, on either node.
      for (Map<String, String> jar : List.of(applied(sent, onA, onB), applied(sent, onB, onA))) {
        assertThat(jar).containsKeys(SESSION, PLACE);
        assertThat(jar.get(SESSION)).isEqualTo(onA.setCookies().get(SESSION));
        assertThat(get(nodeA, jar).passed()).as("next request on node A, cookies %s", jar.keySet()).isTrue();
        assertThat(get(nodeB, jar).passed()).as("next request on node B, cookies %s", jar.keySet()).isTrue();
      }

      // With one cookie, B's answer applied last would have left the waiting ticket where the
      // session was, and the next request would have been turned away.
      Map<String, String> oneCookie = Map.of(SESSION, onB.setCookies().get(PLACE));
      assertThat(get(nodeA, oneCookie).passed()).as("one cookie, node A").isFalse();
      assertThat(get(nodeB, oneCookie).passed()).as("one cookie, node B").isFalse();
      return;
    }
    fail("node A never called the user in");
  }
}
