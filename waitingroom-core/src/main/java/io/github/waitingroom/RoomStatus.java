package io.github.waitingroom;

import io.github.waitingroom.allocation.Tally;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The room as one node sees it, from the last plan it applied: for status pages, logs and
 * metrics. Immutable.
 *
 * @param now the room clock's current epoch second
 * @param planEpoch the epoch the plan was computed from, or {@link Long#MIN_VALUE} before the first
 * @param viewAgeMillis how old the counts of the plan are: the time since its epoch ended, on the
 *     room's clock (a settled plan takes over one to two epochs after that), or -1 before the
 *     first plan
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
 * @param dataCenterShares the active and waiting users of each data center, by name, at the last
 *     settled plan (empty before the first, or while this node plans alone)
 * @param nodeShares the active and waiting users each live node of this node's data center
 *     counts itself, by publisher (node id, {@code #} and a suffix per process), at the last
 *     settled plan
 * @param settings the room's settings in force on this node (see {@link WaitingRoom#settings()}),
 *     with the overrides of an event that runs
 * @param event the event that is pre-queueing or running now, or {@code null}
 * @param eventPrequeueing whether that event is pre-queueing (nobody is let in before its start)
 * @param maxWaitSeconds the estimated wait of someone who joins the line now, in seconds: 0
 *     while nobody waits, -1 when it is not known (nobody admitted lately, or the room admits
 *     nobody: queueAll, suspended, reject)
 * @param epochMillis the length of the room's epochs now: the sync interval, or a multiple of it
 *     in a room with many nodes (see {@link WaitingRoom.Builder#storeBudget})
 * @param totalActiveUsers the limit of active users in force: the settings', or, with an {@link
 *     AdaptiveLimit} ({@code settings().adaptiveLimit()}, which holds its bounds), the one it
 *     decided last
 * @param newUsersPerMinute the limit of new users a minute in force: the settings', or, with an
 *     {@link AdaptiveLimit}, at most {@code totalActiveUsers} or scaled with it ({@link
 *     AdaptiveLimit#scaleNewUsersPerMinute()})
 * @param limitReason why the adaptive limit decided on {@code totalActiveUsers} (for example
 *     "lowered: p90 812 ms over the target 500 ms"), or empty when the room has no adaptive
 *     limit or has not moved it since its settings took effect
 */
public record RoomStatus(
    long now,
    long planEpoch,
    long viewAgeMillis,
    long activeUsers,
    long waitingUsers,
    long freeSlots,
    long admissionsPerMinute,
    long cutoffSecond,
    long localActiveUsers,
    List<String> dataCenters,
    int roomNodes,
    boolean transportFailing,
    List<Share> dataCenterShares,
    List<Share> nodeShares,
    RoomSettings settings,
    RoomSettings.@Nullable Event event,
    boolean eventPrequeueing,
    long maxWaitSeconds,
    long epochMillis,
    int totalActiveUsers,
    int newUsersPerMinute,
    String limitReason) {

  /** Copies the lists. */
  public RoomStatus {
    dataCenters = List.copyOf(dataCenters);
    dataCenterShares = List.copyOf(dataCenterShares);
    nodeShares = List.copyOf(nodeShares);
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(limitReason, "limitReason");
  }

  /**
   * How many epochs old the plan in force may grow before {@link #plansStalled()}: twice what it
   * takes a node to log that plans stall.
   */
  public static final int STALLED_AFTER_EPOCHS = 16;

  /**
   * Whether this node has stopped planning: the plan in force is older than {@link
   * #STALLED_AFTER_EPOCHS} epochs although the node has had one. It then admits nobody new. The
   * log says why: a value in the store sealed with a key this node's keyset lacks (nodes whose
   * keysets share no key), a report that does not decode (a newer release), values that left the
   * store before their time or publishers that count other nodes than this one (someone without
   * the room's keys writes to the store), or data centers that see each other's reports too late.
   * False before the first plan (a node that never planned shows {@link #planEpoch()} unset). A
   * store that fails is {@link #transportFailing()}.
   */
  public boolean plansStalled() {
    return viewAgeMillis > STALLED_AFTER_EPOCHS * epochMillis;
  }

  /** The version of the settings in force on this node. */
  public long settingsVersion() {
    return settings.version();
  }

  /**
   * The room's state in Cloudflare's words: {@code suspended} while the room is suspended,
   * {@code event_prequeueing} while an event pre-queues, {@code queueing} while anyone waits (or every newcomer must: queueAll), {@code not_queueing}
   * otherwise.
   */
  public String queueingStatus() {
    if (settings.suspended()) {
      return "suspended";
    }
    if (eventPrequeueing) {
      return "event_prequeueing";
    }
    return waitingUsers > 0 || settings.queueAll() ? "queueing" : "not_queueing";
  }

  /**
   * The users of one data center or node in a settled epoch.
   *
   * @param name the data center's name, or the node's publisher
   * @param activeUsers the active users it counted (sessions and grants it may still use)
   * @param waitingUsers the users in its line
   */
  public record Share(String name, long activeUsers, long waitingUsers) {
    /** Checks the name. */
    public Share {
      Objects.requireNonNull(name, "name");
    }

    static List<Share> of(List<String> names, List<Tally> tallies) {
      List<Share> out = new ArrayList<>(tallies.size());
      for (int i = 0; i < tallies.size(); i++) {
        out.add(new Share(names.get(i), tallies.get(i).activeUsers(), tallies.get(i).waiting()));
      }
      return List.copyOf(out);
    }
  }
}
