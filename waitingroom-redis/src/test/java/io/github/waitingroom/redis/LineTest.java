package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import io.github.waitingroom.testsupport.LocalRedis;

/**
 * The line keeps moving while people wait, whatever part of it has given up. Time is virtual
 * (see {@link RedisNodes}): twenty minutes of a busy room in a few seconds.
 */
class LineTest {
  // Before: a called holder who had given up kept counting in the line (for the whole poll
  // window) and kept the slot held for them, and holders near the front polled every 20 s, so
  // every plan called people who were gone: 36 admitted in minutes 0-10, 0 in minutes 10-20 with
  // the room empty. Now a holder who misses the poll it was asked for leaves the line and gives
  // its slot back, and holders near the front poll within seconds.
  @Test
  void aLineLongerThanPeoplesPatienceKeepsMoving() throws Exception {
    String uri = LocalRedis.require();
    RoomConfig config =
        RoomConfig.builder("line-" + UUID.randomUUID().toString().substring(0, 8))
            .totalActiveUsers(10)
            .newUsersPerMinute(10)
            .sessionDuration(Duration.ofMinutes(1))
            .build();
    try (RedisNodes nodes =
        new RedisNodes(config, uri, LocalRedis.uniquePrefix("line"), Duration.ofSeconds(5), RedisNodes.Time.VIRTUAL)) {
      RedisNodes.Node n = nodes.add("dc-a", "n1");
      Function<Object, WaitingRoom> route = h -> n.room;
      Crowd crowd = new Crowd(config, 3, 30, 60).patience(5 * 60);
      long start = nodes.nowSecond();
      long firstHalf = 0;
      long idleWhileWaiting = 0;
      long[] byMinute = new long[20];
      for (long now = start; now < start + 20 * 60; now = nodes.nowSecond()) {
        long before = crowd.admissions;
        crowd.arrive(n, now, route);
        crowd.visitDue(now, route);
        byMinute[(int) ((now - start) / 60)] += crowd.admissions - before;
        if (now == start + 10 * 60) {
          firstHalf = crowd.admissions;
        }
        if (now >= start + 10 * 60 && crowd.active(now) == 0) {
          idleWhileWaiting++;
        }
        nodes.advance(Duration.ofSeconds(1));
      }
      long secondHalf = crowd.admissions - firstHalf;
      System.out.printf("line: admitted %d in minutes 0-10, %d in minutes 10-20; %d s empty while people waited; %s%n",
          firstHalf, secondHalf, idleWhileWaiting, n.room.status());
      // The room frees about 10 slots every 1.5-2 minutes (30-60 s of browsing, 1-min sessions):
      // about 57 in ten minutes. Before the fix: 36 in minutes 0-10, then 0 with the room empty.
      // With everyone's patience exactly 5 minutes the front of the line is always about to give
      // up, and each eligible holder who has gone keeps its slot until missing two polls shows it:
      // two of its last (short) intervals on a node alone in the room, not two of the long ones it
      // polled at further back (which gave 44, then 20, and 2 s empty). Now 50, then 36.
      assertThat(secondHalf).as("admitted in minutes 10-20").isGreaterThanOrEqualTo(firstHalf / 2);
      // Someone gets in every two minutes (sessions of one minute free their slots in waves).
      for (int m = 0; m < 20; m += 2) {
        assertThat(byMinute[m] + byMinute[m + 1]).as("admitted in minutes %d-%d of %s", m, m + 2,
            java.util.Arrays.toString(byMinute)).isPositive();
      }
      assertThat(idleWhileWaiting).as("seconds the room stood empty while people waited").isZero();
    }
  }

  // Before: without session affinity each node counted a waiting user for two refresh intervals
  // after a poll, so the room's line counted the users who poll nodes at random 2 to 3 times (and
  // told everyone of that many more people ahead). Now a poll whose ticket shows that the poll
  // before reached another node is shared until that poll's due: each user counts once, over a
  // real Redis as in one JVM.
  @Test
  void usersWhosePollsGoToEveryNodeCountOnceInTheRoomsLine() throws Exception {
    String uri = LocalRedis.require();
    RoomConfig config =
        RoomConfig.builder("once-" + UUID.randomUUID().toString().substring(0, 8))
            .totalActiveUsers(6)
            .newUsersPerMinute(6)
            .sessionDuration(Duration.ofMinutes(30))
            .refreshInterval(Duration.ofSeconds(10))
            .build();
    try (RedisNodes nodes =
        new RedisNodes(config, uri, LocalRedis.uniquePrefix("once"), Duration.ofSeconds(1), RedisNodes.Time.VIRTUAL)) {
      List<WaitingRoom> rooms = List.of(
          nodes.add("dc-a", "n1").room, nodes.add("dc-a", "n2").room, nodes.add("dc-a", "n3").room);
      nodes.advance(Duration.ofSeconds(6));
      // 16 users arrive on random nodes and poll random nodes until 6 are in (sessions of 30
      // minutes: the room stays full) and 10 wait.
      Random random = new Random(12);
      List<String> tickets = new ArrayList<>();
      List<Long> next = new ArrayList<>();
      int admitted = 0;
      for (int u = 0; u < 16; u++) {
        Decision d = rooms.get(random.nextInt(3)).decide(null);
        if (d.letsThrough()) {
          admitted++;
        } else {
          tickets.add(Objects.requireNonNull(d.ticket()));
          next.add(nodes.nowSecond() + d.refreshSeconds());
        }
      }
      List<Long> counted = new ArrayList<>();
      for (int s = 0; s < 300; s++) {
        for (int u = 0; u < tickets.size(); u++) {
          if (nodes.nowSecond() >= next.get(u)) {
            Decision d = rooms.get(random.nextInt(3)).decide(tickets.get(u));
            if (d.letsThrough()) {
              admitted++;
              tickets.remove(u);
              next.remove(u--);
            } else {
              tickets.set(u, Objects.requireNonNull(d.ticket()));
              next.set(u, nodes.nowSecond() + d.refreshSeconds());
            }
          }
        }
        nodes.advance(Duration.ofSeconds(1));
        if (s >= 180) {
          counted.add(rooms.get(random.nextInt(3)).status().waitingUsers());
        }
      }
      assertThat(admitted).as("the room filled").isEqualTo(6);
      assertThat(counted).as("the room's waiting users, second by second").containsOnly(10L);
    }
  }
}
