package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.Decision;
import io.github.waitingroom.FailurePolicy;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Redis that stops answering, Redis that is killed and restarted empty, Redis that is flushed,
 * and a node that restarts with the same id. Time comes from a manual clock; only the network
 * timeouts are real (and short), and nothing asserts on how long anything took.
 */
class FaultTest {
  private static final String FAILED = "coordinator transport failed";
  private static final String BACK = "coordinator transport answers again";

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:05Z"));
  private final List<AutoCloseable> closing = new ArrayList<>();
  private String prefix = "";
  private String sharedUri = "";

  @BeforeEach
  void setUp() {
    sharedUri = RedisSupport.requireRedis();
    prefix = RedisSupport.uniquePrefix("faults");
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = closing.size() - 1; i >= 0; i--) {
      closing.get(i).close();
    }
    if (sharedUri.isEmpty()) {
      return; // skipped: Redis was unreachable
    }
    RedisClient admin = RedisSupport.adminClient(sharedUri);
    try (StatefulRedisConnection<String, String> c = admin.connect()) {
      RedisSupport.deleteKeys(c.sync(), prefix);
    } finally {
      admin.shutdown();
    }
  }

  private static RoomConfig config() {
    return RoomConfig.builder("faults-" + UUID.randomUUID().toString().substring(0, 8))
        .totalActiveUsers(10)
        .newUsersPerMinute(10)
        .sessionDuration(Duration.ofMinutes(5))
        .refreshInterval(Duration.ofSeconds(20))
        .waitingTimeout(Duration.ofMinutes(2))
        .build();
  }

  private <T extends AutoCloseable> T closeLater(T c) {
    closing.add(c);
    return c;
  }

  private RedisTransport transport(String uri) {
    return closeLater(
        RedisTransport.builder(uri).keyPrefix(prefix).commandTimeout(Duration.ofMillis(500)).build());
  }

  private WaitingRoom room(RoomConfig config, RedisTransport t, String dc, String node, FailurePolicy policy) {
    return closeLater(
        WaitingRoom.builder(config, MultiNodeSimulation.KEYS)
            .clock(clock)
            .transport(t)
            .dataCenter(dc)
            .nodeId(node)
            .failurePolicy(policy)
            .backgroundSync(false)
            .build());
  }

  /** Makes sure the room is in touch before a test relies on it (a loaded machine may be slow). */
  private WaitingRoom ready(WaitingRoom room) {
    if (room.transportFailing()) {
      assertThat(syncsUntilBack(room, 5)).as("the transport answers at all").isLessThanOrEqualTo(5);
    }
    return room;
  }

  private List<String> admit(WaitingRoom room, int n) {
    List<String> tickets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Decision d = room.decide(null);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.ADMIT);
      tickets.add(String.valueOf(d.ticket()));
    }
    return tickets;
  }

  private void tick(WaitingRoom... rooms) {
    clock.advance(Duration.ofSeconds(1));
    for (WaitingRoom r : rooms) {
      r.sync();
    }
  }

  /** Syncs until the transport answers; returns how many syncs that took. */
  private int syncsUntilBack(WaitingRoom room, int most) {
    for (int i = 1; i <= most; i++) {
      tick(room);
      if (!room.transportFailing()) {
        return i;
      }
    }
    return most + 1;
  }

  @Test
  void redisThatStopsAnsweringFailsClosedLogsOncePerEpisodeAndRecoversAtTheNextSync() throws Exception {
    PausableProxy proxy = closeLater(new PausableProxy("127.0.0.1", URI.create(sharedUri).getPort()));
    RoomConfig config = config();
    WaitingRoom room = ready(room(config, transport(proxy.uri()), "dc-a", "n1", FailurePolicy.FAIL_CLOSED));
    List<String> admitted = admit(room, 4);
    tick(room);
    assertThat(room.transportFailing()).isFalse();

    try (LogCapture log = new LogCapture()) {
      proxy.pause();
      tick(room);
      tick(room);
      tick(room);
      assertThat(room.transportFailing()).isTrue();
      assertThat(log.count(FAILED)).as("one warning per episode, not per sync").isEqualTo(1);
      // Admitted users keep passing; new arrivals queue although the last view had free slots.
      clock.advance(Duration.ofSeconds(10));
      for (String ticket : admitted) {
        assertThat(room.decide(ticket).letsThrough()).isTrue();
      }
      assertThat(room.decide(null).outcome()).isEqualTo(Decision.Outcome.QUEUE);
      assertThat(room.view().activeUsers()).as("the last view, kept up to date with this node's own counts").isEqualTo(4);

      proxy.resume();
      assertThat(syncsUntilBack(room, 2)).as("syncs until the transport answers again").isLessThanOrEqualTo(2);
      assertThat(log.count(BACK)).isEqualTo(1);
      assertThat(room.decide(null).outcome()).isEqualTo(Decision.Outcome.ADMIT);

      proxy.pause();
      tick(room);
      tick(room);
      assertThat(log.count(FAILED)).as("a second episode logs again, once").isEqualTo(2);
      proxy.resume();
      assertThat(syncsUntilBack(room, 2)).isLessThanOrEqualTo(2);
    }
  }

  @Test
  void failOpenAdmitsUpToItsLastBudgetPerMinuteOfOutage() throws Exception {
    PausableProxy proxy = closeLater(new PausableProxy("127.0.0.1", URI.create(sharedUri).getPort()));
    RoomConfig config = config();
    WaitingRoom room = ready(room(config, transport(proxy.uri()), "dc-a", "n1", FailurePolicy.FAIL_OPEN));
    admit(room, 4);
    tick(room);
    proxy.pause();
    tick(room);
    assertThat(room.transportFailing()).isTrue();
    // The last good budget: 10 - 4 = 6 new arrivals, once per minute of outage.
    assertThat(admitCount(room, 20)).isEqualTo(6);
    tick(room);
    assertThat(admitCount(room, 20)).as("the allowance is not renewed by every sync").isZero();
    clock.advance(Duration.ofSeconds(60));
    tick(room);
    assertThat(admitCount(room, 20)).isEqualTo(6);
    proxy.resume();
    assertThat(syncsUntilBack(room, 2)).isLessThanOrEqualTo(2);
    assertThat(admitCount(room, 20)).as("back in touch: the view shows the room over its limit").isZero();
  }

  private static int admitCount(WaitingRoom room, int arrivals) {
    int n = 0;
    for (int i = 0; i < arrivals; i++) {
      if (room.decide(null).outcome() == Decision.Outcome.ADMIT) {
        n++;
      }
    }
    return n;
  }

  @Test
  void flushedOrRestartedRedisIsRebuiltFromTheNextRoundOfReports() throws Exception {
    RedisServerProcess server = closeLater(RedisServerProcess.start());
    RoomConfig config = config();
    WaitingRoom a = ready(room(config, transport(server.uri()), "dc-a", "n1", FailurePolicy.FAIL_CLOSED));
    WaitingRoom b = ready(room(config, transport(server.uri()), "dc-b", "n1", FailurePolicy.FAIL_CLOSED));
    tick(a, b);
    admit(a, 3);
    admit(b, 2);
    tick(a, b);
    tick(a, b);
    assertThat(a.view().activeUsers()).isEqualTo(5);
    assertThat(b.view().activeUsers()).isEqualTo(5);

    RedisClient admin = RedisSupport.adminClient(server.uri());
    try (StatefulRedisConnection<String, String> c = admin.connect()) {
      c.sync().flushall();
    } finally {
      admin.shutdown();
    }
    tick(a, b);
    assertThat(b.view().activeUsers()).as("b after one round following FLUSHALL").isEqualTo(5);
    tick(a);
    assertThat(a.view().activeUsers()).isEqualTo(5);

    server.stop();
    tick(a, b);
    assertThat(a.transportFailing()).isTrue();
    assertThat(a.view().activeUsers()).as("served from the last view while Redis is down").isEqualTo(5);
    server.startProcess(); // same port, empty, no scripts loaded
    assertThat(syncsUntilBack(a, 2)).isLessThanOrEqualTo(2);
    assertThat(syncsUntilBack(b, 2)).isLessThanOrEqualTo(2);
    tick(a, b);
    assertThat(a.view().activeUsers()).isEqualTo(5);
    assertThat(b.view().activeUsers()).isEqualTo(5);
  }

  @Test
  void aNodeThatRestartsWithTheSameIdDoesNotEraseWhatItReported() {
    RoomConfig config = config();
    WaitingRoom first = ready(room(config, transport(sharedUri), "dc-a", "n1", FailurePolicy.FAIL_CLOSED));
    WaitingRoom other = ready(room(config, transport(sharedUri), "dc-a", "n2", FailurePolicy.FAIL_CLOSED));
    admit(first, 3);
    tick(first, other);
    assertThat(other.view().activeUsers()).isEqualTo(3);
    first.close(); // the process ends; its users' sessions go on

    WaitingRoom again = ready(room(config, transport(sharedUri), "dc-a", "n1", FailurePolicy.FAIL_CLOSED));
    tick(again, other);
    tick(again, other);
    assertThat(other.view().activeUsers()).isEqualTo(3);
    assertThat(again.view().activeUsers()).isEqualTo(3);
    // 10 - 3 free slots. Until the old process stops counting as live (a few sync intervals),
    // its share of them stays unused: the room admits less, never more.
    List<String> queued = new ArrayList<>();
    int early = 0;
    for (int i = 0; i < 20; i++) {
      Decision d = (i % 2 == 0 ? again : other).decide(null);
      if (d.outcome() == Decision.Outcome.ADMIT) {
        early++;
      } else {
        queued.add(String.valueOf(d.ticket()));
      }
    }
    assertThat(early).isLessThan(7);
    for (int i = 0; i < config.refreshSeconds(); i++) {
      tick(again, other);
    }
    // The old process no longer counts as live: the rest of the free slots go to the line.
    int late = 0;
    for (int i = 0; i < queued.size(); i++) {
      if ((i % 2 == 0 ? again : other).decide(queued.get(i)).outcome() == Decision.Outcome.ADMIT) {
        late++;
      }
    }
    assertThat(early + late).isEqualTo(7);
    tick(again, other);
    assertThat(other.view().activeUsers()).isEqualTo(10);
  }
}
