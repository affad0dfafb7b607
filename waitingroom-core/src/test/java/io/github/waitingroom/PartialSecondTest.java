package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
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

  @Test
  void theFirstHoldersOfAPartialSecondGetInOnWhicheverNodeTheyPoll() {
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom a = c.add("eu", "a");
    WaitingRoom b = c.add("eu", "b");
    c.warmUp();
    // Two sessions that start together (and so end together: two slots free at once), then four
    // holders who arrive in one second, more than the two slots.
    c.admitNewcomers(2, Duration.ZERO);
    List<String> tickets = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Decision d = (i % 2 == 0 ? a : b).decide(null);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
      tickets.add(Objects.requireNonNull(d.ticket()));
    }
    tickets.sort(Comparator.comparingLong(c::placeOf));
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
}
