package io.github.waitingroom.benchmarks;

import static io.github.waitingroom.benchmarks.SimUsers.CLONE;
import static io.github.waitingroom.benchmarks.SimUsers.HONEST;
import static io.github.waitingroom.benchmarks.SimUsers.WAITING;

import io.github.waitingroom.Decision;
import io.github.waitingroom.simulation.DoubleList;
import org.jspecify.annotations.Nullable;

/**
 * The hostile clients of a {@link SpikeSimulator} run ({@link Adversity}): replayers, admitted users
 * who send their first admitted ticket again and again, and clones, clients that poll with a copy
 * of the waiting cookie of the user at the front of the line.
 */
final class SimAdversaries {
  private final SpikeSimulator sim;
  private final SimClients clients;
  private final Adversity adv;
  private final SimUsers users;
  private final SimGroundTruth truth;
  private final SimResult result;

  // Replayers: user id, first admitted ticket, end of replaying.
  private final int[] replayer;
  private final @Nullable String[] replayTicket;
  private final long[] replayEndMillis;
  private int replayersStarted;

  // Clones: the copied place, and when it was let in.
  private long clonePlace = Long.MIN_VALUE;
  final DoubleList clonePlaceAdmissions = new DoubleList();

  /** The adversaries of {@code sim}'s scenario, whose requests {@code clients} send. */
  SimAdversaries(SpikeSimulator sim, SimClients clients) {
    this.sim = sim;
    this.clients = clients;
    this.adv = sim.scenario.adversity();
    this.users = sim.users;
    this.truth = sim.truth;
    this.result = sim.result;
    this.replayer = new int[adv.replayers()];
    this.replayTicket = new String[adv.replayers()];
    this.replayEndMillis = new long[adv.replayers()];
  }

  /** Honest user {@code u} was admitted at {@code at}: it becomes a replayer while replayers are missing. */
  void admitted(int u, long at) {
    if (replayersStarted < replayer.length) {
      int r = replayersStarted++;
      replayer[r] = u;
      replayTicket[r] = users.cookies.session(u);
      replayEndMillis[r] = users.browseEndMillis[u];
      sim.schedule(at + 1000 / adv.replaysPerSecond(), sim.replayId(r));
    }
  }

  /** A holder of the copied cookie, whose place was {@code place}, was let in at {@code at}. */
  void clonedPlaceAdmitted(long place, long at) {
    if (place == clonePlace) {
      clonePlaceAdmissions.add(at);
    }
  }

  /**
   * A replayer sends its first admitted ticket again, ignoring the answer. A replay the room lets
   * in as a new arrival (the ticket expired) counts as a user let in for a session: the room
   * served it, and its ticket would let it back.
   */
  void replay(int r, long at) {
    int u = replayer[r];
    if (at >= replayEndMillis[r]) {
      return;
    }
    Decision d = clients.decide(u, replayTicket[r], null, at);
    result.replays++;
    if (d.outcome() == Decision.Outcome.ADMIT) {
      result.replayAdmissions++;
      truth.phantomAdmission(at);
    } else if (d.letsThrough()) {
      truth.letThrough(u, at, false);
    }
    sim.schedule(at + 1000 / adv.replaysPerSecond(), sim.replayId(r));
  }

  /**
   * Copies the current waiting cookie of the user at the front of the line (the earliest place
   * still waiting) to the clone clients, who start polling with it; that user keeps polling too.
   */
  void startClones(long at) {
    int v = -1;
    for (int u = 0; u < users.users; u++) {
      if (users.state[u] == WAITING && users.kind[u] == HONEST && users.cookies.place(u) != null
          && (v < 0 || users.placeSecond[u] < users.placeSecond[v])) {
        v = u;
      }
    }
    users.cloneVictim = v;
    if (v >= 0) {
      users.patienceMillis[v] = Long.MAX_VALUE;
    }
    result.cloneStartMillis = at - sim.warm;
    if (v < 0 || users.state[v] != WAITING || users.cookies.place(v) == null) {
      result.cloneSkipped = true;
      return;
    }
    clonePlace = clients.placeOf(v, at);
    users.kind[v] = HONEST;
    for (int c = users.users; c < users.total; c++) {
      users.kind[c] = CLONE;
      users.state[c] = WAITING;
      users.cookies.copyPlace(v, c);
      users.dataCenter[c] = (short) sim.random.nextInt(sim.scenario.dataCenters());
      users.arrivalMillis[c] = at;
      users.patienceMillis[c] = Long.MAX_VALUE;
      users.placeSecond[c] = users.placeSecond[v];
      truth.enterLine(c); // a clone does not poll as told: it is counted in the line only
      sim.schedule(at + sim.uniform(0, 1000), c);
    }
  }
}
