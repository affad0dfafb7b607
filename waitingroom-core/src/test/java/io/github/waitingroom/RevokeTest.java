package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The application ends sessions (after a checkout): the slot goes to the next person in line, the
 * ended ticket is refused on every node, and ending one session several times, on one node or on
 * several, in one data center or several, frees one slot.
 */
class RevokeTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  private static Cluster fullRoom() {
    RoomConfig config = RoomConfig.builder("revoke")
        .totalActiveUsers(2)
        .newUsersPerMinute(2)
        .sessionDuration(Duration.ofMinutes(10))
        .build();
    Cluster c = new Cluster(config, KEYS);
    c.add("eu", "a");
    c.add("eu", "b");
    c.add("us", "c");
    return c.warmUp();
  }

  /** Two users in, then {@code waiting} more in line; returns all their tickets. */
  private static List<String> fill(Cluster c, int waiting) {
    List<String> tickets = admitTwo(c);
    // A minute on: the limit of new users per minute no longer holds anyone back, the active one does.
    c.advance(Duration.ofSeconds(61));
    for (int i = 0; i < waiting; i++) {
      Decision d = c.nodes.get(i % 3).decide(null);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
      tickets.add(d.ticket());
      c.advance(Duration.ofSeconds(1));
    }
    return tickets;
  }

  /** Two users in, a second apart, on nodes that hold slots for them; returns their tickets. */
  private static List<String> admitTwo(Cluster c) {
    return new ArrayList<>(c.admitNewcomers(2, Duration.ofSeconds(1)));
  }

  /** Everyone waiting polls every 2 s for {@code seconds}, on the nodes in turn; returns how many got in. */
  private static int poll(Cluster c, List<String> tickets, int from, int seconds) {
    int in = 0;
    for (int s = 0; s < seconds; s += 2) {
      for (int i = from; i < tickets.size(); i++) {
        String t = tickets.get(i);
        if (t == null) {
          continue;
        }
        Decision d = c.nodes.get((i + s) % 3).decide(t);
        if (d.letsThrough()) {
          in++;
          tickets.set(i, null);
        } else if (d.ticket() != null) {
          tickets.set(i, d.ticket());
        }
      }
      assertThat(c.activeUsers()).as("active users as the room counts them").isLessThanOrEqualTo(2);
      c.advance(Duration.ofSeconds(2));
    }
    return in;
  }

  @Test
  void anEndedSessionFreesItsSlotForTheNextPersonAndIsRefusedEverywhere() {
    Cluster c = fullRoom();
    List<String> t = fill(c, 3);
    assertThat(poll(c, t, 2, 10)).as("nobody gets in while the room is full").isZero();
    String checkedOut = t.get(0);
    assertThat(c.nodes.get(1).revoke(checkedOut)).isTrue();
    assertThat(c.nodes.get(1).decide(checkedOut).letsThrough()).as("on the node that ended it, at once").isFalse();
    assertThat(poll(c, t, 2, 20)).as("let in from the line after the revoke").isEqualTo(1);
    for (WaitingRoom n : c.nodes) {
      Decision d = n.decide(checkedOut);
      assertThat(d.letsThrough()).as("the ended ticket on %s", n.nodeId()).isFalse();
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    }
    assertThat(c.nodes.get(1).metrics().revoked()).isEqualTo(1);
    assertThat(c.nodes.get(2).metrics().rejected(RoomMetrics.Rejection.REVOKED)).isEqualTo(1);
    // The other session goes on.
    assertThat(c.nodes.get(0).decide(t.get(1)).letsThrough()).isTrue();
  }

  /**
   * A holder first in line is told a wait no shorter than it takes the next plan that can call it
   * to take over, and is not let in sooner even when a slot frees at once. It used to be told 0 s
   * (nobody ahead, so nobody to wait for), and in a crowd spread over many nodes those briefly
   * queued while another node held the free slots were told about half of their real wait.
   */
  @Test
  void theFirstInLineIsToldNoLessThanTheWaitForTheNextPlan() {
    Cluster c = fullRoom();
    List<String> sessions = admitTwo(c);
    Decision queued = c.nodes.get(0).decide(null);
    long queuedAt = c.storeClock.millis();
    assertThat(queued.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    assertThat(queued.usersAhead()).isZero();
    // Nobody is ahead, but the room is full and nobody has stopped browsing yet: the wait is not
    // known (see Turnover). Told as a number, it would be at least the second to the next plan.
    assertThat(queued.waitSeconds()).as("never 0 s: the next plan is at least a second away").isNotZero();
    // A session ends at once: its slot is free for the one in line once the two admissions have
    // left the minute's window.
    assertThat(c.nodes.get(0).revoke(sessions.get(0))).isTrue();
    String ticket = queued.ticket();
    long in = -1;
    for (int i = 0; i < 400 && in < 0; i++) {
      Decision d = c.nodes.get(0).decide(ticket);
      if (d.letsThrough()) {
        in = c.storeClock.millis();
      } else {
        ticket = java.util.Objects.requireNonNull(d.ticket());
        c.advance(Duration.ofMillis(250));
      }
    }
    assertThat(in).as("let in once the slot is free").isNotNegative();
    // The wait is told in whole seconds, rounded up.
    assertThat(in - queuedAt).as("not let in sooner than told").isGreaterThan((queued.waitSeconds() - 1) * 1000);
  }

  @Test
  void endingOneSessionTwiceFreesOneSlot() {
    Cluster c = fullRoom();
    List<String> t = fill(c, 3);
    String checkedOut = t.get(1);
    // Twice on one node, and at once on another node of the same data center and on one of the other.
    assertThat(c.nodes.get(0).revoke(checkedOut)).isTrue();
    assertThat(c.nodes.get(0).revoke(checkedOut)).isFalse();
    assertThat(c.nodes.get(1).revoke(checkedOut)).isTrue();
    assertThat(c.nodes.get(2).revoke(checkedOut)).isTrue();
    assertThat(poll(c, t, 2, 40)).as("let in from the line: one slot, not three").isEqualTo(1);
    assertThat(c.activeUsers()).isEqualTo(2);
  }

  @Test
  void onlyALiveSessionCanBeEnded() {
    Cluster c = fullRoom();
    List<String> t = fill(c, 1);
    assertThat(c.nodes.get(0).revoke(null)).isFalse();
    assertThat(c.nodes.get(0).revoke("forged")).isFalse();
    assertThat(c.nodes.get(0).revoke(t.get(2))).as("a waiting ticket").isFalse();
    assertThat(c.nodes.get(0).metrics().revoked()).isZero();
  }
}
