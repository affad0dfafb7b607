package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.allocation.SlotAllocator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The adaptive limit end to end: four nodes in two data centers on one store, each told how the
 * application answered ({@link WaitingRoom#originAnswered}), synced every quarter epoch over
 * simulated time. The limit in force ({@link RoomStatus#totalActiveUsers()}, and the limit every
 * plan is made under) moves on every node alike, with the same reason, at most once every {@value
 * AdaptiveLimit#DECIDE_EVERY_EPOCHS} epochs, within its bounds: down while the application is
 * slow, a step below the users in use and no further while the room is over it, following them
 * as they leave; up only while people wait for it, near the target no sooner than a refresh
 * interval after the last raise; an operator pins it; a node that joins later takes the limit in
 * force.
 */
class AdaptiveLimitRoomTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  /**
   * 800 ms: a p90 of 851,968 µs (the upper edge of its bucket), over the target of 500 ms. Every
   * request of a window answered alike, so the band of the p90 is that one bucket, {@code p- =
   * p+}, whatever the number of requests (320 a window here: 5 per node per quarter epoch).
   */
  private static final Duration SLOW = Duration.ofMillis(800);
  private static final Duration FAST = Duration.ofMillis(50);
  /** 480 ms: a p90 of 491,520 µs, within the target of 500 ms but within a step of it (491,520 * 1.1 > 500,000). */
  private static final Duration NEAR = Duration.ofMillis(480);

  private static RoomConfig config(int start, AdaptiveLimit limit) {
    return config(start, start, limit);
  }

  private static RoomConfig config(int start, int perMinute, AdaptiveLimit limit) {
    return RoomConfig.builder("adaptive")
        .totalActiveUsers(start)
        .newUsersPerMinute(perMinute)
        .sessionDuration(Duration.ofMinutes(5))
        .refreshInterval(Duration.ofSeconds(20))
        .adaptiveLimit(limit)
        .build();
  }

  /** A cluster whose nodes record the limit of every plan they make, by epoch. */
  private static final class Room {
    final Cluster c;
    /** Each node's plans: the limit each was made under, by epoch. */
    final Map<String, ConcurrentSkipListMap<Long, Integer>> plans = new ConcurrentHashMap<>();
    /** The new users a minute each plan of any node was made under, by the limit it was made under. */
    final Map<Integer, Set<Integer>> perMinuteByLimit = new ConcurrentHashMap<>();
    /** The limit in force after each quarter epoch, with its reason, the same on every node. */
    final List<Integer> history = new ArrayList<>();
    /** The room's active users after each quarter epoch (as node "a" knows them). */
    final List<Long> active = new ArrayList<>();
    /** The room's waiting users after each quarter epoch (as node "a" knows them). */
    final List<Long> waitingUsers = new ArrayList<>();
    /** The sessions of the users {@link #admit} and {@link #second} let in who have not left, first in first. */
    final List<String> inside = new ArrayList<>();
    /** The tickets of the people {@link #second} put in line who are not in yet. */
    final List<String> line = new ArrayList<>();
    /** One of {@link #inside} leaves every so many seconds (0: nobody leaves), at the start of a second. */
    int leaveEvery;
    private long quarters;
    private long seconds;

    Room(RoomConfig config) {
      c = new Cluster(config, KEYS);
      add("eu", "a");
      add("eu", "b");
      add("us", "c");
      add("us", "d");
      c.warmUp();
    }

    WaitingRoom add(String dataCenter, String id) {
      ConcurrentSkipListMap<Long, Integer> mine = new ConcurrentSkipListMap<>();
      plans.put(id, mine);
      c.allocator = e -> {
        mine.put(e.epoch(), e.config().totalActiveUsers());
        perMinuteByLimit.computeIfAbsent(e.config().totalActiveUsers(), l -> ConcurrentHashMap.newKeySet())
            .add(e.config().newUsersPerMinute());
        return SlotAllocator.PLAN.allocate(e);
      };
      return c.add(dataCenter, id);
    }

    /**
     * One quarter epoch in which every node lets {@code perNode} requests through, each answered
     * in {@code latency} (none when {@code null}); then every node must hold the same limit.
     */
    int step(@Nullable Duration latency, int perNode) {
      if (leaveEvery > 0 && quarters % (4L * leaveEvery) == 0 && !inside.isEmpty()) {
        leave(1);
      }
      quarters++;
      if (latency != null) {
        for (WaitingRoom n : c.nodes) {
          for (int i = 0; i < perNode; i++) {
            n.originAnswered(latency.toNanos(), false);
          }
        }
      }
      c.step(null, 0);
      int limit = c.nodes.get(0).status().totalActiveUsers();
      String reason = c.nodes.get(0).status().limitReason();
      assertThat(c.nodes).as("the limit in force at %s", c.storeClock.instant()).allSatisfy(n -> {
        assertThat(n.status().totalActiveUsers()).as(n.nodeId()).isEqualTo(limit);
        assertThat(n.status().limitReason()).as(n.nodeId()).isEqualTo(reason);
      });
      history.add(limit);
      active.add(c.activeUsers());
      waitingUsers.add(c.nodes.get(0).status().waitingUsers());
      return limit;
    }

    /** {@code users} of those let in leave (their sessions end: {@link WaitingRoom#revoke}), on the nodes in turn. */
    void leave(int users) {
      for (int i = 0; i < users; i++) {
        String session = inside.remove(0);
        assertThat(c.nodes.get(i % c.nodes.size()).revoke(session)).as("a live session ended").isTrue();
      }
    }

    /**
     * One second: everyone in {@link #line} polls (on the nodes in turn, a node a second), then a
     * newcomer arrives there if {@code newcomer}, then four quarter epochs of {@link #step}.
     *
     * @return the limit in force at the end of the second
     */
    int second(@Nullable Duration latency, boolean newcomer) {
      WaitingRoom node = c.nodes.get((int) (seconds++ % c.nodes.size()));
      for (int w = 0; w < line.size(); w++) {
        Decision d = node.decide(line.get(w));
        if (d.letsThrough()) {
          inside.add(d.ticket() != null ? d.ticket() : line.get(w));
          line.remove(w--);
        } else if (d.ticket() != null) {
          line.set(w, d.ticket());
        }
      }
      if (newcomer) {
        Decision d = node.decide(null);
        if (d.letsThrough()) {
          inside.add(Objects.requireNonNull(d.ticket()));
        } else {
          line.add(Objects.requireNonNull(d.ticket()));
        }
      }
      int limit = 0;
      for (int q = 0; q < 4; q++) {
        limit = step(latency, 5);
      }
      return limit;
    }

    /**
     * {@code seconds} of {@link #second}, a newcomer each, with answers of {@code latency}; the
     * room never holds more users than the limit in force.
     */
    void crowd(@Nullable Duration latency, int seconds) {
      for (int second = 0; second < seconds; second++) {
        int limit = second(latency, true);
        assertThat(c.activeUsers()).as("active at second %s", second).isLessThanOrEqualTo(limit);
      }
    }

    /** The quarter epochs (indexes of {@link #history}) at which the limit in force changed. */
    List<Integer> changes() {
      List<Integer> at = new ArrayList<>();
      for (int i = 1; i < history.size(); i++) {
        if (!history.get(i).equals(history.get(i - 1))) {
          at.add(i);
        }
      }
      return at;
    }

    /** The limit changed at most once every {@link AdaptiveLimit#DECIDE_EVERY_EPOCHS} epochs. */
    void assertAtMostOneChangeEveryFourEpochs() {
      List<Integer> at = changes();
      for (int i = 1; i < at.size(); i++) {
        assertThat(at.get(i) - at.get(i - 1)).as("quarter epochs between two changes")
            .isGreaterThanOrEqualTo(4 * AdaptiveLimit.DECIDE_EVERY_EPOCHS);
      }
    }

    /** Clears what the steps recorded. */
    void clear() {
      history.clear();
      active.clear();
      waitingUsers.clear();
    }

    /** {@link #step} for {@code seconds}. */
    void run(@Nullable Duration latency, int seconds) {
      for (int i = 0; i < 4 * seconds; i++) {
        step(latency, 5);
      }
    }

    /** The limits in force one after another (each once). */
    List<Integer> limits() {
      List<Integer> distinct = new ArrayList<>();
      for (int l : history) {
        if (distinct.isEmpty() || distinct.get(distinct.size() - 1) != l) {
          distinct.add(l);
        }
      }
      return distinct;
    }

    /** Every node that planned an epoch planned it under the same limit; the limits by epoch. */
    TreeMap<Long, Integer> planLimits() {
      TreeMap<Long, Integer> byEpoch = new TreeMap<>();
      plans.forEach((node, mine) -> mine.forEach((epoch, limit) -> {
        Integer other = byEpoch.putIfAbsent(epoch, limit);
        assertThat(other == null || other.equals(limit)).as("node %s planned epoch %s under %s, another under %s",
            node, epoch, limit, other).isTrue();
      }));
      return byEpoch;
    }

    /**
     * {@link #admit}s {@code count}, lets three seconds pass with nothing measured (the room's
     * count settles: all {@code count} active), and clears what the steps recorded.
     */
    void admitAndSettle(int count) {
      admit(count);
      c.advance(Duration.ofSeconds(3));
      assertThat(c.activeUsers()).isEqualTo(count);
      clear();
    }

    /** Newcomers on the nodes in turn, every half second, who keep polling until {@code count} are in. */
    void admit(int count) {
      int active = 0;
      List<String> waiting = new ArrayList<>();
      for (int i = 0; active < count; i++) {
        assertThat(i).as("half seconds to admit %s", count).isLessThan(400);
        WaitingRoom node = c.nodes.get(i % c.nodes.size());
        for (int w = 0; w < waiting.size() && active < count; w++) {
          Decision d = node.decide(waiting.get(w));
          if (d.letsThrough()) {
            active++;
            inside.add(d.ticket() != null ? d.ticket() : waiting.get(w));
            waiting.remove(w--);
          } else if (d.ticket() != null) {
            waiting.set(w, d.ticket());
          }
        }
        if (active < count) {
          Decision d = node.decide(null);
          if (d.letsThrough()) {
            active++;
            inside.add(Objects.requireNonNull(d.ticket()));
          } else {
            waiting.add(d.ticket());
          }
        }
        step(null, 0);
        step(null, 0);
      }
    }
  }

  /**
   * Rule 2 stops at what a closed loop serves within the target, not below: the demo's slow shop
   * in numbers. 150 users who click a second after each page, on a shop that answers 80 pages a
   * second: at full speed each page takes 150 / 80 - 1 = 0.875 s, and within 300 ms the shop
   * serves 80 x (1 + 0.3) = 104 users. From 200 the limit falls a step below the 150 in use (135:
   * rule 5), and then, the room over it, by Little's law to the users in use less those whose
   * pages queue beyond the target: 80 a second x (851,968 µs, the lower edge of 875 ms's bucket,
   * - 300 ms) = 44.2, so 150 - 44.2 = 105.8: a step a decision (121, 108), then 105, and there it
   * holds while the 150 stay (nobody is sent away).
   */
  @Test
  void overItsLimitTheRoomComesDownToWhatAClosedLoopServesWithinTheTargetAndNoFurther() {
    Room r = new Room(config(200, AdaptiveLimit.between(10, 400, Duration.ofMillis(300))));
    r.admitAndSettle(150);
    r.run(Duration.ofMillis(875), 60);
    assertThat(r.limits()).containsExactly(200, 135, 121, 108, 105);
    assertThat(r.active).as("nobody is sent away").containsOnly(150L);
    assertThat(r.c.nodes).allSatisfy(n -> assertThat(n.status().limitReason()).isEqualTo("lowered: 150 active over"
        + " the limit, 80 requests a second answered in 852 ms on average, 44 of them queued beyond the target 300 ms"));
    r.assertAtMostOneChangeEveryFourEpochs();
    r.planLimits();
  }

  /**
   * Answers of 800 ms against a target of 500 ms on every node, 30 users active: from its start
   * of 40 the limit falls to a tenth below the users in use (30 * 0.9 = 27); then the room is over
   * it (it admits nobody, and sends nobody away: 30 stay active), and Little's law counts the
   * requests queued beyond the target: 80 a second answered in 786 ms on average (the lower edge
   * of their bucket), 23 of them, so the 30 users less 23 lie below the limit and it falls a step a
   * decision (rule 2), one decision every four epochs at most, while one user leaves every two
   * seconds, to its min of 10 and no lower; every node has the same limit and reason in force after
   * every sync and plans every epoch under the same limit. (The origin here answers 80 requests a
   * second however many users are active; one whose queue is made of the users' requests is the
   * test above's, and {@code AdaptiveSimulator}'s.)
   */
  @Test
  void slowAnswersLowerTheLimitOnEveryNodeAlikeDownToMin() {
    Room r = new Room(config(40, AdaptiveLimit.between(10, 60, Duration.ofMillis(500))));
    r.admitAndSettle(30);
    r.run(SLOW, 30);
    // The first decision over the limit measured 40 requests a second (half its epochs came before
    // the slow answers): 11 queued, 30 - 11 = 18.6, below 27 and 24 all the same.
    assertThat(r.limits()).as("30 active, then over the limit: a step a decision")
        .containsExactly(40, 27, 24, 21, 18, 16, 14, 12);
    assertThat(r.active).as("nobody is sent away").containsOnly(30L);
    r.leaveEvery = 2;
    r.run(SLOW, 80);
    assertThat(r.limits()).containsExactly(40, 27, 24, 21, 18, 16, 14, 12, 10);
    List<Integer> at = r.changes();
    for (int i : at.subList(1, at.size())) {
      assertThat(r.active.get(i - 1)).as("over the limit when it fell to %s", r.history.get(i))
          .isGreaterThan(r.history.get(i - 1));
    }
    assertThat(r.c.nodes).allSatisfy(n -> {
      assertThat(n.status().limitReason()).matches("lowered: 2[0-9] active over the limit, 80 requests a second answered"
          + " in 786 ms on average, 23 of them queued beyond the target 500 ms");
      assertThat(n.status().settings().totalActiveUsers()).as("the document is unchanged").isEqualTo(40);
      assertThat(n.settings().adaptiveLimit()).isNotNull();
    });
    r.assertAtMostOneChangeEveryFourEpochs();
    TreeMap<Long, Integer> plans = r.planLimits();
    assertThat(plans.values()).allSatisfy(l -> assertThat(l).isBetween(10, 40));
    assertThat(plans.lastEntry().getValue()).isEqualTo(10);
    assertThat(new ArrayList<>(plans.values())).as("plans by epoch").isSortedAccordingTo((x, y) -> y - x);
    assertThat(r.inside).isEmpty();
    assertThat(r.c.activeUsers()).as("everyone left, nobody was sent away before").isZero();
  }

  /**
   * Every data center's measurements count: only the nodes of "us" let requests through (the
   * room's decider is a node of "eu"), and the limit falls all the same.
   */
  @Test
  void theDeciderGoesByWhatEveryDataCenterMeasured() {
    Room r = new Room(config(40, AdaptiveLimit.between(10, 60, Duration.ofMillis(500))));
    for (int i = 0; i < 4 * 20; i++) {
      for (WaitingRoom n : r.c.nodes) {
        if (n.dataCenter().equals("us")) {
          n.originAnswered(SLOW.toNanos(), false);
        }
      }
      r.step(null, 0);
    }
    assertThat(r.limits()).as("nobody active: down to min at once").containsExactly(40, 10);
    r.planLimits();
  }

  /**
   * Answers of 50 ms, and a newcomer every second, so that a line forms and people wait for the
   * limit: it rises a tenth at a time (20, 22, 25, 28, then 30 for 30.8), every four epochs at
   * most, only while people wait, to its max of 30 and no higher, and the room never holds more
   * users than the limit in force.
   */
  @Test
  void fastAnswersRaiseALimitThatHoldsPeopleBackUpToMax() {
    Room r = new Room(config(20, AdaptiveLimit.between(10, 30, Duration.ofMillis(500))));
    r.crowd(FAST, 240);
    assertThat(r.limits()).containsExactly(20, 22, 25, 28, 30);
    assertThat(r.inside).hasSize(30);
    assertThat(r.line).as("people waiting").hasSizeGreaterThan(150);
    for (int i : r.changes()) {
      assertThat(r.waitingUsers.subList(i - 4 * AdaptiveLimit.DECIDE_EVERY_EPOCHS, i))
          .as("people waiting before the raise to %s", r.history.get(i)).allSatisfy(w -> assertThat(w).isPositive());
    }
    r.assertAtMostOneChangeEveryFourEpochs();
    assertThat(r.c.nodes).allSatisfy(n -> assertThat(n.status().limitReason())
        .isEqualTo("raised: p90 53.2-53.2 ms within the target 500 ms, people waiting"));
    assertThat(r.planLimits().values()).allSatisfy(l -> assertThat(l).isBetween(20, 30));
  }

  /**
   * Answers of 50 ms, but nobody waits for the limit: first nobody waits at all (15 users active
   * of 20), then a newcomer every second while the room admits at most 5 new users a minute, so
   * that a line forms that the per-minute limit keeps, not the limit of active users. Either way
   * a higher limit would let nobody more in: it holds, and no decision is published.
   */
  @Test
  void fastAnswersHoldALimitThatHoldsNobodyBack() {
    Room r = new Room(config(20, AdaptiveLimit.between(10, 30, Duration.ofMillis(500))));
    r.admit(15);
    r.clear();
    r.run(FAST, 60);
    assertThat(r.limits()).as("nobody waiting").containsExactly(20);
    assertThat(r.waitingUsers).containsOnly(0L);

    Room perMinute = new Room(config(20, 5, AdaptiveLimit.between(10, 30, Duration.ofMillis(500))));
    // A minute of arrivals unmeasured, so that the room has admitted its 5 of the last minute.
    for (int second = 0; second < 60; second++) {
      perMinute.second(null, true);
    }
    perMinute.clear();
    for (int second = 0; second < 120; second++) {
      perMinute.second(FAST, true);
    }
    assertThat(perMinute.limits()).as("the per-minute limit keeps them waiting").containsExactly(20);
    assertThat(perMinute.line).as("people waiting").hasSizeGreaterThan(100);
    assertThat(perMinute.waitingUsers).as("people waiting all along").allSatisfy(w -> assertThat(w).isPositive());
    assertThat(perMinute.c.activeUsers()).as("fewer active than the limit").isLessThan(20);
    assertThat(perMinute.c.nodes).allSatisfy(n -> assertThat(n.status().limitReason()).isEmpty());
  }

  /**
   * People wait for a full room while the application answers in 50 ms in one epoch and 800 ms in
   * the next, by turns: the p90 of all the requests is 852 ms, over the target of 500 ms, but the
   * epochs' p90s disagree so much that four epochs cannot tell (two standard errors of the
   * batches reach below the target, where the binomial band alone would have lowered the limit at
   * the first decision). The room keeps measuring while the limit holds people back, the error
   * shrinks with every epoch, and once enough epochs tell (sixteen or more, as the spread of 50 and
   * 800 ms goes), the limit falls, by the gradient.
   */
  @Test
  void latenciesThatSwingFromEpochToEpochHoldTheLimitUntilEnoughEpochsTell() {
    Room r = new Room(config(20, AdaptiveLimit.between(10, 30, Duration.ofMillis(500))));
    r.admit(20);
    for (int second = 0; second < 20; second++) {
      r.second(null, true);
    }
    r.clear();
    int first = -1;
    for (int second = 0; second < 60 && first < 0; second++) {
      r.second((r.c.storeClock.millis() / 1000) % 2 == 0 ? SLOW : FAST, true);
      first = r.limits().size() > 1 ? second : -1;
    }
    assertThat(r.waitingUsers).as("people waiting all along").allSatisfy(w -> assertThat(w).isPositive());
    assertThat(first).as("the second the limit moved").isBetween(16, 40);
    // p- is the p90 (852 ms) two standard errors down, 550 ms: 20 * 500 / 550 = 18.2, rounded down.
    assertThat(r.limits()).as("lowered by the gradient").containsExactly(20, 18);
    assertThat(r.c.nodes.get(0).status().limitReason()).isEqualTo("lowered: p90 550-1154 ms over the target 500 ms");
  }

  /**
   * The same line, kept by the per-minute limit of 5, but with {@code scaleNewUsersPerMinute}: the
   * per-minute limit rises with the limit (5 of 20 is a quarter of it), so a higher limit lets more
   * in, fast answers raise it a tenth at a time to its max, and every plan of every node is made
   * under a quarter of its limit a minute, rounded half up.
   */
  @Test
  void scaledNewUsersAMinuteRiseWithTheLimit() {
    Room r = new Room(config(20, 5, AdaptiveLimit.between(10, 30, Duration.ofMillis(500)).withScaleNewUsersPerMinute(true)));
    for (int second = 0; second < 60; second++) {
      r.second(null, true);
    }
    r.clear();
    r.crowd(FAST, 120);
    assertThat(r.limits()).containsExactly(20, 22, 25, 28, 30);
    assertThat(r.line).as("people waiting").hasSizeGreaterThan(50);
    r.planLimits();
    assertThat(r.c.nodes).as("the status shows the one in force")
        .allSatisfy(n -> assertThat(n.status().newUsersPerMinute()).isEqualTo(8));
    assertThat(r.perMinuteByLimit).containsOnly(entry(20, Set.of(5)), entry(22, Set.of(6)), entry(25, Set.of(6)),
        entry(28, Set.of(7)), entry(30, Set.of(8)));
  }

  /**
   * Sessions of 30 seconds, and settings that ask for 30 new users a minute, more than the limit
   * of 20, which cuts them to itself: the room admits 20 a minute, which leave after 30 seconds,
   * so the per-minute limit is what keeps the line waiting (a minute's 20 admitted, whether 20 or
   * none of them active). But it is the limit's own and rises with it, so a higher limit lets more
   * in: fast answers raise it, up to max (30), where the settings' 30 a minute are in force.
   */
  @Test
  void aLimitThatCutsTheNewUsersAMinuteToItselfHoldsPeopleBack() {
    Room r = new Room(RoomConfig.builder("adaptive")
        .totalActiveUsers(20)
        .newUsersPerMinute(30)
        .sessionDuration(Duration.ofSeconds(30))
        .refreshInterval(Duration.ofSeconds(20))
        .adaptiveLimit(AdaptiveLimit.between(10, 30, Duration.ofMillis(500)))
        .build());
    // A minute and a half unmeasured: the room admitted its 20 of the minute, and they left.
    for (int second = 0; second < 90; second++) {
      r.second(null, true);
    }
    r.clear();
    r.crowd(FAST, 120);
    assertThat(r.limits()).containsExactly(20, 22, 25, 28, 30);
    assertThat(r.line).as("people waiting").hasSizeGreaterThan(100);
    r.assertAtMostOneChangeEveryFourEpochs();
    assertThat(r.planLimits().values()).allSatisfy(l -> assertThat(l).isBetween(20, 30));
  }

  /**
   * Answers of 480 ms against a target of 500 ms, a p90 within the target but within a step of
   * it, and people waiting: every raise is a small one (the gradient, 20 * 500 / 491.52 = 20.3,
   * rounded up to 21), and the next waits until the last has had a refresh interval (20 s) to
   * show, instead of coming four epochs later as far from the target (or as here without that
   * wait: 20 to 30 in 40 s).
   */
  @Test
  void nearTheTargetARaiseWaitsARefreshIntervalForTheLastToShow() {
    Room r = new Room(config(20, AdaptiveLimit.between(10, 30, Duration.ofMillis(500))));
    r.crowd(NEAR, 150);
    assertThat(r.limits()).as("a user a raise, every 24 epochs (20 s, then the next decision)")
        .containsExactly(20, 21, 22, 23, 24);
    List<Integer> at = r.changes();
    for (int i = 1; i < at.size(); i++) {
      assertThat(at.get(i) - at.get(i - 1)).as("quarter epochs between two raises").isGreaterThanOrEqualTo(4 * 20);
    }
    assertThat(r.c.nodes).allSatisfy(n -> assertThat(n.status().limitReason())
        .isEqualTo("raised: p90 492-492 ms within the target 500 ms, people waiting"));
    r.planLimits();
  }

  /**
   * An operator who publishes settings without an adaptive limit pins the limit at their
   * totalActiveUsers on every node at the instant they take effect, with no reason shown; the
   * room's slow answers then move it no more, though users keep leaving.
   */
  @Test
  void anOperatorPinsTheLimitWithSettingsWithoutAnAdaptiveLimit() {
    Room r = new Room(config(40, AdaptiveLimit.between(10, 60, Duration.ofMillis(500))));
    r.admit(30);
    r.clear();
    r.leaveEvery = 2;
    while (r.limits().size() < 3) {
      assertThat(r.history.size()).as("quarter epochs until two decisions").isLessThan(4 * 40);
      r.step(SLOW, 5);
    }
    // 29 in use * 0.9, then over the limit: a step (Little's law leaves fewer: rule 2).
    assertThat(r.limits()).containsExactly(40, 26, 23);
    WaitingRoom operator = r.c.nodes.get(2);
    Instant from = operator.updateSettings(RoomSettings.fromJson(
        "{\"adaptiveLimit\": null, \"totalActiveUsers\": 35, \"newUsersPerMinute\": 35}", operator.latestSettings()));
    while (r.c.storeClock.instant().plus(Cluster.STEP).isBefore(from)) {
      assertThat(r.step(SLOW, 5)).as("before the settings take effect").isLessThanOrEqualTo(23);
    }
    r.step(SLOW, 5);
    // The first sync at or after their instant: pinned on every node.
    assertThat(r.history.get(r.history.size() - 1)).isEqualTo(35);
    assertThat(r.c.nodes).allSatisfy(n -> {
      assertThat(n.status().totalActiveUsers()).isEqualTo(35);
      assertThat(n.status().limitReason()).isEmpty();
      assertThat(n.status().settingsVersion()).isEqualTo(1);
      assertThat(n.settings().adaptiveLimit()).isNull();
    });
    // Every plan made from now on is of an epoch that ends after the instant: pinned too.
    long planned = r.planLimits().lastKey();
    long before = r.c.activeUsers();
    r.run(SLOW, 40);
    assertThat(r.c.activeUsers()).as("users left meanwhile").isLessThan(before);
    assertThat(r.history.subList(r.history.size() - 160, r.history.size())).containsOnly(35);
    TreeMap<Long, Integer> plans = r.planLimits();
    assertThat(plans.tailMap(planned, false)).as("plans of the epochs after").hasSizeGreaterThan(30);
    assertThat(plans.tailMap(planned, false).values()).as("plans of the epochs after").containsOnly(35);
  }

  /**
   * A node that joins once the limit has moved plans under the limit in force, which it reads
   * from the store, and shows it with its reason.
   */
  @Test
  void aNodeThatJoinsLaterTakesTheLimitInForceFromTheStore() {
    Room r = new Room(config(40, AdaptiveLimit.between(10, 60, Duration.ofMillis(500))));
    r.admit(30);
    r.clear();
    r.leaveEvery = 2;
    while (r.limits().size() < 4) {
      assertThat(r.history.size()).as("quarter epochs until three decisions").isLessThan(4 * 60);
      r.step(SLOW, 5);
    }
    // Nothing measured and nobody leaving from now on: the limit holds (after the decision under way, if any).
    r.leaveEvery = 0;
    r.run(null, 10);
    int inForce = r.history.get(r.history.size() - 1);
    assertThat(inForce).isBetween(17, 20);
    WaitingRoom late = r.add("us", "late");
    r.c.warmUp();
    r.run(null, 10);
    assertThat(late.status().totalActiveUsers()).isEqualTo(inForce);
    assertThat(late.status().limitReason()).startsWith("lowered: ")
        .isEqualTo(r.c.nodes.get(0).status().limitReason());
    assertThat(Objects.requireNonNull(r.plans.get("late"))).isNotEmpty();
    assertThat(Objects.requireNonNull(r.plans.get("late")).values()).containsOnly(inForce);
    r.planLimits();
  }

  /**
   * Settings with an adaptive limit published while the limit moves start from their own
   * totalActiveUsers when they take effect, on every node, and the next decision is theirs, from
   * the users in use, whatever decision of the settings before was under way when they were
   * published or made before they took effect. The users leave one a second until then, so that
   * the limit falls at every decision; the new settings lower by a fifth (step 0.2), so that
   * their decision (a fifth below the users in use) tells from one of the settings before (a
   * tenth below). Published at each quarter of the four epochs between two decisions, so that at
   * some a decision is under way, at others one comes before they take effect.
   */
  @Test
  void settingsWithAnAdaptiveLimitStartFromTheirOwnTotalActiveUsers() {
    for (int quarter = 0; quarter < 4 * AdaptiveLimit.DECIDE_EVERY_EPOCHS; quarter++) {
      Room r = new Room(config(40, AdaptiveLimit.between(10, 60, Duration.ofMillis(500))));
      r.admit(30);
      r.clear();
      r.leaveEvery = 1;
      while (r.limits().size() < 3) {
        assertThat(r.history.size()).as("quarter epochs until two decisions").isLessThan(4 * 40);
        r.step(SLOW, 5);
      }
      for (int q = 0; q < quarter; q++) {
        r.step(SLOW, 5);
      }
      WaitingRoom operator = r.c.nodes.get(quarter % 4);
      Instant from = operator.updateSettings(RoomSettings.fromJson(
          "{\"totalActiveUsers\": 50, \"newUsersPerMinute\": 40, \"adaptiveLimit\": {\"max\": 80, \"step\": 0.2}}",
          operator.latestSettings()));
      r.leaveEvery = 0;
      int inUse = r.inside.size();
      while (r.c.storeClock.instant().isBefore(from)) {
        r.step(SLOW, 5);
      }
      int atOnce = r.history.get(r.history.size() - 1);
      r.clear();
      r.run(SLOW, 10);
      assertThat(atOnce).as("published %s quarter epochs after the second decision, in force at once", quarter)
          .isEqualTo(50);
      assertThat(r.limits().get(0)).as("published %s quarter epochs after the second decision", quarter).isEqualTo(50);
      assertThat(r.limits()).as("published %s quarter epochs after the second decision, %s in use, then", quarter, inUse)
          .startsWith(50, inUse * 8 / 10);
      r.planLimits();
    }
  }

  /** Plans made while some nodes miss syncs still agree, epoch by epoch, on the limit; users leave one every two seconds. */
  @Test
  void nodesThatMissSyncsPlanEveryEpochUnderTheSameLimit() {
    Room r = new Room(config(40, AdaptiveLimit.between(10, 60, Duration.ofMillis(500))));
    r.admit(30);
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 4 * 80; i++) {
      if (i % 8 == 0 && !r.inside.isEmpty()) {
        r.leave(1);
      }
      for (WaitingRoom n : r.c.nodes) {
        for (int k = 0; k < 5; k++) {
          n.originAnswered(SLOW.toNanos(), false);
        }
      }
      r.c.step(random, 0.2);
      assertThat(r.c.nodes).allSatisfy(n -> assertThat(n.status().totalActiveUsers()).isBetween(10, 40));
    }
    TreeMap<Long, Integer> plans = r.planLimits();
    assertThat(plans.values()).allSatisfy(l -> assertThat(l).isBetween(10, 40));
    assertThat(new ArrayList<>(plans.values())).as("plans by epoch").isSortedAccordingTo((x, y) -> y - x);
    assertThat(new java.util.HashSet<>(plans.values())).as("limits planned under").hasSizeGreaterThan(3);
    assertThat(plans.lastEntry().getValue()).as("down to min").isEqualTo(10);
    assertThat(r.c.nodes).allSatisfy(n -> assertThat(n.status().totalActiveUsers()).isEqualTo(10));
  }
}
