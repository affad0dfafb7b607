package io.github.waitingroom.coordinator;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * How late the other data centers' sums reach a node: when (store time) each data center's latest
 * sum last advanced in an answer, which tells a data center that is only late from one that is
 * gone ({@link #late}), and how long after its epoch's end each of a data center's last sums was
 * first read ({@link #millis}). Part of {@link StoreCoordinator}; used by the sync thread.
 */
final class SumLateness {
  /** How many of a data center's latest sums {@link #millis} looks at. */
  static final int LATE_SAMPLES = 8;

  private final String dataCenter;
  private final Supplier<Epochs> epochs;
  /** When (store time) each data center's latest sum last advanced in an answer (see {@link #late}). */
  private final Map<String, Long> advancedAt = new HashMap<>();
  /**
   * How late each data center's latest sums reached this node, in ms, the last {@value
   * #LATE_SAMPLES} (see {@link #millis}).
   */
  private final Map<String, ArrayDeque<Long>> sumLate = new HashMap<>();
  /** The store's time of the answer last read. */
  private long answerMillis;

  /**
   * @param dataCenter this node's data center, whose own sums are never late to it
   * @param epochs how time is cut into epochs, as the node knows it when asked
   */
  SumLateness(String dataCenter, Supplier<Epochs> epochs) {
    this.dataCenter = dataCenter;
    this.epochs = epochs;
  }

  /** Begins reading an answer that carried the store's time {@code storeMillis}. */
  void answer(long storeMillis) {
    answerMillis = storeMillis;
  }

  /**
   * Notes the sum {@code r} of a data center in the answer being read, where this node held
   * {@code held} before: if it advanced, when, and (unless it is the first this node holds, or
   * this node's data center's) how long after its latest epoch's end.
   */
  void read(String who, Report r, @Nullable Report held) {
    if (held == null || r.latestEpoch() > held.latestEpoch()) {
      advancedAt.put(who, answerMillis);
      if (held != null && !who.equals(dataCenter) && !r.tallies().isEmpty()) {
        ArrayDeque<Long> late = sumLate.computeIfAbsent(who, k -> new ArrayDeque<>());
        late.addLast(Math.max(0, answerMillis - epochs.get().start(r.latestEpoch() + 1)));
        if (late.size() > LATE_SAMPLES) {
          late.removeFirst();
        }
      }
    }
  }

  /**
   * Of each data center, the least lateness of its last {@value #LATE_SAMPLES} sums: each also
   * holds up to a sync interval of waiting for the publishing and the reading node's syncs, which
   * the least of several leaves out, so what remains is the propagation lag. The largest of them;
   * 0 when none has been seen (see {@link Coordinator#sumLateMillis}).
   */
  long millis() {
    long late = 0;
    for (ArrayDeque<Long> samples : sumLate.values()) {
      long least = Long.MAX_VALUE;
      for (long l : samples) {
        least = Math.min(least, l);
      }
      late = Math.max(late, least);
    }
    return late;
  }

  /**
   * Whether a data center whose sums are behind is late rather than gone: its latest sum advanced
   * within the last {@value Coordinator#SILENT_AFTER_EPOCHS} epochs of store time, as this node
   * read it. Its sums reach this data center more than two epochs after their epoch (a lag between
   * data centers beyond the sync interval), and most likely this data center's reach it as late:
   * counting it silent, each would plan as a room of its own and hand out slots the other's plans
   * count nowhere. So the epoch waits for its sum instead; plans then settle late, and the room
   * lengthens its epochs until they settle in time (see the epoch pacing of the sync thread). A
   * data center that is gone stops advancing, and counts silent once its last sum is that old.
   */
  boolean late(Report r) {
    Long at = advancedAt.get(r.publisher());
    Epochs e = epochs.get();
    return at != null && answerMillis - at <= Coordinator.SILENT_AFTER_EPOCHS * e.length(e.at(answerMillis));
  }

  /** Forgets the data centers this node no longer remembers. */
  void retain(Set<String> remembered) {
    advancedAt.keySet().retainAll(remembered);
    sumLate.keySet().retainAll(remembered);
  }
}
