package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Issue 8 (counting, parallel requests across nodes): the requests a page sends at once go to
 * several nodes when there is no session affinity. One of them may be admitted while another is
 * told to wait, and the same place may be admitted on two nodes at once.
 */
class ParallelRequestsTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  // Slices of 10 s (not the default 1 s): the tests time page views inside and across one slice.
  private final RoomConfig config =
      RoomConfig.builder("parallel").totalActiveUsers(3).newUsersPerMinute(3)
          .sessionDuration(Duration.ofMinutes(1)).sliceWidth(Duration.ofSeconds(10))
          .refreshInterval(Duration.ofSeconds(2)).build();

  /** What a browser keeps: the last value set for each cookie. */
  private static final class Browser {
    @Nullable String session;
    @Nullable String place;
    /** With one cookie for both, as before: the last ticket set, whatever it holds. */
    @Nullable String single;

    void keep(Decision d) {
      String t = d.ticket();
      if (t == null) {
        return;
      }
      if (d.letsThrough()) {
        session = t;
      } else {
        place = t;
      }
      single = t;
    }
  }

  @Test
  void aWaitingAnswerToAParallelRequestNeverTakesTheSessionAway() {
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom a = c.add("eu", "a");
    c.warmUp();
    c.fill(a);
    Browser u = new Browser();
    Decision queued = a.decide(null);
    assertThat(queued.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    u.keep(queued);
    // The user polls node a until its turn comes (the sessions of the first three run out). Then
    // its page sends two requests at once: one to a, one to b, a node that has just joined the
    // room and has no plan yet, so it cannot let the user in (as any node that has not counted
    // the user, or whose plan does not call it yet, would answer).
    WaitingRoom joined = null;
    Decision onA = null;
    Decision onB = null;
    for (int s = 0; s < 120 && onA == null; s += 2) {
      c.advance(Duration.ofSeconds(2));
      Decision first = a.decide(u.session, u.place);
      if (first.letsThrough()) {
        onA = first;
        joined = c.add("eu", "b");
        onB = joined.decide(null, Objects.requireNonNull(u.place)); // the same cookies, at the same moment
      } else {
        u.keep(first);
      }
    }
    assertThat(onA).as("admitted on a").isNotNull();
    WaitingRoom b = Objects.requireNonNull(joined);
    assertThat(Objects.requireNonNull(onB).letsThrough()).as("b cannot let the user in: it says wait").isFalse();
    assertThat(onB.ticket()).as("and sets a waiting ticket").isNotNull();
    // The answer from b arrives last.
    u.keep(Objects.requireNonNull(onA));
    u.keep(onB);
    c.advance(Duration.ofSeconds(6)); // b's first plan comes two to three epochs after it joins
    assertThat(a.status().waitingUsers())
        .as("b counted the user in its line; it leaves it once the room knows a admitted them")
        .isZero();
    assertThat(b.decide(u.session, u.place).letsThrough()).as("the session kept apart still lets the user in").isTrue();
    assertThat(a.decide(u.session, u.place).letsThrough()).isTrue();
    // With one cookie the waiting ticket would have replaced the session, and the user would
    // start again as a newcomer (a copy of an admitted place arrives anew): at the back of the
    // line in a full room.
    String single = Objects.requireNonNull(u.single);
    Decision lost = b.decide(single);
    assertThat(c.placeOf(Objects.requireNonNull(lost.ticket())))
        .as("a newcomer's place").isNotEqualTo(c.placeOf(single));
  }

  @Test
  void aPlaceAdmittedOnTwoNodesAtOnceCountsOnce() {
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom a = c.add("eu", "a");
    WaitingRoom b = c.add("eu", "b");
    c.warmUp();
    String stays = c.fill(a, b);
    Browser u = new Browser();
    u.keep(b.decide(null));
    assertThat(u.place).as("queued").isNotNull();
    // The user's page polls both nodes at once, so both count it; one of the first three keeps
    // its session, two run out: two free slots. Once its place is eligible, its next parallel
    // requests reach both nodes when each holds one of them (each admission takes a slot).
    Decision onA = null;
    Decision onB = null;
    for (int s = 0; s < 120; s += 2) {
      c.advance(Duration.ofSeconds(2));
      Decision pass = a.decide(stays);
      stays = pass.ticket() != null ? pass.ticket() : stays;
      long place = c.placeOf(Objects.requireNonNull(u.place));
      if (Inside.eligible(a, place) || Inside.eligible(b, place)) {
        for (int wait = 0; wait < 4 && !(Inside.holdsSlot(a) && Inside.holdsSlot(b)); wait++) {
          c.advance(Duration.ofSeconds(1));
        }
        onA = a.decide(u.session, u.place);
        onB = b.decide(u.session, u.place);
        break;
      }
      u.keep(a.decide(u.session, u.place));
      u.keep(b.decide(u.session, u.place));
    }
    assertThat(Objects.requireNonNull(onA).outcome()).as("admitted on a").isEqualTo(Decision.Outcome.ADMIT);
    assertThat(Objects.requireNonNull(onB).outcome()).as("and on b, in the same instant").isEqualTo(Decision.Outcome.ADMIT);
    u.keep(onA);
    u.keep(onB);
    assertThat(a.status().localActiveUsers() + b.status().localActiveUsers()).as("counted on both at first").isEqualTo(3);
    c.advance(Duration.ofSeconds(4));
    a.decide(stays);
    // Once the tallies settle, b (the later publisher) takes its count back: two users, one slot.
    assertThat(a.status().activeUsers()).as("the room counts the user once").isEqualTo(2);
    assertThat(b.status().activeUsers()).isEqualTo(2);
    c.advance(Duration.ofSeconds(3));
    // One slot free: the plans hand it to one node for new arrivals, which keeps it until it is
    // taken (a plan's freeSlots counts it only in the plan that hands it out), so one newcomer
    // gets it and no second one does.
    Decision newcomer = a.decide(null);
    if (!newcomer.letsThrough()) {
      newcomer = b.decide(null); // the node that holds the slot for new arrivals
    }
    assertThat(newcomer.outcome()).as("one slot free, and a newcomer gets it").isEqualTo(Decision.Outcome.ADMIT);
    assertThat(a.decide(null).letsThrough()).as("no second newcomer on a").isFalse();
    assertThat(b.decide(null).letsThrough()).as("nor on b").isFalse();
  }

  @Test
  void aSessionCheckedInOnTwoNodesAtOnceCountsOnce() {
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom a = c.add("eu", "a");
    WaitingRoom b = c.add("eu", "b");
    c.warmUp();
    Decision first = a.decide(null);
    assertThat(first.outcome()).as("admitted into an empty room").isEqualTo(Decision.Outcome.ADMIT);
    String session = Objects.requireNonNull(first.ticket());
    long slice = config.sliceSeconds();
    long admittedIn = config.sliceOf(c.now());
    // The next page view comes in the next slice and sends two requests at once with the same
    // session cookie: one to a, one to b. Each node moves the session to the new slice.
    c.advance(Duration.ofSeconds(admittedIn + slice + 1 - c.now()));
    assertThat(a.decide(session).outcome()).isEqualTo(Decision.Outcome.PASS);
    assertThat(b.decide(session).outcome()).isEqualTo(Decision.Outcome.PASS);
    // Nothing more from the user: its session counts until the new slice leaves the window. The
    // moves' take-away from the old slice leaves the window a slice earlier; from then on a
    // session counted by both nodes would count twice.
    long oldSliceGone = admittedIn + slice + config.sessionSeconds();
    c.advance(Duration.ofSeconds(oldSliceGone + 1 - c.now()));
    assertThat(config.sliceOf(c.now())).as("the new slice still counts").isLessThan(admittedIn + 2 * slice + config.sessionSeconds());
    assertThat(a.status().activeUsers()).as("the room counts the user once").isEqualTo(1);
    assertThat(b.status().activeUsers()).isEqualTo(1);
  }
}
