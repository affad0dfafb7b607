package io.github.waitingroom;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Nodes of one room in one JVM on a store with its own clock, each node with its own (possibly
 * skewed) manual clock, synced four times per epoch as their background threads would. The store
 * can fail, be flushed, or hold garbage, as real ones do.
 */
final class Cluster {
  static final Instant START = Instant.parse("2026-11-30T10:00:00Z");
  static final Duration STEP = Duration.ofMillis(250);

  final ManualClock storeClock = new ManualClock(START.plusMillis(125));
  final Store store = new Store();
  final List<WaitingRoom> nodes = new ArrayList<>();
  final List<ManualClock> clocks = new ArrayList<>();
  private final RoomConfig config;
  private final KeysetHandle keys;
  /** For nodes added from now on: see {@link WaitingRoom.Builder#maxRequestsPerTicket}. */
  int maxRequestsPerTicket = 50;
  /** For nodes added from now on: see {@link WaitingRoom.Builder#storeBudget}. */
  long storeBudget = WaitingRoom.Builder.DEFAULT_STORE_BUDGET;
  /** For nodes added from now on: where places draw their tie-break bits ({@code null}: at random). */
  java.util.random.@org.jspecify.annotations.Nullable RandomGenerator random;

  /** The allocator of nodes added from now on, or {@code null} for the default. */
  io.github.waitingroom.allocation.@org.jspecify.annotations.Nullable SlotAllocator allocator;

  /** How the coordinators of nodes added from now on are made, or {@code null} for the default. */
  io.github.waitingroom.coordinator.Coordinator.@org.jspecify.annotations.Nullable Factory coordinators;

  /**
   * A room {@code "shop"} of {@code users} active users and as many new users a minute, with
   * sessions of {@code session}, buckets of a minute and slices of ten seconds: the room of the
   * tests of one node, which add what else they need.
   */
  static RoomConfig.Builder shop(int users, Duration session) {
    return RoomConfig.builder("shop")
        .totalActiveUsers(users)
        .newUsersPerMinute(users)
        .sessionDuration(session)
        .bucketWidth(Duration.ofSeconds(60))
        .sliceWidth(Duration.ofSeconds(10));
  }

  Cluster(RoomConfig config, KeysetHandle keys) {
    this.config = config;
    this.keys = keys;
  }

  /** Adds a node whose clock is {@code skew} ahead of the store's (behind if negative). */
  WaitingRoom add(String dataCenter, String id, Duration skew, FailurePolicy policy) {
    return add(dataCenter, id, skew, policy, store);
  }

  /** Adds a node that reaches the store through {@code transport} (which wraps {@link #store}). */
  WaitingRoom add(String dataCenter, String id, Transport transport) {
    return add(dataCenter, id, Duration.ZERO, FailurePolicy.FAIL_CLOSED, transport);
  }

  /** Adds a node with that failure policy that reaches the store through {@code transport}. */
  WaitingRoom add(String dataCenter, String id, FailurePolicy policy, Transport transport) {
    return add(dataCenter, id, Duration.ZERO, policy, transport);
  }

  private WaitingRoom add(String dataCenter, String id, Duration skew, FailurePolicy policy, Transport transport) {
    ManualClock clock = new ManualClock(storeClock.instant().plus(skew));
    WaitingRoom.Builder builder =
        WaitingRoom.builder(config, keys)
            .clock(clock)
            .transport(transport)
            .dataCenter(dataCenter)
            .nodeId(id)
            .failurePolicy(policy)
            .maxRequestsPerTicket(maxRequestsPerTicket)
            .storeBudget(storeBudget)
            .backgroundSync(false);
    if (random != null) {
      builder.random(random);
    }
    if (allocator != null) {
      builder.slotAllocator(allocator);
    }
    if (coordinators != null) {
      builder.coordinator(coordinators);
    }
    WaitingRoom room = builder.build();
    clocks.add(clock);
    nodes.add(room);
    return room;
  }

  WaitingRoom add(String dataCenter, String id) {
    return add(dataCenter, id, Duration.ZERO, FailurePolicy.FAIL_CLOSED);
  }

  /**
   * Lets freshly added nodes join: a node tallies itself from the epoch after it joins and admits
   * nobody until that epoch's plan takes over (two to three epochs); the slots that nodes already
   * in the room held for new arrivals move over to it with the plan after (two more).
   */
  Cluster warmUp() {
    advance(Duration.ofSeconds(6));
    return this;
  }

  /** Adds the node {@code "node"} of data center {@code "local"} and lets it join ({@link #warmUp}): a test's one node. */
  WaitingRoom warmNode() {
    WaitingRoom node = add("local", "node");
    warmUp();
    return node;
  }

  /**
   * Newcomers on the given nodes in turn, every half second, until the room is full; returns the
   * ticket of the first one admitted. Newcomers queued on the way leave.
   */
  String fill(WaitingRoom... on) {
    String first = null;
    int admitted = 0;
    for (int i = 0; admitted < config.totalActiveUsers(); i++) {
      if (i >= 60) {
        throw new AssertionError("the room did not fill in 30 s");
      }
      Decision d = on[i % on.length].decide(null);
      if (d.outcome() == Decision.Outcome.ADMIT) {
        admitted++;
        first = first == null ? d.ticket() : first;
      }
      advance(Duration.ofMillis(500));
    }
    advance(Duration.ofSeconds(3));
    return java.util.Objects.requireNonNull(first);
  }

  /**
   * A room's history before a test: {@code sessions} visitors, each let in on the first node that
   * holds a slot for new arrivals, who send nothing more, until every one of their sessions has
   * ended. Each node then knows from its own users how long users stay (see {@code Turnover}):
   * once 25 have stopped on it, a node tells waits that need users to leave.
   */
  void turnOver(int sessions) {
    int admitted = 0;
    for (int i = 0; admitted < sessions; i++) {
      if (i > 100 * sessions) {
        throw new AssertionError("only " + admitted + " of " + sessions + " visitors let in");
      }
      WaitingRoom n = nodes.stream().filter(Inside::holdsSlot).findFirst().orElse(null);
      if (n != null && n.decide(null).outcome() == Decision.Outcome.ADMIT) {
        admitted++;
      } else {
        advance(Duration.ofSeconds(1));
      }
    }
    advance(config.sessionDuration().plus(config.sliceWidth()).plusSeconds(2));
  }

  /**
   * {@code users} newcomers, each let in on the first node (in the order added) that holds a slot
   * for new arrivals, {@code gap} apart; returns their tickets. Which nodes hold the slots of a
   * small room depends on the split (see {@code Plan#ARRIVALS_PER_NODE}), not on the test.
   */
  java.util.List<String> admitNewcomers(int users, Duration gap) {
    java.util.List<String> tickets = new ArrayList<>();
    for (int i = 0; i < users; i++) {
      WaitingRoom n = nodes.stream().filter(Inside::holdsSlot).findFirst()
          .orElseThrow(() -> new AssertionError("no node holds a slot for a new arrival"));
      Decision d = n.decide(null);
      if (d.outcome() != Decision.Outcome.ADMIT) {
        throw new AssertionError("a node holding a slot for a new arrival answered " + d.outcome());
      }
      tickets.add(d.ticket());
      advance(gap);
    }
    return tickets;
  }

  /** Moves time on in quarter epochs, syncing every node at each. */
  void advance(Duration by) {
    advance(by, null, 0);
  }

  /**
   * Moves time on in quarter epochs; at each, every node syncs unless {@code random} says it is
   * late (with probability {@code late}): a node that is late misses that sync, as a node whose
   * thread was descheduled or whose store answered late would, so nodes see each other with lag.
   */
  void advance(Duration by, java.util.@org.jspecify.annotations.Nullable Random random, double late) {
    for (long ms = 0; ms < by.toMillis(); ms += STEP.toMillis()) {
      step(random, late);
    }
  }

  /** One quarter epoch. */
  void step(java.util.@org.jspecify.annotations.Nullable Random random, double late) {
    storeClock.advance(STEP);
    for (ManualClock c : clocks) {
      c.advance(STEP);
    }
    for (WaitingRoom n : nodes) {
      if (random == null || random.nextDouble() >= late) {
        n.sync();
      }
    }
  }

  /** The store's current epoch second. */
  long now() {
    return storeClock.instant().getEpochSecond();
  }

  /** The place of a sealed ticket of this room. */
  long placeOf(String ticket) {
    TicketState t = new TicketCodec(config.roomId(), keys).openState(ticket, now());
    if (t == null) {
      throw new IllegalArgumentException("not a ticket of this room");
    }
    return t.place();
  }

  long activeUsers() {
    return nodes.get(0).status().activeUsers();
  }

  /** An in-memory store that can fail, be flushed, or have a value replaced. */
  final class Store implements Transport {
    private InMemoryTransport delegate = new InMemoryTransport(storeClock);
    volatile boolean failing;
    /**
     * How often an exchange is run by the store but its answer never reaches the node (a timeout
     * after the store wrote what the node published): the node sees a failure, the others see its
     * report.
     */
    double loseAnswers;
    final java.util.Random losses = new java.util.Random(1);

    void flush() {
      delegate = new InMemoryTransport(storeClock);
    }

    void put(String scope, String publisher, byte[] payload) throws IOException {
      delegate.exchange(config.roomId(), List.of(new Publication(scope, publisher, payload)), Duration.ofMinutes(10));
    }

    @Override
    public Map<String, Map<String, byte[]>> exchange(String roomId, List<Publication> publications, Duration retention)
        throws IOException {
      if (failing) {
        throw new IOException("store down");
      }
      Map<String, Map<String, byte[]>> answer = delegate.exchange(roomId, publications, retention);
      if (loseAnswers > 0 && losses.nextDouble() < loseAnswers) {
        throw new IOException("answer lost after the store ran the exchange");
      }
      return answer;
    }
  }

  /**
   * A way to the store on which what a node writes to the global scope (its data center's sums)
   * lands {@code lag} later, at the node's first exchange after that, as a propagation lag between
   * data centers makes it look to the others. Its data center's scope has no lag.
   */
  Transport lagging(Duration lag) {
    return new Transport() {
      private final java.util.ArrayDeque<Map.Entry<Long, Publication>> held = new java.util.ArrayDeque<>();

      @Override
      public Map<String, Map<String, byte[]>> exchange(String roomId, List<Publication> publications, Duration retention)
          throws IOException {
        long now = storeClock.millis();
        List<Publication> out = new ArrayList<>();
        for (Publication p : publications) {
          if (p.scope().equals(io.github.waitingroom.coordinator.Coordinator.GLOBAL_SCOPE) && !p.publisher().isEmpty()) {
            held.addLast(Map.entry(now + lag.toMillis(), p));
          } else {
            out.add(p);
          }
        }
        while (!held.isEmpty() && held.peekFirst().getKey() <= now) {
          out.add(held.pollFirst().getValue());
        }
        // The global scope is read all the same (an empty value under a name no data center has).
        out.add(new Publication(io.github.waitingroom.coordinator.Coordinator.GLOBAL_SCOPE, "", new byte[0]));
        return store.exchange(roomId, out, retention);
      }
    };
  }
}
