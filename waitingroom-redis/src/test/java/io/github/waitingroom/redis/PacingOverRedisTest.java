package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import io.github.waitingroom.testsupport.LocalRedis;

/**
 * Over the real Redis: a room whose nodes would read more reports than its store budget stretches
 * its epochs on every node at one sync point; the decision survives the loss of the room's keys,
 * and a node that starts afterwards, in a data center of its own, cuts time as the others do. The
 * room keeps admitting throughout. Time is virtual (see {@link RedisNodes}); the store is real.
 */
class PacingOverRedisTest {
  @RegisterExtension final RedisNodesFixture fixture = new RedisNodesFixture("pacing");

  private static Set<Long> lengths(RedisNodes room) {
    Set<Long> out = new HashSet<>();
    for (RedisNodes.Node n : room.nodes) {
      out.add(n.room.status().epochMillis());
    }
    return out;
  }

  @Test
  void aRoomOverItsBudgetStretchesItsEpochsOnEveryNodeAndANodeThatStartsLaterFollows() {
    RoomConfig config =
        RedisNodesFixture.room("pacing").totalActiveUsers(1000).newUsersPerMinute(30).sessionDuration(Duration.ofMinutes(10)).build();
    RedisNodes room = fixture.nodes(config, Duration.ofSeconds(1));
    // Five nodes in two data centers read 4 x (3 x (3 + 2) + 2 x (2 + 2)) = 92 reports a second
    // with epochs of 1 s, 46 with epochs of 2 s.
    room.storeBudget = 50;
    room.add("eu", "eu-1");
    room.add("eu", "eu-2");
    room.add("eu", "eu-3");
    room.add("us", "us-1");
    room.add("us", "us-2");
    List<Long> admittedAt = new ArrayList<>();
    int steps = 0;
    while (!lengths(room).equals(Set.of(2000L))) {
      assertThat(lengths(room)).as("one length on every node, step %s", steps).hasSize(1);
      newcomer(room, steps, admittedAt);
      room.step();
      steps++;
      assertThat(steps).as("quarter epochs until the epochs stretch").isLessThanOrEqualTo(4 * 30);
    }
    int before = admittedAt.size();
    assertThat(before).as("admitted before the epochs stretched").isPositive();

    // Redis loses the room's keys: every node keeps its epochs and puts the decision back.
    LocalRedis.deleteKeys(fixture.uri(), fixture.prefix());
    room.advance(Duration.ofSeconds(4));
    assertThat(lengths(room)).containsExactly(2000L);

    // A node that starts now, in a data center of its own, learns the epochs at its join.
    RedisNodes.Node late = room.add("sa", "sa-1");
    assertThat(late.room.status().epochMillis()).isEqualTo(2000L);
    for (int s = 0; s < 4 * 60; s++) {
      assertThat(lengths(room)).as("one length on every node, %s quarter epochs after sa-1 started", s).hasSize(1);
      newcomer(room, s, admittedAt);
      room.step();
    }
    assertThat(admittedAt.size() - before).as("admitted once the epochs are longer").isGreaterThanOrEqualTo(10);
    Decision d = late.room.decide(null);
    assertThat(d.outcome()).as("a newcomer on sa-1").isIn(Decision.Outcome.ADMIT, Decision.Outcome.QUEUE);
  }

  /** Every second, a newcomer on the nodes in turn, who leaves if queued. */
  private static void newcomer(RedisNodes room, int step, List<Long> admittedAt) {
    if (step % 4 == 0) {
      RedisNodes.Node n = room.nodes.get(step / 4 % room.nodes.size());
      if (n.room.decide(null).letsThrough()) {
        admittedAt.add((long) step);
      }
    }
  }
}
