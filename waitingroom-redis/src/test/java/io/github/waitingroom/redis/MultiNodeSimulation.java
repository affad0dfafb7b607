package io.github.waitingroom.redis;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.Decision;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Many nodes in several data centers, one shared manual clock, simulated visitors who keep their
 * ticket and come back: arrivals, polls of the waiting page, browsing of admitted users. Every
 * node syncs once per simulated second through its own transport. The ground truth is kept per
 * visitor, so the global active count and the order of service can be checked exactly.
 */
final class MultiNodeSimulation {
  static final KeysetHandle KEYS = TicketKeys.generate();

  final RoomConfig config;
  final ManualClock clock;
  final List<Node> nodes = new ArrayList<>();
  final List<Visitor> visitors = new ArrayList<>();
  final Random random = new Random(7);
  final String[] dataCenters;
  final double[] arrivalShare;

  long maxActive;
  long maxAdmittedInAMinute;
  /** Admissions in six whole slices, the room's own definition of the last minute. */
  long maxAdmittedInSlices;
  /** The most admissions in any two consecutive simulated seconds (two sync rounds). */
  long maxAdmittedInTwoRounds;
  private long admittedLastSecond;
  long admissions;
  String firstViolation = "";

  static final class Node {
    final String dataCenter;
    final WaitingRoom room;
    final Transport transport;
    boolean alive = true;

    Node(String dataCenter, WaitingRoom room, Transport transport) {
      this.dataCenter = dataCenter;
      this.room = room;
      this.transport = transport;
    }
  }

  static final class Visitor {
    final int dataCenter;
    final long arrivedAt;
    final long bucket;
    String ticket = "";
    long nextVisit;
    long admittedAt = -1;
    long lastRequest;
    long leavesAt;
    boolean fromLine;

    Visitor(int dataCenter, long arrivedAt, long bucket) {
      this.dataCenter = dataCenter;
      this.arrivedAt = arrivedAt;
      this.bucket = bucket;
    }
  }

  MultiNodeSimulation(RoomConfig config, String[] dataCenters, double[] arrivalShare, int nodesPerDataCenter,
      Supplier<Transport> transports) {
    this(config, dataCenters, arrivalShare, nodesPerDataCenter, transports,
        new ManualClock(Instant.parse("2026-11-30T10:00:05Z")));
  }

  MultiNodeSimulation(RoomConfig config, String[] dataCenters, double[] arrivalShare, int nodesPerDataCenter,
      Supplier<Transport> transports, ManualClock clock) {
    this.clock = clock;
    this.config = config;
    this.dataCenters = dataCenters;
    this.arrivalShare = arrivalShare;
    for (String dc : dataCenters) {
      for (int n = 0; n < nodesPerDataCenter; n++) {
        Transport t = transports.get();
        WaitingRoom room =
            WaitingRoom.builder(config, KEYS)
                .clock(clock)
                .transport(t)
                .dataCenter(dc)
                .nodeId("node-" + n)
                .syncInterval(Duration.ofSeconds(1))
                .backgroundSync(false)
                .build();
        nodes.add(new Node(dc, room, t));
      }
    }
  }

  long now() {
    return clock.instant().getEpochSecond();
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
        Visitor v = new Visitor(pickDataCenter(), now, config.bucketOf(now));
        visitors.add(v);
        visit(v, now);
      }
      for (Visitor v : visitors) {
        if (v.nextVisit <= now && v.nextVisit > 0) {
          visit(v, now);
        }
      }
      // Each live node syncs once a second, in a rotating order.
      int k = nodes.size();
      for (int i = 0; i < k; i++) {
        Node n = nodes.get((int) ((i + now) % k));
        if (n.alive) {
          n.room.sync();
        }
      }
      measure(now);
      clock.advance(Duration.ofSeconds(1));
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
    Node node = nodeIn(v.dataCenter);
    Decision d = node.room.decide(v.ticket.isEmpty() ? null : v.ticket);
    if (d.ticket() != null) {
      v.ticket = d.ticket();
    }
    if (d.letsThrough()) {
      v.lastRequest = now;
      if (v.admittedAt < 0) {
        v.admittedAt = now;
        v.fromLine = d.outcome() == Decision.Outcome.ADMIT && now > v.arrivedAt;
        v.leavesAt = now + 30 + random.nextInt(150);
        admissions++;
        checkOrder(v, now);
      }
      v.nextVisit = now + 10 + random.nextInt(20);
    } else {
      v.nextVisit = now + config.refreshSeconds();
    }
  }

  /**
   * Order of service, checked two ways.
   *
   * <ul>
   *   <li><b>Bucket order across data centers</b> ({@link #orderViolations}): when the first user
   *       of bucket b is admitted from the line, at any data center, no older bucket may have
   *       users waiting anywhere without having been served somewhere already.
   *   <li><b>Stragglers</b>: users of an older bucket still waiting when a later bucket is served.
   *       The allocator gives the later bucket slots only once the older one is fully eligible,
   *       but a user who polls every refresh interval may find the slots taken when a lagging
   *       view overshot; such a user is first in line for the next free slot. {@link #lapped}
   *       counts those still waiting when a bucket two or more later is served: passed by a
   *       whole bucket.
   * </ul>
   */
  private void checkOrder(Visitor admitted, long now) {
    if (!admitted.fromLine) {
      return;
    }
    long b = admitted.bucket;
    if (!firstServed.containsKey(b)) {
      for (Visitor w : visitors) {
        if (w.admittedAt < 0 && w.nextVisit > 0 && w.bucket < b && !firstServed.containsKey(w.bucket)) {
          orderViolations++;
          if (firstViolation.isEmpty()) {
            firstViolation = dataCenters[admitted.dataCenter] + " started bucket " + b + " at " + now
                + " before bucket " + w.bucket + " was served anywhere";
          }
          break;
        }
      }
      firstServed.put(b, now);
    }
    for (Visitor w : visitors) {
      if (w.admittedAt < 0 && w.nextVisit > 0 && w.bucket < b) {
        straggling.add(w);
        if (w.bucket < b - config.bucketSeconds() && lappedVisitors.add(w)) {
          lapped++;
          if (firstLapped.isEmpty()) {
            firstLapped = "a user of bucket " + w.bucket + " (" + dataCenters[w.dataCenter]
                + ") still waited when bucket " + b + " was served at " + now;
          }
        }
      }
    }
  }

  final Map<Long, Long> firstServed = new HashMap<>();
  final Set<Visitor> straggling = Collections.newSetFromMap(new IdentityHashMap<>());
  final Set<Visitor> lappedVisitors = Collections.newSetFromMap(new IdentityHashMap<>());
  long orderViolations;
  long lapped;
  String firstLapped = "";

  long stragglers() {
    return straggling.size();
  }

  private final List<Long> admissionTimes = new ArrayList<>();

  private void measure(long now) {
    long active = 0;
    long firstActive = now - config.sessionSeconds();
    for (Visitor v : visitors) {
      if (v.admittedAt >= 0 && v.lastRequest >= firstActive) {
        active++;
      }
      if (v.admittedAt == now) {
        admissionTimes.add(now);
      }
    }
    maxActive = Math.max(maxActive, active);
    long thisSecond = 0;
    for (Visitor v : visitors) {
      if (v.admittedAt == now) {
        thisSecond++;
      }
    }
    maxAdmittedInTwoRounds = Math.max(maxAdmittedInTwoRounds, thisSecond + admittedLastSecond);
    admittedLastSecond = thisSecond;
    admissionTimes.removeIf(t -> t <= now - 60);
    maxAdmittedInAMinute = Math.max(maxAdmittedInAMinute, admissionTimes.size());
    long firstSlice = config.sliceOf(now) - (60 / config.sliceSeconds() - 1) * config.sliceSeconds();
    long inSlices = admissionTimes.stream().filter(t -> t >= firstSlice).count();
    maxAdmittedInSlices = Math.max(maxAdmittedInSlices, inSlices);
  }

  /** Stops one node for good: it no longer serves or syncs; its visitors go to the others. */
  void kill(Node n) {
    n.alive = false;
    n.room.close();
  }

  void close() {
    for (Node n : nodes) {
      n.room.close();
      if (n.transport instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    }
  }
}
