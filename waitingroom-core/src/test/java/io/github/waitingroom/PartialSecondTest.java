package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * A plan whose slots cover part of an arrival second (the partial second): the cutoff covers the
 * share of that second's places the slots cover, and no more than the slots get in.
 */
class PartialSecondTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  /**
   * Issue 39 (41 of 40 on one node, seeds 71, 144, 154 and 197 of {@code tiny-one-node} with the
   * legacy mix, under the rule before the one rule): a slot kept for a holder of a partial second
   * went to another holder while the next plan let the first in without one. Here: six slots, one
   * session ends 4 s before the other five; five holders of one second and four of the next poll
   * every 6 s, none between the two plans. Never more than six sessions run.
   */
  @Test
  void aHolderThatTheNextPlanCallsByArrivalGivesBackTheSlotKeptForIt() {
    RoomConfig six = RoomConfig.builder("kept").totalActiveUsers(6).newUsersPerMinute(6)
        .sessionDuration(Duration.ofMinutes(1)).refreshInterval(Duration.ofSeconds(5)).build();
    Cluster c = new Cluster(six, KEYS);
    c.random = new java.util.SplittableRandom(39);
    WaitingRoom room = c.add("eu", "a");
    c.warmUp();
    long start = c.now();
    List<Long> admittedAt = new ArrayList<>();
    c.admitNewcomers(1, Duration.ZERO).forEach(t -> admittedAt.add(c.now()));
    c.advance(Duration.ofSeconds(4));
    c.admitNewcomers(5, Duration.ZERO).forEach(t -> admittedAt.add(c.now()));
    List<String> holders = new ArrayList<>(queue(c, room, 5));
    c.advance(Duration.ofSeconds(1));
    holders.addAll(queue(c, room, 4));
    long[] in = new long[holders.size()];
    Arrays.fill(in, -1);
    // Until just before the sessions let in from the line end (nobody comes back to check in): a
    // session counts while its ticket still passes, for the 60 s after the second it began.
    while (c.now() < start + 125) {
      c.advance(Duration.ofSeconds(1));
      long now = c.now();
      for (int h = 0; h < holders.size() && (now - start) % 6 == 0; h++) {
        Decision d = in[h] < 0 ? room.decide(holders.get(h)) : null;
        if (d != null && d.letsThrough()) {
          in[h] = now - start;
          admittedAt.add(now);
        } else if (d != null && d.ticket() != null) {
          holders.set(h, d.ticket());
        }
      }
      long running = admittedAt.stream().filter(a -> a >= now - 60).count();
      assertThat(running).as("sessions running %d s in", now - start).isLessThanOrEqualTo(6);
    }
    assertThat(Arrays.copyOf(in, 5)).as("the five holders of the first second got in together")
        .containsOnly(in[0]);
    assertThat(in[0]).isPositive();
    assertThat(Arrays.stream(in).filter(t -> t >= 0).count()).as("six slots").isLessThanOrEqualTo(6);
  }

  private static List<String> queue(Cluster c, WaitingRoom room, int n) {
    List<String> tickets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Decision d = room.decide(null);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
      tickets.add(Objects.requireNonNull(d.ticket()));
    }
    tickets.sort(Comparator.comparingLong(c::placeOf));
    return tickets;
  }
}
