package io.github.waitingroom.coordinator;

import java.util.TreeMap;

/**
 * When a node saw its data center's sums in the store, and whether they got there in time for a
 * plan: per store epoch of an answer, the latest epoch of the sum the answer held (the last few
 * epochs only). Part of {@link StoreCoordinator}; used by the sync thread.
 */
final class SumVisibility {
  private final TreeMap<Long, Long> visibleSums = new TreeMap<>();
  /** The latest epoch of this data center's sum in the global scope of the answer being read. */
  private long sumInAnswer = Long.MIN_VALUE;

  /** Begins reading an answer's global scope. */
  void reading() {
    sumInAnswer = Long.MIN_VALUE;
  }

  /** Notes that the answer being read holds this data center's sum up to {@code latestEpoch}. */
  void sawSum(long latestEpoch) {
    sumInAnswer = latestEpoch;
  }

  /**
   * Notes the latest sum of this data center that the answer just read held, at the store's epoch
   * of the answer ({@code storeEpoch}).
   */
  void noteVisible(long storeEpoch) {
    if (sumInAnswer != Long.MIN_VALUE) {
      visibleSums.merge(storeEpoch, sumInAnswer, Math::max);
    }
    while (visibleSums.size() > 2 * Report.EPOCHS_KEPT) {
      visibleSums.pollFirstEntry();
    }
  }

  /** The latest sum of this data center that this node saw in the store before store epoch {@code e} began. */
  private long visibleBefore(long e) {
    long latest = Long.MIN_VALUE;
    for (long l : visibleSums.headMap(e, false).values()) {
      latest = Math.max(latest, l);
    }
    return latest;
  }

  /**
   * Whether this data center's sums reached the store in time for the plan of epoch {@code s}:
   * no other data center can have counted it silent for an epoch whose plan could meet this one.
   * Another data center settles epoch {@code e} from the start of epoch {@code e + 1} on, and
   * counts this one silent for it (with its last sum, and the free slots of that sum's plan only)
   * unless it reads a sum of epoch {@code e - 2} or later. Had it done so for epoch {@code s}, its
   * plan and this one would be made from different snapshots of one epoch; for epoch {@code s + 1}
   * or {@code s + 2}, its plan would count none of the slots this one hands out. So this data
   * center's sum of {@code s - 2} (or later) must have been in the store before epoch {@code s + 1}
   * began, its sum of {@code s - 1} before epoch {@code s + 2}, and its sum of {@code s} before
   * {@code s + 3} (in practice: now). A data center whose sums reached the store late (its nodes
   * missed syncs) skips those plans, as a silent one would: its nodes keep their last grants.
   * Epochs within two of the data center's first sum ({@code first}) need nothing: the others
   * wait for it.
   */
  boolean inTime(long s, long first) {
    for (long e = s; e <= s + 2; e++) {
      if (e >= first + Coordinator.SILENT_AFTER_EPOCHS + 1 && visibleBefore(e + 1) < e - Coordinator.SILENT_AFTER_EPOCHS) {
        return false;
      }
    }
    return true;
  }
}
