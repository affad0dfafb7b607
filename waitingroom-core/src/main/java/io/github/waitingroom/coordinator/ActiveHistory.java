package io.github.waitingroom.coordinator;

import io.github.waitingroom.allocation.Tally;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The active users each publisher's own tallies counted (never one counted silent), per settled
 * epoch: what tells how many sessions may have moved into a publisher while it was silent. Not
 * thread-safe: the coordinator's sync thread uses it.
 *
 * <p>A check-in that moves a session from one publisher to another counts it on the one it moved
 * to and takes it off the slice it had on the one it came from. While the publisher it moved to is
 * silent, the others count it on its last tally, which predates the move; once the session's slice
 * on the publisher it came from runs out, nobody counts it. Each such session is one that the
 * others no longer count, so the others' loss of active users since the silent publisher's last
 * tally bounds them (it also counts the users who simply left: the bound is conservative).
 */
final class ActiveHistory {
  /**
   * How many epochs of a publisher's silence its count holds what the others lost: long enough for
   * a publisher that is only late (its node missed syncs) to publish again. One silent for longer
   * is dead (nobody moves into it) or cut off from the store and planning alone, whose bound is
   * the one of {@code FAIL_CLOSED} without session affinity (see {@code Synchronizer}); holding
   * the others' losses for its whole silence would stop the room for the retention after a data
   * center dies.
   */
  static final int HELD_EPOCHS = 10;

  private final TreeMap<Long, Map<String, Long>> byEpoch = new TreeMap<>();

  /**
   * Notes the active users of {@code publisher}'s own tally of {@code epoch}, and forgets the
   * epochs that no silence held now can have begun after.
   */
  void note(long epoch, String publisher, Tally tally) {
    byEpoch.computeIfAbsent(epoch, e -> new HashMap<>()).put(publisher, tally.active());
    byEpoch.headMap(byEpoch.lastKey() - HELD_EPOCHS, false).clear();
  }

  /**
   * How many sessions may have moved into a publisher silent since {@code lastEpoch}, as of epoch
   * {@code epoch}: what the others in {@code now} (their own tallies of {@code epoch}) lost of the
   * active users they counted at {@code lastEpoch}, each counted alone; 0 if this node did not
   * note {@code lastEpoch}, or if the silence lasted more than {@link #HELD_EPOCHS}.
   */
  long movedInto(String silent, long lastEpoch, long epoch, Map<String, Tally> now) {
    Map<String, Long> then = byEpoch.get(lastEpoch);
    if (then == null || epoch - lastEpoch > HELD_EPOCHS) {
      return 0;
    }
    long lost = 0;
    for (Map.Entry<String, Tally> e : now.entrySet()) {
      Long before = then.get(e.getKey());
      if (before != null && !e.getKey().equals(silent)) {
        lost += Math.max(0, before - e.getValue().active());
      }
    }
    return lost;
  }
}
