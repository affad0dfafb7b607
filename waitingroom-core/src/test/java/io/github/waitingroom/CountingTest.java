package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A node counts tickets, not requests: parallel requests, retries, tabs and replays of one
 * ticket count as one user, and a ticket gets in once.
 */
class CountingTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private final RoomConfig config =
      RoomConfig.builder("count").totalActiveUsers(3).newUsersPerMinute(3)
          .sessionDuration(Duration.ofMinutes(5)).refreshInterval(Duration.ofSeconds(10)).build();

  @Test
  void aThousandReplaysOfAnActiveTicketFromEightThreadsCountOnce() throws Exception {
    Cluster c = new Cluster(config, KEYS);
    c.maxRequestsPerTicket = 0; // counting alone: the rate rule has a test of its own below
    WaitingRoom room = c.add("eu", "a");
    c.warmUp();
    String first = room.decide(null).ticket();
    c.advance(Duration.ofSeconds(12)); // a new slice: every replay would move the count
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<Boolean>> replays = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      replays.add(pool.submit(() -> room.decide(first).letsThrough()));
    }
    for (Future<Boolean> r : replays) {
      assertThat(r.get()).isTrue();
    }
    pool.shutdown();
    assertThat(room.status().localActiveUsers()).isEqualTo(1);
    c.advance(Duration.ofSeconds(3));
    assertThat(room.status().activeUsers()).isEqualTo(1);
    assertThat(room.decide(null).outcome()).as("newcomers still get the free slots").isEqualTo(Decision.Outcome.ADMIT);
    assertThat(room.decide(null).outcome()).isEqualTo(Decision.Outcome.ADMIT);
  }

  /**
   * Issue 13 and issue 8 (counting): one admitted cookie shared by a thousand clients. Counting
   * alone keeps it one user, but it would let everyone through a full room. A ticket used more
   * than 50 times a second on average over a 10 s window is refused for the rest of the window:
   * its requests arrive anew, at the back of the line. A browser polling its API every 200 ms
   * never comes near it.
   */
  @Test
  void aTicketUsedFarFasterThanABrowserWouldIsRefusedForTheRestOfTheWindow() {
    RoomConfig one = config.toBuilder().totalActiveUsers(1).newUsersPerMinute(1).build();
    Cluster c = new Cluster(one, KEYS);
    WaitingRoom room = c.add("eu", "a");
    c.warmUp();
    String shared = java.util.Objects.requireNonNull(room.decide(null).ticket());
    c.advance(Duration.ofSeconds(10 - c.now() % 10)); // the start of a window
    int passed = 0;
    int queued = 0;
    for (int i = 0; i < 1000; i++) {
      Decision d = room.decide(shared);
      passed += d.letsThrough() ? 1 : 0;
      queued += d.outcome() == Decision.Outcome.QUEUE ? 1 : 0;
    }
    assertThat(passed).as("uses of the shared cookie let through in one window").isEqualTo(50 * 10);
    assertThat(queued).as("the others arrive anew, and the room is full").isEqualTo(500);
    assertThat(room.status().localActiveUsers()).isEqualTo(1);

    // An honest browser: five requests a second for two minutes, never refused.
    RoomConfig two = config.toBuilder().totalActiveUsers(2).newUsersPerMinute(2).build();
    Cluster d = new Cluster(two, KEYS);
    WaitingRoom other = d.add("eu", "a");
    d.warmUp();
    String mine = java.util.Objects.requireNonNull(other.decide(null).ticket());
    for (int s = 0; s < 120; s++) {
      for (int r = 0; r < 5; r++) {
        Decision answer = other.decide(mine);
        assertThat(answer.letsThrough()).as("second %d, request %d", s, r).isTrue();
        mine = answer.ticket() != null ? answer.ticket() : mine;
      }
      d.advance(Duration.ofSeconds(1));
    }
    assertThatThrownBy(() -> WaitingRoom.builder(two, KEYS).maxRequestsPerTicket(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxRequestsPerTicket");
  }

  @Test
  void replaysOfAWaitingTicketCountOnceInTheLine() {
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom room = c.add("eu", "a");
    c.warmUp();
    for (int i = 0; i < 3; i++) {
      room.decide(null);
    }
    String waiting = room.decide(null).ticket();
    c.advance(Duration.ofSeconds(2));
    for (int i = 0; i < 10; i++) {
      room.decide(waiting);
    }
    c.advance(Duration.ofSeconds(3));
    assertThat(room.status().waitingUsers()).isEqualTo(1);
  }

  @Test
  void aCopiedWaitingTicketGetsInOnceAndCopiesArriveAnew() {
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom a = c.add("eu", "a");
    WaitingRoom b = c.add("eu", "b");
    c.warmUp();
    int inside = 0;
    for (int i = 0; i < 6; i++) {
      inside += (i % 2 == 0 ? a : b).decide(null).letsThrough() ? 1 : 0;
    }
    assertThat(inside).isEqualTo(3);
    String early = a.decide(null).ticket();
    List<String> honest = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      c.advance(Duration.ofSeconds(1));
      honest.add(b.decide(null).ticket());
    }
    // The sessions run out; the early ticket keeps polling on a, and is copied to 100 clients.
    int admittedCopies = 0;
    for (int s = 0; s < 400 && admittedCopies == 0; s++) {
      c.advance(Duration.ofSeconds(1));
      Decision d = a.decide(early);
      early = d.ticket() != null && !d.letsThrough() ? d.ticket() : early;
      if (d.letsThrough()) {
        admittedCopies++;
        for (int copy = 0; copy < 100; copy++) {
          WaitingRoom node = copy % 2 == 0 ? a : b;
          if (node.decide(early).letsThrough()) {
            admittedCopies++;
          }
        }
      }
    }
    assertThat(admittedCopies).as("the original got in, and no copy").isEqualTo(1);
    c.advance(Duration.ofSeconds(15));
    // Later copies are new arrivals, with a place of their own at the back of the line.
    Decision late = b.decide(early);
    String lateTicket = java.util.Objects.requireNonNull(late.ticket());
    assertThat(c.placeOf(lateTicket)).as("a new place").isNotEqualTo(c.placeOf(java.util.Objects.requireNonNull(early)));
  }
}
