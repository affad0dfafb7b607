package io.github.waitingroom;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.allocation.BucketState;
import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.SlotAllocator;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.coordinator.Transport;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * One waiting room on one node: the container-neutral admission API. Thread-safe; request
 * threads call {@link #decide} concurrently and never block, wait on a lock or touch the network.
 *
 * <pre>{@code
 * WaitingRoom room = WaitingRoom.builder(config, TicketKeys.fromJson(keysetJson)).build();
 * Decision d = room.decide(cookieValueOrNull);
 * if (d.ticket() != null) { setCookie(d.ticket(), d.ticketMaxAgeSeconds()); }
 * if (d.letsThrough()) { serveTheApplication(); } else { showWaitingPage(d); }
 * }</pre>
 *
 * <p>{@link #decide} works on the node's last applied {@link Plan}:
 *
 * <ul>
 *   <li>an <b>active</b> ticket whose session has not expired passes; at most once per slice its
 *       check-in moves forward and a new ticket is issued (counted once per ticket, however many
 *       requests carry it);
 *   <li>a <b>waiting</b> ticket whose place has not timed out is admitted once its place is at
 *       or below the plan's cutoff, on whichever node it polls that still has a slot: it takes one
 *       by compare-and-set (see {@link Grant}); a ticket that does not carry that node's last
 *       answer to its place (a copy that another copy's poll overtook) waits, and a copy of a
 *       ticket that was already admitted is not admitted again once the room knows of the
 *       admission, but arrives anew;
 *   <li><b>no ticket</b>, or one that does not open (forged, tampered, foreign, expired), is a new
 *       arrival with a place at the back of the line: admitted by the same rule (its place is at
 *       or below the cutoff only once the plan served the whole line), otherwise it waits there.
 * </ul>
 *
 * <p>Plans come from a background sync ({@link Synchronizer}) that runs four times per epoch (the
 * {@link Builder#syncInterval sync interval}), publishes this node's tally through the {@link
 * Transport}, and applies the plan of each settled epoch. With one JVM the default in-memory
 * transport needs no setup. {@link #close()} stops the sync.
 */
public final class WaitingRoom implements AutoCloseable {
  /** This room's parts on this node, and the request path over them. */
  private final RoomParts node;

  private WaitingRoom(RoomParts node) {
    this.node = node;
  }

  /**
   * Starts a room.
   *
   * @param config the room's limits
   * @param keys the keyset that seals tickets; every node of the room needs the same one
   */
  public static Builder builder(RoomConfig config, KeysetHandle keys) {
    return new Builder(config, keys);
  }

  /**
   * Decides one request. Never blocks and never throws on bad input: a ticket that does not open
   * is a new arrival.
   *
   * @param ticket the request's ticket (cookie value), or {@code null} when it carries none
   */
  public Decision decide(@Nullable String ticket) {
    return node.decide(ticket);
  }

  /**
   * Decides one request whose client keeps its session and its place in line apart, as the HTTP
   * adapters do (two cookies), so that an answer that keeps someone waiting (a parallel request on
   * another node) never overwrites the session another answer gave them. Write the ticket of an
   * answer that {@link Decision#letsThrough() lets through} to the session, any other to the
   * place. An admitted request costs the same as with one ticket: the place is opened only when
   * the session does not let the request through.
   *
   * @param session the ticket the client keeps for its session, or {@code null}
   * @param place the ticket the client keeps for its place in line, or {@code null}
   */
  public Decision decide(@Nullable String session, @Nullable String place) {
    return decide(session, place, true);
  }

  /**
   * Decides one request like {@link #decide(String, String)}, but puts a newcomer who would wait
   * in line only when {@code mayQueue} says so: otherwise the answer is {@link
   * Decision.Outcome#CHALLENGE}, and nothing is counted but the decision (no arrival, no place,
   * no ticket). This is how {@code waitingroom-http} asks a newcomer for a proof of work or a
   * human check only while people wait, and only then gives it a place.
   *
   * @param session the ticket the client keeps for its session, or {@code null}
   * @param place the ticket the client keeps for its place in line, or {@code null}
   * @param mayQueue whether a newcomer may be given a place in line
   */
  public Decision decide(@Nullable String session, @Nullable String place, boolean mayQueue) {
    return node.decide(session, place, mayQueue ? Decider.Newcomer.QUEUE : Decider.Newcomer.IF_FREE);
  }

  /**
   * Decides one request like {@link #decide(String, String)} when its tickets open; a newcomer (no
   * ticket that opens, or a copy the room arrives anew) is not counted at all: the answer is
   * {@link Decision.Outcome#CHALLENGE}, with no arrival, place or ticket. This is how {@code
   * waitingroom-http} lets a newcomer in, or in line, only when it comes back with a cookie of its
   * first answer, so that a flood that never comes back takes no slot.
   *
   * @param session the ticket the client keeps for its session, or {@code null}
   * @param place the ticket the client keeps for its place in line, or {@code null}
   */
  public Decision decideKnown(@Nullable String session, @Nullable String place) {
    return node.decide(session, place, Decider.Newcomer.NOT_YET);
  }

  /**
   * Ends the session of the request's ticket at the application's request (after a checkout, a
   * logout): its slot is free for the next person from the plan after this node's next tally (two
   * to three epochs), and the ticket is never let through again: here at once, elsewhere from that
   * same plan (a copy sent to another node before then may still pass there). Its later requests
   * arrive anew, at the back of the line. The client should drop the ticket (the HTTP adapters
   * delete the cookie). A session ended several times, on one node or on several, counts out once.
   * Takes no lock and does no I/O.
   *
   * @param session the ticket of the session to end (cookie value), or {@code null}
   * @return whether a live session was ended (false: no ticket, not an active one of this room,
   *     already expired, or ended before)
   */
  public boolean revoke(@Nullable String session) {
    return node.revoke(session);
  }

  /**
   * Tells the room how the application answered one request that the room let through: how long
   * the application took, from the room's decision to the response, and whether it failed (a
   * server error, a timeout, or an exception). The HTTP adapters call this for every request they
   * let through; call it yourself when you decide with {@link #decide} directly. Each node sums
   * what it measured into its tallies ({@link io.github.waitingroom.allocation.Tally.Origin}),
   * and a room with an {@link AdaptiveLimit} sets its limit of active users by the whole room's
   * (see {@link RoomConfig.Builder#adaptiveLimit}); without one, it is kept for the status and
   * nothing else. Takes no lock, allocates nothing and does no I/O.
   *
   * @param nanos how long the application took, in nanoseconds
   * @param failed whether the request failed
   */
  public void originAnswered(long nanos, boolean failed) {
    node.state.origin().record(nanos, failed);
  }

  /**
   * Runs one round of coordination now (see {@link Synchronizer#sync()}). The background sync
   * calls this; tests and simulations that build the room with {@link
   * Builder#backgroundSync(boolean) backgroundSync(false)} call it themselves, ideally at the
   * times {@link #nextSyncDelay()} asks for. Never throws on transport failure.
   */
  public void sync() {
    node.sync.sync();
  }

  /** How long until the next sync should run (a quarter of an epoch, jittered). */
  public Duration nextSyncDelay() {
    return node.sync.nextSyncDelay();
  }

  /** The room's configuration, as this node started with it (see {@link #settings()} for what is in force). */
  public RoomConfig config() {
    return node.config;
  }

  /**
   * The room's settings in force on this node: version 0 (its {@link #config() configuration})
   * until an operator changes them with {@link #updateSettings}, on this node or any other.
   */
  public RoomSettings settings() {
    return node.live.current(node.sync.nowSecond()).settings();
  }

  /**
   * The scheduled event that is pre-queueing or running now, or {@code null} (see {@link
   * RoomSettings#events()}). One volatile read, no allocation except at an event's boundary.
   */
  public RoomSettings.@Nullable Event event() {
    return node.live.current(node.sync.nowSecond()).event();
  }

  /** Whether an event is pre-queueing now: newcomers get a place and a countdown, nobody is let in. */
  public boolean eventPrequeueing() {
    return node.live.current(node.sync.nowSecond()).prequeueing();
  }

  /**
   * The newest settings this node knows: those in force, or a change that takes effect within
   * two sync intervals. Derive a change from these, so that it keeps what another operator set.
   */
  public RoomSettings latestSettings() {
    return node.live.latest();
  }

  /**
   * Changes the room's settings on every node: the document is sealed with the room's keys,
   * published through the room's store at this node's next sync, and takes effect on every node
   * at the same instant of the store's clock, the start of the epoch after next (one to two
   * {@link Builder#syncInterval sync intervals} from now). Every node that reaches the store
   * applies it; one that is cut off applies it once it reaches the store again. A node keeps the
   * last good document whatever the store loses. Changing limits logs nobody out (active users
   * stay, even above a lowered limit) and reorders nobody (the line keeps its order).
   *
   * <pre>{@code
   * RoomSettings now = room.latestSettings();
   * room.updateSettings(RoomSettings.fromJson("{\"totalActiveUsers\": 800}", now));
   * }</pre>
   *
   * @param next the new document; its version must be higher than any this node knows
   * @return when it takes effect
   * @throws IllegalArgumentException if the room's configuration does not allow a field (the
   *     message names it)
   * @throws IllegalStateException if this node already knows a document of that version or a
   *     higher one (another operator changed the settings meanwhile)
   */
  public Instant updateSettings(RoomSettings next) {
    Objects.requireNonNull(next, "next");
    return Instant.ofEpochMilli(node.live.update(next, node.sync.settingsInstant()));
  }

  /**
   * What this node has done since it started (decisions, admissions, rejected tickets, time in
   * line, syncs): counters for metrics libraries, kept lock-free on the request path.
   */
  public RoomMetrics metrics() {
    return node.metrics;
  }

  /** The data center this node belongs to (see {@link Builder#dataCenter}). */
  public String dataCenter() {
    return node.dataCenter;
  }

  /** This node's id (see {@link Builder#nodeId}). */
  public String nodeId() {
    return node.nodeId;
  }

  /** The room as this node sees it, from the last plan it applied. */
  public RoomStatus status() {
    return node.sync.status(node.state);
  }

  /** This room's parts (for tests, which look into its state). */
  RoomParts parts() {
    return node;
  }

  /**
   * The room's line as the plan in force counted it, in buckets of the room's {@link
   * RoomConfig#bucketWidth() bucketWidth}, oldest first; empty before the first plan.
   */
  public BucketState line() {
    return node.state.grant().plan.line(node.config.bucketWidth().getSeconds());
  }

  /** Whether the last sync failed to reach the coordinator transport. */
  public boolean transportFailing() {
    return node.sync.failing();
  }

  /**
   * The room's clock, in epoch seconds: the time {@link #decide} works with (for adapters that
   * stamp and check their own short-lived values, such as {@code waitingroom-http}'s challenges).
   */
  public long nowSecond() {
    return node.sync.nowSecond();
  }

  /**
   * A seal for short values other than tickets, made with the room's ticket keys and bound to
   * this room and {@code purpose}: what one node seals, every node of the room opens, and nothing
   * sealed for one purpose (or one room) opens for another. {@code waitingroom-http} seals its
   * proof-of-work challenges and its infinite-queue marker with it.
   *
   * @param purpose a short name of what is sealed ({@code pow}, {@code flag})
   */
  public Seal seal(String purpose) {
    return new Seal(node.keys, node.config.roomId(), purpose);
  }

  /** Stops the background sync. Decisions keep working from the last plan. */
  @Override
  public void close() {
    node.sync.close();
  }

  /** Builds a {@link WaitingRoom}; every setting but the configuration and keys has a default. */
  public static final class Builder {
    /** What this builder has been told, with the defaults and checks (see {@link RoomOptions}). */
    private final RoomOptions o;

    private Builder(RoomConfig config, KeysetHandle keys) {
      this.o = new RoomOptions(config, keys);
    }

    /** Where time comes from. Default: the system clock. Tests pass a {@link ManualClock}. */
    public Builder clock(InstantSource clock) {
      o.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The coordinator store shared by every node of the room. Default: a private {@link
     * InMemoryTransport}, right for a room on one JVM.
     */
    public Builder transport(Transport transport) {
      o.transport = Objects.requireNonNull(transport, "transport");
      return this;
    }

    /**
     * Where every random choice of this node comes from: the tie-break bits of new places, the
     * draws of random queueing, the sync schedule's jitter, the suffix of this process's reports
     * and the key of the per-ticket rate sketch. Default: each draw from the calling thread's own
     * {@link ThreadLocalRandom#current()}, right in production; a {@link ThreadLocalRandom} given
     * here means the same (the instance itself draws from a thread that never called {@code
     * current()} a sequence fixed by the thread's id, alike in every JVM, so nodes would give the
     * same places to different newcomers). Simulations pass a seeded generator, so one seed gives
     * one run bit for bit (it must be thread-safe where request threads and the sync thread are
     * several).
     */
    public Builder random(RandomGenerator random) {
      o.random = Objects.requireNonNull(random, "random") instanceof ThreadLocalRandom ? RoomOptions.THREAD_LOCAL : random;
      return this;
    }

    /**
     * How each settled epoch becomes this node's plan. Default: {@link SlotAllocator#PLAN}, the
     * published design. Every node of the room must use the same allocator (see its contract).
     */
    public Builder slotAllocator(SlotAllocator allocator) {
      o.allocator = Objects.requireNonNull(allocator, "allocator");
      return this;
    }

    /**
     * How this node's coordinator is made: what exchanges its tallies for the room's settled
     * epochs over the transport. Default: {@link Coordinator#STORE}, the published design's two
     * tiers. Every node of the room must use coordinators that agree (see {@link Coordinator}).
     */
    public Builder coordinator(Coordinator.Factory factory) {
      o.coordinators = Objects.requireNonNull(factory, "factory");
      return this;
    }

    /** This node's data center (region, cluster). Default: {@code local}. */
    public Builder dataCenter(String name) {
      o.dataCenter = RoomConfig.checkName("dataCenter", name);
      return this;
    }

    /** This node's id, unique within its data center. Default: {@code node}. */
    public Builder nodeId(String id) {
      o.nodeId = RoomConfig.checkName("nodeId", id);
      return this;
    }

    /**
     * The length of an epoch (40 ms..1 min), the same on every node of a room: a node syncs four
     * times per epoch, and the room plans once per epoch. Longer epochs mean fewer store
     * operations and slower reactions. The room stretches them by itself while it reads more than
     * its {@link #storeBudget} or its plans settle too late for the lag between data centers, and
     * shortens them again after. Default: 1 second.
     */
    public Builder syncInterval(Duration interval) {
      o.syncInterval = RoomOptions.checkSyncInterval(interval);
      return this;
    }

    /** The default {@link #storeBudget}: reports read from the store per second by the whole room. */
    public static final long DEFAULT_STORE_BUDGET = 20_000;

    /**
     * How many reports the whole room may read from the store per second, the same on every node:
     * a room of N nodes in D data centers of n nodes reads about 4 x N x (n + D) reports per epoch.
     * When a settled plan shows more, the room stretches its epochs (the sync interval times 2,
     * 4, ... up to 64) for every node at once, and shortens them again when the room shrinks
     * (docs/many-nodes.md). Default: {@value #DEFAULT_STORE_BUDGET}.
     */
    public Builder storeBudget(long reportsPerSecond) {
      o.storeBudget = RoomOptions.checkStoreBudget(reportsPerSecond);
      return this;
    }

    /**
     * The most requests one active ticket may make on this node per second, on average over a
     * {@value TicketRate#WINDOW_SECONDS}-second window; beyond it the ticket is refused for the
     * rest of the window and its requests arrive anew (at the back of the line). A browser makes a
     * few requests a second to guarded paths; a cookie shared by many clients makes many more. The
     * count is per node. 0 turns the check off. Default: 50.
     */
    public Builder maxRequestsPerTicket(int perSecond) {
      o.maxRequestsPerTicket = RoomOptions.checkMaxRequestsPerTicket(perSecond);
      return this;
    }

    /** What to do while the transport fails. Default: {@link FailurePolicy#FAIL_CLOSED}. */
    public Builder failurePolicy(FailurePolicy policy) {
      o.failurePolicy = Objects.requireNonNull(policy, "failurePolicy");
      return this;
    }

    /**
     * Whether a background thread syncs. Default: true. Turn it off to drive {@link
     * WaitingRoom#sync()} yourself, as tests and simulations with a manual clock do.
     */
    public Builder backgroundSync(boolean enabled) {
      o.backgroundSync = enabled;
      return this;
    }

    /**
     * Builds the room and runs its first sync.
     *
     * @throws IllegalStateException if the store answered that first exchange without its clock
     *     ({@link io.github.waitingroom.coordinator.Transport#CLOCK_SCOPE}): the transport does not
     *     keep the contract, and a room on it could admit more than its limits
     */
    public WaitingRoom build() {
      return new WaitingRoom(new RoomParts(o, o.transport()));
    }
  }
}
