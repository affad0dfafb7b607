package io.github.waitingroom;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Simulated visitors with their own ground truth, driven through the nodes of a {@link Cluster}:
 * each keeps the cookie the room last set, a waiting one polls when its page says, an admitted one
 * makes requests for a while and leaves. Several behaviours real users and attackers show can be
 * switched on: bouncing between nodes, parallel requests with one cookie, replays of old cookies.
 */
final class Crowd {
  final Cluster cluster;
  final Random random;
  final List<User> users = new ArrayList<>();
  /** Admission times (store epoch seconds), in order. */
  final List<Long> admissions = new ArrayList<>();
  int maxActive;
  int maxAdmissionsPerMinute;
  /**
   * Admissions from the line while a visitor who arrived in an earlier second, and keeps polling,
   * still waited without having been called by its node. (Visitors called by the same plan get in
   * in the order they next poll: that is the page's refresh, not the room's order.)
   */
  int fifoInversions;
  /** Like {@link #fifoInversions}, counting only visitors of the same node. */
  int fifoInversionsOnOneNode;
  /**
   * Arrivals admitted at once while a visitor who arrived in an earlier second waited: the line
   * was empty at the last plan, and the node that queued the earlier one had used its share.
   */
  int newcomerInversions;
  /** Line inversions against a visitor whose node had not applied the latest plan (it was late). */
  int behindInversions;
  boolean debug;
  int aheadGrew;
  /** Requests each visitor sends at once (parallel fetches of one page, one cookie). */
  int parallel = 1;
  /** Whether visitors go to a random node on every request instead of sticking to one. */
  boolean bouncing;
  /** How long an admitted visitor browses, in seconds. */
  int browseSeconds = 30;
  /** Seconds between an admitted visitor's requests. */
  int requestEvery = 5;

  Crowd(Cluster cluster, long seed) {
    this.cluster = cluster;
    this.random = new Random(seed);
  }

  /** One visitor. */
  final class User {
    final int id;
    final long arrival;
    @org.jspecify.annotations.Nullable String ticket;
    int node;
    long nextAt;
    long admittedAt = -1;
    long lastRequest;
    long lastAhead = Long.MAX_VALUE;
    boolean gone;
    int readmissions;
    boolean waited;
    long lastWait;

    User(int id, long arrival, int node) {
      this.id = id;
      this.arrival = arrival;
      this.node = node;
      this.nextAt = arrival;
    }

    boolean active(long now) {
      return lastRequest > 0 && now - lastRequest < cluster.nodes.get(0).config().sessionSeconds();
    }
  }

  /** A visitor arrives now at a random node (or the given one). */
  User arrive(int node) {
    User u = new User(users.size(), cluster.now(), node < 0 ? random.nextInt(cluster.nodes.size()) : node);
    users.add(u);
    visit(u);
    return u;
  }

  /** Lets every visitor whose time has come make its next request. */
  void act() {
    long now = cluster.now();
    for (User u : users) {
      if (!u.gone && u.nextAt <= now) {
        visit(u);
      }
    }
  }

  private void visit(User u) {
    long now = cluster.now();
    if (bouncing) {
      u.node = random.nextInt(cluster.nodes.size());
    }
    WaitingRoom room = cluster.nodes.get(u.node);
    Decision last = room.decide(u.ticket);
    record(u, last, now);
    for (int i = 1; i < parallel; i++) {
      Decision d = room.decide(u.ticket);
      record(u, d, now);
      if (d.ticket() != null) {
        last = d; // the browser keeps the cookie of the response that arrives last
      }
    }
    if (last.ticket() != null) {
      u.ticket = last.ticket();
    }
    if (u.admittedAt >= 0 && !last.letsThrough() && last.ticket() != null) {
      // The browser kept a waiting cookie from one of its parallel first requests (they carried no
      // cookie, so the room saw several visitors): its next page is the waiting page again.
      u.admittedAt = -1;
      u.readmissions++;
    }
    if (u.admittedAt >= 0) {
      u.lastRequest = now;
      if (now - u.admittedAt >= browseSeconds) {
        u.gone = true;
      }
      u.nextAt = now + requestEvery;
    } else {
      u.nextAt = now + Math.max(1, last.refreshSeconds());
    }
    check(now);
  }

  private void record(User u, Decision d, long now) {

    if (d.outcome() == Decision.Outcome.ADMIT) {
      if (u.admittedAt < 0) {
        u.admittedAt = now;
        u.lastRequest = now;
        admissions.add(now);
        boolean fromLine = u.waited;
        for (User other : users) {
          if (other.admittedAt < 0 && !other.gone && other.arrival < u.arrival) {
            WaitingRoom theirs = cluster.nodes.get(other.node);
            boolean called = other.ticket != null && Inside.eligible(theirs, cluster.placeOf(other.ticket));
            if (called) {
              continue;
            }
            if (theirs.status().planEpoch() < cluster.nodes.get(u.node).status().planEpoch()) {
              behindInversions++; // its node missed the plan that called it: it gets in one plan later
              continue;
            }
            if (!fromLine) {
              newcomerInversions++;
            } else {
              fifoInversions++;
              fifoInversionsOnOneNode += other.node == u.node ? 1 : 0;
              if (debug) {
                System.out.printf("t=%d admitted #%d (node %d, arrived %d) while #%d (node %d, arrived %d, last wait %d ahead %d, next %d) waits; %s / %s%n",
                    now - Cluster.START.getEpochSecond(), u.id, u.node, u.arrival - Cluster.START.getEpochSecond(), other.id, other.node,
                    other.arrival - Cluster.START.getEpochSecond(), other.lastWait, other.lastAhead, other.nextAt - Cluster.START.getEpochSecond(),
                    cluster.nodes.get(u.node).status(), cluster.nodes.get(other.node).status());
              }
            }
          }
        }
      }
    } else if (!d.letsThrough() && d.ticket() != null && u.admittedAt < 0) {
      u.waited = true;
      if (d.usersAhead() > u.lastAhead) {
        aheadGrew++;
        if (debug) {
          System.out.printf("AHEAD t=%d #%d node %d arrived %d: %d -> %d; %s%n", now - Cluster.START.getEpochSecond(), u.id, u.node,
              u.arrival - Cluster.START.getEpochSecond(), u.lastAhead, d.usersAhead(), cluster.nodes.get(u.node).status());
        }
      }
      u.lastAhead = d.usersAhead();
      u.lastWait = d.waitSeconds();
    }
  }

  private void check(long now) {
    int active = 0;
    for (User u : users) {
      active += u.active(now) ? 1 : 0;
    }
    maxActive = Math.max(maxActive, active);
    int inMinute = 0;
    for (int i = admissions.size() - 1; i >= 0 && admissions.get(i) > now - 60; i--) {
      inMinute++;
    }
    maxAdmissionsPerMinute = Math.max(maxAdmissionsPerMinute, inMinute);
  }
}
