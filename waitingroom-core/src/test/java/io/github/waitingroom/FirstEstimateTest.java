package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The first waits a full room tells are honest: every wait shown as a number holds the real wait
 * in its range, or the answer says the wait is not known yet. The real wait is measured on the
 * room's clock, from the answer to the poll that lets the holder in, with the holder polling as
 * told; one refresh interval of slack on the high side, since nobody is let in between polls.
 * These are the set-ups of the PetClinic trial of issue 41: two active users, two new users per
 * minute, 30 s sessions, two visitors let in who then stop, a third who waits.
 */
class FirstEstimateTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  /** A wait told, and how long the holder then really waited. */
  private record Told(long at, long seconds, long low, long high, long refresh) {
    boolean honest(long admittedAt) {
      long real = admittedAt - at;
      return seconds < 0 || (low <= real && real <= high + refresh);
    }

    String show(long admittedAt) {
      return "told " + seconds + " s [" + low + ", " + high + "] at +" + at + " s, let in after " + (admittedAt - at) + " s";
    }
  }

  @Test
  void theFirstInLineOfARoomWhoseAdmissionsOfTheMinuteAreSpentIsToldTheirWait() {
    assertHonest(0);
  }

  @Test
  void theFirstInLineOfAFullRoomIsToldTheWaitForASessionToEnd() {
    assertHonest(90);
  }

  /**
   * Lets two visitors in, who keep clicking every 5 s for {@code activeSeconds} and then stop,
   * queues a third at once and follows it in, polling as told.
   */
  private static void assertHonest(long activeSeconds) {
    RoomConfig config = RoomConfig.builder("petclinic")
        .totalActiveUsers(2)
        .newUsersPerMinute(2)
        .sessionDuration(Duration.ofSeconds(30))
        .build();
    Cluster cluster = new Cluster(config, KEYS);
    WaitingRoom room = cluster.add("local", "node");
    cluster.warmUp();
    List<String> active = new ArrayList<>();
    for (int i = 0; i < config.totalActiveUsers(); i++) {
      Decision admitted = room.decide(null);
      assertThat(admitted.outcome()).isEqualTo(Decision.Outcome.ADMIT);
      active.add(admitted.ticket());
    }
    long start = cluster.now();
    Decision d = room.decide(null);
    assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    List<Told> told = new ArrayList<>();
    long nextClick = start + 5;
    while (!d.letsThrough()) {
      assertThat(cluster.now() - start).as("let in within five minutes").isLessThan(300);
      told.add(new Told(cluster.now() - start, d.waitSeconds(), d.waitLowSeconds(), d.waitHighSeconds(), d.refreshSeconds()));
      for (long due = cluster.now() + Math.max(1, d.refreshSeconds()); cluster.now() < due; ) {
        cluster.advance(Duration.ofSeconds(1));
        if (cluster.now() >= nextClick && cluster.now() - start <= activeSeconds) {
          active.replaceAll(ticket -> click(room, ticket));
          nextClick += 5;
        }
      }
      d = room.decide(d.ticket());
    }
    long admittedAt = cluster.now() - start;
    assertThat(told)
        .as("every wait told is in range of the real one, or unknown")
        .allSatisfy(t -> assertThat(t.honest(admittedAt)).as(t.show(admittedAt)).isTrue());
  }

  /** A request of an active user; returns its ticket as it stands after it. */
  private static String click(WaitingRoom room, String ticket) {
    Decision d = room.decide(ticket);
    assertThat(d.letsThrough()).as("an active user clicking").isTrue();
    return d.ticket() != null ? d.ticket() : ticket;
  }
}
