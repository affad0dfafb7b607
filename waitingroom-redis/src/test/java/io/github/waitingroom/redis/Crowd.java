package io.github.waitingroom.redis;

import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Simulated visitors with the ground truth a test checks the room against: every visitor keeps
 * their ticket, polls the waiting page at the interval it is told (until they run out of
 * patience), browses for a while once admitted, then leaves. Times are the test's seconds (the room's clock).
 */
final class Crowd {
  /** One visitor. */
  static final class Visitor {
    final int id;
    final long arrivedAt;
    final Object home;
    @Nullable String ticket;
    long admittedAt = -1;
    long lastRequest = -1;
    long leavesAt = Long.MAX_VALUE;
    long nextVisit;
    boolean gone;

    Visitor(int id, long arrivedAt, Object home) {
      this.id = id;
      this.arrivedAt = arrivedAt;
      this.home = home;
    }

    boolean admitted() {
      return admittedAt >= 0;
    }
  }

  final RoomConfig config;
  final List<Visitor> visitors = new ArrayList<>();
  private final Random random;
  private final long browseMin;
  private final long browseMax;
  private long patience = Long.MAX_VALUE;
  long admissions;

  /**
   * @param browseMin shortest time an admitted visitor keeps browsing before leaving
   * @param browseMax longest time (seconds)
   */
  Crowd(RoomConfig config, long seed, long browseMin, long browseMax) {
    this.config = config;
    this.random = new Random(seed);
    this.browseMin = browseMin;
    this.browseMax = browseMax;
  }

  /** Waiting visitors give up (stop polling) after waiting this long (seconds). Default: never. */
  Crowd patience(long seconds) {
    this.patience = seconds;
    return this;
  }

  /** A new visitor who arrives at {@code now} through {@code home}. */
  Visitor arrive(Object home, long now, Function<Object, WaitingRoom> route) {
    Visitor v = new Visitor(visitors.size(), now, home);
    visitors.add(v);
    visit(v, now, route);
    return v;
  }

  /** Every visitor whose next request is due sends it. */
  void visitDue(long now, Function<Object, WaitingRoom> route) {
    for (Visitor v : List.copyOf(visitors)) {
      if (!v.gone && v.nextVisit <= now) {
        visit(v, now, route);
      }
    }
  }

  private void visit(Visitor v, long now, Function<Object, WaitingRoom> route) {
    if (v.admitted() ? now >= v.leavesAt : now - v.arrivedAt > patience) {
      v.gone = true;
      return;
    }
    Decision d = route.apply(v.home).decide(v.ticket);
    if (d.ticket() != null) {
      v.ticket = d.ticket();
    }
    if (d.letsThrough()) {
      if (!v.admitted()) {
        v.admittedAt = now;
        v.leavesAt = now + browseMin + (browseMax > browseMin ? random.nextInt((int) (browseMax - browseMin)) : 0);
        admissions++;
      }
      v.lastRequest = now;
      v.nextVisit = now + 5 + random.nextInt(10);
    } else {
      if (v.admitted()) {
        throw new AssertionError("visitor " + v.id + " admitted at " + v.admittedAt + " was turned away at " + now
            + " (" + d.outcome() + ")");
      }
      v.nextVisit = now + Math.max(1, d.refreshSeconds());
    }
  }

  /**
   * Ground truth: visitors admitted whose configured session has not run out since their last
   * request (counting the second it runs out in, which is stricter than the room's slices).
   */
  long active(long now) {
    long n = 0;
    for (Visitor v : visitors) {
      if (v.admitted() && v.lastRequest >= now - config.sessionSeconds()) {
        n++;
      }
    }
    return n;
  }

  /** Ground truth for one home (node or data center). */
  long active(long now, Object home) {
    long n = 0;
    for (Visitor v : visitors) {
      if (v.home == home && v.admitted() && v.lastRequest >= now - config.sessionSeconds()) {
        n++;
      }
    }
    return n;
  }

  /** Admissions within the 60 seconds up to and including {@code now}. */
  long admittedInMinute(long now) {
    long n = 0;
    for (Visitor v : visitors) {
      if (v.admitted() && v.admittedAt > now - 60 && v.admittedAt <= now) {
        n++;
      }
    }
    return n;
  }
}
