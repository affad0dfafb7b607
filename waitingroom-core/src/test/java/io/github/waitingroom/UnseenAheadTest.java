package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Who a holder who joined the line after the plan's tally is told is ahead of it: those who
 * joined the line before it since then, scaled from this node to the room, not everyone who
 * arrived, and the holder itself once. Counting every arrival, and scaling the holder itself to
 * every node, told the few queued before flash20x5's crowd (where one node's share of the slots
 * ran out while the room had slots to spare) about five times their wait (median error 490 %).
 */
class UnseenAheadTest {
  private final RoomConfig config =
      RoomConfig.builder("unseen").totalActiveUsers(100).newUsersPerMinute(100)
          .sessionDuration(Duration.ofMinutes(10)).build();

  @Test
  void newcomersLetInAtOnceAreAheadOfNobodyAndTheHolderCountsOnce() {
    NodeState node = new NodeState(config);
    long a = 1_800_000_000L;
    // Six arrivals here in the minute before the tally, of sixty in a room of ten such nodes.
    Grant plenty = Grants.open(a - 20, 100);
    for (int i = 0; i < 6; i++) {
      node.admitNew(Ticket.place(a - 10, i), a - 10, plenty, false);
    }
    Tally mine = node.tally(a * 1000, a - 1, 0);
    List<Tally> room = Collections.nCopies(10, mine);
    Plan plan = Plan.compute(config, 0, List.of(Tally.sum(room)), 0, room, 0);
    // Since the tally five got in at once and the sixth queued, where this node's share ran out.
    Grant five = Grants.of(plan, a, 5);
    for (int i = 0; i < 6; i++) {
      node.admitNew(Ticket.place(a + 1, i), a + 1, five, false);
    }
    assertThat(node.arrivals().roomQueuedBetween(a, a + 1, plan)).as("one queued here: about ten in the room").isEqualTo(10);
    // The holder asking, queued alone in its second, is one, not one on every node.
    node.admitNew(Ticket.place(a + 2, 9), a + 2, five, false);
    assertThat(node.arrivals().roomQueuedIn(a + 2, (a + 3) * 1000, plan)).isEqualTo(1);
  }
}
