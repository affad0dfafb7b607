package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

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
    // Later copies are new arrivals, at the back of the line behind the honest users.
    Decision late = b.decide(early);
    assertThat(late.outcome()).isEqualTo(Decision.Outcome.QUEUE);
  }
}
