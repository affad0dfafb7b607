package io.github.waitingroom;

import io.github.waitingroom.allocation.Plan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line when people start to wait in a room and one when nobody has waited for a while,
 * never one per request or per epoch. Used by the sync thread (logs under {@link Synchronizer}'s name).
 */
final class QueueLog {
  private static final Logger log = LoggerFactory.getLogger(Synchronizer.class);

  private final String roomId;
  private boolean queueing;
  private long emptySince = Long.MIN_VALUE;

  QueueLog(String roomId) {
    this.roomId = roomId;
  }

  /** How long the line must have stayed empty before the node says that queueing stopped. */
  static final long QUEUE_QUIET_SECONDS = 60;

  /**
   * Logs when people start to wait in the room (a plan of the whole room shows a line) and when
   * nobody has waited for {@link #QUEUE_QUIET_SECONDS}: one line each, never per request or per
   * epoch.
   */
  void note(Plan plan, long now, int limit) {
    if (plan.waitingUsers() > 0) {
      emptySince = Long.MIN_VALUE;
      if (!queueing) {
        queueing = true;
        log.info("room '{}': queueing started: {} waiting, {} of {} active users", roomId,
            plan.waitingUsers(), plan.activeUsers(), limit);
      }
    } else if (queueing) {
      if (emptySince == Long.MIN_VALUE) {
        emptySince = now;
      } else if (now - emptySince >= QUEUE_QUIET_SECONDS) {
        queueing = false;
        log.info("room '{}': queueing stopped: nobody has waited for {} s", roomId, now - emptySince);
      }
    }
  }
}
