package io.github.waitingroom.examples.planner;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.Decision;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.simulation.ActiveUsers;
import io.github.waitingroom.simulation.CookieJar;
import io.github.waitingroom.simulation.DoubleList;
import io.github.waitingroom.simulation.EventQueue;
import io.github.waitingroom.simulation.SeededDraws;
import io.github.waitingroom.simulation.VirtualNodes;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;

/**
 * One run of the real core through a crowd, in virtual time, on the harness the spike simulator
 * of the benchmarks module runs on ({@code io.github.waitingroom.simulation}): one node ({@link
 * VirtualNodes}: a {@link WaitingRoom} with background sync off on a {@link ManualClock}, over an
 * {@link InMemoryTransport} on the same clock), whose {@link WaitingRoom#sync()} the run calls
 * itself from its {@link EventQueue}. The room's own schedule syncs four times per epoch
 * (1 s), at the middle of each quarter with a random jitter; a node alone in its room tallies,
 * exchanges and applies its plan at the first of the four, and the other three only publish the
 * same tally again. So the run syncs once per epoch, at the middle of its first quarter (125 ms
 * in), without jitter: the same plans at the same instants for a quarter of the cost ({@code
 * SimulationTest} checks that four syncs per epoch give the same figures).
 *
 * <p>Every simulated user behaves like a browser with the HTTP adapters in front of the room: it
 * keeps the session and the place ticket apart ({@link WaitingRoom#decide(String, String)}),
 * drops a cookie whose max-age has passed, and while waiting asks again after the {@code
 * refreshSeconds} each answer gives (plus up to half a second, as a page's timer and the network
 * would). A waiting user whose patience runs out leaves. An admitted user clicks every think time
 * until their browse time is over, then leaves; they count as active until a session after their
 * last request.
 *
 * <p>What happens is written down in a {@link RunRecord}, which makes the figures of the run.
 *
 * <p>Deterministic: the arrivals, the users' times and the order of events come from the seed,
 * and so do the tie-break bits of the places in line ({@link WaitingRoom.Builder#random}).
 */
public final class Simulation {
  /** Virtual start: a round hour, so the room's minutes and slices line up with the run's seconds. */
  private static final long START_MILLIS = Instant.parse("2026-11-30T10:00:00Z").toEpochMilli();
  /** The room runs this long before the first arrival, so its first plans are settled. */
  private static final long WARM_MILLIS = 3000;
  private static final long EPOCH_MILLIS = 1000;
  private static final long QUARTER = EPOCH_MILLIS / 4;
  private static final int SYNC_ID = EventQueue.MAX_ID;
  private static final long POLL_JITTER_MILLIS = 500;

  private static final byte NEW = 0;
  private static final byte WAITING = 1;
  private static final byte ACTIVE = 2;
  private static final byte GONE = 3;

  private static final KeysetHandle KEYS = TicketKeys.generate();

  private final PlanSettings settings;
  private final RoomConfig config;
  private final ManualClock clock;
  private final WaitingRoom room;
  private final SeededDraws draws;
  private final long syncEvery;

  private final int users;
  private final long[] arrivalMillis;
  private final long[] patienceMillis;
  private final byte[] state;
  private final CookieJar cookies;
  private final long[] queuedMillis;
  private final long[] browseEnd;
  private final int[] steps;

  private final EventQueue events = new EventQueue(-WARM_MILLIS);
  private final ActiveUsers active;

  private final int arrivalSeconds;
  private final int maxSeconds;
  private final RunRecord record;

  private Simulation(PlanSettings settings, Limits limits, int syncsPerEpoch) {
    this.settings = settings;
    this.syncEvery = EPOCH_MILLIS / syncsPerEpoch;
    this.draws = new SeededDraws(settings.seed());
    this.config =
        RoomConfig.builder("capacity-plan")
            .totalActiveUsers(limits.totalActiveUsers())
            .newUsersPerMinute(limits.newUsersPerMinute())
            .sessionDuration(settings.session())
            .refreshInterval(settings.refresh())
            .build();
    this.clock = new ManualClock(Instant.ofEpochMilli(START_MILLIS - WARM_MILLIS));
    SplittableRandom tieBreaks = new SplittableRandom(settings.seed() ^ 0x7A3E_55C1_0B2D_9F41L);
    this.room =
        VirtualNodes.builder(config, KEYS, clock, new InMemoryTransport(clock), tieBreaks.split())
            .nodeId("planner")
            .build();

    this.arrivalMillis = settings.arrivals().times(settings.seed());
    this.users = arrivalMillis.length;
    this.arrivalSeconds = settings.arrivals().seconds();
    this.maxSeconds = Math.toIntExact(arrivalSeconds + settings.drain().getSeconds());
    this.patienceMillis = new long[users];
    Visitors v = settings.visitors();
    for (int u = 0; u < users; u++) {
      Duration p = v.patience();
      patienceMillis[u] = p == null ? Long.MAX_VALUE : draw(p.toMillis(), u, 1, v.fixedTimes());
    }
    this.state = new byte[users];
    this.cookies = new CookieJar(users);
    this.queuedMillis = new long[users];
    this.browseEnd = new long[users];
    this.steps = new int[users];
    this.active = new ActiveUsers(users, config.sessionSeconds() * 1000, -WARM_MILLIS);
    this.record = new RunRecord(limits, arrivalSeconds, maxSeconds);
  }

  /**
   * Runs the crowd of {@code settings} through a room with these limits.
   *
   * @throws IllegalArgumentException when the room refuses the settings (the message says why)
   */
  public static PlanResult run(PlanSettings settings, Limits limits) {
    return run(settings, limits, 1);
  }

  /**
   * Runs with {@code syncsPerEpoch} syncs per epoch (1, 2 or 4), at the points of the epoch the
   * room's own schedule aims at, starting with the first: a test checks that 1 gives what 4 give.
   */
  static PlanResult run(PlanSettings settings, Limits limits, int syncsPerEpoch) {
    if (syncsPerEpoch != 1 && syncsPerEpoch != 2 && syncsPerEpoch != 4) {
      throw new IllegalArgumentException("syncsPerEpoch must be 1, 2 or 4 but was " + syncsPerEpoch);
    }
    long started = System.nanoTime();
    Simulation sim = new Simulation(settings, limits, syncsPerEpoch);
    try {
      int end = sim.simulate();
      return sim.result(end, (System.nanoTime() - started) / 1_000_000);
    } finally {
      sim.room.close();
    }
  }

  // ---- per-user random times, the same in every run of one seed whatever the limits ------------

  private long draw(long meanMillis, int user, int salt, boolean fixed) {
    if (fixed) {
      return meanMillis;
    }
    return draws.exponential(meanMillis, user, salt);
  }

  private long think(int user, int step) {
    long mean = settings.visitors().think().toMillis();
    if (settings.visitors().fixedTimes()) {
      return mean;
    }
    return Math.max(1, (long) (mean * (0.5 + draws.unit(user, 3, step))));
  }

  private long jitter(int user, int step) {
    return (long) (POLL_JITTER_MILLIS * draws.unit(user, 4, step));
  }

  // ---- the event loop ---------------------------------------------------------------------------

  private void schedule(long atMillis, int id) {
    events.schedule(atMillis, id);
  }

  /** Runs until the arrivals are over and the line is empty, or the drain has run out; the run's length in seconds. */
  private int simulate() {
    for (int u = 0; u < users; u++) {
      schedule(arrivalMillis[u], u);
    }
    schedule(-WARM_MILLIS + QUARTER / 2, SYNC_ID);
    int second = 0;
    while (!events.isEmpty()) {
      int id = events.poll();
      long at = events.time();
      while (second * 1000L <= at) {
        if (second >= maxSeconds) {
          return second;
        }
        if (second >= arrivalSeconds && record.waitingNow() == 0) {
          sample(second); // the line is empty: the last second of the run shows it
          return second + 1;
        }
        sample(second++);
      }
      clock.set(Instant.ofEpochMilli(START_MILLIS + at));
      if (id == SYNC_ID) {
        room.sync();
        schedule(at + syncEvery, SYNC_ID);
      } else {
        request(id, at);
      }
    }
    return second;
  }

  private void sample(int second) {
    active.expireUpTo(second * 1000L);
    record.sample(second, active.count());
  }

  private Decision decide(int u, long at) {
    cookies.dropExpired(u, at);
    Decision d = room.decide(cookies.session(u), cookies.place(u));
    cookies.keep(u, d, at);
    return d;
  }

  private void request(int u, long at) {
    switch (state[u]) {
      case NEW -> {
        Decision d = decide(u, at);
        if (d.letsThrough()) {
          record.letInAtOnce();
          admit(u, at);
        } else {
          enterLine(u, at);
          poll(u, at, d);
        }
      }
      case WAITING -> {
        if (at - arrivalMillis[u] >= patienceMillis[u]) {
          record.gaveUp();
          leave(u);
          return;
        }
        Decision d = decide(u, at);
        if (d.letsThrough()) {
          record.letInFromLine(at, (at - queuedMillis[u]) / 1000.0);
          admit(u, at);
        } else {
          poll(u, at, d);
        }
      }
      case ACTIVE -> {
        Decision d = decide(u, at);
        if (d.letsThrough()) {
          touch(u, at);
          click(u, at);
        } else {
          // The session ran out between two clicks: the user is a newcomer again, in line.
          record.lostSession();
          arrivalMillis[u] = at;
          enterLine(u, at);
          poll(u, at, d);
        }
      }
      default -> {}
    }
  }

  private void enterLine(int u, long at) {
    state[u] = WAITING;
    queuedMillis[u] = at;
    record.putInLine(at);
  }

  private void poll(int u, long at, Decision d) {
    long refresh = d.refreshSeconds() > 0 ? d.refreshSeconds() : config.refreshSeconds();
    long next = at + refresh * 1000 + jitter(u, steps[u]++);
    long giveUp = patienceMillis[u] == Long.MAX_VALUE ? Long.MAX_VALUE : arrivalMillis[u] + patienceMillis[u];
    schedule(Math.min(next, giveUp), u);
  }

  private void admit(int u, long at) {
    if (browseEnd[u] == 0) {
      Visitors v = settings.visitors();
      browseEnd[u] = at + draw(v.browse().toMillis(), u, 2, v.fixedTimes());
    }
    record.admitted(at);
    state[u] = ACTIVE;
    touch(u, at);
    click(u, at);
  }

  /** Schedules the user's next click, or lets them go when it would come after their browse time. */
  private void click(int u, long at) {
    long next = at + think(u, steps[u]++);
    if (next >= browseEnd[u]) {
      leave(u);
    } else {
      schedule(next, u);
    }
  }

  /** The user leaves for good (their session may still count): their cookies are dropped. */
  private void leave(int u) {
    state[u] = GONE;
    cookies.dropSession(u);
    cookies.dropPlace(u);
  }

  /** A request of user {@code u} was let through: they count as active for a session from now. */
  private void touch(int u, long at) {
    active.touch(u, at);
  }

  // ---- figures ----------------------------------------------------------------------------------

  private PlanResult result(int end, long wallMillis) {
    DoubleList still = new DoubleList();
    long endMillis = end * 1000L;
    for (int u = 0; u < users; u++) {
      if (state[u] == WAITING && endMillis - arrivalMillis[u] < patienceMillis[u]) {
        still.add((endMillis - queuedMillis[u]) / 1000.0);
      }
    }
    return record.result(end, users, still, wallMillis);
  }
}
