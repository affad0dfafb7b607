package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.Decision;
import io.github.waitingroom.FailurePolicy;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Redis that stops answering, Redis that is killed and restarted empty, Redis that is flushed, a
 * long outage of one node, and a node that restarts with the same id.
 *
 * <p>Time is virtual ({@link RedisNodes.Time#VIRTUAL}): the answers are stripped of Redis's clock
 * so that the nodes' manual clocks are the room's clocks. These tests are about what happens over
 * epochs, sessions and outages of many minutes, not about where time comes from (see {@link
 * ClockSkewTest} for that); only the network timeouts are real (and short), and nothing asserts on
 * how long anything took.
 */
class FaultTest {
  private static final String FAILED = "coordinator transport failed";
  private static final String BACK = "coordinator transport answers again";
  private static final Duration EPOCH = Duration.ofSeconds(1);

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

  private RedisNodes nodes(RoomConfig config, Duration epoch) {
    return closeLater(new RedisNodes(config, sharedUri, prefix, epoch, RedisNodes.Time.VIRTUAL));
  }

  /** Makes sure a node is in touch before a test relies on it (a loaded machine may be slow). */
  private static RedisNodes.Node ready(RedisNodes nodes, RedisNodes.Node n) {
    if (n.room.transportFailing()) {
      assertThat(syncsUntilBack(nodes, n, 5)).as("the transport answers at all").isLessThanOrEqualTo(5);
    }
    return n;
  }

  /** Syncs (a quarter epoch apart) until the transport answers; returns how many syncs that took. */
  private static int syncsUntilBack(RedisNodes nodes, RedisNodes.Node n, int most) {
    for (int i = 1; i <= most; i++) {
      nodes.jump(Duration.ofMillis(EPOCH.toMillis() / 4));
      nodes.sync(n);
      if (!n.room.transportFailing()) {
        return i;
      }
    }
    return most + 1;
  }

  /** One failing sync in each of the next {@code epochs} epochs (each sync waits out the timeout). */
  private static void failingEpochs(RedisNodes nodes, RedisNodes.Node n, int epochs) {
    for (int i = 0; i < epochs; i++) {
      nodes.jump(EPOCH);
      nodes.sync(n);
    }
  }

  private static List<String> admit(WaitingRoom room, int n) {
    List<String> tickets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Decision d = room.decide(null);
      assertThat(d.outcome()).as("arrival %d of %d", i + 1, n).isEqualTo(Decision.Outcome.ADMIT);
      tickets.add(String.valueOf(d.ticket()));
    }
    return tickets;
  }

  private static List<String> queue(WaitingRoom room, int n) {
    List<String> tickets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Decision d = room.decide(null);
      assertThat(d.outcome()).as("arrival %d of %d", i + 1, n).isEqualTo(Decision.Outcome.QUEUE);
      tickets.add(String.valueOf(d.ticket()));
    }
    return tickets;
  }

  /** Every ticket of the line polls once; the admitted leave the list. Returns how many got in. */
  private static int poll(WaitingRoom room, List<String> line) {
    int in = 0;
    for (int i = 0; i < line.size(); i++) {
      Decision d = room.decide(line.get(i));
      if (d.letsThrough()) {
        line.remove(i--);
        in++;
      } else if (d.ticket() != null) {
        line.set(i, d.ticket());
      }
    }
    return in;
  }

  @Test
  void redisThatStopsAnsweringFailsClosedServesItsLineWithinWhatOthersCountItForAndRecovers() throws Exception {
    PausableProxy proxy = closeLater(new PausableProxy("127.0.0.1", URI.create(sharedUri).getPort()));
    RedisNodes nodes = nodes(config(), EPOCH);
    RedisNodes.Node n = ready(nodes, nodes.add("dc-a", "n1", Duration.ZERO, FailurePolicy.FAIL_CLOSED, proxy.uri()));
    nodes.advance(Duration.ofSeconds(2)); // the first plans: the room is empty
    List<String> admitted = admit(n.room, 4);
    nodes.advance(Duration.ofSeconds(2)); // published: 4 active, 6 slots outstanding
    assertThat(n.room.transportFailing()).isFalse();
    assertThat(n.room.status().activeUsers()).isEqualTo(4);

    try (LogCapture log = new LogCapture()) {
      proxy.pause();
      failingEpochs(nodes, n, 3);
      assertThat(n.room.transportFailing()).isTrue();
      assertThat(n.room.status().transportFailing()).isTrue();
      assertThat(log.count(FAILED)).as("one warning per episode, not per sync").isEqualTo(1);
      // Admitted users keep passing; new arrivals queue although the room has free slots.
      nodes.jump(Duration.ofSeconds(10));
      for (String ticket : admitted) {
        assertThat(n.room.decide(ticket).letsThrough()).isTrue();
      }
      List<String> line = queue(n.room, 12);
      assertThat(n.room.status().localActiveUsers()).isEqualTo(4);
      // FAIL_CLOSED keeps serving the node's own line, oldest first, but never beyond what the
      // others count it for: its last published 4 active and 6 outstanding slots.
      int fromLine = 0;
      for (int e = 0; e < 4; e++) {
        failingEpochs(nodes, n, 1);
        fromLine += poll(n.room, line);
      }
      assertThat(fromLine).as("admitted from the line during the outage").isEqualTo(6);
      assertThat(n.room.decide(null).outcome()).isEqualTo(Decision.Outcome.QUEUE);

      proxy.resume();
      assertThat(syncsUntilBack(nodes, n, 2)).as("syncs until the transport answers again").isLessThanOrEqualTo(2);
      assertThat(log.count(BACK)).isEqualTo(1);
      nodes.advance(Duration.ofSeconds(2));
      assertThat(n.room.status().activeUsers()).as("the room, planned from the store again").isEqualTo(10);
      assertThat(n.room.status().transportFailing()).isFalse();

      proxy.pause();
      failingEpochs(nodes, n, 2);
      assertThat(log.count(FAILED)).as("a second episode logs again, once").isEqualTo(2);
      proxy.resume();
      assertThat(syncsUntilBack(nodes, n, 2)).isLessThanOrEqualTo(2);
      assertThat(log.count(BACK)).isEqualTo(2);
    }
  }

  /**
   * Issue 8, finding 8: the room is full when one node loses the store for 15 minutes; sessions
   * last 2 minutes. The node must keep admitting as its users leave, under either policy, and the
   * room must stay within the policy's documented bound: FAIL_CLOSED within the limits, FAIL_OPEN
   * within the limits plus the failing node's share (limits / live nodes).
   */
  @ParameterizedTest
  @EnumSource(FailurePolicy.class)
  void aLongOutageOfOneNodeDoesNotStarveItsArrivalsAndKeepsThePolicysBound(FailurePolicy policy) throws Exception {
    RoomConfig config =
        config().toBuilder().sessionDuration(Duration.ofMinutes(2)).build();
    RedisNodes nodes = nodes(config, Duration.ofSeconds(2));
    RedisNodes.Node cut = ready(nodes, nodes.add("dc-a", "n1", Duration.ZERO, policy));
    RedisNodes.Node other = ready(nodes, nodes.add("dc-a", "n2"));
    Crowd crowd = new Crowd(config, 8, 40, 80);
    long start = nodes.nowSecond();
    long outageStart = start + 90;
    long outageEnd = outageStart + 15 * 60;
    long limit = config.totalActiveUsers();
    long bound = policy == FailurePolicy.FAIL_CLOSED ? limit : limit + (limit + 1) / 2;
    long peak = 0;
    long peakCut = 0;
    List<Crowd.Visitor> late = new ArrayList<>();
    for (long now = start; now < outageEnd + 60; now = nodes.nowSecond()) {
      if (now == outageStart) {
        cut.transport.down(true);
      }
      if (now == outageEnd) {
        cut.transport.down(false);
      }
      // The other node is busy all along; the cut one gets a visitor every 40 s, fewer than its
      // users free up, so its line can drain.
      crowd.arrive(other, now, h -> ((RedisNodes.Node) h).room);
      if ((now - start) % 40 == 0) {
        Crowd.Visitor v = crowd.arrive(cut, now, h -> ((RedisNodes.Node) h).room);
        if (now >= outageStart + 6 * 60 && now < outageEnd - 3 * 60) {
          late.add(v);
        }
      }
      crowd.visitDue(now, h -> ((RedisNodes.Node) h).room);
      long active = crowd.active(now);
      peak = Math.max(peak, active);
      assertThat(active).as("ground truth active at %d s (outage %d..%d)", now - start, outageStart - start,
          outageEnd - start).isLessThanOrEqualTo(bound);
      if (now >= outageStart && now < outageEnd) {
        assertThat(cut.room.transportFailing()).isTrue();
        peakCut = Math.max(peakCut, crowd.active(now, cut));
      }
      nodes.advance(Duration.ofSeconds(1));
    }
    long lateAdmitted = late.stream().filter(v -> v.admitted() && v.admittedAt < outageEnd).count();
    System.out.printf("outage %s: peak active %d (bound %d), peak on the cut node %d, admitted during the"
            + " outage of %d arrivals after its 6th minute: %d%n",
        policy, peak, bound, peakCut, late.size(), lateAdmitted);
    assertThat(peak).as("the room did fill up").isGreaterThanOrEqualTo(limit);
    assertThat(lateAdmitted).as("arrivals after minute 6 of the outage admitted during it").isEqualTo(late.size());
  }

  @Test
  void flushedOrRestartedRedisIsRebuiltFromTheNextRoundOfReports() throws Exception {
    RedisServerProcess server = closeLater(RedisServerProcess.start());
    RoomConfig config = config();
    RedisNodes nodes = nodes(config, EPOCH);
    RedisNodes.Node a = ready(nodes, nodes.add("dc-a", "n1", Duration.ZERO, FailurePolicy.FAIL_CLOSED, server.uri()));
    RedisNodes.Node b = ready(nodes, nodes.add("dc-b", "n1", Duration.ZERO, FailurePolicy.FAIL_CLOSED, server.uri()));
    nodes.advance(Duration.ofSeconds(2));
    admit(a.room, 3);
    admit(b.room, 2);
    nodes.advance(Duration.ofSeconds(2));
    assertThat(a.room.status().activeUsers()).isEqualTo(5);
    assertThat(b.room.status().activeUsers()).isEqualTo(5);

    RedisClient admin = RedisSupport.adminClient(server.uri());
    try (StatefulRedisConnection<String, String> c = admin.connect()) {
      c.sync().flushall();
    } finally {
      admin.shutdown();
    }
    // Absence is never zero: at no sync after the flush does either node count fewer users.
    for (int i = 0; i < 8; i++) {
      nodes.step();
      assertThat(a.room.status().activeUsers()).as("a, %d syncs after FLUSHALL", i + 1).isEqualTo(5);
      assertThat(b.room.status().activeUsers()).as("b, %d syncs after FLUSHALL", i + 1).isEqualTo(5);
    }
    assertThat(a.room.transportFailing()).isFalse();

    server.stop();
    nodes.step();
    assertThat(a.room.transportFailing()).isTrue();
    assertThat(a.room.status().localActiveUsers()).as("a's own users while Redis is down").isEqualTo(3);
    server.startProcess(); // same port, empty, no scripts loaded
    assertThat(syncsUntilBack(nodes, a, 2)).isLessThanOrEqualTo(2);
    assertThat(syncsUntilBack(nodes, b, 2)).isLessThanOrEqualTo(2);
    nodes.advance(Duration.ofSeconds(2));
    assertThat(a.room.status().activeUsers()).isEqualTo(5);
    assertThat(b.room.status().activeUsers()).isEqualTo(5);
    assertThat(a.room.status().dataCenters()).containsExactly("dc-a", "dc-b");
  }

  @Test
  void aNodeThatRestartsWithTheSameIdDoesNotEraseWhatItReported() throws Exception {
    RoomConfig config = config();
    RedisNodes nodes = nodes(config, EPOCH);
    RedisNodes.Node first = ready(nodes, nodes.add("dc-a", "n1"));
    RedisNodes.Node other = ready(nodes, nodes.add("dc-a", "n2"));
    nodes.advance(Duration.ofSeconds(2));
    admit(first.room, 3);
    nodes.advance(Duration.ofSeconds(2));
    assertThat(other.room.status().activeUsers()).isEqualTo(3);
    nodes.kill(first); // the process ends; its users' sessions go on

    RedisNodes.Node again = ready(nodes, nodes.add("dc-a", "n1"));
    nodes.advance(Duration.ofSeconds(4));
    // The old process's report lives on (a restart gets a publisher of its own): its users count,
    // and so does whatever it was still allowed to admit, since nobody can tell it will not.
    long counted = other.room.status().activeUsers();
    assertThat(counted).isGreaterThanOrEqualTo(3);
    assertThat(again.room.status().activeUsers()).isEqualTo(counted);
    assertThat(other.room.status().roomNodes()).as("live nodes: the old process no longer counts as one").isEqualTo(2);
    List<List<String>> lines = List.of(new ArrayList<>(), new ArrayList<>());
    List<WaitingRoom> rooms = List.of(again.room, other.room);
    int admitted = 0;
    for (int i = 0; i < 20; i++) {
      Decision d = rooms.get(i % 2).decide(null);
      if (d.letsThrough()) {
        admitted++;
      } else {
        lines.get(i % 2).add(String.valueOf(d.ticket()));
      }
    }
    for (int s = 0; s < 30; s++) {
      nodes.advance(Duration.ofSeconds(1));
      admitted += poll(rooms.get(0), lines.get(0)) + poll(rooms.get(1), lines.get(1));
    }
    // The room admits less than the 7 slots the old process's users leave, never more.
    assertThat(admitted).isEqualTo(config.totalActiveUsers() - counted);
    nodes.advance(Duration.ofSeconds(2));
    assertThat(other.room.status().activeUsers()).isEqualTo(config.totalActiveUsers());
  }
}
