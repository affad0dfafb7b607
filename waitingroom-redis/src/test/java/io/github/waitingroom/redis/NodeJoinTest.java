package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.Decision;
import io.github.waitingroom.FailurePolicy;
import io.github.waitingroom.RoomConfig;
import java.time.Duration;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * Nodes that join a room the way they do in production: whenever they start, wherever the others
 * are in their epoch. Every plan must count every slot handed out before anyone spends it, so a
 * node that joins must not plan an epoch the others already planned without it, nor plan the room
 * from its own data center alone. Time is virtual (see {@link RedisNodes}); the nodes join with
 * {@link RedisNodes#addNow}, not with the careful joins the other tests use.
 */
class NodeJoinTest {
  private static final Duration EPOCH = Duration.ofSeconds(1);
  private String uri = "";
  private @Nullable RedisNodes nodes;

  @BeforeEach
  void setUp() {
    uri = RedisSupport.requireRedis();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (nodes != null) {
      nodes.close();
    }
  }

  private RedisNodes nodes(RoomConfig config) {
    RedisNodes n = new RedisNodes(config, uri, RedisSupport.uniquePrefix("join"), EPOCH, RedisNodes.Time.VIRTUAL);
    nodes = n;
    return n;
  }

  private static RoomConfig config() {
    return RoomConfig.builder("join-" + UUID.randomUUID().toString().substring(0, 8))
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

  @Test
  @Disabled("core bug: each node plans its first epoch from the publishers it knows at its first sync."
      + " Four nodes started one after another within one epoch: the first grants itself all 100 free"
      + " slots, the second 100/2, the third 100/3, the fourth 100/4, and a flash crowd then gets 209 in"
      + " (limit 100); nine nodes: 285 (100 x H(n)). Cause: a node backfills tallies for the epochs"
      + " before it existed, and plans epoch e-1 although the others already planned it without it")
  void nodesThatStartInTheSameEpochGrantTheFreeSlotsOnce() {
    RedisNodes nodes = nodes(config());
    for (int i = 0; i < 4; i++) {
      nodes.addNow("dc-a", "n" + i, Duration.ZERO, FailurePolicy.FAIL_CLOSED, uri, false);
    }
    int admitted = flashCrowd(nodes, 100);
    assertThat(admitted).as("admitted by 4 nodes that started in one epoch").isLessThanOrEqualTo(100);
  }

  @Test
  @Disabled("core bug: a node that joins in epoch e after the others' first sync of e plans e-1 again,"
      + " now with itself in it, and grants itself a share of the slots that e-1's plan already gave"
      + " away. A full room of 100 whose sessions all end at once: the old node takes the 100 freed"
      + " slots, the node that joins a quarter epoch later takes 50 of the same, and 150 get in")
  void aNodeThatJoinsAfterSlotsFreeUpDoesNotGrantThemAgain() {
    RoomConfig config = config();
    RedisNodes nodes = nodes(config);
    RedisNodes.Node a = nodes.add("dc-a", "a");
    nodes.advance(EPOCH.multipliedBy(2));
    for (int i = 0; i < 100; i++) {
      assertThat(a.room.decide(null).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    }
    // Nobody comes back: the sessions end together, and a's next plan hands out the freed slots.
    long planned = a.room.status().freeSlots();
    for (int s = 0; s < 4 * 90 && planned == 0; s++) {
      nodes.step();
      planned = a.room.status().freeSlots();
    }
    assertThat(planned).as("a's plan, once the sessions ended").isEqualTo(100);
    nodes.addNow("dc-a", "b", Duration.ZERO, FailurePolicy.FAIL_CLOSED, uri, false);
    int admitted = flashCrowd(nodes, 100);
    assertThat(admitted).as("admitted after the first sessions ended").isLessThanOrEqualTo(100);
  }

  @Test
  @Disabled("core bug: a node's first exchange publishes nothing to the global scope (it has no data"
      + " center sums yet), so the answer has no global scope and its first plan counts its own data"
      + " center as the whole room. dc-a holds 100 active of 100; the first node of dc-b grants itself"
      + " all 100 slots at its first sync, and 100 more get in (200 of 100)")
  void theFirstNodeOfANewDataCenterCountsTheOthersInItsFirstPlan() {
    RoomConfig config = config();
    RedisNodes nodes = nodes(config);
    RedisNodes.Node a = nodes.add("dc-a", "a");
    nodes.advance(EPOCH.multipliedBy(2));
    for (int i = 0; i < 100; i++) {
      assertThat(a.room.decide(null).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    }
    nodes.advance(EPOCH.multipliedBy(2));
    assertThat(a.room.status().activeUsers()).isEqualTo(100);
    nodes.addNow("dc-b", "b", Duration.ZERO, FailurePolicy.FAIL_CLOSED, uri, false);
    int admitted = flashCrowd(nodes, 100);
    assertThat(admitted).as("admitted while the room is full").isZero();
  }
}
