package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/** One node: admission, the line, estimates and tickets. */
class WaitingRoomTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private final RoomConfig config = Cluster.shop(3, Duration.ofSeconds(60)).refreshInterval(Duration.ofSeconds(10)).build();
  private final Cluster cluster = new Cluster(config, KEYS);
  private final WaitingRoom room = cluster.warmNode();

  @Test
  void aLoneNodeAdmitsAtOnceAndAJoiningNodeOnlyOnceItHasJoined() {
    Cluster cold = new Cluster(config, KEYS);
    WaitingRoom first = cold.add("local", "first");
    assertThat(first.decide(null).outcome()).as("alone in the room: plans at once").isEqualTo(Decision.Outcome.ADMIT);
    WaitingRoom second = cold.add("local", "second");
    Decision early = second.decide(null);
    assertThat(early.outcome()).as("the others may have planned without it").isEqualTo(Decision.Outcome.QUEUE);
    assertThat(early.refreshSeconds()).isEqualTo(2);
    cold.warmUp();
    // Once joined, it lets in the visitor it queued (whose page polls again soon).
    assertThat(second.decide(early.ticket()).outcome()).isEqualTo(Decision.Outcome.ADMIT);
  }

  /**
   * Issue 42: requests that never come back (a flood) take no slot and count as no user when the
   * caller decides newcomers with {@code decideKnown} until they come back; known tickets are
   * decided as by {@code decide}.
   */
  @Test
  void decideKnownCountsNoNewcomerAndDecidesKnownTicketsAsDecideDoes() {
    for (int i = 0; i < 1000; i++) {
      Decision d = room.decideKnown(null, "not a ticket " + i);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.CHALLENGE);
      assertThat(d.ticket()).isNull();
    }
    cluster.advance(Duration.ofSeconds(2));
    assertThat(room.status().activeUsers()).as("no slot taken").isZero();
    assertThat(room.status().waitingUsers()).as("no place given").isZero();
    // A newcomer that comes back is let in on a free slot, as decide does on the first request.
    Decision in = room.decide(null, null);
    assertThat(in.outcome()).isEqualTo(Decision.Outcome.ADMIT);
    assertThat(room.decideKnown(in.ticket(), null).letsThrough()).as("a session passes").isTrue();
    room.decide(null, null);
    room.decide(null, null);
    Decision queued = room.decide(null, null);
    assertThat(queued.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    cluster.advance(Duration.ofSeconds(2));
    Decision polled = room.decideKnown(null, queued.ticket());
    assertThat(polled.outcome()).as("a place keeps waiting").isEqualTo(Decision.Outcome.WAIT);
    assertThat(polled.usersAhead()).isZero();
  }

  @Test
  void admitsUpToTheLimitThenQueuesAndLetsTheLineInOldestFirst() {
    for (int i = 0; i < 3; i++) {
      assertThat(room.decide(null).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    }
    Decision first = room.decide(null);
    assertThat(first.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    cluster.advance(Duration.ofSeconds(2));
    Decision second = room.decide(null);
    assertThat(second.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    cluster.advance(Duration.ofSeconds(2));
    first = room.decide(first.ticket());
    second = room.decide(second.ticket());
    assertThat(first.usersAhead()).isZero();
    assertThat(second.usersAhead()).isEqualTo(1);
    for (int t = 0; t < 70; t += 5) {
      cluster.advance(Duration.ofSeconds(5));
      first = first.letsThrough() ? first : room.decide(first.ticket());
      if (!first.letsThrough()) {
        second = room.decide(second.ticket());
        assertThat(second.letsThrough()).as("never before the first").isFalse();
      }
    }
    assertThat(first.outcome()).isEqualTo(Decision.Outcome.ADMIT);
    cluster.advance(Duration.ofSeconds(1));
    assertThat(room.decide(second.ticket()).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    assertThat(room.decide(first.ticket()).outcome()).isEqualTo(Decision.Outcome.PASS);
  }

  @Test
  void estimatesTheWaitFromTheLimitsAndTheSessionsRunningOutWithARange() {
    // Before, 30 visitors who each sent one request: a user stays about a session (60 s), so a
    // full room of three lets one in every 20 s.
    cluster.turnOver(30);
    cluster.advance(Duration.ofSeconds(61));
    for (int i = 0; i < 3; i++) {
      assertThat(room.decide(null).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    }
    List<String> line = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      line.add(room.decide(null).ticket());
      cluster.advance(Duration.ofSeconds(1));
    }
    cluster.advance(Duration.ofSeconds(2));
    Decision d = room.decide(line.get(3));
    assertThat(d.outcome()).isEqualTo(Decision.Outcome.WAIT);
    assertThat(d.usersAhead()).isEqualTo(3);
    // The holders poll; the three admitted users send nothing more. Once their last requests are
    // more than half a session (30 s) old, their sessions end within the next 30 s or so.
    for (int poll = 0; poll < 7; poll++) {
      cluster.advance(Duration.ofSeconds(5));
      for (int i = 0; i < line.size(); i++) {
        Decision polled = room.decide(line.get(i));
        line.set(i, polled.ticket() != null ? polled.ticket() : line.get(i));
        d = polled;
      }
    }
    assertThat(d.outcome()).isEqualTo(Decision.Outcome.WAIT);
    // Three ahead and then its own admission: four. The total limit lets three in as the three
    // leave (within about 30 s) and the fourth once one let in in their place leaves, a session
    // later; the per-minute limit (3) lets three in as the last minute's three turn a minute old
    // and the fourth 20 s after that: 60 + 20 = 80 s, the later.
    assertThat(d.waitSeconds()).isEqualTo(80);
    assertThat(d.waitLowSeconds()).isBetween(1L, 79L);
    assertThat(d.waitHighSeconds()).isGreaterThan(80);
    // A minute away, but within a few rooms' worth of the front of a full room: every 5 s, not
    // every 10 s (the configured interval), so a slot that frees is taken before people give up.
    assertThat(d.refreshSeconds()).isEqualTo(WaitingAnswer.FRONT_REFRESH_SECONDS);
  }

  @Test
  void inASurgeANewcomersWaitIsUnknownUntilAPlanCountedItsArrivalSecond() {
    cluster.turnOver(30);
    cluster.advance(Duration.ofSeconds(61));
    for (int i = 0; i < 3; i++) {
      assertThat(room.decide(null).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    }
    cluster.advance(Duration.ofSeconds(5));
    while (cluster.storeClock.millis() % 1000 != 125) {
      cluster.advance(Cluster.STEP);
    }
    // A crowd: 40 arrive in the first 125 ms of a second, on a node that had 3 arrivals in the
    // minute before. The places of a second are drawn at random: the one drawn last has most of
    // the second ahead of it, which nobody has counted yet (the crowd may be coming in on other
    // nodes too, or only here).
    TicketCodec codec = new TicketCodec(config.roomId(), KEYS);
    long now = room.status().now();
    Decision last = null;
    double lastShare = -1;
    for (int i = 0; i < 40; i++) {
      Decision d = room.decide(null);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
      if (i >= Arrivals.SURGE_SLACK) {
        assertThat(d.waitKnown()).as("told a wait before a plan counted the surge, arrival %d", i).isFalse();
        assertThat(d.refreshSeconds()).isEqualTo(WaitingAnswer.SURGE_REFRESH_SECONDS);
      }
      double share = Ticket.shareOfSecondAhead(Objects.requireNonNull(codec.openState(d.ticket(), now)).place());
      if (i >= 20 && share > lastShare) {
        last = d;
        lastShare = share;
      }
    }
    // At its next poll the plan of an epoch after that second has taken over: its share of the
    // other 39 and its own admission, at 20 s each: the room is full of three who sent one request
    // each, so all three leave a session (60 s) after it, and so do the three let in in their
    // places; the per-minute limit of three allows the same.
    cluster.advance(Duration.ofSeconds(WaitingAnswer.SURGE_REFRESH_SECONDS));
    Decision told = room.decide(Objects.requireNonNull(last).ticket());
    assertThat(told.outcome()).isEqualTo(Decision.Outcome.WAIT);
    assertThat(told.waitSeconds()).isEqualTo(20 * (Math.round(lastShare * 39) + 1));
  }

  @Test
  void waitIsUnknownWithoutRecentAdmissions() {
    RoomConfig longSessions =
        config.toBuilder().totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(30)).build();
    Cluster c = new Cluster(longSessions, KEYS);
    WaitingRoom r = c.add("local", "node");
    c.warmUp();
    assertThat(r.decide(null).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    c.advance(Duration.ofMinutes(2));
    Decision queued = r.decide(null);
    assertThat(queued.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    assertThat(queued.waitKnown()).isFalse();
    assertThat(queued.waitSeconds()).isEqualTo(-1);
    assertThat(queued.waitMinutes()).isEqualTo(-1);
  }

  @Test
  void forgedAndForeignTicketsAreNewArrivals() {
    for (int i = 0; i < 3; i++) {
      room.decide(null);
    }
    String sealed = Objects.requireNonNull(room.decide(null).ticket());
    char flipped = sealed.charAt(20) == 'x' ? 'y' : 'x';
    assertThat(room.decide(sealed.substring(0, 20) + flipped + sealed.substring(21)).outcome())
        .isEqualTo(Decision.Outcome.QUEUE);
    long now = room.status().now();
    String foreign = new TicketCodec("other-room", KEYS).seal(TicketState.waiting(Ticket.place(now, 1), now).admit(now));
    assertThat(room.decide(foreign).outcome()).isEqualTo(Decision.Outcome.QUEUE);
  }

  @Test
  void activeTicketsAreReissuedOncePerSliceAndTheCookieOutlivesTheSession() {
    Decision admitted = room.decide(null);
    cluster.advance(Duration.ofSeconds(3));
    Decision same = room.decide(admitted.ticket());
    assertThat(same.outcome()).isEqualTo(Decision.Outcome.PASS);
    assertThat(same.ticket()).isNull();
    cluster.advance(Duration.ofSeconds(10));
    Decision moved = room.decide(admitted.ticket());
    assertThat(moved.outcome()).isEqualTo(Decision.Outcome.PASS);
    assertThat(moved.ticket()).isNotNull();
    // Re-issued at most once per slice: a cookie that lives session + slice outlives the last
    // request by at least the session.
    assertThat(moved.ticketMaxAgeSeconds()).isEqualTo(60 + 10);
    assertThat(admitted.ticketMaxAgeSeconds()).isEqualTo(60 + 10);
  }

  @Test
  void aWaitingUserNearTheFrontIsAskedToPollSooner() {
    RoomConfig slow = config.toBuilder().refreshInterval(Duration.ofSeconds(20)).sessionDuration(Duration.ofSeconds(30)).build();
    Cluster c = new Cluster(slow, KEYS);
    WaitingRoom r = c.add("local", "node");
    c.warmUp();
    for (int i = 0; i < 3; i++) {
      r.decide(null);
      c.advance(Duration.ofSeconds(3));
    }
    Decision d = r.decide(null);
    c.advance(Duration.ofSeconds(2));
    d = r.decide(d.ticket());
    assertThat(d.usersAhead()).isZero();
    assertThat(d.refreshSeconds()).isLessThan(20);
  }
}
