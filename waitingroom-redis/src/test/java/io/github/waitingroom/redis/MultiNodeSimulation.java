package io.github.waitingroom.redis;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Many nodes in several data centers in virtual time ({@link RedisNodes}: the store's clock is
 * stripped from the answers, since the simulation is about admission over minutes, not about where
 * time comes from), simulated visitors who keep their ticket and come back: arrivals, polls of the
 * waiting page (at the interval each answer asks for), browsing of admitted users. Every request
 * goes to a random live node of the visitor's data center, or with {@link #sticky()} always to the
 * same one. Each node syncs four times per
 * simulated second (the epoch) at the points a background thread aims at, in an order that
 * rotates, and skips a sync now and then as a busy sync thread would, so views lag as in
 * production (no lockstep). The ground truth is kept per visitor, so the room's active users, its
 * admissions per minute and the order of service are checked exactly.
 */
final class MultiNodeSimulation {
  static final KeysetHandle KEYS = TicketKeys.generate();

  /** How often a node's sync thread is too busy to run one of its four syncs of an epoch. */
  static final double SKIPPED_SYNCS = 0.15;

  final RoomConfig config;
  final RedisNodes room;
  final List<Node> nodes = new ArrayList<>();
  final List<Visitor> visitors = new ArrayList<>();
  final Random random;
  final String[] dataCenters;
  final double[] arrivalShare;

  /** Ground truth: the most visitors whose session had not run out at once. */
  long maxActive;
  /** Ground truth: the most admissions in any 60 whole seconds. */
  long maxAdmittedInAMinute;
  long admissions;
  /**
   * Polls of a waiting visitor turned away while a visitor who arrived in a later second had
   * already been admitted (anywhere): first come, first served, across nodes and data centers.
   */
  long inversions;
  /** Of those, the ones where the later visitor got in at another data center. */
  long crossDcInversions;
  String firstInversion = "";
  /** The most seconds between the arrivals of an inverted pair (the later one got in first). */
  long maxInversionLateness;
  /** Inversions by that number of seconds. */
  final TreeMap<Long, Long> lateByMoreThan = new TreeMap<>();
  /** Polls where "people ahead" grew since the visitor's previous poll. */
  long aheadGrew;
  long maxAheadGrowth;

  private final TreeMap<Long, Long> admittedAt = new TreeMap<>();
  private final long[] newestAdmittedSecond;
  /** Whether each visitor sticks to one node (session affinity) instead of a random one per request. */
  private boolean sticky;

  static final class Node {
    final String dataCenter;
    final WaitingRoom room;
    final RedisNodes.Node node;
    boolean alive = true;

    Node(String dataCenter, RedisNodes.Node node) {
      this.dataCenter = dataCenter;
      this.room = node.room;
      this.node = node;
    }
  }

  static final class Visitor {
    final int dataCenter;
    final long arrivedAt;
    String ticket = "";
    long nextVisit;
    long admittedAt = -1;
    long lastRequest;
    long leavesAt;
    long lastAhead = -1;
    @org.jspecify.annotations.Nullable Node home;

    Visitor(int dataCenter, long arrivedAt) {
      this.dataCenter = dataCenter;
      this.arrivedAt = arrivedAt;
    }
  }

  /**
   * @param store the shared store's URI ({@code ""} for none), whose keys under {@code prefix} are
   *     deleted on {@link #close}
   * @param transports a transport to the store for each node
   */
  MultiNodeSimulation(RoomConfig config, String[] dataCenters, double[] arrivalShare, int nodesPerDataCenter,
      String store, String prefix, Function<String, Transport> transports) {
    this(config, dataCenters, arrivalShare, nodesPerDataCenter, store, prefix, transports, 7, 7, 0);
  }

  /**
   * As above, replayable: visitors, routing, skipped syncs and lost answers come from {@code seed},
   * the nodes' tie-break bits from {@code tieBreakSeed}, so one pair of seeds is one run (the store
   * answers the same to the same requests).
   *
   * @param lostAnswers how often a node's sync reaches the store but loses its answer
   */
  MultiNodeSimulation(RoomConfig config, String[] dataCenters, double[] arrivalShare, int nodesPerDataCenter,
      String store, String prefix, Function<String, Transport> transports, long seed, long tieBreakSeed,
      double lostAnswers) {
    this.config = config;
    this.random = new Random(seed);
    this.dataCenters = dataCenters;
    this.arrivalShare = arrivalShare;
    this.newestAdmittedSecond = new long[dataCenters.length];
    java.util.Arrays.fill(newestAdmittedSecond, Long.MIN_VALUE);
    this.room = new RedisNodes(config, store, prefix, Duration.ofSeconds(1), RedisNodes.Time.VIRTUAL, transports);
    room.tieBreaks = new java.util.SplittableRandom(tieBreakSeed);
    for (String dc : dataCenters) {
      for (int n = 0; n < nodesPerDataCenter; n++) {
        RedisNodes.Node node = room.add(dc, "node-" + n);
        nodes.add(new Node(dc, node));
      }
    }
    // Every node has published and read everything before the visitors come.
    room.advance(Duration.ofSeconds(3));
    room.lostAnswers = lostAnswers;
    room.advance(Duration.ofMillis(1000 - room.sourceNow().toEpochMilli() % 1000));
  }

  long now() {
    return room.nowSecond();
  }

  /**
   * Sends each visitor to the same node every time (a load balancer with session affinity), as
   * long as it lives; by default every request goes to a random node of the visitor's data center.
   */
  MultiNodeSimulation sticky() {
    this.sticky = true;
    return this;
  }

  private Node nodeIn(int dc) {
    List<Node> live = new ArrayList<>();
    for (Node n : nodes) {
      if (n.alive && n.dataCenter.equals(dataCenters[dc])) {
        live.add(n);
      }
    }
    return live.get(random.nextInt(live.size()));
  }

  /**
   * Runs {@code seconds} simulated seconds with {@code arrivalsPerSecond} new visitors a second
   * (spread over data centers by their arrival shares).
   */
  void run(int seconds, double arrivalsPerSecond) {
    for (int s = 0; s < seconds; s++) {
      long now = now();
      int arrivals = (int) arrivalsPerSecond + (random.nextDouble() < arrivalsPerSecond % 1 ? 1 : 0);
      for (int a = 0; a < arrivals; a++) {
        Visitor v = new Visitor(pickDataCenter(), now);
        visitors.add(v);
        visit(v, now);
      }
      for (Visitor v : List.copyOf(visitors)) {
        if (v.nextVisit <= now && v.nextVisit > 0) {
          visit(v, now);
        }
      }
      measure(now);
      // Four syncs per epoch, at 1/8, 3/8, 5/8 and 7/8 of the second, in a rotating order.
      room.advance(Duration.ofSeconds(1), random, SKIPPED_SYNCS);
    }
  }

  private int pickDataCenter() {
    double r = random.nextDouble();
    for (int d = 0; d < arrivalShare.length; d++) {
      r -= arrivalShare[d];
      if (r < 0) {
        return d;
      }
    }
    return arrivalShare.length - 1;
  }

  private void visit(Visitor v, long now) {
    if (v.admittedAt >= 0 && now >= v.leavesAt) {
      v.nextVisit = 0; // gone
      return;
    }
    Node node = v.home != null && v.home.alive ? v.home : nodeIn(v.dataCenter);
    if (sticky) {
      v.home = node;
    }
    Decision d = node.room.decide(v.ticket.isEmpty() ? null : v.ticket);
    if (d.ticket() != null) {
      v.ticket = d.ticket();
    }
    if (d.letsThrough()) {
      if (v.admittedAt < 0) {
        v.admittedAt = now;
        v.leavesAt = now + 30 + random.nextInt(150);
        admissions++;
        admittedAt.merge(now, 1L, Long::sum);
        newestAdmittedSecond[v.dataCenter] = Math.max(newestAdmittedSecond[v.dataCenter], v.arrivedAt);
      }
      v.lastRequest = now;
      v.nextVisit = now + 10 + random.nextInt(20);
    } else {
      if (v.admittedAt >= 0) {
        throw new AssertionError("a visitor admitted at " + v.admittedAt + " was turned away at " + now);
      }
      if (d.outcome() == Decision.Outcome.WAIT) {
        checkOrder(v, d, now);
      }
      v.nextVisit = now + Math.max(1, d.refreshSeconds());
    }
  }

  /** A polling visitor turned away: an inversion if someone who arrived in a later second got in. */
  private void checkOrder(Visitor v, Decision d, long now) {
    long newest = Long.MIN_VALUE;
    int where = -1;
    for (int dc = 0; dc < newestAdmittedSecond.length; dc++) {
      if (newestAdmittedSecond[dc] > newest) {
        newest = newestAdmittedSecond[dc];
        where = dc;
      }
    }
    if (newest > v.arrivedAt) {
      inversions++;
      long lateness = newest - v.arrivedAt;
      maxInversionLateness = Math.max(maxInversionLateness, lateness);
      lateByMoreThan.merge(lateness, 1L, Long::sum);
      boolean crossDc = false;
      for (int dc = 0; dc < newestAdmittedSecond.length; dc++) {
        crossDc |= dc != v.dataCenter && newestAdmittedSecond[dc] > v.arrivedAt;
      }
      crossDcInversions += crossDc ? 1 : 0;
      if (firstInversion.isEmpty()) {
        firstInversion = "at " + now + " a visitor of " + dataCenters[v.dataCenter] + " who arrived at "
            + v.arrivedAt + " was told to wait (" + d.usersAhead() + " ahead), while one of "
            + dataCenters[where] + " who arrived at " + newest + " was in";
      }
    }
    if (v.lastAhead >= 0 && d.usersAhead() > v.lastAhead) {
      aheadGrew++;
      maxAheadGrowth = Math.max(maxAheadGrowth, d.usersAhead() - v.lastAhead);
    }
    v.lastAhead = d.usersAhead();
  }

  private void measure(long now) {
    long active = 0;
    long firstActive = now - config.sessionSeconds();
    for (Visitor v : visitors) {
      if (v.admittedAt >= 0 && v.lastRequest >= firstActive) {
        active++;
      }
    }
    maxActive = Math.max(maxActive, active);
    admittedAt.headMap(now - 59).clear();
    long inMinute = 0;
    for (long n : admittedAt.values()) {
      inMinute += n;
    }
    maxAdmittedInAMinute = Math.max(maxAdmittedInAMinute, inMinute);
  }

  /** Visitors waiting now who arrived more than {@code seconds} ago and are still polling. */
  long waitingLongerThan(long seconds) {
    long now = now();
    return visitors.stream()
        .filter(v -> v.admittedAt < 0 && v.nextVisit > 0 && v.arrivedAt < now - seconds)
        .count();
  }

  /** Stops one node for good: it no longer serves or syncs; its visitors go to the others. */
  void kill(Node n) {
    n.alive = false;
    room.kill(n.node);
  }

  void close() {
    try {
      room.close();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
