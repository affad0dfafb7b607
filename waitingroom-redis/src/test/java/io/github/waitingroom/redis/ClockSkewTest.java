package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.Decision;
import io.github.waitingroom.FailurePolicy;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.Ticket;
import io.github.waitingroom.TicketCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import io.github.waitingroom.testsupport.LocalRedis;

/**
 * Issue 8, finding 6: nodes whose clocks disagree. Two nodes of one room, one with its own clock
 * right and one 5 s behind it (manual clocks set from the real one), keep time by Redis's
 * {@code TIME} (the answers keep the store's clock: {@link RedisNodes.Time#STORE}), as in
 * production; that is the subject here, so real time passes (about ten seconds, with 200 ms epochs
 * and a 3-second session, shorter than the skew). Visitors bounce between the nodes on every
 * request. Nobody may be logged out, and nobody may lose their place.
 */
class ClockSkewTest {
  private static final Duration SKEW = Duration.ofSeconds(5);

  private static RoomConfig config() {
    return RoomConfig.builder("skew-" + UUID.randomUUID().toString().substring(0, 8))
        .totalActiveUsers(1)
        .newUsersPerMinute(1)
        .sessionDuration(Duration.ofSeconds(3))
        .refreshInterval(Duration.ofSeconds(2))
        .waitingTimeout(Duration.ofSeconds(20))
        .build();
  }

  @Test
  void nodesFiveSecondsApartLogNobodyOutAndMoveNobodyBack() throws Exception {
    String uri = LocalRedis.require();
    RoomConfig config = config();
    TicketCodec codec = new TicketCodec(config.roomId(), MultiNodeSimulation.KEYS);
    try (RedisNodes nodes =
        new RedisNodes(config, uri, LocalRedis.uniquePrefix("skew"), Duration.ofMillis(200), RedisNodes.Time.STORE)) {
      // The node whose clock is right starts the room (a node whose clock is ahead of the store's
      // joining one is the test below).
      RedisNodes.Node ahead = nodes.add("dc-a", "on-time", Duration.ZERO, FailurePolicy.FAIL_CLOSED);
      nodes.advance(Duration.ofMillis(400));

      // The room's one slot, taken while the node on time is alone (once two nodes share the
      // room, its slot for new arrivals goes from one node to the other from plan to plan): a
      // visitor who browses on, every request to the other node.
      Decision d = ahead.room.decide(null);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.ADMIT);
      String active = String.valueOf(d.ticket());

      RedisNodes.Node behind = nodes.add("dc-a", "behind", SKEW.negated(), FailurePolicy.FAIL_CLOSED);
      List<RedisNodes.Node> both = List.of(behind, ahead);
      nodes.advance(Duration.ofMillis(400));
      assertThat(ahead.clock.millis() - behind.clock.millis()).as("their own clocks").isEqualTo(5000);
      assertThat(Math.abs(ahead.room.status().now() - behind.room.status().now()))
          .as("their room clocks, kept by Redis").isLessThanOrEqualTo(1);

      // Four visitors queue, 1.2 s apart, first at the node on time, then at the one behind: by
      // their own clocks the second would have arrived 3.8 s before the first.
      List<String> waiting = new ArrayList<>();
      List<Long> places = new ArrayList<>();
      long mostAheadOfFirst = 0;
      long requests = 0;
      long start = System.currentTimeMillis();
      while (System.currentTimeMillis() - start < 6_000) {
        long elapsed = System.currentTimeMillis() - start;
        RedisNodes.Node node = both.get((int) (requests++ % 2));
        Decision a = node.room.decide(active);
        assertThat(a.outcome()).as("the active visitor at %s, %d ms in", node, elapsed).isEqualTo(Decision.Outcome.PASS);
        if (a.ticket() != null) {
          active = a.ticket();
        }
        if (waiting.size() < 4 && elapsed >= 1_200L * waiting.size()) {
          Decision q = both.get(waiting.size() % 2 == 0 ? 1 : 0).room.decide(null);
          assertThat(q.outcome()).isEqualTo(Decision.Outcome.QUEUE);
          waiting.add(String.valueOf(q.ticket()));
          places.add(placeOf(codec, waiting.get(waiting.size() - 1), node));
        }
        for (int w = 0; w < waiting.size() && requests % 2 == 0; w++) {
          RedisNodes.Node at = both.get((int) ((requests + w) % 2));
          Decision p = at.room.decide(waiting.get(w));
          assertThat(p.outcome()).as("visitor %d at %s, %d ms in", w + 1, at, elapsed).isEqualTo(Decision.Outcome.WAIT);
          if (p.ticket() != null) {
            waiting.set(w, p.ticket());
          }
          assertThat(placeOf(codec, waiting.get(w), at)).as("visitor %d's place", w + 1).isEqualTo(places.get(w));
          if (w == 0) {
            mostAheadOfFirst = Math.max(mostAheadOfFirst, p.usersAhead());
          }
        }
        nodes.advance(Duration.ofMillis(250));
      }
      // Places follow the order of arrival, on the store's clock.
      for (int w = 1; w < 4; w++) {
        assertThat(Ticket.arrivalOf(places.get(w))).as("arrival second of visitor %d", w + 1)
            .isGreaterThan(Ticket.arrivalOf(places.get(w - 1)));
      }
      // And so do the people ahead, as both nodes see them (each counts everyone who polled it).
      for (RedisNodes.Node node : both) {
        long last = -1;
        for (int w = 0; w < 4; w++) {
          long usersAhead = node.room.decide(waiting.get(w)).usersAhead();
          assertThat(usersAhead).as("people ahead of visitor %d at %s", w + 1, node).isGreaterThan(last);
          last = usersAhead;
        }
      }
      assertThat(mostAheadOfFirst).as("people ahead of the first visitor, at any poll").isZero();
    }
  }

  private static long placeOf(TicketCodec codec, String ticket, RedisNodes.Node at) {
    Ticket t = codec.open(ticket, at.room.status().now());
    if (t == null) {
      throw new AssertionError("the ticket does not open at " + at);
    }
    return t.place();
  }

  /**
   * A node whose own clock is 2.5 s ahead of the store's joins a room of one slot, at the start
   * of an epoch as {@link RedisNodes#add} does (which is safe for a node whose clock is right);
   * visitors then arrive at both nodes for a few seconds.
   */
  @Test
  void aNodeWhoseClockIsAheadJoinsWithoutGrantingTheSameSlotTwice() throws Exception {
    String uri = LocalRedis.require();
    RoomConfig config = config();
    try (RedisNodes nodes =
        new RedisNodes(config, uri, LocalRedis.uniquePrefix("skew"), Duration.ofMillis(200), RedisNodes.Time.STORE)) {
      RedisNodes.Node onTime = nodes.add("dc-a", "on-time", Duration.ZERO, FailurePolicy.FAIL_CLOSED);
      RedisNodes.Node ahead = nodes.add("dc-a", "ahead", Duration.ofMillis(2500), FailurePolicy.FAIL_CLOSED);
      int admitted = 0;
      for (int i = 0; i < 20; i++) {
        for (RedisNodes.Node n : List.of(onTime, ahead)) {
          admitted += n.room.decide(null).letsThrough() ? 1 : 0;
        }
        nodes.advance(Duration.ofMillis(250));
      }
      assertThat(admitted).as("admitted in a room of one slot").isLessThanOrEqualTo(1);
    }
  }
}
