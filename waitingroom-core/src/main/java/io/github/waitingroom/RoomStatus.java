package io.github.waitingroom;

import java.util.List;

/**
 * The room as one node sees it, from the last plan it applied: for status pages, logs and
 * metrics. Immutable.
 *
 * @param now the room clock's current epoch second
 * @param planEpoch the epoch the plan was computed from, or {@link Long#MIN_VALUE} before the first
 * @param activeUsers active users of the whole room at the end of that epoch
 * @param waitingUsers users waiting in the whole room (those who polled recently)
 * @param freeSlots slots the plan handed out
 * @param admissionsPerMinute room-wide admissions in the minute before the plan
 * @param cutoffSecond every polling ticket that arrived at or before this second may be admitted,
 *     or {@link Long#MIN_VALUE} when nobody may
 * @param localActiveUsers active users this node counts itself
 * @param dataCenters the data centers this node knows of, sorted
 * @param roomNodes the live nodes of the room in the plan
 * @param transportFailing whether the last sync failed to reach the store
 */
public record RoomStatus(
    long now,
    long planEpoch,
    long activeUsers,
    long waitingUsers,
    long freeSlots,
    long admissionsPerMinute,
    long cutoffSecond,
    long localActiveUsers,
    List<String> dataCenters,
    int roomNodes,
    boolean transportFailing) {

  /** Copies the list. */
  public RoomStatus {
    dataCenters = List.copyOf(dataCenters);
  }
}
