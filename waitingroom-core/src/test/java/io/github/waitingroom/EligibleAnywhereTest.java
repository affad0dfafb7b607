package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Without session affinity a waiting user's polls reach any node: once its place is at or below
 * the plan's cutoff it takes a slot on whichever node it polls that still holds one, and a node
 * without one lets nobody in (every admission takes a slot), but tells it to ask again in a second.
 */
class EligibleAnywhereTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private final RoomConfig config =
      RoomConfig.builder("anywhere").totalActiveUsers(2).newUsersPerMinute(2)
          .sessionDuration(Duration.ofMinutes(1)).refreshInterval(Duration.ofSeconds(2))
          .waitingTimeout(Duration.ofMinutes(3)).build();

  @Test
  void anEligibleUserTakesASlotOnWhicheverNodeHoldsOneAndNoneElsewhere() {
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom a = c.add("eu", "a");
    WaitingRoom b = c.add("eu", "b");
    c.warmUp();
    String ticket = fillAndQueue(c, a, b);
    boolean admitted = false;
    for (int s = 0; s < 180 && !admitted; s += 2) {
      c.advance(Duration.ofSeconds(2));
      WaitingRoom polled = s % 4 == 0 ? a : b;
      long place = c.placeOf(ticket);
      boolean eligible = Inside.eligible(polled, place);
      boolean slot = Inside.holdsSlot(polled);
      Decision poll = polled.decide(ticket);
      assertThat(poll.letsThrough()).as("second %d: let in exactly when eligible with a slot here", s)
          .isEqualTo(eligible && slot);
      if (eligible && !slot) {
        assertThat(poll.refreshSeconds()).as("asks again in a second: another node may hold one").isEqualTo(1);
      }
      admitted = poll.letsThrough();
      ticket = keep(poll, ticket);
    }
    assertThat(admitted).as("the sessions ran out and the user got in").isTrue();
  }

  /**
   * A newcomer queued on a node that had given out its slots for new arrivals, while the room had
   * room to spare, gets in at its next poll on a node that still holds such a slot: before, it
   * waited for a plan that counted it (three epochs or more), while later newcomers walked in on
   * that node (flash20x5 before its crowd: one user at a time queued for 4-5 s with the room at
   * 40-80 %). It polls again after a second, not two.
   */
  @Test
  void aNewcomerQueuedWhereTheSlotsRanOutGetsInWhereOneIsLeft() {
    RoomConfig roomy = RoomConfig.builder("roomy").totalActiveUsers(100).newUsersPerMinute(100)
        .sessionDuration(Duration.ofMinutes(1)).refreshInterval(Duration.ofSeconds(2))
        .waitingTimeout(Duration.ofMinutes(3)).build();
    Cluster c = new Cluster(roomy, KEYS);
    WaitingRoom a = c.add("eu", "a");
    WaitingRoom b = c.add("eu", "b");
    c.warmUp();
    // a lets newcomers in until its slots run out (no sync in between: no plan gives it more).
    Decision d = a.decide(null);
    int admitted = 0;
    for (; d.letsThrough(); d = a.decide(null)) {
      admitted++;
      assertThat(admitted).as("a runs out of slots").isLessThan(100);
    }
    assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    // The room has room: it is told to ask again in a second, not two (two seconds of it queued
    // with the room at 35-80 % were half of flash20x5's shortfall in use).
    assertThat(d.refreshSeconds()).as("asks again in a second").isEqualTo(1);
    String ticket = Objects.requireNonNull(d.ticket());
    // Its next poll (a second later: before any plan that counted it) reaches b.
    c.advance(Duration.ofSeconds(1));
    assertThat(Inside.holdsSlot(b)).as("b still holds slots for new arrivals").isTrue();
    assertThat(b.decide(ticket).letsThrough()).as("let in on b at its next poll").isTrue();
  }

  /** Fills the room of two from both nodes, then queues one user on a, alone in its arrival second. */
  private static String fillAndQueue(Cluster c, WaitingRoom a, WaitingRoom b) {
    int inside = 0;
    for (int i = 0; inside < 2; i++) {
      assertThat(i).as("the room fills").isLessThan(60);
      inside += (i % 2 == 0 ? a : b).decide(null).letsThrough() ? 1 : 0;
      c.advance(Duration.ofMillis(500));
    }
    c.advance(Duration.ofMillis(1500));
    Decision d = a.decide(null);
    assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    String ticket = Objects.requireNonNull(d.ticket());
    return ticket;
  }

  private static String keep(Decision d, String ticket) {
    return d.ticket() != null ? d.ticket() : ticket;
  }
}
