package io.github.waitingroom;

import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Epochs;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When a node syncs: {@link Synchronizer#SYNCS_PER_EPOCH} times an epoch, at points spread over
 * it with a little jitter ({@link #nextSyncDelay}), on a thread of its own when the room syncs in
 * the background. Part of {@link Synchronizer}; used by the sync thread and by the caller of
 * {@link WaitingRoom#nextSyncDelay()}. Logs under {@link Synchronizer}'s name.
 */
final class SyncTimer {
  private static final Logger log = LoggerFactory.getLogger(Synchronizer.class);

  private final String roomId;
  private final Coordinator coordinator;
  /** The room clock (see {@link Synchronizer#nowMillis}). */
  private final LongSupplier nowMillis;
  /** Where the sync jitter comes from (see WaitingRoom.Builder#random). */
  private final RandomGenerator random;
  private final Runnable sync;
  private final @Nullable ScheduledExecutorService scheduler;

  /**
   * @param nowMillis the room clock
   * @param sync one round of the sync loop
   * @param background whether to run {@code sync} on a thread of its own (see {@link #scheduleNext})
   */
  SyncTimer(String roomId, Coordinator coordinator, LongSupplier nowMillis, RandomGenerator random, Runnable sync,
      boolean background) {
    this.roomId = roomId;
    this.coordinator = coordinator;
    this.nowMillis = nowMillis;
    this.random = random;
    this.sync = sync;
    if (background) {
      this.scheduler =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "waitingroom-sync-" + roomId);
                t.setDaemon(true);
                return t;
              });
    } else {
      this.scheduler = null;
    }
  }

  /**
   * How long until the next sync: to the next of the points 1/8, 3/8, 5/8 and 7/8 into an epoch
   * that lies at least a quarter epoch from now less its jitter (a sixteenth of an epoch either
   * way), so a node syncs four times an epoch, whatever the traffic.
   */
  Duration nextSyncDelay() {
    long now = nowMillis.getAsLong();
    Epochs epochs = coordinator.epochs();
    long epoch = epochs.at(now);
    long quarter = epochs.length(epoch) / Synchronizer.SYNCS_PER_EPOCH;
    long phase = now - epochs.start(epoch);
    long target = Math.floorDiv(phase + quarter / 2, quarter) * quarter + quarter / 2;
    if (target - phase < quarter / 2) {
      target += quarter;
    }
    long jitter = Math.round((random.nextDouble() * 2 - 1) * quarter / 4.0);
    return Duration.ofMillis(Math.max(1, target - phase + jitter));
  }

  /** Schedules the next sync on the background thread, if there is one and it is not closed. */
  void scheduleNext() {
    ScheduledExecutorService s = scheduler;
    if (s == null || s.isShutdown()) {
      return;
    }
    try {
      s.schedule(
          () -> {
            try {
              sync.run();
            } catch (RuntimeException e) {
              log.error("room '{}': sync failed", roomId, e);
            } finally {
              scheduleNext();
            }
          },
          nextSyncDelay().toMillis(),
          TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // closed meanwhile
    }
  }

  /** Stops the background thread, interrupting a sync under way. */
  void close() {
    ScheduledExecutorService s = scheduler;
    if (s != null) {
      s.shutdownNow();
    }
  }
}
