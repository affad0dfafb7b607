package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.Decision;
import io.github.waitingroom.FailurePolicy;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.testsupport.LocalRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Nodes that join a room the way they do in production: whenever they start, wherever the others
 * are in their epoch. Every plan must count every slot handed out before anyone spends it, so a
 * node that joins must not plan an epoch the others already planned without it, nor plan the room
 * from its own data center alone. Time is virtual (see {@link RedisNodes}).
 *
 * <p>Each of these failed on core 6ddddac: four nodes started in one epoch let 209 in (limit 100,
 * 100 x H(4)); a node joining a quarter epoch after slots freed up granted them again (150); the
 * first node of a new data center planned from its own data center alone (200).
 */
class NodeJoinTest {
  private static final Duration EPOCH = Duration.ofSeconds(1);
  @RegisterExtension final RedisNodesFixture fixture = new RedisNodesFixture("join");

  private RedisNodes nodes(RoomConfig config) {
    return fixture.nodes(config, EPOCH);
  }

  private static RoomConfig config() {
    return RedisNodesFixture.room("join")
        .totalActiveUsers(100)
        .newUsersPerMinute(100)
        .sessionDuration(Duration.ofMinutes(1))
        .build();
  }

  /** A flash crowd: {@code perNode} arrivals at every live node at every sync for two epochs. */
  private static int flashCrowd(RedisNodes nodes, int perNode) {
    int admitted = 0;
    for (int s = 0; s < 8; s++) {
      nodes.step();
      for (RedisNodes.Node n : nodes.nodes) {
        for (int a = 0; a < perNode && n.alive; a++) {
          admitted += n.room.decide(null).letsThrough() ? 1 : 0;
        }
      }
    }
    return admitted;
  }

  /** Node {@code a} of data center {@code dc-a} joins and admits 100 newcomers, one after another: the room is full. */
  private static RedisNodes.Node fullNode(RedisNodes nodes) {
    RedisNodes.Node a = nodes.add("dc-a", "a");
    nodes.advance(EPOCH.multipliedBy(2));
    for (int i = 0; i < 100; i++) {
      assertThat(a.room.decide(null).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    }
    return a;
  }

  @Test
  void nodesThatStartInTheSameEpochGrantTheFreeSlotsOnce() {
    RedisNodes nodes = nodes(config());
    for (int i = 0; i < 4; i++) {
      nodes.add("dc-a", "n" + i);
    }
    int admitted = flashCrowd(nodes, 100);
    assertThat(admitted).as("admitted by 4 nodes that started in one epoch").isLessThanOrEqualTo(100);
  }

  @Test
  void aNodeThatJoinsAfterSlotsFreeUpDoesNotGrantThemAgain() {
    RedisNodes nodes = nodes(config());
    RedisNodes.Node a = fullNode(nodes);
    // Nobody comes back: the sessions end together, and a's next plan hands out the freed slots.
    long planned = a.room.status().freeSlots();
    for (int s = 0; s < 4 * 90 && planned == 0; s++) {
      nodes.step();
      planned = a.room.status().freeSlots();
    }
    assertThat(planned).as("a's plan, once the sessions ended").isEqualTo(100);
    nodes.add("dc-a", "b");
    int admitted = flashCrowd(nodes, 100);
    assertThat(admitted).as("admitted after the first sessions ended").isLessThanOrEqualTo(100);
  }

  /**
   * A node's join marker ({@code <dc>#<node>} in the global scope) leaves Redis once the node's
   * data center has a sum there that the others count: with markers that lived as long as
   * reports (minutes), every exchange of every node read one per node (JoinMarkerTest in the core
   * tells why). On Redis's own clock, with epochs of 200 ms.
   */
  @Test
  void joinMarkersLeaveTheStoreOnceEveryDataCenterIsCounted() throws Exception {
    String uri = LocalRedis.require();
    RoomConfig config = config();
    try (RedisNodes nodes = new RedisNodes(config, uri, fixture.prefix(), Duration.ofMillis(200), RedisNodes.Time.STORE)) {
      for (String dc : List.of("dc-a", "dc-b")) {
        for (String id : List.of("n1", "n2")) {
          nodes.add(dc, id, Duration.ZERO, FailurePolicy.FAIL_CLOSED);
        }
      }
      assertThat(global(config).stream().filter(k -> k.contains("#")).count()).as("right after the joins").isEqualTo(4);
      nodes.advance(Duration.ofSeconds(4)); // 20 epochs
      assertThat(global(config)).as("what the global scope holds").contains("dc-a", "dc-b")
          .noneMatch(k -> k.contains("#"));
      assertThat(nodes.nodes).allSatisfy(n -> assertThat(n.room.status().dataCenters()).containsExactly("dc-a", "dc-b"));
    }
  }

  private List<String> global(RoomConfig config) {
    RedisClient admin = LocalRedis.adminClient(LocalRedis.require());
    try (StatefulRedisConnection<String, String> c = admin.connect()) {
      return c.sync().hkeys(ExchangeScript.valuesKey(fixture.prefix(), config.roomId(), Coordinator.GLOBAL_SCOPE));
    } finally {
      admin.shutdown();
    }
  }

  @Test
  void theFirstNodeOfANewDataCenterCountsTheOthersInItsFirstPlan() {
    RedisNodes nodes = nodes(config());
    RedisNodes.Node a = fullNode(nodes);
    nodes.advance(EPOCH.multipliedBy(2));
    assertThat(a.room.status().activeUsers()).isEqualTo(100);
    nodes.add("dc-b", "b");
    int admitted = flashCrowd(nodes, 100);
    assertThat(admitted).as("admitted while the room is full").isZero();
  }
}
