package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Issue 8 (use while people wait, without session affinity): the slots a plan gives the nodes of
 * a data center for part of an arrival second go to the first holders of that second, whichever
 * node each of them polls. Before, each node called the first holder of its own line: two nodes
 * that both counted the same holders called the same one, so of two free slots one went to that
 * holder and the other waited a plan or more for the next holder while it polled the node.
 */
class PartialSecondTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private final RoomConfig config =
      RoomConfig.builder("partial").totalActiveUsers(2).newUsersPerMinute(2)
          .sessionDuration(Duration.ofMinutes(1)).refreshInterval(Duration.ofSeconds(2))
          .waitingTimeout(Duration.ofMinutes(5)).build();

  /** Queues this many newcomers in the current second, the i-th on node(i); their tickets by place. */
  private static List<String> queueInOneSecond(Cluster c, int holders, IntFunction<WaitingRoom> node) {
    List<String> tickets = new ArrayList<>();
    for (int i = 0; i < holders; i++) {
      Decision d = node.apply(i).decide(null);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
      tickets.add(Objects.requireNonNull(d.ticket()));
    }
    tickets.sort(Comparator.comparingLong(c::placeOf));
    return tickets;
  }

  @Test
  void theFirstHoldersOfAPartialSecondGetInOnWhicheverNodeTheyPoll() {
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom a = c.add("eu", "a");
    WaitingRoom b = c.add("eu", "b");
    c.warmUp();
    // Two sessions that start together (and so end together: two slots free at once), then four
    // holders who arrive in one second, more than the two slots.
    c.admitNewcomers(2, Duration.ZERO);
    List<String> tickets = queueInOneSecond(c, 4, i -> i % 2 == 0 ? a : b);
    // Each polls both nodes, every 2 s; the second holder polls a first and the first polls b
    // first, so a node that called only the first holder of its line turns the second away.
    int[][] order = {{1, 0}, {0, 1}, {0, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 0}, {3, 1}};
    long[] admittedAt = {-1, -1, -1, -1};
    for (int s = 0; s < 200 && (admittedAt[0] < 0 || admittedAt[1] < 0); s += 2) {
      c.advance(Duration.ofSeconds(2));
      for (int[] poll : order) {
        int h = poll[0];
        if (admittedAt[h] >= 0) {
          continue;
        }
        Decision d = (poll[1] == 0 ? a : b).decide(tickets.get(h));
        if (d.letsThrough()) {
          admittedAt[h] = s;
        } else if (d.ticket() != null) {
          tickets.set(h, d.ticket());
        }
      }
    }
    assertThat(admittedAt[0]).as("the first holder got in").isNotNegative();
    assertThat(admittedAt[1]).as("the second holder got in with the first, on the other node").isEqualTo(admittedAt[0]);
    assertThat(admittedAt[2]).as("the third holder waits for a slot").isNegative();
    assertThat(admittedAt[3]).as("the fourth holder waits for a slot").isNegative();
  }

  /**
   * Found by the smoke run of the simulator (1 inverted user in about one run of ten): a node
   * called a holder of a partial second by place, and the holder's next polls went to the other
   * node of its data center. That node turned it away: it had not called it, and the plan's cut
   * had not reached its second. The node that called it stopped counting it once its poll there
   * was past due, and the slot it gave back could go to a holder behind it (the smoke run's
   * inverted user).
   */
  @Test
  void aHolderOneNodeCalledGetsInOnTheOtherNodeItsPollsMoveTo() {
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom a = c.add("eu", "a");
    WaitingRoom b = c.add("eu", "b");
    c.warmUp();
    // Two sessions that end together a minute from now, then five holders who arrive in one
    // second on b: two slots for five holders, so b calls the first two of its line by place.
    c.admitNewcomers(2, Duration.ZERO);
    final int holders = 5;
    long end = c.now() + 60;
    List<String> tickets = queueInOneSecond(c, holders, i -> b);
    // All poll b every 2 s while the room is full; after the sessions end, the first holder polls
    // a only (without session affinity any node may get a browser's next poll): its first poll
    // there comes after b called it, 2 s after b's last poll of it.
    long[] admittedAt = new long[holders];
    Arrays.fill(admittedAt, -1);
    while (c.now() < end + 30) {
      c.advance(Duration.ofSeconds(2));
      for (int h = 0; h < holders; h++) {
        if (admittedAt[h] >= 0) {
          continue;
        }
        Decision d = (h == 0 && c.now() > end ? a : b).decide(tickets.get(h));
        if (d.letsThrough()) {
          admittedAt[h] = c.now();
        } else if (d.ticket() != null) {
          tickets.set(h, d.ticket());
        }
      }
    }
    // It gets in on a at its second poll there, the first after b's tally reserved its slot (before,
    // only once b had stopped counting it and a called it itself, 4 s later).
    assertThat(admittedAt[0]).as("the first holder got in on a").isBetween(end, end + 4);
    assertThat(admittedAt[1]).as("the second holder got in on b").isNotNegative();
    for (int h = 2; h < holders; h++) {
      assertThat(admittedAt[h]).as("holder %d waits for a slot", h).isNegative();
    }
  }
}
