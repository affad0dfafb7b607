package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** One node admitting from many threads at once, while its sync runs, never exceeds its limits. */
class ConcurrentAdmissionProperties {

  @Property(tries = 25)
  void manyThreadsNeverAdmitMoreThanTheLimit(
      @ForAll @IntRange(min = 1, max = 60) int total,
      @ForAll @IntRange(min = 2, max = 8) int threads,
      @ForAll @IntRange(min = 0, max = 3) int rounds) throws InterruptedException {
    ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
    RoomConfig config =
        RoomConfig.builder("race")
            .totalActiveUsers(total)
            .newUsersPerMinute(total)
            .sessionDuration(Duration.ofMinutes(10))
            .refreshInterval(Duration.ofSeconds(5))
            .build();
    WaitingRoom room = WaitingRoom.builder(config, TicketKeys.generate()).clock(clock).backgroundSync(false).build();
    AtomicInteger admitted = new AtomicInteger();
    List<String> waiting = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int round = 0; round <= rounds; round++) {
      AtomicBoolean running = new AtomicBoolean(true);
      Thread syncer =
          new Thread(
              () -> {
                while (running.get()) {
                  room.sync();
                }
              });
      syncer.start();
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> workers = new ArrayList<>();
      List<String> polls = new ArrayList<>(waiting);
      waiting.clear();
      for (int t = 0; t < threads; t++) {
        int id = t;
        Thread w =
            new Thread(
                () -> {
                  try {
                    start.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  for (int i = 0; i < 2 * total; i++) {
                    Decision d = room.decide(null);
                    count(d, admitted, waiting);
                  }
                  for (int i = id; i < polls.size(); i += threads) {
                    count(room.decide(polls.get(i)), admitted, waiting);
                  }
                });
        w.start();
        workers.add(w);
      }
      start.countDown();
      for (Thread w : workers) {
        w.join();
      }
      running.set(false);
      syncer.join();
      // Let the refresh interval pass so that waiting users are checked again next round.
      clock.advance(Duration.ofSeconds(6));
      room.sync();
    }
    // Sessions last ten minutes and the clock moved less than one: nobody left.
    assertThat(admitted.get()).isLessThanOrEqualTo(total);
    assertThat(room.view().activeUsers()).isEqualTo(admitted.get());
  }

  private static void count(Decision d, AtomicInteger admitted, List<String> waiting) {
    if (d.outcome() == Decision.Outcome.ADMIT) {
      admitted.incrementAndGet();
    } else if (d.ticket() != null) {
      waiting.add(d.ticket());
    }
  }
}
