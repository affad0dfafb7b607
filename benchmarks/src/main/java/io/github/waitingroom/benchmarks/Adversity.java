package io.github.waitingroom.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import io.github.waitingroom.FailurePolicy;

/**
 * The hostile clients and the faulty store of a {@link Scenario}: the blind spots of the first
 * simulator.
 *
 * @param lockstep whether all nodes sync together (each twice in a row) at the same quarter
 *     epochs: a diagnostic that no real deployment has
 * @param coldStart whether every node starts at the same instant as the traffic (otherwise they
 *     join one by one before it, each once the previous one is visible)
 * @param sticky whether the load balancer sends each user to one node of their data center
 *     (otherwise every request goes to a random node of it)
 * @param parallelRequests requests a page sends at once with the same cookie (to random nodes of
 *     the user's data center); the browser keeps the Set-Cookie of the response that comes last
 * @param replayers how many admitted users also replay their first (admitted) ticket, ignoring
 *     every answer, for as long as they browse
 * @param replaysPerSecond how often each replayer replays
 * @param clones how many clients get a copy of one early waiting cookie
 * @param cloneAfter when (from the start of the run) the waiting cookie of the user at the
 *     front of the line is copied
 * @param maxSkew each node's clock is off by a uniform amount in [-maxSkew, +maxSkew]
 * @param failurePolicy the nodes' failure policy
 * @param faults what the store does wrong, and when (its clock, which every answer carries, is
 *     always right: a node refuses a store without one)
 */
public record Adversity(
    boolean lockstep,
    boolean coldStart,
    boolean sticky,
    int parallelRequests,
    int replayers,
    int replaysPerSecond,
    int clones,
    Duration cloneAfter,
    Duration maxSkew,
    FailurePolicy failurePolicy,
    List<Fault> faults) {
  /** Honest clients, a healthy store, clocks in step. */
  public static final Adversity NONE =
      new Adversity(false, false, false, 1, 0, 0, 0, Duration.ZERO, Duration.ZERO, FailurePolicy.FAIL_CLOSED, List.of());

  /** Checks the settings. */
  public Adversity {
    if (parallelRequests < 1 || replayers < 0 || replaysPerSecond < 0 || clones < 0) {
      throw new IllegalArgumentException("counts must not be negative, parallelRequests at least 1");
    }
    Objects.requireNonNull(failurePolicy, "failurePolicy");
    faults = List.copyOf(faults);
  }

  Adversity withSticky() {
    return new Adversity(lockstep, coldStart, true, parallelRequests, replayers, replaysPerSecond, clones, cloneAfter, maxSkew, failurePolicy, faults);
  }

  Adversity withColdStart() {
    return new Adversity(lockstep, true, sticky, parallelRequests, replayers, replaysPerSecond, clones, cloneAfter, maxSkew, failurePolicy, faults);
  }

  Adversity withLockstep() {
    return new Adversity(true, coldStart, sticky, parallelRequests, replayers, replaysPerSecond, clones, cloneAfter, maxSkew, failurePolicy, faults);
  }

  Adversity withParallel(int n) {
    return new Adversity(lockstep, coldStart, sticky, n, replayers, replaysPerSecond, clones, cloneAfter, maxSkew, failurePolicy, faults);
  }

  Adversity withReplayers(int n, int perSecond) {
    return new Adversity(lockstep, coldStart, sticky, parallelRequests, n, perSecond, clones, cloneAfter, maxSkew, failurePolicy, faults);
  }

  Adversity withClones(int n, Duration after) {
    return new Adversity(lockstep, coldStart, sticky, parallelRequests, replayers, replaysPerSecond, n, after, maxSkew, failurePolicy, faults);
  }

  Adversity withSkew(Duration max) {
    return new Adversity(lockstep, coldStart, sticky, parallelRequests, replayers, replaysPerSecond, clones, cloneAfter, max, failurePolicy, faults);
  }

  Adversity withFaults(FailurePolicy policy, List<Fault> f) {
    return new Adversity(lockstep, coldStart, sticky, parallelRequests, replayers, replaysPerSecond, clones, cloneAfter, maxSkew, policy, f);
  }

  /**
   * Something the store does wrong for a while.
   *
   * @param kind what goes wrong
   * @param start when, from the start of the run
   * @param length how long (ignored for a flush, which is one instant)
   */
  public record Fault(FaultKind kind, Duration start, Duration length) {
    boolean covers(long millis) {
      return millis >= start.toMillis() && millis < start.toMillis() + length.toMillis();
    }
  }

  /** The kinds of store faults. */
  public enum FaultKind {
    /** Every exchange throws {@link java.io.IOException}. */
    OUTAGE,
    /** The store loses everything it holds (a restart without persistence, a fail-over). */
    FLUSH,
    /** Answers miss about half of the other publishers' values. */
    PARTIAL,
    /** Answers carry one extra publisher per scope whose report has a newer format version. */
    NEWER_VERSION,
    /**
     * One exchange in ten is run by the store but its answer is lost (a command that timed out
     * after the store ran it): the node sees a failure, the others see what it published.
     */
    LOST_ANSWERS
  }
}
