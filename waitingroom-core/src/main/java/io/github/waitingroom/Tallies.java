package io.github.waitingroom;

import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Epochs;
import io.github.waitingroom.coordinator.Report;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's tallies of its latest epochs: taken at its first sync of an epoch, one for each
 * epoch that ended since its last tally, each as of that epoch's end ({@link #tallyUpTo}); and
 * withdrawn when the store's answer shows them to be of epochs cut another way (an era that began
 * before this node read it) or of epochs that have not ended by the store's clock (a clock that
 * runs ahead; see {@link #afterAnswer}). Part of {@link Synchronizer}; used by the sync thread
 * under its lock. Logs under {@link Synchronizer}'s name.
 */
final class Tallies {
  private static final Logger log = LoggerFactory.getLogger(Synchronizer.class);

  /** What {@link #afterAnswer} returns when the sync stops there. */
  static final long STOP = Long.MIN_VALUE;

  private final String roomId;
  private final NodeState state;
  private final Coordinator coordinator;
  private final Plans plans;
  /** The room clock (see {@link Synchronizer#nowMillis}). */
  private final LongSupplier nowMillis;
  private final TreeMap<Long, Tally> tallies = new TreeMap<>();
  private long tallied = Long.MIN_VALUE;
  private long joined;
  /** The tallies before this sync's, and the epoch of the latest (see {@link #withdrawFrom}). */
  private TreeMap<Long, Tally> before = new TreeMap<>();
  private long talliedBefore;

  /**
   * @param plans told to apply no plan of the tallies withdrawn
   * @param nowMillis the room clock
   */
  Tallies(String roomId, NodeState state, Coordinator coordinator, Plans plans, LongSupplier nowMillis) {
    this.roomId = roomId;
    this.state = state;
    this.coordinator = coordinator;
    this.plans = plans;
    this.nowMillis = nowMillis;
  }

  /** Whether this node has yet to join the room (or must join again). */
  boolean joining() {
    return tallied == Long.MIN_VALUE;
  }

  /** Notes that this node joined at {@code epoch}: its first tally is of that epoch. */
  void joined(long epoch) {
    joined = epoch;
    tallied = joined - 1;
  }

  /** Takes the first tally of a node alone in the room, of the epoch it joined at. */
  void first(Tally first) {
    tallies.put(joined, first);
    tallied = joined;
  }

  /** The epoch this node joined at. */
  long joined() {
    return joined;
  }

  /** The latest epoch this node tallied. */
  long tallied() {
    return tallied;
  }

  /** The tallies of the latest epochs, by epoch. */
  NavigableMap<Long, Tally> all() {
    return tallies;
  }

  /**
   * Tallies every epoch before {@code epoch} not tallied yet (the last {@link Report#EPOCHS_KEPT}
   * at most), after noting the tallies before them (see {@link #withdrawFrom}).
   *
   * @param nowMs the room clock at the start of the sync
   * @param checkIns how many seconds back the tallies list check-ins
   */
  void tallyUpTo(long epoch, long nowMs, Epochs epochs, LongSupplier checkIns) {
    talliedBefore = tallied;
    before = new TreeMap<>(tallies);
    if (tallied < epoch - 1) {
      // Each epoch's tally counts sessions and admissions in the windows as of that epoch's end,
      // the same instant on every node, however late this node takes it: a session that moved
      // from another node is then counted on both or on neither.
      for (long e = Math.max(Math.max(tallied + 1, joined), epoch - Report.EPOCHS_KEPT); e < epoch; e++) {
        tallies.put(e, state.tally(nowMs, Math.floorDiv(epochs.start(e + 1), 1000L), checkIns.getAsLong()));
      }
      while (tallies.size() > Report.EPOCHS_KEPT) {
        tallies.pollFirstEntry();
      }
      tallied = epoch - 1;
    }
  }

  /**
   * After an answer that carried the store's time {@code storeMillis}: the epoch the sync goes on
   * with, or {@link #STOP} if the tallies since this sync began (or all, if this node must join
   * again) are withdrawn.
   *
   * @param epochs how time was cut into epochs before the exchange
   * @param epoch the current epoch by the room clock, as the sync began
   * @param nowMs the room clock at the start of the sync
   */
  long afterAnswer(Epochs epochs, long epoch, long storeMillis, long nowMs) {
    if (coordinator.epochs() != epochs) {
      // A new era: if it began already (this node missed its document), the tallies it made
      // since are of epochs cut the old way. Withdrawn, as those of a clock that ran ahead are,
      // and made again as the new epochs end.
      long first = coordinator.epochs().latest().first();
      if (joined > first) {
        // It joined, by the old lengths, after the era began: its join named an epoch of the
        // old numbering. It joins again (its users count again from its first tally).
        tallied = Long.MIN_VALUE;
        tallies.clear();
        log.warn("room '{}': an era of {} ms epochs began at epoch {} before this node joined; joining again",
            roomId, coordinator.epochs().latest().lengthMillis(), first);
        return STOP;
      }
      if (tallied >= first) {
        withdrawFrom(first);
        log.warn("room '{}': an era of {} ms epochs began at epoch {} before this node read it; tallies since withdrawn",
            roomId, coordinator.epochs().latest().lengthMillis(), first);
        return STOP;
      }
      epochs = coordinator.epochs();
      epoch = Math.min(epoch, epochs.at(nowMillis.getAsLong()));
    }
    long storeEpoch = epochs.at(storeMillis);
    if (storeEpoch < epoch) {
      // This node's clock ran ahead of the store's (see the class comment of Synchronizer).
      if (tallied >= storeEpoch) {
        withdrawFrom(storeEpoch);
        long ahead = nowMs - storeMillis;
        if (ahead >= epochs.length(epoch)) {
          log.warn("room '{}': this node's clock ran {} ms ahead of the store's; tallies of epochs that have"
              + " not ended withdrawn", roomId, ahead);
        } else {
          log.debug("room '{}': tallied {} ms before the store's epoch ended; withdrawn", roomId, ahead);
        }
      }
      return STOP;
    }
    return epoch;
  }

  /**
   * Withdraws the tallies of epoch {@code first} on (its next exchange publishes the report
   * without them), going back to the tallies it held before this sync, and applies no plan
   * computed from the tallies it made before that: its bookkeeping belongs to the withdrawn ones.
   */
  private void withdrawFrom(long first) {
    tallies.clear();
    tallies.putAll(before.headMap(first, false));
    // Never back before the epoch it joined at: a node tallies nothing before that (its report
    // could not carry it), also when the store's epoch is behind the one it joined at.
    tallied = Math.max(Math.min(talliedBefore, first - 1), joined - 1);
    plans.appliedAtLeast(talliedBefore);
  }
}
