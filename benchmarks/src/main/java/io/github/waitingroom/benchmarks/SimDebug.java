package io.github.waitingroom.benchmarks;

import io.github.waitingroom.WaitingRoom;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * The simulator's debug output, off unless asked for: {@code -Dsim.debugFrom=A -Dsim.debugTo=B}
 * prints every node's view of seconds A to B, {@code -Dsim.debugWarm=true} the warm-up's joins and
 * syncs. It reads the node's grant by reflection: a debugging aid, not an API.
 */
final class SimDebug {
  private static final int DEBUG_FROM = Integer.getInteger("sim.debugFrom", -1);
  private static final int DEBUG_TO = Integer.getInteger("sim.debugTo", -1);

  private SimDebug() {}

  /** Whether second {@code second} of the run is printed. */
  static boolean showsSecond(int second) {
    return DEBUG_FROM >= 0 && second >= DEBUG_FROM && second <= DEBUG_TO;
  }

  /** Prints what every node sees at {@code second}, next to the ground truth. */
  static void printSecond(int second, int truthActive, int queue, int nodes, IntFunction<WaitingRoom> node) {
    StringBuilder b = new StringBuilder("t=" + second + " truth active=" + truthActive + " queue=" + queue);
    for (int n = 0; n < nodes; n++) {
      io.github.waitingroom.RoomStatus st = node.apply(n).status();
      b.append(String.format(Locale.ROOT, "%n  n%d epoch=%d active=%d free=%d waiting=%d local=%d cutoff=%d nodes=%d failing=%b",
          n, st.planEpoch() == Long.MIN_VALUE ? -1 : st.planEpoch() % 100000, st.activeUsers(), st.freeSlots(),
          st.waitingUsers(), st.localActiveUsers(), st.cutoffSecond() == Long.MIN_VALUE ? -1 : st.cutoffSecond() - SpikeSimulator.START_EPOCH_SECOND,
          st.roomNodes(), st.transportFailing()));
      b.append(" grant=").append(grantOf(node.apply(n)));
    }
    System.err.println(b);
  }

  /** The room's node state ({@code WaitingRoom.node.state}, package-private: read by reflection). */
  static Object nodeState(WaitingRoom room) throws ReflectiveOperationException {
    java.lang.reflect.Field node = WaitingRoom.class.getDeclaredField("node");
    node.setAccessible(true);
    Object parts = node.get(room);
    java.lang.reflect.Field state = parts.getClass().getDeclaredField("state");
    state.setAccessible(true);
    return state.get(parts);
  }

  /** The node's outstanding grant and plan, read by reflection. */
  static String grantOf(WaitingRoom room) {
    try {
      Object state = nodeState(room);
      java.lang.reflect.Method g = state.getClass().getDeclaredMethod("grant");
      g.setAccessible(true);
      Object grant = g.invoke(state);
      java.lang.reflect.Method line = grant.getClass().getDeclaredMethod("outstandingPartial");
      java.lang.reflect.Method fresh = grant.getClass().getDeclaredMethod("outstandingNew");
      line.setAccessible(true);
      fresh.setAccessible(true);
      java.lang.reflect.Field plan = grant.getClass().getDeclaredField("plan");
      plan.setAccessible(true);
      return line.invoke(grant) + "/" + fresh.invoke(grant) + " " + plan.get(grant);
    } catch (ReflectiveOperationException e) {
      return e.toString();
    }
  }
}
