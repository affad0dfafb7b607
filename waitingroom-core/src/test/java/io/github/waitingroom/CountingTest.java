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
    // The sessions run out; the early ticket keeps polling on a, and is copied to 100 clients
    // that poll a and b in the instant the original gets in on a.
    boolean admitted = false;
    int copiesOnA = 0;
    int copiesOnB = 0;
    for (int s = 0; s < 400 && !admitted; s++) {
      c.advance(Duration.ofSeconds(1));
      Decision d = a.decide(early);
      early = d.ticket() != null && !d.letsThrough() ? d.ticket() : early;
      if (d.letsThrough()) {
        admitted = true;
        for (int copy = 0; copy < 100; copy++) {
          boolean onA = copy % 2 == 0;
          if ((onA ? a : b).decide(early).letsThrough()) {
            copiesOnA += onA ? 1 : 0;
            copiesOnB += onA ? 0 : 1;
          }
        }
      }
    }
    assertThat(admitted).as("the original got in").isTrue();
    assertThat(copiesOnA).as("no copy on the node that admitted it").isZero();
    // Node b lets a called holder in although it never counted it (without session affinity a
    // browser's next poll may reach any node): one copy there, before b can know of the
    // admission on a. That is the documented bound: once per node within an epoch plus the lag.
    assertThat(copiesOnB).as("at most one copy on the other node").isLessThanOrEqualTo(1);
    c.advance(Duration.ofSeconds(3));
    for (int copy = 0; copy < 10; copy++) {
      assertThat((copy % 2 == 0 ? a : b).decide(early).outcome())
          .as("once the tallies show the admission, no copy gets in anywhere").isNotEqualTo(Decision.Outcome.ADMIT);
    }
    c.advance(Duration.ofSeconds(12));
    // Later copies are new arrivals, with a place of their own at the back of the line.
    Decision late = b.decide(early);
    String lateTicket = java.util.Objects.requireNonNull(late.ticket());
    assertThat(c.placeOf(lateTicket)).as("a new place").isNotEqualTo(c.placeOf(java.util.Objects.requireNonNull(early)));
  }

  /**
   * Copies of a waiting ticket that every node saw before the plan that calls it: once one node
   * admits it, the others refuse the copies as soon as its latest tally (or its data center's sum)
   * shows the admission: an epoch or so, and the lag between data centers; not only once a plan
   * that counts it is computed, which waits for the slowest data center.
   */
  @Test
  void copiesOfACalledTicketAreRefusedEverywhereOnceTheAdmittingNodesTallyShowsIt() {
    RoomConfig oneMinute = config.toBuilder().sessionDuration(Duration.ofMinutes(1)).build();
    Cluster c = new Cluster(oneMinute, KEYS);
    // What c writes to the global scope (its data center's sums) lands 600 ms late: eu's nodes
    // plan an epoch that much later, but see each other's tallies at once.
    List<WaitingRoom> nodes = List.of(c.add("eu", "a"), c.add("eu", "b"), c.add("us", "c", c.lagging(Duration.ofMillis(600))));
    c.warmUp();
    for (int i = 0; i < 3; i++) {
      assertThat(nodes.get(i).decide(null).letsThrough()).isTrue();
    }
    // The room is full: the holder queues, and polls every node in turn, as the clones will.
    String ticket = java.util.Objects.requireNonNull(nodes.get(0).decide(null).ticket());
    WaitingRoom admittedBy = null;
    long admittedAt = 0;
    for (int s = 0; s < 200 && admittedBy == null; s++) {
      c.advance(Duration.ofSeconds(1));
      WaitingRoom node = nodes.get(s % 3);
      Decision d = node.decide(ticket);
      if (d.letsThrough()) {
        admittedBy = node;
        admittedAt = c.storeClock.millis();
      } else {
        ticket = d.ticket() != null ? d.ticket() : ticket;
      }
    }
    assertThat(admittedBy).as("the holder got in").isNotNull();
    // Right after, a copy could still get in on another node: the same plan calls it there too.
    // Three quarters into the epoch after the admission's, the admitting node's tally of its epoch
    // is in the store, and the plan that counts it does not take over before the epoch after.
    long epoch = Math.floorDiv(admittedAt, 1000);
    while (c.storeClock.millis() < (epoch + 1) * 1000 + 875) {
      c.step(null, 0);
    }
    WaitingRoom by = java.util.Objects.requireNonNull(admittedBy);
    for (WaitingRoom other : nodes) {
      if (other != by) {
        // The copy arrives anew: a place of its own (and a session of its own only if the room
        // has a slot for a newcomer, as it has here), never the place that got in.
        Decision copy = other.decide(ticket);
        assertThat(c.placeOf(java.util.Objects.requireNonNull(copy.ticket()))).as("the place of a copy on %s",
            other.nodeId()).isNotEqualTo(c.placeOf(ticket));
      }
    }
  }

  /**
   * Ten clients share one waiting cookie, each keeping the cookie of its own last answer, and poll
   * both nodes in turn. A poll whose ticket does not carry the node's last answer to that place
   * waits: while the copies poll, the place gets in at most once (before, once on each node that
   * saw it); once only one client is left, that one gets in, once.
   */
  @Test
  void aWaitingTicketSharedByTenClientsGetsInOnceNotOncePerNode() {
    RoomConfig oneMinute = config.toBuilder().sessionDuration(Duration.ofMinutes(1)).build();
    Cluster c = new Cluster(oneMinute, KEYS);
    List<WaitingRoom> nodes = List.of(c.add("eu", "a"), c.add("eu", "b"));
    c.warmUp();
    for (int i = 0; i < 3; i++) {
      assertThat(nodes.get(i % 2).decide(null).letsThrough()).isTrue();
    }
    String shared = java.util.Objects.requireNonNull(nodes.get(0).decide(null).ticket());
    long place = c.placeOf(shared);
    List<String> clients = new ArrayList<>(java.util.Collections.nCopies(10, shared));
    // Two minutes: the sessions run out at one, and the line calls the place soon after.
    int admitted = poll(c, nodes, clients, place, 4 * 120);
    assertThat(admitted).as("admissions of the shared place while ten clients poll").isLessThanOrEqualTo(1);
    if (admitted == 0) {
      List<String> last = new ArrayList<>(clients.subList(0, 1));
      admitted += poll(c, nodes, last, place, 4 * 20);
    }
    assertThat(admitted).as("admissions of the shared place").isEqualTo(1);
  }

  /**
   * The clients poll every 2 s (8 quarter epochs), spread over those quarters, on the nodes in
   * turn, for {@code steps} quarter epochs; returns how many times {@code place} got in.
   */
  private static int poll(Cluster c, List<WaitingRoom> nodes, List<String> clients, long place, int steps) {
    int admitted = 0;
    for (int s = 0; s < steps; s++) {
      c.step(null, 0);
      for (int i = 0; i < clients.size(); i++) {
        if ((s + i) % 8 == 0) {
          Decision d = nodes.get((s / 8 + i) % 2).decide(clients.get(i));
          String ticket = d.ticket();
          if (d.letsThrough() && ticket != null && c.placeOf(ticket) == place) {
            admitted++;
          } else if (!d.letsThrough() && ticket != null) {
            clients.set(i, ticket); // a waiting answer without a cookie leaves the client's as it was
          }
        }
      }
    }
    return admitted;
  }
}
