package io.github.waitingroom;

import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the store answers this node: notes when its exchanges start and stop failing, counts
 * each outage once, and logs it once (a transport that answers without the store's clock, which
 * breaks its contract and no retry mends, as an error). Part of {@link Synchronizer}; used by the
 * sync thread under its lock, and {@link #failing()} by any thread. Logs under {@link
 * Synchronizer}'s name.
 */
final class StoreFailures {
  private static final Logger log = LoggerFactory.getLogger(Synchronizer.class);

  private final String roomId;
  private final FailurePolicy failurePolicy;
  private final RoomMetrics metrics;
  private volatile boolean failing;
  private long failingSince;
  /** Whether this node logged an answer without the store's clock (see {@link #refused}). */
  private boolean loggedClockless;

  StoreFailures(String roomId, FailurePolicy failurePolicy, RoomMetrics metrics) {
    this.roomId = roomId;
    this.failurePolicy = failurePolicy;
    this.metrics = metrics;
  }

  /** Whether the last exchange failed. */
  boolean failing() {
    return failing;
  }

  /** Notes that the join failed at second {@code now}. */
  void failedAtStart(Exception e, long now) {
    begins(e, now, "failed at start");
  }

  /**
   * Notes the first failure of an outage at second {@code now}, with a warning (what happened:
   * {@code what}) unless the store broke its contract (see {@link #refused}); whether it began.
   */
  private boolean begins(Exception e, long now, String what) {
    boolean refused = refused(e);
    if (failing) {
      return false;
    }
    failing = true;
    failingSince = now;
    metrics.recordStoreOutage();
    if (!refused) {
      log.warn("room '{}': coordinator transport {} ({}): {}", roomId, what, failurePolicy, e.toString());
    }
    return true;
  }

  /** Notes that an exchange failed at second {@code now}. */
  void failed(IOException e, long now) {
    if (!begins(e, now, "failed, planning alone")) {
      log.debug("room '{}': coordinator transport still failing: {}", roomId, e.toString());
    }
  }

  /** Notes that an exchange was answered at second {@code now}. */
  void answered(long now) {
    if (failing) {
      failing = false;
      log.info("room '{}': coordinator transport answers again after {} s", roomId, now - failingSince);
    }
  }

  /**
   * Whether the exchange failed because the answer lacked the store's clock (see {@link
   * Transport#CLOCK_SCOPE}); the first time, logs it as an error instead of the store failure's
   * warning: a transport that breaks its contract, which no retry mends.
   */
  private boolean refused(Exception e) {
    if (!(e instanceof Transport.MissingClockException)) {
      return false;
    }
    if (!loggedClockless) {
      loggedClockless = true;
      log.error("room '{}': {}. Until its answers carry it, this node treats every exchange as failed, as when the"
          + " store is down ({})", roomId, e.getMessage(), failurePolicy);
    }
    return true;
  }
}
