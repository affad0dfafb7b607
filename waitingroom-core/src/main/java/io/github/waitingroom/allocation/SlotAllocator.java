package io.github.waitingroom.allocation;

import io.github.waitingroom.RoomConfig;
import java.util.List;
import java.util.Objects;

/**
 * Turns one settled epoch of the room into this node's plan: the room's free slots, the cutoff
 * over the line, and the slots of every data center and node. The default is {@link #PLAN} ({@link
 * Plan#compute}); a room can be given another with {@code WaitingRoom.Builder#slotAllocator}, for
 * example one that keeps the room below its configured limits at certain hours, or weighs data
 * centers differently, by adjusting what it hands to {@link Plan#compute}.
 *
 * <p><b>Contract.</b> An allocator is a pure function of its {@link SettledEpoch}: no clock, no
 * randomness, no state, and the same code on every node of the room. Every node computes the plan
 * of an epoch from the same settled tallies, and the room's limits hold because all of their grants
 * together never exceed the free slots of that one plan; an allocator that answered differently
 * on two nodes could give one slot to each. A plan can only be made by {@link Plan#compute} (and
 * {@link Plan#withoutNewArrivals()}, {@link Plan#none}), so an allocator chooses what the plan is
 * computed from, never more slots than the limits it passes leave free.
 */
@FunctionalInterface
public interface SlotAllocator {

  /**
   * The plan of one settled epoch for one node.
   *
   * @param epoch the settled tallies of the epoch and where this node stands among them
   * @return the plan this node applies
   */
  Plan allocate(SettledEpoch epoch);

  /** The allocator of the published design: {@link Plan#compute}. */
  SlotAllocator PLAN = e -> Plan.compute(
      e.config(), e.admitting(), e.epoch(), e.dataCenters(), e.myDataCenter(), e.nodes(), e.me());

  /**
   * One settled epoch of the room, as every node sees it.
   *
   * @param config the configuration in force for the epoch's plan (the room's, with the limits of
   *     its live settings)
   * @param admitting whether the room lets anyone in (false: queue-all, suspended, a pre-queue,
   *     reject)
   * @param epoch the epoch
   * @param dataCenters every data center's summed tally, in name order
   * @param myDataCenter the index of this node's data center among them
   * @param nodes the tallies of the live nodes of this node's data center, in publisher order
   * @param me the index of this node among them
   */
  record SettledEpoch(
      RoomConfig config, boolean admitting, long epoch, List<Tally> dataCenters, int myDataCenter,
      List<Tally> nodes, int me) {
    /** Copies the lists. */
    public SettledEpoch {
      Objects.requireNonNull(config, "config");
      dataCenters = List.copyOf(dataCenters);
      nodes = List.copyOf(nodes);
    }

    /** An epoch of a room that admits. */
    public static SettledEpoch of(RoomConfig config, long epoch, List<Tally> dataCenters, int myDataCenter,
        List<Tally> nodes, int me) {
      return new SettledEpoch(config, true, epoch, dataCenters, myDataCenter, nodes, me);
    }

    /** This epoch with another configuration (other limits, say), everything else alike. */
    public SettledEpoch withConfig(RoomConfig other) {
      return new SettledEpoch(other, admitting, epoch, dataCenters, myDataCenter, nodes, me);
    }
  }
}
