package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.allocation.Tally;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** What a node measured of the application's answers, recorded by request threads and drained into each tally. */
class OriginLatencyTest {

  @Test
  void aDrainTakesWhatWasRecordedSinceTheLastOne() {
    OriginLatency o = new OriginLatency();
    assertThat(o.drain()).isEqualTo(Tally.Origin.NONE);
    o.record(5_000, false); // 5 µs
    o.record(5_000, true);
    o.record(700_000_000, false); // 700 ms
    o.record(-3, false); // a clock step backwards: 0
    Tally.Origin d = o.drain();
    assertThat(d.requests()).isEqualTo(4);
    assertThat(d.failures()).isEqualTo(1);
    assertThat(d.buckets()).containsExactly(0, 1, 5, 2, Tally.Origin.bucket(700_000), 1);
    assertThat(o.drain()).as("taken").isEqualTo(Tally.Origin.NONE);
    o.record(Long.MAX_VALUE, true);
    assertThat(o.drain().buckets()).as("hours: the last bucket").containsExactly(Tally.Origin.BUCKETS - 1, 1);
  }

  /**
   * Eight threads record 200,000 answers each while another drains all the time: the drains add
   * up to every request and every failure recorded, bucket by bucket, none twice.
   */
  @Test
  void recordsFromManyThreadsWhileDrainingLoseNothingAndCountNothingTwice() throws Exception {
    OriginLatency o = new OriginLatency();
    int threads = 8;
    int each = 200_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
    try {
      CountDownLatch start = new CountDownLatch(1);
      AtomicBoolean recording = new AtomicBoolean(true);
      Future<List<Tally.Origin>> drainer = pool.submit(() -> {
        List<Tally.Origin> drains = new ArrayList<>();
        start.await();
        while (recording.get()) {
          drains.add(o.drain());
        }
        return drains;
      });
      List<Future<?>> recorders = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        recorders.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < each; i++) {
            // Thread t answers in (t + 1) * 1000 + (i % 7) µs; every third request of it fails.
            o.record(((thread + 1) * 1000L + i % 7) * 1000, i % 3 == 0);
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : recorders) {
        f.get(60, TimeUnit.SECONDS);
      }
      recording.set(false);
      List<Tally.Origin> drains = drainer.get(60, TimeUnit.SECONDS);
      drains.add(o.drain());
      assertThat(drains.size()).as("drains while recording").isGreaterThan(2);
      Tally.Origin total = Tally.Origin.NONE;
      for (Tally.Origin d : drains) {
        total = total.plus(d);
      }
      long[] expected = new long[Tally.Origin.BUCKETS];
      long failures = 0;
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < each; i++) {
          expected[Tally.Origin.bucket((t + 1) * 1000L + i % 7)]++;
          failures += i % 3 == 0 ? 1 : 0;
        }
      }
      assertThat(total.requests()).isEqualTo((long) threads * each);
      assertThat(total).isEqualTo(Tally.Origin.of(failures, expected));
    } finally {
      pool.shutdownNow();
    }
  }
}
