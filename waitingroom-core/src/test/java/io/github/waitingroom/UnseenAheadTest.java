package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Who a holder who joined the line after the plan's tally is told is ahead of it: those who
 * joined the line before it since then, not everyone who arrived. Counting every arrival, scaled
 * to the room, told the few queued before flash20x5's crowd (where one node's share of the slots
 * ran out while the room had slots to spare) about five times their wait (median error 490 %).
 */
class UnseenAheadTest {
  private final RoomConfig config =
      RoomConfig.builder("unseen").totalActiveUsers(100).newUsersPerMinute(100)
          .sessionDuration(Duration.ofMinutes(10)).build();

  @Test
  void newcomersLetInAtOnceAreAheadOfNobody() {
    NodeState node = new NodeState(config, () -> 7);
    long a = 1_800_000_000L;
    Tally empty = node.tally(a * 1000, a - 1, 0);
    Plan plan = Plan.compute(config, 0, List.of(empty), 0, List.of(empty), 0);
    assertThat(plan.spareSlots()).as("the room has slots to spare").isPositive();
    Grant five = new Grant(plan, a, Long.MIN_VALUE, Calls.NONE, new long[0], new AtomicLong(5), Long.MIN_VALUE,
        Long.MIN_VALUE, new long[0]);
    for (int i = 0; i < 6; i++) {
      node.admitNew(Ticket.place(a + 1, i), a + 1, five, false);
    }
    // Five got in, the sixth queued: one is in line, where one node's share ran out.
    assertThat(node.roomQueuedBetween(a, a + 1, plan)).isEqualTo(1);
    assertThat(node.roomQueuedIn(a + 1, (a + 2) * 1000, plan)).isEqualTo(1);
  }
}
