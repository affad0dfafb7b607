package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * What the room learns of how long its users browse ({@code Turnover}): the seconds counted are
 * those in which a stop would already show, and the counts mean the room's users only summed over
 * its nodes.
 *
 * <p>Sessions of 120 s, so a user whose last request lies 60 s back counts as stopped. Counting
 * the seconds users browsed in those last 60 s too (in which nobody can be seen to stop yet) read
 * the mean browsing time up to twice as long early in a sale: on one node, waits were told 30-60 %
 * too long ({@code topo1x1} in the simulator). And each node alone, without session affinity,
 * counted a user that browses on other nodes as stopped while it saw only a share of its seconds:
 * waits told 20-30 % too short on 2 x 2 nodes.
 */
class BrowsingTest {
  private final RoomConfig config =
      RoomConfig.builder("browsing").totalActiveUsers(10).newUsersPerMinute(10)
          .sessionDuration(Duration.ofSeconds(120)).build();
  private static final long T0 = 1_800_000_000L;

  private NodeState node() {
    return new NodeState(config);
  }

  private static Grant oneSlot() {
    return Grants.open(0, 1);
  }

  /** A user admitted on {@code node} at {@code at}; returns its place. */
  private static long admit(NodeState node, long at, int bits) {
    long place = Ticket.place(at, bits);
    assertThat(node.admitNew(place, at, oneSlot(), false)).isTrue();
    return place;
  }

  /** What the nodes saw by {@code at}, summed as the room sums their tallies. */
  private Tally.Browsing room(long at, NodeState... nodes) {
    Tally.Browsing sum = Tally.Browsing.NONE;
    for (NodeState n : nodes) {
      sum = sum.plus(n.browsing(at, Turnover.idleSeconds(config)));
    }
    return sum;
  }

  private static TicketState active(long place, long lastCheckIn) {
    return new TicketState(TicketState.State.ACTIVE, place, Ticket.arrivalOf(place), lastCheckIn, lastCheckIn);
  }

  /**
   * A stop shows only once a user has been idle for half a session, so some of the users not idle
   * yet have already stopped: with browsing times exponential of mean 240 s and an idle time of
   * 60 s, a user let in before it stopped within it with probability 1 - exp(-1/4) (memoryless);
   * one let in 10 s ago, within its 10 s.
   */
  @Test
  void usersNotIdleYetStoppedWithinTheIdleTimeAsFarAsTheyWereInTheRoom() {
    double all = 1 - Math.exp(-60 / 240.0);
    // Nobody let in within the idle time.
    assertThat(Turnover.unseenStops(300, new double[60], 60, 240)).isCloseTo(300 * all, within(1e-9));
    // A room that just filled: 300 let in 10 s ago.
    double[] justFilled = new double[60];
    justFilled[10] = 300;
    assertThat(Turnover.unseenStops(300, justFilled, 60, 240)).isCloseTo(300 * (1 - Math.exp(-10.5 / 240)), within(1e-9));
    // Sessions of 30 minutes (an idle time of 15): 150 let in evenly over it, 150 before.
    double[] evenly = new double[900];
    double spread = 0;
    for (int a = 0; a < 900; a++) {
      evenly[a] = 150 / 900.0;
      spread += 150 / 900.0 * (1 - Math.exp(-(a + 0.5) / 240));
    }
    assertThat(Turnover.unseenStops(300, evenly, 900, 240))
        .isCloseTo(150 * (1 - Math.exp(-900 / 240.0)) + spread, within(1e-9));
    assertThat(Turnover.unseenStops(300, evenly, 900, 0)).as("not known").isZero();
  }

  /** The room's admissions by age: this node's, scaled by the room's last minute over its own. */
  @Test
  void theRoomsAdmissionsByAgeAreThisNodesScaledToTheRoom() {
    NodeState n = node();
    long a = 1_800_000_000L;
    assertThat(Turnover.roomByAge(n.admittedByAge(a, 60), 60, 122)).as("none here: the room's spread over the minute").containsOnly(2.0);
    admit(n, a - 30, 1);
    admit(n, a - 5, 2);
    double[] byAge = Turnover.roomByAge(n.admittedByAge(a, 60), 60, 10);
    assertThat(byAge[30]).isEqualTo(5.0);
    assertThat(byAge[5]).isEqualTo(5.0);
    assertThat(java.util.Arrays.stream(byAge).sum()).isEqualTo(10.0);
  }

  @Test
  void onlySecondsInWhichAStopWouldShowCount() {
    NodeState n = node();
    long idle = Turnover.idleSeconds(config);
    assertThat(idle).isEqualTo(60);
    // a: requests at +0, +10, +30, then stops. b: requests at +0, +50, +90, still browsing at +100.
    long a = admit(n, T0, 1);
    n.checkIn(active(a, T0), T0 + 10);
    n.checkIn(active(a, T0 + 10), T0 + 30);
    long b = admit(n, T0, 2);
    n.checkIn(active(b, T0), T0 + 50);
    n.checkIn(active(b, T0 + 50), T0 + 90);
    // At +100 a stop shows only before +40: a stopped (30 s browsed), b browsed 40 s of it (of 90).
    assertThat(n.browsing(T0 + 100, idle)).isEqualTo(new Tally.Browsing(1, 1, 2, 30 + 40));
    // The same seconds whenever the node forgot the slices they began in.
    n.prune(T0 + 100);
    assertThat(n.browsing(T0 + 100, idle)).isEqualTo(new Tally.Browsing(1, 1, 2, 30 + 40));
    // Once a's session ran out, it still counts as stopped; b has stopped too by +160.
    n.prune(T0 + 160);
    assertThat(n.browsing(T0 + 160, idle)).isEqualTo(new Tally.Browsing(2, 1, 1, 30 + 90));
  }

  @Test
  void aUserWhoseRequestsGoToTwoNodesCountsOnceInTheirSum() {
    NodeState x = node();
    NodeState y = node();
    long u = admit(x, T0, 3);
    // Requests at +20 on y, +30 on x, +45 on y, then none.
    y.checkIn(active(u, T0), T0 + 20);
    x.checkIn(active(u, T0 + 20), T0 + 30);
    y.checkIn(active(u, T0 + 30), T0 + 45);
    long at = T0 + 100; // a stop shows before +40
    // The room: one user, still browsing (its last request, at +45, is within the idle time), 40 s.
    assertThat(room(at, x, y)).isEqualTo(new Tally.Browsing(0, 0, 1, 40));
    // Alone, x would count it stopped: its own last request from the user came at +30.
    assertThat(room(at, x).idle()).isEqualTo(1);
    // At +110 the user has stopped: once, after 45 s.
    assertThat(room(at + 10, x, y)).isEqualTo(new Tally.Browsing(1, 1, 1, 45));
    // Tallies carry the shares, and a data center's sum adds them.
    Tally tx = x.tally((at + 10) * 1000, at + 10, 0);
    Tally ty = y.tally((at + 10) * 1000, at + 10, 0);
    assertThat(Tally.sum(List.of(tx, ty)).browsing()).isEqualTo(new Tally.Browsing(1, 1, 1, 45));
  }

  @Test
  void parallelRequestsOfOnePageOnTwoNodesCountTheirSecondsOnce() {
    NodeState x = node();
    NodeState y = node();
    long u = admit(x, T0, 4);
    // One page at +20: two requests at once, one to each node; both move the session from T0.
    x.checkIn(active(u, T0), T0 + 20);
    y.checkIn(active(u, T0), T0 + 20);
    long at = T0 + 90; // a stop shows before +30
    assertThat(room(at, x, y).seconds()).as("counted twice").isEqualTo(40);
    // The epoch after: y publishes after x and takes its own back, as it does the session's move.
    long tallied = T0 + 21;
    Tally tx = x.tally(tallied * 1000, tallied, 10);
    Tally ty = y.tally(tallied * 1000, tallied, 10);
    y.dropDuplicates(List.of(tx, ty), 1, tallied);
    assertThat(room(at, x, y)).isEqualTo(new Tally.Browsing(1, 1, 1, 20));
  }
}
