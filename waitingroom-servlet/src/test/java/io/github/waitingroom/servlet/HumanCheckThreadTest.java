package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.HandCheck;
import io.github.waitingroom.http.HumanCheck;
import jakarta.servlet.Filter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The servlet filter's human check over real Jetty: where the container supports asynchronous
 * requests, no request thread waits for the service (the thread returns before the verdict, and the
 * answer follows it); where it does not, the check is asked on the request's thread, with the same
 * answer. The service is a check whose verdicts the test gives by hand.
 */
class HumanCheckThreadTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final HandCheck check = new HandCheck("site-key");
  /** The server and the room of a test, closed in that order after it. */
  private final java.util.Deque<AutoCloseable> open = new java.util.ArrayDeque<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c = open.pollLast(); c != null; c = open.pollLast()) {
      c.close();
    }
  }

  /** A room of one slot, taken by a first visitor, behind the filter with the hand-run check. */
  private TestServer fullRoom(boolean async) throws Exception {
    RoomConfig config = RoomConfig.builder("shop").totalActiveUsers(1).newUsersPerMinute(1)
        .sessionDuration(Duration.ofSeconds(60)).sliceWidth(Duration.ofSeconds(10))
        .refreshInterval(Duration.ofSeconds(5)).waitingTimeout(Duration.ofMinutes(20)).build();
    WaitingRoom r = WaitingRoom.builder(config, KEYS).clock(clock).backgroundSync(false).build();
    open.add(r);
    Filter filter = WaitingRoomFilter.builder(r).humanCheck(check).build();
    TestServer s = async ? TestServer.start(filter) : TestServer.startWithoutAsync(filter);
    open.add(s);
    assertThat(new Visitor(s).get("/").body()).startsWith("app:");
    s.threadsReturned.clear();
    return s;
  }

  @Test
  void noRequestThreadWaitsForTheServiceWhenTheContainerSupportsAsync() throws Exception {
    TestServer s = fullRoom(true);
    Visitor v = new Visitor(s);
    assertThat(v.get("/").body()).contains("data-callback=\"wrHumanCheck\"");
    assertThat(s.threadsReturned.take()).as("the challenge page is answered on its thread").isFalse();

    CompletableFuture<HttpResponse<String>> asked = send(s, v, "/?waitingRoomStatus=1&waitingRoomHuman=person");
    CompletableFuture<HumanCheck.Verdict> verdict = check.asked().take();
    assertThat(s.threadsReturned.take()).as("the thread went back to the container, the request goes on").isTrue();
    assertThat(asked).isNotDone();

    verdict.complete(HumanCheck.Verdict.PASSED);
    HttpResponse<String> answer = asked.get(30, TimeUnit.SECONDS);
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.headers().firstValue("Cache-Control")).hasValue("private, no-store");
    assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    assertThat(answer.body()).contains("\"status\":\"queued\"");
    assertThat(v.ticket("wr_shop_q")).as("the place the check gave, in its cookie").isNotNull();
    assertThat(s.appHits.get()).isEqualTo(1);
  }

  @Test
  void aFailedCheckAnsweredLaterLeavesTheChallenge() throws Exception {
    TestServer s = fullRoom(true);
    Visitor v = new Visitor(s);
    v.get("/");
    CompletableFuture<HttpResponse<String>> asked = send(s, v, "/?waitingRoomStatus=1&waitingRoomHuman=bot");
    check.asked().take().completeExceptionally(new IllegalStateException("the service is down"));
    HttpResponse<String> answer = asked.get(30, TimeUnit.SECONDS);
    assertThat(answer.body()).contains("\"status\":\"challenge\"");
    assertThat(v.ticket("wr_shop_q")).isNull();
  }

  @Test
  void withoutAsyncSupportTheCheckIsAskedOnTheRequestThreadWithTheSameAnswer() throws Exception {
    TestServer s = fullRoom(false);
    Visitor v = new Visitor(s);
    v.get("/");
    s.threadsReturned.clear();
    CompletableFuture<HttpResponse<String>> asked = send(s, v, "/?waitingRoomStatus=1&waitingRoomHuman=person");
    check.asked().take().complete(HumanCheck.Verdict.PASSED);
    HttpResponse<String> answer = asked.get(30, TimeUnit.SECONDS);
    assertThat(answer.body()).contains("\"status\":\"queued\"");
    assertThat(s.threadsReturned.take()).as("answered on the request's own thread").isFalse();
  }

  /** Sends a status poll with the visitor's cookies, without waiting for its answer. */
  private static CompletableFuture<HttpResponse<String>> send(TestServer s, Visitor v, String path) {
    HttpClient client = HttpClient.newBuilder().cookieHandler(v.jar).build();
    URI uri = s.uri(path);
    HttpRequest request = HttpRequest.newBuilder(uri).header("Accept", "application/json").GET().build();
    return client.sendAsync(request, HttpResponse.BodyHandlers.ofString());
  }
}
