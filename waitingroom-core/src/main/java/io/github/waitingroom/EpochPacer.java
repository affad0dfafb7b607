package io.github.waitingroom;

import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Epochs;
import io.github.waitingroom.coordinator.Report;
import java.util.List;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long a room's epochs are: the sync thread's part that stretches them when the room reads
 * more from the store than its budget, or when plans settle too late to take over (lag between
 * data centers), and shortens them again when that passes; and that warns when plans stall. Only
 * one node of the room decides (see {@link #pace}); the others follow the era it schedules. Used
 * by {@link Synchronizer} under its lock; logs under its name.
 */
final class EpochPacer {
  private static final Logger log = LoggerFactory.getLogger(Synchronizer.class);

  private final String roomId;
  private final Coordinator coordinator;
  private final long storeBudget;
  private final LongSupplier nowMillis;
  /** The length the lag of late plans asks for, at least (see {@link #lengthForLag}). */
  private long lagFloor;
  /** The epoch of the last decision to change the epochs' length. */
  private long lastPaced = Long.MIN_VALUE / 2;
  /** Whether no plan has settled in time for a while (see {@link #watchForStall}). */
  private boolean stalled;
  /** The last epoch whose plan took over before the stall. */
  private long stalledFrom;
  /** The latest settled epoch this node paced by, and its number (see {@link #paceLate}). */
  private Coordinator.@Nullable Settled lastSettled;
  private long lastSettledEpoch;

  /**
   * @param storeBudget reports a second the room may read from the store
   * @param nowMillis the room clock (the store's, as this node knows it)
   */
  EpochPacer(String roomId, Coordinator coordinator, long storeBudget, LongSupplier nowMillis) {
    this.roomId = roomId;
    this.coordinator = coordinator;
    this.storeBudget = storeBudget;
    this.nowMillis = nowMillis;
  }

  /** Epochs between two decisions on the epochs' length, and from a decision to the era it makes. */
  static final int PACE_EVERY = 8;

  /**
   * Adapts the epochs' length to the room's size, as the seed adapts its workers' write rate to
   * their number: every {@link #PACE_EVERY} epochs, the first live node of the first data center
   * (by name) that is not silent works out from the settled epoch how many reports the room reads from the store a
   * second (every sync reads its data center's reports and every data center's sum) and, if that
   * is over the
   * store budget, stretches the epochs by a power of two until it is not; once the room has
   * shrunk so that half the length would read at most half the budget, it shortens them again.
   * The new era begins {@link #PACE_EVERY} epochs after the decision, at the start of an epoch
   * every node numbers alike; a node that reads the decision too late (its exchanges failed
   * meanwhile) withdraws its tallies since and tallies again. Only one node decides, so no two
   * decisions can disagree (the settled epoch says the same on every node about who is silent).
   */
  void pace(Coordinator.Settled s, long epoch, boolean stalled) {
    if (!stalled) {
      lastSettled = s;
      lastSettledEpoch = epoch;
    }
    Epochs epochs = coordinator.epochs();
    pace(s, epoch, stalled, this.nowMillis.getAsLong() - epochs.start(epoch + 1));
  }

  /** {@link #pace(Coordinator.Settled, long, boolean)} with the plans {@code late} ms after their epoch's end. */
  private void pace(Coordinator.Settled s, long epoch, boolean stalled, long late) {
    // On time, it decides at epochs divisible by PACE_EVERY, so that a node that counted in a decision
    // but missed it is known; while plans stall, at most every PACE_EVERY epochs.
    if (!decides(s) || !stalled && Math.floorMod(epoch, PACE_EVERY) != 0) {
      return;
    }
    Epochs epochs = coordinator.epochs();
    long nowMillis = this.nowMillis.getAsLong();
    long now = epochs.at(nowMillis);
    if (!stalled && now > epoch + 2) {
      return; // too late for every node to read it in time
    }
    if (epochs.latest().first() > now || now < lastPaced + PACE_EVERY) {
      return; // an era is already on its way, or one was decided lately
    }
    long current = epochs.length(now);
    long sumLate = coordinator.sumLateMillis();
    if (stalled) {
      lagFloor = Math.max(lagFloor, lengthForLag(sumLate > 0 ? sumLate : late, epochs.baseMillis()));
    } else if (sumLate > 0) {
      // Other data centers: their sums tell the lag between them, whatever the length.
      lagFloor = Math.min(lagFloor, lengthForLag(sumLate, epochs.baseMillis()));
    } else if (late <= current / 8) {
      // Settled at the first look: whatever lag stretched the epochs is mostly gone.
      lagFloor = Math.min(lagFloor, current / 2);
    }
    long wanted = Math.max(lengthFor(s.dataCenterNodes(), epochs.baseMillis(), current, storeBudget), lagFloor);
    if (wanted != current) {
      long first = (stalled ? now : epoch) + PACE_EVERY;
      lastPaced = now;
      coordinator.schedule(new Epochs.Era(first, epochs.start(first), wanted));
      log.info("room '{}': {} nodes in {} data centers read about {} reports a second from the store, and epoch {}"
              + " settled {} ms after its end; epochs of {} ms from epoch {} on (store budget {} a second)",
          roomId, s.roomNodes(), s.dataCenterNodes().size(),
          Math.round(reads(s.dataCenterNodes(), current)), epoch, late, wanted, first, storeBudget);
    }
  }

  /**
   * Whether this node decides for the room by this settled epoch: the first live node of the first
   * data center (by name) that is not silent (this node's is not). The settled epoch says the same
   * on every node about who is silent, so exactly one node decides.
   */
  static boolean decides(Coordinator.Settled s) {
    int decider = 0;
    while (s.dataCenterNodes().get(decider) == 0) {
      decider++;
    }
    return s.myDataCenter() == decider && s.me() == 0;
  }

  /**
   * While plans settle too late to take over (the data centers' sums reach each other later than
   * the next tally), finds the latest epoch that did settle, however late, and paces the epochs by
   * it: the room lengthens its epochs by itself until its plans settle in time again. When the
   * sums come so late that no epoch this node still holds settles at all, it paces by how late
   * the sums reach it ({@link Coordinator#sumLateMillis}), deciding by the last settled epoch it
   * paced by (whose data centers and nodes tell whether this node decides).
   */
  void paceLate(long epoch, long applied) {
    for (long e = epoch - 2; e >= epoch - Report.EPOCHS_KEPT && e > applied; e--) {
      Coordinator.Settled s = coordinator.settled(e);
      if (s != null) {
        pace(s, e, true);
        return;
      }
    }
    long late = coordinator.sumLateMillis();
    if (lastSettled != null && late > 0) {
      pace(lastSettled, lastSettledEpoch, true, late);
    }
  }

  /**
   * The epoch length that lets plans settle in time when one settled {@code lateMillis} after its
   * epoch ended. A plan must settle before the node's next tally, about one epoch after its own
   * epoch's end (see the class comment): the shortest length (the base times a power of two) that
   * keeps the lateness within half of it: the syncs that publish a sum and read it each add up to
   * a quarter of an epoch, so a lag within half an epoch leaves a plan settled by the end of the
   * next one. With other data centers, the room keeps at least the length their sums' lateness
   * asks for ({@link Coordinator#sumLateMillis}); with one, it keeps it until a plan settles within
   * an eighth of an epoch (the lag is mostly gone), then may halve it, and so on.
   */
  static long lengthForLag(long lateMillis, long base) {
    long length = base;
    while (length < base * Epochs.MAX_STRETCH && lateMillis > length / 2) {
      length *= 2;
    }
    return length;
  }

  /**
   * How many reports the room reads from the store a second with epochs of {@code lengthMillis}:
   * each of a data center's nodes reads, {@link Synchronizer#SYNCS_PER_EPOCH} times an epoch, the reports of
   * its data center and the sums of every data center.
   */
  static double reads(List<Integer> dataCenterNodes, long lengthMillis) {
    long perSync = 0;
    int dcs = dataCenterNodes.size();
    for (int n : dataCenterNodes) {
      perSync += (long) n * (n + dcs);
    }
    return perSync * Synchronizer.SYNCS_PER_EPOCH * 1000.0 / lengthMillis;
  }

  /**
   * The epoch length for a room of these data centers: {@code current} while it reads within the
   * budget and half of it would read more than half the budget; otherwise the shortest of {@code
   * base} times a power of two (at most {@link Epochs#MAX_STRETCH}) that reads within the budget
   * (within half of it, when shortening).
   */
  static long lengthFor(List<Integer> dataCenterNodes, long base, long current, long budget) {
    boolean over = reads(dataCenterNodes, current) > budget;
    double target = over ? budget : budget / 2.0;
    long length = base;
    while (length < base * Epochs.MAX_STRETCH && reads(dataCenterNodes, length) > target) {
      length *= 2;
    }
    return over ? length : Math.min(length, current);
  }

  /**
   * Warns once when the store answers but no epoch has settled in time for {@link Synchronizer#STALL_EPOCHS}
   * epochs (the node keeps its last grant and admits from nobody's line meanwhile), and notes when
   * plans settle again. The usual cause is a propagation lag between data centers that the sync
   * interval does not leave room for: a plan must settle by the first sync of the epoch after its
   * tallies' next.
   */
  void watchForStall(long epoch, long applied, long joined) {
    long lastPlan = Math.max(applied, joined);
    if (!stalled && epoch - 1 - lastPlan > Synchronizer.STALL_EPOCHS) {
      stalled = true;
      log.warn("room '{}': no plan has settled in time for {} epochs of {} ms although the store answers; unless"
              + " an unreadable report holds the plans (logged before), the data centers see each"
              + " other's reports with too much lag: the room lengthens its epochs until plans settle in time again",
          roomId, epoch - 1 - lastPlan, coordinator.epochs().length(epoch));
    } else if (stalled && applied >= epoch - 2) {
      // The plan of the epoch before last: the latest a plan can take over (by the late read).
      stalled = false;
      log.info("room '{}': plans settle in time again after {} epochs without one", roomId,
          epoch - 1 - stalledFrom);
    }
    if (!stalled) {
      stalledFrom = lastPlan;
    }
  }
}
