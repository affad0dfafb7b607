package io.github.waitingroom.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EventQueueTest {
  @Test
  void handsOutEventsInTimeOrderThenIdOrder() {
    EventQueue q = new EventQueue(-3000);
    q.schedule(500, 7);
    q.schedule(-2875, 9);
    q.schedule(500, 2);
    q.schedule(0, 1);
    List<String> out = new ArrayList<>();
    while (!q.isEmpty()) {
      long peek = q.peekTime();
      int id = q.poll();
      assertThat(q.time()).isEqualTo(peek);
      out.add(q.time() + ":" + id);
    }
    assertThat(out).containsExactly("-2875:9", "0:1", "500:2", "500:7");
  }

  @Test
  void givesTheOrderOfAPriorityQueueOfPackedEvents() {
    SplittableRandom r = new SplittableRandom(42);
    EventQueue q = new EventQueue();
    PriorityQueue<Long> boxed = new PriorityQueue<>();
    for (int step = 0; step < 20_000; step++) {
      if (boxed.isEmpty() || r.nextInt(3) > 0) {
        long at = r.nextLong(100_000);
        int id = r.nextInt(1000);
        q.schedule(at, id);
        boxed.add(at << EventQueue.ID_BITS | id);
      } else {
        long e = boxed.poll();
        assertThat(q.poll()).isEqualTo((int) (e & EventQueue.MAX_ID));
        assertThat(q.time()).isEqualTo(e >>> EventQueue.ID_BITS);
      }
      assertThat(q.size()).isEqualTo(boxed.size());
    }
  }

  @Test
  void refusesWhatItCannotPack() {
    EventQueue q = new EventQueue(0);
    assertThatThrownBy(() -> q.schedule(-1, 0)).hasMessageContaining("atMillis");
    assertThatThrownBy(() -> q.schedule(0, EventQueue.MAX_ID + 1)).hasMessageContaining("id");
    assertThatThrownBy(q::poll).isInstanceOf(IllegalStateException.class);
  }
}
