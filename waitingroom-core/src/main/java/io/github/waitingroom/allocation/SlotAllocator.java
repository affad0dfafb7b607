package io.github.waitingroom.allocation;

import io.github.waitingroom.RoomConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Pure functions from a {@link RoomView} and a {@link RoomConfig} to slots. No clock, no threads,
 * no I/O: the same inputs always give the same outputs, on every node.
 *
 * <ol>
 *   <li>{@link #allocate}: free slots = min(total active users - active users, new users per
 *       minute - admitted in the last minute), less the admissions other nodes most likely made
 *       since their reports ({@link RoomView#unseenAdmissions()}), never negative. Buckets are served oldest first,
 *       each getting min(waiting, remaining); the first bucket that cannot be served in full
 *       takes what remains and every later bucket gets nothing. Brand-new arrivals get what is
 *       left after every waiting bucket, so nobody jumps a non-empty line.
 *   <li>{@link #budgetFor}: one node's part. A bucket that is fully eligible and closed (older
 *       than the current bucket, so it can only shrink) may be released wherever its users are.
 *       The partly eligible bucket, the still-filling current bucket and the new-arrival slots
 *       are split among data centers by their traffic share of the settled past window (capped
 *       at the users each data center holds in that bucket, the rest going to the others), then
 *       equally among the data center's live nodes.
 * </ol>
 */
public final class SlotAllocator {
  private SlotAllocator() {}

  /** The room-wide allocation of the view's free slots. */
  public static Allocation allocate(RoomView view, RoomConfig config) {
    long byActive = config.totalActiveUsers() - view.activeUsers() - view.unseenAdmissions();
    long byRate = config.newUsersPerMinute() - view.admittedLastMinute() - view.unseenAdmissions();
    long free = Math.max(0, Math.min(byActive, byRate));
    long[] ids = view.bucketIdArray();
    long[] waiting = view.waitingArray();
    long[] eligible = new long[ids.length];
    long remaining = free;
    for (int i = 0; i < ids.length && remaining > 0; i++) {
      eligible[i] = Math.min(waiting[i], remaining);
      remaining -= eligible[i];
      if (eligible[i] < waiting[i]) {
        break;
      }
    }
    return new Allocation(free, ids, waiting, eligible, remaining);
  }

  /**
   * One node's budget out of a room-wide allocation.
   *
   * @param dataCenter the node's data center, as named in the view
   * @param nodeIndex the node's rank among the live nodes of its data center (0-based)
   * @param nodeCount how many live nodes the data center has (at least 1)
   */
  public static Budget budgetFor(
      Allocation allocation, RoomView view, String dataCenter, int nodeIndex, int nodeCount) {
    if (nodeCount < 1 || nodeIndex < 0 || nodeIndex >= nodeCount) {
      throw new IllegalArgumentException(
          "node " + nodeIndex + " of " + nodeCount + " is not a valid rank");
    }
    List<String> dcs = view.dataCenterNames();
    int me = dcs.indexOf(dataCenter);
    if (me < 0) {
      dcs = new ArrayList<>(dcs);
      dcs.add(dataCenter);
      me = dcs.size() - 1;
    }
    long[] weights = new long[dcs.size()];
    for (int d = 0; d < weights.length; d++) {
      weights[d] = view.settledTraffic(dcs.get(d));
    }
    // The rotation hands split remainders to a different data center / node each bucket width,
    // the same on every node that stands in the same bucket.
    long rotation = view.currentBucket();

    int n = allocation.size();
    long[] ids = new long[n];
    long[] slots = new long[n];
    int used = 0;
    for (int i = 0; i < n; i++) {
      long eligible = allocation.eligible(i);
      if (eligible == 0) {
        break;
      }
      long bucket = allocation.bucketId(i);
      long mine;
      if (eligible == allocation.waiting(i) && bucket < view.currentBucket()) {
        mine = eligible;
      } else {
        long[] caps = new long[dcs.size()];
        for (int d = 0; d < caps.length; d++) {
          caps[d] = view.waiting(dcs.get(d), bucket);
        }
        long dcPart = split(eligible, weights, caps, rotation)[me];
        mine = nodePart(dcPart, nodeIndex, nodeCount, rotation);
      }
      ids[used] = bucket;
      slots[used] = mine;
      used++;
    }
    long newArrivals = 0;
    if (allocation.newArrivals() > 0) {
      long dcPart = split(allocation.newArrivals(), weights, null, rotation)[me];
      newArrivals = nodePart(dcPart, nodeIndex, nodeCount, rotation);
    }
    return new Budget(
        Arrays.copyOf(ids, used), Arrays.copyOf(slots, used), newArrivals);
  }

  private static long nodePart(long amount, int nodeIndex, int nodeCount, long rotation) {
    long base = amount / nodeCount;
    long rest = amount % nodeCount;
    long offset = Math.floorMod(nodeIndex - rotation, nodeCount);
    return base + (offset < rest ? 1 : 0);
  }

  /**
   * Splits {@code amount} in proportion to {@code weights} (equally where all weights are 0),
   * never giving a share more than its cap; what a capped share cannot take goes to the others.
   * Remainders of the division go one by one, starting at {@code rotation}. The parts sum to
   * {@code amount}, or to the sum of the caps if that is smaller.
   *
   * @param caps the most each share may take, or {@code null} for no caps
   */
  public static long[] split(long amount, long[] weights, long @Nullable [] caps, long rotation) {
    int k = weights.length;
    long[] parts = new long[k];
    long remaining = amount;
    boolean[] open = new boolean[k];
    int openCount = 0;
    for (int i = 0; i < k; i++) {
      open[i] = caps == null || caps[i] > 0;
      openCount += open[i] ? 1 : 0;
    }
    while (remaining > 0 && openCount > 0) {
      double totalWeight = 0;
      for (int i = 0; i < k; i++) {
        totalWeight += open[i] ? weights[i] : 0;
      }
      long given = 0;
      for (int i = 0; i < k; i++) {
        if (!open[i]) {
          continue;
        }
        double w = totalWeight > 0 ? weights[i] / totalWeight : 1.0 / openCount;
        long quota = (long) Math.floor(remaining * w);
        long room = caps == null ? Long.MAX_VALUE : caps[i] - parts[i];
        long take = Math.min(quota, room);
        parts[i] += take;
        given += take;
      }
      if (given == 0) {
        // Fewer slots than open shares: hand them out one each, in rotation.
        for (int j = 0; j < k && given < remaining; j++) {
          int i = (int) Math.floorMod(rotation + j, (long) k);
          if (open[i] && (caps == null || parts[i] < caps[i])) {
            parts[i]++;
            given++;
          }
        }
      }
      remaining -= given;
      for (int i = 0; i < k; i++) {
        if (open[i] && caps != null && parts[i] >= caps[i]) {
          open[i] = false;
          openCount--;
        }
      }
    }
    return parts;
  }
}
