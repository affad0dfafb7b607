package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * One node under eight request threads and its own sync thread never admits more than it was
 * granted: slots are taken by compare-and-set, every change to the counters is bracketed so that a
 * tally counts it while in flight, and a new grant is the plan's less exactly what the old one lost
 * since the tally. Many trials, because a race shows
 * once in hundreds.
 */
class ConcurrentAdmissionTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  // Issue 8, finding 5. Before the fix, about one trial in 300-900 admitted 21 of 20: an attempt
  // that found no slot counted itself and undid it (LongAdder cells can show the undo without the
  // count), and the grant's leftovers were reckoned from admission counters read at other times.
  // Run more trials with -Dtrials=N (15,000 passed after the fix).
  @Test
  void eightThreadsAndTheSyncNeverExceedTheGrantInManyTrials() throws InterruptedException {
    int trials = Integer.getInteger("trials", 300);
    int limit = 20;
    int over = 0;
    int full = 0;
    for (int trial = 0; trial < trials; trial++) {
      RoomConfig config =
          RoomConfig.builder("race").totalActiveUsers(limit).newUsersPerMinute(limit)
              .sessionDuration(Duration.ofMinutes(10)).build();
      Cluster c = new Cluster(config, KEYS);
      WaitingRoom room = c.add("eu", "a");
      c.warmUp();
      AtomicInteger admitted = new AtomicInteger();
      AtomicBoolean running = new AtomicBoolean(true);
      CountDownLatch start = new CountDownLatch(1);
      Thread syncer =
          new Thread(
              () -> {
                // Epochs pass while the threads run (plans switch under them), but never more than
                // 20 s: sessions (10 min) and the per-minute window stay the same for the trial.
                for (int i = 0; running.get(); i++) {
                  if (i < 400) {
                    c.storeClock.advance(Duration.ofMillis(50));
                    c.clocks.get(0).advance(Duration.ofMillis(50));
                  }
                  room.sync();
                }
              });
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        Thread w =
            new Thread(
                () -> {
                  try {
                    start.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  List<String> line = new ArrayList<>();
                  for (int i = 0; i < 3 * limit; i++) {
                    Decision d = room.decide(i % 2 == 0 || line.isEmpty() ? null : line.remove(0));
                    if (d.outcome() == Decision.Outcome.ADMIT) {
                      admitted.incrementAndGet();
                    } else if (d.ticket() != null) {
                      line.add(d.ticket());
                    }
                  }
                });
        w.start();
        workers.add(w);
      }
      syncer.start();
      start.countDown();
      for (Thread w : workers) {
        w.join();
      }
      running.set(false);
      syncer.join();
      if (admitted.get() > limit) {
        over++;
      }
      full += admitted.get() == limit ? 1 : 0;
    }
    assertThat(over).as("trials that admitted more than %d", limit).isZero();
    assertThat(full).as("trials that filled the room: the race was run").isGreaterThan(trials / 2);
  }

  /**
   * A newcomer whose request read the grant an instant before the sync thread let the next plan
   * take over is still let in from the slots left. Before the fix the old grant was emptied at the
   * switch and the newcomer queued with nobody ahead and the room empty (the Spring Boot 4 test's
   * first visitor, once in CI: a cold first request spans a switch more often than a warm one).
   */
  @Test
  void aNewcomerWhoReadTheGrantJustBeforeAPlanTookOverIsStillLetIn() {
    RoomConfig config =
        RoomConfig.builder("switch").totalActiveUsers(1).newUsersPerMinute(1)
            .sessionDuration(Duration.ofMinutes(5)).build();
    NodeState node = new NodeState(config);
    long a = 1_800_000_000L;
    io.github.waitingroom.allocation.Tally first = node.tally(a * 1000, a - 1, 0);
    node.schedule(io.github.waitingroom.allocation.Plan.compute(config, 0, List.of(first), 0, List.of(first), 0),
        a * 1000);
    node.activateIfDue(a * 1000);
    Grant read = node.grant();
    assertThat(read.hasSlots()).as("the first plan frees the one slot").isTrue();
    // The sync thread tallies and lets the next plan take over while the request is under way.
    io.github.waitingroom.allocation.Tally next = node.tally((a + 1) * 1000, a, 0);
    node.schedule(io.github.waitingroom.allocation.Plan.compute(config, 1, List.of(next), 0, List.of(next), 0),
        (a + 1) * 1000);
    node.activateIfDue((a + 1) * 1000);
    assertThat(node.grant()).as("a new grant is in force").isNotSameAs(read);
    assertThat(node.admitNew(Ticket.place(a + 1, 7), a + 1, read, false)).as("let in from the slot left").isTrue();
    assertThat(node.admitNew(Ticket.place(a + 1, 8), a + 1, node.grant(), false))
        .as("the slot is taken once, whichever grant the request read").isFalse();
  }
}
