package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.Decision;
import io.github.waitingroom.FailurePolicy;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Coordinator;
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
import io.github.waitingroom.testsupport.LocalRedis;
import io.github.waitingroom.testsupport.RedisServerProcess;

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
    sharedUri = LocalRedis.require();
    prefix = LocalRedis.uniquePrefix("faults");
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

  /**
   * Admits {@code n} visitors on one node, through the line where they must queue: the room's
   * slots for new arrivals may all be held by another node, which gives them up to the line at
   * the next plan.
   */
  private static void admitThroughTheLine(RedisNodes nodes, WaitingRoom room, int n) {
    List<String> line = new ArrayList<>();
    int in = 0;
    for (int i = 0; i < n; i++) {
      Decision d = room.decide(null);
      if (d.letsThrough()) {
        in++;
      } else {
        line.add(String.valueOf(d.ticket()));
      }
    }
    for (int s = 0; s < 10 && in < n; s++) {
      nodes.advance(Duration.ofSeconds(1));
      in += poll(room, line);
    }
    assertThat(in).as("admitted through the line within 10 s").isEqualTo(n);
  }

  /** A visitor waiting at one node: its ticket, and when it polls next. */
  private static final class Holder {
    String ticket;
    long next;

    Holder(Decision d, long now) {
      this.ticket = String.valueOf(d.ticket());
      this.next = now + Math.max(1, d.refreshSeconds());
    }
  }

  /**
   * {@code seconds} of visits, one second at a time: at each node the line polls at the interval
   * each holder was told, as a waiting page does (who gets in moves over), and at the end the
   * admitted browse once (they stay active).
   */
  private static void visit(RedisNodes nodes, List<WaitingRoom> rooms, List<List<Holder>> lines,
      List<List<String>> in, long seconds) {
    for (long s = 0; s < seconds; s++) {
      nodes.advance(Duration.ofSeconds(1));
      long now = nodes.nowSecond();
      for (int r = 0; r < rooms.size(); r++) {
        List<Holder> line = lines.get(r);
        for (int i = 0; i < line.size(); i++) {
          Holder h = line.get(i);
          if (h.next > now) {
            continue;
          }
          Decision d = rooms.get(r).decide(h.ticket);
          if (d.letsThrough()) {
            in.get(r).add(String.valueOf(d.ticket()));
            line.remove(i--);
          } else {
            if (d.ticket() != null) {
              h.ticket = d.ticket();
            }
            h.next = now + Math.max(1, d.refreshSeconds());
          }
        }
      }
    }
    for (int r = 0; r < rooms.size(); r++) {
      List<String> admitted = in.get(r);
      for (int i = 0; i < admitted.size(); i++) {
        Decision d = rooms.get(r).decide(admitted.get(i));
        assertThat(d.letsThrough()).as("an admitted visitor browsing").isTrue();
        if (d.ticket() != null) {
          admitted.set(i, d.ticket());
        }
      }
    }
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
   * last 2 minutes. FAIL_OPEN runs the cut node as a room of its own with its share of the limits
   * (limits / live nodes = 5): it keeps admitting as its users leave, and the room stays within
   * the documented bound, the limits plus that share.
   */
  @Test
  void aLongOutageUnderFailOpenKeepsAdmittingWithinTheLimitsPlusTheNodesShare() throws Exception {
    Outage o = outage(FailurePolicy.FAIL_OPEN, 90);
    long limit = o.config.totalActiveUsers();
    long share = (limit + 1) / 2;
    assertThat(o.peak).as("the room did fill up").isGreaterThanOrEqualTo(limit);
    assertThat(o.peak).as("peak ground-truth active users").isLessThanOrEqualTo(limit + share);
    assertThat(o.peakCutDuringOutage).as("the cut node, once its own users had left").isLessThanOrEqualTo(share);
    assertThat(o.late).isPositive();
    assertThat(o.lateAdmitted).as("arrivals after minute 6 of the outage admitted during it").isEqualTo(o.late);
  }

  /**
   * The same outage under FAIL_CLOSED, starting while the room fills up (the cut node admitted
   * some in the minute before): the cut node keeps serving its line within what the others count
   * it for, so its late arrivals get in, and the room stays within its limits for as long as the
   * others keep the cut node's report (the retention). After that the others no longer count it,
   * and the room exceeds its limits by the cut node's own users only, the bound {@code
   * Synchronizer} documents. (This test first asked for the limits over the whole 15 minutes:
   * that is possible only by logging the cut node's users out, or by never forgetting a node that
   * died, so it asked for the wrong thing; before the fix the room went to 15 of 10 at 142 s, and
   * the bound was not documented.)
   */
  @Test
  void aLongOutageUnderFailClosedKeepsTheRoomWithinItsLimitsForTheRetention() throws Exception {
    assertFailClosedBound(outage(FailurePolicy.FAIL_CLOSED, 50));
  }

  /**
   * Issue 8, finding 8 under FAIL_CLOSED: the room is full when the outage starts (as in the
   * finding), so the cut node admitted nobody in the minute before it. It still serves its line
   * as its users leave: the others count it, while silent, as replacing its users within a
   * session (before the fix it admitted 0 of 6 arrivals after minute 6 of the outage).
   */
  @Test
  void aLongOutageUnderFailClosedOfAFullRoomStillServesTheLine() throws Exception {
    assertFailClosedBound(outage(FailurePolicy.FAIL_CLOSED, 90));
  }

  private static void assertFailClosedBound(Outage o) {
    long limit = o.config.totalActiveUsers();
    assertThat(o.late).isPositive();
    assertThat(o.lateAdmitted).as("arrivals after minute 6 of the outage admitted during it").isEqualTo(o.late);
    assertThat(o.peakWithinRetention).as("peak ground-truth active users while the others keep the cut node's report")
        .isLessThanOrEqualTo(limit);
    assertThat(o.peakOthers).as("peak ground-truth active users of the connected node").isLessThanOrEqualTo(limit);
  }

  /** What {@link #outage} saw. */
  private record Outage(
      RoomConfig config,
      long peak,
      long peakCutDuringOutage,
      long late,
      long lateAdmitted,
      long firstOver,
      long peakWithinRetention,
      long peakOthers) {}

  /**
   * Two nodes of one data center, limit 10, 2-minute sessions, visitors who browse 40-80 s. The
   * first node loses the store (it fails at once: {@link TestTransport#down}) for 15 minutes,
   * starting {@code outageAfter} seconds in. Before the outage both nodes get a visitor every 6 s,
   * more than the room's 10 a minute, so the room fills up in the first minute and both have a
   * short line; during it the other node gets a visitor a second and the cut one a visitor a minute,
   * fewer than its users free up.
   */
  private Outage outage(FailurePolicy policy, long outageAfter) throws Exception {
    RoomConfig config = config().toBuilder().sessionDuration(Duration.ofMinutes(2)).build();
    // Long epochs: a 15-minute outage in few syncs (each one a real round trip to Redis).
    RedisNodes nodes = nodes(config, Duration.ofSeconds(5));
    RedisNodes.Node cut = ready(nodes, nodes.add("dc-a", "n1", Duration.ZERO, policy));
    RedisNodes.Node other = ready(nodes, nodes.add("dc-a", "n2"));
    // Visitors who wait keep polling: see LineTest for a line of visitors who give up.
    Crowd crowd = new Crowd(config, 8, 40, 80);
    java.util.function.Function<Object, WaitingRoom> route = h -> ((RedisNodes.Node) h).room;
    long start = nodes.nowSecond();
    long outageStart = start + outageAfter;
    long outageEnd = outageStart + 15 * 60;
    long peak = 0;
    long peakCut = 0;
    long firstOver = -1;
    long retentionEnd = outageStart + Coordinator.retention(config).toSeconds();
    long peakWithinRetention = 0;
    long peakOthers = 0;
    List<Crowd.Visitor> late = new ArrayList<>();
    for (long now = start; now < outageEnd + 60; now = nodes.nowSecond()) {
      cut.transport.down(now >= outageStart && now < outageEnd);
      if (now >= outageStart || (now - start) % 6 == 0) {
        crowd.arrive(other, now, route);
      }
      if ((now - start) % (now < outageStart ? 6 : 60) == 3) {
        Crowd.Visitor v = crowd.arrive(cut, now, route);
        if (now >= outageStart + 6 * 60 && now < outageEnd - 3 * 60) {
          late.add(v);
        }
      }
      crowd.visitDue(now, route);
      long active = crowd.active(now);
      peak = Math.max(peak, active);
      peakOthers = Math.max(peakOthers, crowd.active(now, other));
      if (now < retentionEnd) {
        peakWithinRetention = Math.max(peakWithinRetention, active);
      }
      if (active > config.totalActiveUsers() && firstOver < 0) {
        firstOver = now - start;
      }
      if (now > outageStart + 5 && now < outageEnd) { // failing from its first sync in the outage
        assertThat(cut.room.transportFailing()).isTrue();
        if (now > outageStart + 80 + config.sessionSeconds()) {
          peakCut = Math.max(peakCut, crowd.active(now, cut));
        }
      }
      nodes.advance(Duration.ofSeconds(1));
    }
    long lateAdmitted = late.stream().filter(v -> v.admitted() && v.admittedAt < outageEnd).count();
    System.out.printf("outage %s: peak active %d (first over the limit at %d s; %d within the retention; %d on the"
            + " connected node), peak on the cut node %d, admitted during the outage of %d arrivals after its 6th"
            + " minute: %d%n",
        policy, peak, firstOver, peakWithinRetention, peakOthers, peakCut, late.size(), lateAdmitted);
    return new Outage(config, peak, peakCut, late.size(), lateAdmitted, firstOver, peakWithinRetention, peakOthers);
  }

  @Test
  void flushedOrRestartedRedisIsRebuiltFromTheNextRoundOfReports() throws Exception {
    RedisServerProcess server = closeLater(RedisServerProcess.start());
    RoomConfig config = config();
    RedisNodes nodes = nodes(config, EPOCH);
    RedisNodes.Node a = ready(nodes, nodes.add("dc-a", "n1", Duration.ZERO, FailurePolicy.FAIL_CLOSED, server.uri()));
    RedisNodes.Node b = ready(nodes, nodes.add("dc-b", "n1", Duration.ZERO, FailurePolicy.FAIL_CLOSED, server.uri()));
    nodes.advance(Duration.ofSeconds(2));
    admitThroughTheLine(nodes, a.room, 3);
    admitThroughTheLine(nodes, b.room, 2);
    nodes.advance(Duration.ofSeconds(2));
    assertThat(a.room.status().activeUsers()).isEqualTo(5);
    assertThat(b.room.status().activeUsers()).isEqualTo(5);

    RedisClient admin = LocalRedis.adminClient(server.uri());
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
    restartWithTheSameId(false);
  }

  /**
   * Once the old process's report has expired, its slots are free, and all ten get in within
   * three refresh intervals (finding 10). It failed about 1 run in 3, busy machine or not, while
   * the harness had the line poll every refresh interval (20 s) whatever the room told each
   * holder: near the front the room says 2 to 5 s, and a holder who polls after its due (its poll
   * plus twice that and 2 s) has left the line (README, "Polls"); its count starts anew at every
   * poll, so no plan could let it in from the line, and it got in only by finding a slot for new
   * arrivals on its node at the very second it polled. The last spare slot went to one node in
   * every other plan and to nobody in between (see {@code
   * PlanProperties#aSpareSlotForNewArrivalsThatNobodyTakesStaysGranted}), always in the epochs
   * between the holders' polls: nine got in. Holders now poll when told, as a waiting page does.
   */
  @Test
  void afterARestartWithTheSameIdEveryoneGetsInOnceTheOldReportExpires() throws Exception {
    restartWithTheSameId(true);
  }

  private void restartWithTheSameId(boolean thenEveryoneGetsIn) throws Exception {
    RoomConfig config = config().toBuilder().sessionDuration(Duration.ofMinutes(1)).build();
    Duration epoch = Duration.ofSeconds(5); // minutes in few syncs
    RedisNodes nodes = nodes(config, epoch);
    RedisNodes.Node first = ready(nodes, nodes.add("dc-a", "n1"));
    RedisNodes.Node other = ready(nodes, nodes.add("dc-a", "n2"));
    nodes.advance(epoch.multipliedBy(2));
    admit(first.room, 3);
    nodes.advance(epoch.multipliedBy(3)); // tallied, planned, and the plan in force
    assertThat(other.room.status().activeUsers()).isEqualTo(3);
    nodes.kill(first); // the process ends; its users' sessions go on (they never come back)
    long killedAt = nodes.nowSecond();

    RedisNodes.Node again = ready(nodes, nodes.add("dc-a", "n1"));
    nodes.advance(epoch.multipliedBy(5)); // joined, the old process silent, and a plan in force
    // The old process's report lives on (a restart publishes under a name of its own): its users
    // count, and so does what it was still allowed to admit, since nobody can tell it will not.
    long counted = other.room.status().activeUsers();
    assertThat(counted).isGreaterThanOrEqualTo(3);
    assertThat(again.room.status().activeUsers()).isEqualTo(counted);
    assertThat(other.room.status().roomNodes()).as("live nodes: the old process no longer counts as one").isEqualTo(2);
    // Twenty visitors, ten at each node: those who wait poll when told to, those who get in
    // browse on (they stay active).
    List<List<Holder>> lines = List.of(new ArrayList<>(), new ArrayList<>());
    List<List<String>> in = List.of(new ArrayList<>(), new ArrayList<>());
    List<WaitingRoom> rooms = List.of(again.room, other.room);
    for (int i = 0; i < 20; i++) {
      Decision d = rooms.get(i % 2).decide(null);
      if (d.letsThrough()) {
        in.get(i % 2).add(String.valueOf(d.ticket()));
      } else {
        lines.get(i % 2).add(new Holder(d, nodes.nowSecond()));
      }
    }
    long retention = Coordinator.retention(config).toSeconds();
    while (nodes.nowSecond() + config.refreshSeconds() < killedAt + retention) {
      visit(nodes, rooms, lines, in, config.refreshSeconds());
    }
    assertThat(in.get(0).size() + in.get(1).size()).as("admitted while the old process's report counts")
        .isEqualTo(config.totalActiveUsers() - counted);
    if (!thenEveryoneGetsIn) {
      return;
    }
    // Once its report has expired (the retention covers its users' sessions), its slots are free.
    for (int i = 0; i < 3; i++) {
      visit(nodes, rooms, lines, in, config.refreshSeconds());
    }
    int admitted = in.get(0).size() + in.get(1).size();
    assertThat(admitted).isEqualTo(config.totalActiveUsers());
    nodes.advance(epoch.multipliedBy(2));
    assertThat(other.room.status().activeUsers()).isEqualTo(config.totalActiveUsers());
  }
}
