package io.github.waitingroom;

import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.SlotAllocator;
import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.coordinator.Coordinator;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What a node sent to the store and what reached it, and the plan it makes alone while the store
 * fails (see {@link Synchronizer} for the outage policy): the sync thread's part that keeps the
 * node within what the other nodes count it for. Used under the {@link Synchronizer}'s lock.
 */
final class Outage {
  private final LiveSettings live;
  private final NodeState state;
  private final SlotAllocator allocator;
  private final FailurePolicy failurePolicy;
  /** The latest tally of an exchange the store answered. */
  private @Nullable Tally lastPublished;
  /**
   * The latest tally an exchange carried, answered or not, and its epoch: an exchange whose answer
   * never came (a timeout after the store ran it) may have published it, so the others may count
   * this node by it.
   */
  private @Nullable Tally lastSent;
  private long lastSentEpoch = Long.MIN_VALUE;
  /** The tallies the last exchange carried. */
  private NavigableMap<Long, Tally> sentLast = new TreeMap<>();
  /**
   * While the store fails: the tallies the first failed exchange carried, which every exchange
   * carries until one is answered (see {@link #mayPlanAlone}); {@code null} while the store
   * answers.
   */
  private @Nullable NavigableMap<Long, Tally> sentBeforeOutage;

  Outage(LiveSettings live, NodeState state, SlotAllocator allocator, FailurePolicy failurePolicy) {
    this.live = live;
    this.state = state;
    this.allocator = allocator;
    this.failurePolicy = failurePolicy;
  }

  /** Notes that the store answered an exchange that carried {@code sent}. */
  void answered(NavigableMap<Long, Tally> sent) {
    if (!sent.isEmpty()) {
      lastPublished = sent.lastEntry().getValue();
    }
    sentBeforeOutage = null;
  }

  /** Notes that an exchange failed: every exchange carries what the first failed one did until one is answered. */
  void failed() {
    if (sentBeforeOutage == null) {
      sentBeforeOutage = sentLast;
    }
  }

  /**
   * The tallies the next exchange carries: the latest ones, or while the store fails those the
   * first failed exchange carried. Notes them as sent (see {@link #lastSent}).
   */
  NavigableMap<Long, Tally> toSend(NavigableMap<Long, Tally> tallies) {
    NavigableMap<Long, Tally> held = sentBeforeOutage;
    NavigableMap<Long, Tally> sent = held != null ? held : new TreeMap<>(tallies);
    if (!sent.isEmpty() && sent.lastKey() > lastSentEpoch) {
      lastSent = sent.lastEntry().getValue();
      lastSentEpoch = sent.lastKey();
    }
    sentLast = sent;
    return sent;
  }

  /**
   * Whether a node whose exchange failed in {@code epoch} may plan alone now: only once every plan
   * in force elsewhere counts it silent (see {@link Synchronizer}). The others count it by the latest
   * tally it sent until that is more than {@link Coordinator#SILENT_AFTER_EPOCHS} epochs old, and a
   * plan takes over two epochs after its own. Until then it keeps its grant, which they count, so
   * that a few failed exchanges (timeouts) change nothing, under either policy.
   */
  boolean mayPlanAlone(long epoch) {
    return lastSentEpoch == Long.MIN_VALUE || epoch >= lastSentEpoch + Coordinator.SILENT_AFTER_EPOCHS + 3;
  }

  /** This node's own plan for an epoch of an outage (see {@link Synchronizer}). */
  Plan alone(long epoch, Tally mine, int roomNodes, long nowSecond) {
    RoomConfig config = live.current().config();
    int active;
    int perMinute;
    boolean newArrivals = failurePolicy == FailurePolicy.FAIL_OPEN;
    if (newArrivals) {
      active = (int) Math.max(1, Synchronizer.ceilDiv(config.totalActiveUsers(), roomNodes));
      perMinute = (int) Math.max(1, Synchronizer.ceilDiv(config.newUsersPerMinute(), roomNodes));
    } else {
      Tally published = lastPublished;
      if (published == null) {
        return Plan.none(epoch);
      }
      // Exactly what the others count this node for while it is silent, by whichever of its last
      // answered tally and the last it sent reached the store.
      Tally last = published.silent(config.sessionSeconds());
      Tally sent = lastSent;
      Tally maybe = sent != null && sent != published ? sent.silent(config.sessionSeconds()) : last;
      long activeLimit = Math.max(0, Math.min(last.active(), maybe.active()));
      long rateLimit = Math.min(last.recentAdmissions(), maybe.recentAdmissions());
      if (activeLimit <= 0 || rateLimit <= 0) {
        return Plan.none(epoch);
      }
      active = (int) Math.min(Integer.MAX_VALUE, activeLimit);
      perMinute = (int) Math.min(active, rateLimit);
    }
    RoomConfig local = config.toBuilder().totalActiveUsers(active).newUsersPerMinute(Math.min(perMinute, active)).build();
    // The plan takes over at once and drains the old grant: its slots less what was admitted since
    // the tally (see Schedule). It counts every user who checked in here lately, also those who moved here from another node
    // (which its own tally nets out against that node's count, unseen while the store fails).
    long here = Math.max(mine.active(), state.checkedInHere(nowSecond));
    Tally alone =
        new Tally(here, 0, mine.recentAdmissions(), mine.arrivals(), mine.line(), mine.admittedPlaces(), new long[0],
            new java.util.TreeMap<>(), false, new long[0], 1, Tally.Browsing.NONE, mine.cut());
    Plan plan = allocator.allocate(SlotAllocator.SettledEpoch.of(local, epoch, List.of(alone), 0, List.of(alone), 0));
    return newArrivals ? plan : plan.withoutNewArrivals();
  }
}
