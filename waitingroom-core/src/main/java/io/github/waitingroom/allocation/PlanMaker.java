package io.github.waitingroom.allocation;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.Ticket;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Computes a {@link Plan} from the settled tallies of an epoch, by the rules of its class comment:
 * the free slots, the cutoff over the line, and the splits of slots among data centers and nodes
 * (remainders in rotation, slots reshared without taking back more than a node can give back).
 * Integer arithmetic only, so every node computes the same plan.
 */
final class PlanMaker {
  private PlanMaker() {}

  /** See {@link Plan#compute(RoomConfig, boolean, long, List, int, List, int)}. */
  static Plan compute(RoomConfig config, boolean admitting, long epoch,
      List<Tally> dataCenters, int myDataCenter, List<Tally> nodes, int me) {
    Objects.requireNonNull(config, "config");
    if (myDataCenter < 0 || myDataCenter >= dataCenters.size() || me < 0 || me >= nodes.size()) {
      throw new IllegalArgumentException(
          "data center " + myDataCenter + " of " + dataCenters.size() + ", node " + me + " of "
              + nodes.size() + " is not a valid position");
    }
    // The room's line counts each holder once, however many nodes it polled lately.
    Tally room = Tally.sum(dataCenters).distinct();
    long free = admitting ? freeSlots(config, room) : 0;

    // Every slot the limits leave, the nodes' unspent ones included: the plan shares them all out
    // afresh (see reshare), so the grants of all nodes together never exceed what the limits leave.
    long pool = admitting ? Math.max(0, free + room.outstanding() - excess(config, room)) : 0;
    // One cutoff over places: the first pool holders of the room's line, oldest first, are
    // eligible; within the first second that does not fit whole, the share of its places (their
    // tie-break bits are uniform) that the slots left cover.
    long remaining = pool;
    long cutoff = Long.MIN_VALUE;
    long partial = Long.MIN_VALUE;
    long partialHolders = 0;
    for (Map.Entry<Long, Long> e : room.line().entrySet()) {
      if (e.getValue() <= remaining) {
        remaining -= e.getValue();
        cutoff = e.getKey();
      } else {
        partial = remaining > 0 ? e.getKey() : Long.MIN_VALUE;
        partialHolders = e.getValue();
        break;
      }
    }
    boolean lineServed = admitting && (room.line().isEmpty() || cutoff == room.line().lastKey());
    // The holders of the partial second still waiting at or below the cutoff in force, if that
    // lies in it: eligible already (see below).
    Tally.Cut inForce = room.cut();
    long end = (partial << 32) | 0xFFFF_FFFFL;
    boolean inForceInPartial = partial != Long.MIN_VALUE && inForce.place() != Long.MIN_VALUE
        && Ticket.arrivalOf(inForce.place()) == partial;
    long below = inForceInPartial ? Math.min(inForce.holders(), partialHolders) : 0;
    Partial share = new Partial(partial, inForce.place(), below, Math.max(0, remaining - below),
        Math.max(1, partialHolders - below));
    long cutPlace;
    if (lineServed) {
      cutPlace = Long.MAX_VALUE;
    } else if (partial != Long.MIN_VALUE) {
      // Of the second it splits, the cutoff covers the share of its places that the slots left
      // cover. Where the cutoff in force lies in that second, the holders still waiting at or below
      // it are eligible already: they come first, and the rest of the slots cover a share of the
      // places above it, over the holders there. So the cutoff moves on at every plan while slots
      // wait because by chance fewer holders lay below it than slots, and stays while those
      // below it (a hidden tab that polls once a minute) still have to come.
      if (inForceInPartial && inForce.place() < end) {
        cutPlace = remaining <= below ? inForce.place()
            : inForce.place() + mulDiv(remaining - below, end - inForce.place(), partialHolders - below);
      } else {
        cutPlace = (partial << 32) + mulDiv(remaining, 1L << 32, partialHolders) - 1;
      }
    } else {
      cutPlace = cutoff == Long.MIN_VALUE ? Long.MIN_VALUE : (cutoff << 32) | 0xFFFF_FFFFL;
    }
    // The slots go where the eligible holders poll: first one for each holder at or below the cut
    // (all of a second below it, the covered share of the partial one), by where each is counted,
    // and, once the whole line is served, what is left by the newcomers each is about to see (see
    // Plan#ARRIVALS_PER_NODE). Holders who wait are certain; newcomers are expected.
    // A data center weighs, like a node, every holder it counts, those another one counts too
    // included: a holder whose polls go to several data centers weighs in each it polled lately,
    // and the remainders of the split go first where a slot is held (see reshare), so its slot
    // stays in one of them until it polls there. Weighed by where it counts alone (the data
    // center it polled longest ago, see Tally#shared), the slot would follow it one poll behind,
    // idle for a plan at each move, and a holder that polls in step with the moves never met it.
    long forLine = lineServed ? Math.min(pool, Math.max(0, room.waiting())) : pool;
    long dcPart = shareOut(pool, forLine, dataCenters, cutoff, share, lineServed, epoch)[myDataCenter];
    long dcForLine = lineServed ? Math.min(dcPart, Math.max(0, dataCenters.get(myDataCenter).distinct().waiting())) : dcPart;
    long slots = shareOut(dcPart, dcForLine, nodes, cutoff, share, lineServed, epoch)[me];
    return new Plan(
        epoch, free, room.activeUsers(), cutoff, partial, slots, lineServed, room, cutPlace);
  }

  /**
   * {@link #reshare}s {@code pool} slots among publishers (the data centers, or the nodes of one),
   * the first {@code forLine} by their eligible holders ({@link #lineDemand}) and the rest by their
   * newcomers once the line is served ({@link #newArrivalWeight}), from what each holds.
   */
  private static long[] shareOut(long pool, long forLine, List<Tally> publishers, long cutoff, Partial share,
      boolean lineServed, long epoch) {
    int k = publishers.size();
    long[] line = new long[k];
    long[] newcomers = new long[k];
    long[] held = new long[k];
    for (int i = 0; i < k; i++) {
      Tally t = publishers.get(i);
      line[i] = lineDemand(t, cutoff, share);
      newcomers[i] = lineServed ? newArrivalWeight(t) : 0;
      held[i] = t.outstanding();
    }
    return reshare(pool, forLine, line, newcomers, held, epoch);
  }

  /**
   * The partial second of a plan, as the split of slots sees it: its holders still waiting at or
   * below the cutoff in force ({@code below}, eligible each), and of the others, {@code covered}
   * of every {@code others} newly eligible.
   */
  private record Partial(long second, long cutInForce, long below, long covered, long others) {}

  /**
   * A publisher's eligible holders, as its weight in the split of the slots for the line, times
   * {@code share.others()} (so that the newly covered share of the partial second counts in whole
   * numbers): every holder of a second below the cut, in the partial second those it still counts
   * at or below the cutoff in force, and the covered share of its others there.
   */
  private static long lineDemand(Tally t, long cutoff, Partial share) {
    long whole = 0;
    for (long n : t.line().headMap(cutoff, true).values()) {
      whole += n;
    }
    if (share.second() == Long.MIN_VALUE) {
      return whole;
    }
    long inSecond = Math.max(0, t.lineAt(share.second()));
    long below = share.below() > 0 && t.cut().place() == share.cutInForce()
        ? Math.min(Math.max(0, t.cut().holders()), inSecond) : 0;
    return (whole + below) * share.others() + (inSecond - below) * share.covered();
  }

  /** A publisher's weight for its newcomers in the split of slots (see {@link Plan#ARRIVALS_PER_NODE}). */
  private static long newArrivalWeight(Tally t) {
    return t.arrivals() + Plan.ARRIVALS_PER_NODE * t.nodes();
  }

  /** See {@link Plan#freeSlots(RoomConfig, Tally)}. */
  static long freeSlots(RoomConfig config, Tally room) {
    return Math.max(0, headroom(config, room) - room.outstanding());
  }

  /** What the limits leave beyond the active users and the admissions of the last minute. */
  private static long headroom(RoomConfig config, Tally room) {
    long byActive = config.totalActiveUsers() - room.activeUsers();
    long byRate = config.newUsersPerMinute() - room.recentAdmissions();
    return Math.min(byActive, byRate);
  }

  /**
   * How many more slots the nodes may still use under their last grants than the limits leave
   * (see {@link #headroom}), or 0. A plan's grants leave at most the headroom outstanding, and an
   * admission since takes one slot off the outstanding and one off the headroom, so this stays 0
   * while the limits stay; lowered limits (or users counted active who took no slot of this room's
   * grants) make it positive, and the plan shares out only what the limits leave.
   */
  private static long excess(RoomConfig config, Tally room) {
    return Math.max(0, room.outstanding() - headroom(config, room));
  }

  /**
   * Shares {@code pool} slots out afresh among holders that still hold {@code held} slots each:
   * the {@code first} of them by {@code firstWeights}, the rest by {@code restWeights}. A holder keeps its held slots until the new shares take over, so one that
   * should get less than it holds gets its fair share (and gives the rest back when it switches),
   * and the others grow only into what is free beyond everything held: whatever each one does
   * until it switches, the holders together never have more than {@code max(pool, sum of held)}.
   */
  static long[] reshare(long pool, long first, long[] firstWeights, long[] restWeights, long[] held, long rotation) {
    // The remainders of the split (fewer slots than shares) go first to holders that still hold
    // that many: taking one from its holder to give it to another in turn would leave it idle for
    // a plan (the holder gives it back at this plan, the other can take it only at the next, when
    // it is another's turn), so with two nodes a spare slot would sit with one of them in every
    // other plan and never reach the other.
    long[] fair = split(first, firstWeights, null, rotation, held);
    long[] stillHeld = new long[held.length];
    for (int i = 0; i < held.length; i++) {
      stillHeld[i] = Math.max(0, held[i] - fair[i]);
    }
    long[] rest = split(pool - first, restWeights, null, rotation, stillHeld);
    for (int i = 0; i < fair.length; i++) {
      fair[i] += rest[i];
    }
    long heldSum = 0;
    long[] want = new long[fair.length];
    for (int i = 0; i < fair.length; i++) {
      heldSum += held[i];
      want[i] = Math.max(0, fair[i] - held[i]);
    }
    // What nobody holds goes to the holders that want more, by how much they want, each slot to
    // one of them (in rotation when there are fewer slots than wanters): rounding each share down
    // would leave slots unplanned whenever many want one or two.
    long[] grow = split(Math.max(0, pool - heldSum), want, want, rotation, null);
    long[] out = new long[fair.length];
    for (int i = 0; i < fair.length; i++) {
      out[i] = Math.min(fair[i], held[i]) + grow[i];
    }
    return out;
  }

  /**
   * {@link Plan#split(long, long[], long[], long)}, handing the remainders first (in rotation) to the
   * shares that have been given less than they {@code prefer}, then to the others in rotation.
   *
   * @param prefer how many each share would rather keep, or {@code null} for plain rotation
   */
  static long[] split(long amount, long[] weights, long @Nullable [] caps, long rotation, long @Nullable [] prefer) {
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
      long totalWeight = 0;
      for (int i = 0; i < k; i++) {
        totalWeight += open[i] ? weights[i] : 0;
      }
      long given = 0;
      for (int i = 0; i < k; i++) {
        if (!open[i]) {
          continue;
        }
        long quota =
            totalWeight > 0
                ? mulDiv(remaining, weights[i], totalWeight)
                : remaining / openCount;
        long room = caps == null ? Long.MAX_VALUE : caps[i] - parts[i];
        long take = Math.min(quota, room);
        parts[i] += take;
        given += take;
      }
      if (given == 0) {
        // Fewer slots than open shares: hand them out one each, in rotation (first to the shares
        // that would rather keep more, if any).
        boolean[] got = new boolean[k];
        for (int pass = prefer == null ? 1 : 0; pass < 2; pass++) {
          for (int j = 0; j < k && given < remaining; j++) {
            int i = (int) Math.floorMod(rotation + j, (long) k);
            if (open[i] && !got[i] && (caps == null || parts[i] < caps[i])
                && (pass == 1 || parts[i] < Objects.requireNonNull(prefer)[i])) {
              parts[i]++;
              got[i] = true;
              given++;
            }
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

  /** {@code a * b / c} rounded down, exact for any non-negative longs whose result fits a long. */
  private static long mulDiv(long a, long b, long c) {
    long high = Math.multiplyHigh(a, b);
    if (high == 0 && a * b >= 0) {
      return a * b / c;
    }
    return java.math.BigInteger.valueOf(a).multiply(java.math.BigInteger.valueOf(b))
        .divide(java.math.BigInteger.valueOf(c)).longValueExact();
  }
}
