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
    // Four holders of one second, more than the two slots.
    List<String> tickets = fullRoomAndOneSecondOfHolders(c, a, b, 4);
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
   * In a crowd (four holders or more for each slot), a node's slots for the partial second go to
   * whichever of the first holders polls it first: for the first second of the plan only as many
   * holders as the data center has slots, then five times as many. With only as many throughout,
   * the slots waited while those holders polled elsewhere or had gone (they count in the line
   * until they miss two polls), and the next holders, polling that node, were turned away until
   * the next plan (flash20x5: some 40 slots unused at every tally, the crowd served at 96 % of the
   * limit). With more from the start, the front of the line lost its turn to whoever polled first.
   */
  @Test
  void inACrowdTheSlotsGoToTheNextHoldersOnceTheFirstHadAHeadStart() {
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom a = c.add("eu", "a");
    WaitingRoom b = c.add("eu", "b");
    c.warmUp();
    // Sixteen holders of one second: eight for each slot on each node.
    List<String> tickets = fullRoomAndOneSecondOfHolders(c, a, b, 16);
    long[] admittedAt = new long[tickets.size()];
    Arrays.fill(admittedAt, -1);
    long first = -1;
    long freed = -1;
    // Every holder polls every 2 s, as told.
    for (int s = 0; s < 200 && first < 0; s += 2) {
      c.advance(Duration.ofSeconds(2));
      if (freed < 0 && a.status().freeSlots() > 0) {
        freed = s; // the plan in force made the sessions' slots free
      }
      for (int h = 0; h < tickets.size(); h++) {
        // The first two stop polling just before the sessions end: the lines still count them
        // when the slots free.
        if (h < 2 && s >= 58) {
          continue;
        }
        for (WaitingRoom node : List.of(a, b)) {
          if (admittedAt[h] < 0) {
            Decision d = node.decide(tickets.get(h));
            if (d.letsThrough()) {
              admittedAt[h] = s;
              first = s;
            } else if (d.ticket() != null) {
              tickets.set(h, d.ticket());
            }
          }
        }
      }
    }
    assertThat(freed).as("the sessions ended").isNotNegative();
    assertThat(admittedAt).as("the two slots waited for the first two, and at the next polls went to the third and fourth")
        .containsExactly(-1, -1, freed + 2, freed + 2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  }

  /**
   * Issue 39 (41 of 40 on one node, seeds 71, 144, 154 and 197 of {@code tiny-one-node} with the
   * legacy mix): a tally keeps a slot for the first holder of a partial second who has not polled
   * yet, and leaves that holder out of its line. When the next plan's cutoff reaches that second, it
   * calls the holder by arrival (without a slot: the plan counted the kept one for it), while the
   * kept slot stayed in the node's count and went to a holder of the plan's next partial second:
   * one user over the limit. Here: six slots, one session ends 4 s before the other five; five
   * holders of one second and four of the next poll every 6 s, none between the two plans.
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
    assertThat(in).as("the six slots went to the five holders of the first second and the first of the next")
        .containsExactly(66, 66, 66, 66, 66, 66, -1, -1, -1);
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

  /**
   * Two sessions that start together (and so end together: two slots free at once), then {@code
   * n} holders who arrive in one second on both nodes in turn: their tickets, by place.
   */
  private static List<String> fullRoomAndOneSecondOfHolders(Cluster c, WaitingRoom a, WaitingRoom b, int n) {
    c.admitNewcomers(2, Duration.ZERO);
    List<String> tickets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Decision d = (i % 2 == 0 ? a : b).decide(null);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
      tickets.add(Objects.requireNonNull(d.ticket()));
    }
    tickets.sort(Comparator.comparingLong(c::placeOf));
    return tickets;
  }
}
