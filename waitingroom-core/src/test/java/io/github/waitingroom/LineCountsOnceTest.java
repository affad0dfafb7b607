package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Issue 8 (use, estimates): without session affinity a waiting user's polls go to several nodes,
 * and each node counts the user in its line for two refresh intervals after a poll. The room's
 * line counted such a user once per node it polled lately (2.3 times with four nodes), so the
 * cutoff moved by fewer users than there were free slots, and everyone was told of that many
 * more people ahead. The line now counts each user once, and never less, whatever the requests
 * do: bounce between nodes, come in parallel, or replay an old ticket.
 */
class LineCountsOnceTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final int USERS = 12;
  private final RoomConfig config =
      RoomConfig.builder("once").totalActiveUsers(8).newUsersPerMinute(8)
          .sessionDuration(Duration.ofMinutes(30)).refreshInterval(Duration.ofSeconds(10)).build();

  /** One waiting user: the ticket it holds and when it polls next. */
  private static final class User {
    String ticket;
    long next;

    User(String ticket, long next) {
      this.ticket = ticket;
      this.next = next;
    }
  }

  @Test
  void aUserWhosePollsGoToEveryNodeCountsOnceInTheRoomsLine() {
    // Every user has polled two or three nodes lately; each counts once.
    assertThat(waitingCounted(8, false)).as("the room's waiting users, second by second").containsOnly((long) USERS);
  }

  @Test
  void parallelRequestsAndReplayedTicketsNeverCountAUserLessThanOnce() {
    assertThat(waitingCounted(9, true)).allSatisfy(n -> assertThat(n).isBetween((long) USERS, 2L * USERS));
  }

  /**
   * The room's waiting users as a random node's plan says, every second from the 30th to the
   * 180th, while {@value #USERS} users poll random nodes of a full room.
   */
  private List<Long> waitingCounted(long seed, boolean messy) {
    Random random = new Random(seed);
    Cluster c = new Cluster(config, KEYS);
    List<WaitingRoom> nodes = fullRoomOfFourNodes(c);
    List<User> users = queue(c, nodes, random);
    List<Long> counted = new ArrayList<>();
    for (int s = 0; s < 180; s++) {
      pollDue(c, nodes, users, random, messy);
      c.advance(Duration.ofSeconds(1));
      if (s >= 30) {
        counted.add(nodes.get(random.nextInt(4)).status().waitingUsers());
      }
    }
    return counted;
  }

  /** Four nodes of one data center, full for the whole test (sessions of 30 minutes). */
  private static List<WaitingRoom> fullRoomOfFourNodes(Cluster c) {
    List<WaitingRoom> nodes = List.of(c.add("eu", "a"), c.add("eu", "b"), c.add("eu", "c"), c.add("eu", "d"));
    c.warmUp();
    c.fill(nodes.toArray(WaitingRoom[]::new));
    return nodes;
  }

  private List<User> queue(Cluster c, List<WaitingRoom> nodes, Random random) {
    List<User> users = new ArrayList<>();
    for (int i = 0; i < USERS; i++) {
      Decision d = nodes.get(random.nextInt(4)).decide(null);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
      users.add(new User(java.util.Objects.requireNonNull(d.ticket()), c.now() + d.refreshSeconds()));
    }
    return users;
  }

  /**
   * Every user whose refresh is due polls a random node. With {@code messy}, a third of the polls
   * also send a parallel request with the same ticket to another node, and a tenth replay the
   * ticket before (whose answer the user throws away).
   */
  private static void pollDue(Cluster c, List<WaitingRoom> nodes, List<User> users, Random random, boolean messy) {
    for (User u : users) {
      if (c.now() < u.next) {
        continue;
      }
      String before = u.ticket;
      Decision d = nodes.get(random.nextInt(4)).decide(u.ticket);
      assertThat(d.letsThrough()).as("the room stays full").isFalse();
      if (messy && random.nextInt(3) == 0) {
        nodes.get(random.nextInt(4)).decide(before);
      }
      if (messy && random.nextInt(10) == 0) {
        nodes.get(random.nextInt(4)).decide(before);
      }
      String next = d.ticket();
      u.ticket = next != null ? next : u.ticket;
      u.next = c.now() + d.refreshSeconds();
    }
  }
}
