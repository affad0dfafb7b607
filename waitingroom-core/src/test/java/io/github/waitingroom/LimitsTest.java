package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import net.jqwik.api.Tag;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Transport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * The room's limits and order under what real traffic and real stores do: nodes in several data
 * centers that see each other late, bursts, bouncing and parallel requests, a flushed store, one
 * that holds garbage or a newer format, skewed clocks and outages. Each case is one that broke
 * the first version (issue "Limits that hold under real traffic").
 */
class LimitsTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  private static RoomConfig config(int total, int perMinute, Duration session) {
    return RoomConfig.builder("limits")
        .totalActiveUsers(total)
        .newUsersPerMinute(perMinute)
        .sessionDuration(session)
        .refreshInterval(Duration.ofSeconds(10))
        .build();
  }

  private static Cluster cluster(RoomConfig config, String... nodes) {
    return cluster(config, null, nodes);
  }

  /** Nodes whose places draw their tie-break bits from {@code tieBreaks} ({@code null}: at random). */
  private static Cluster cluster(
      RoomConfig config, java.util.random.@org.jspecify.annotations.Nullable RandomGenerator tieBreaks, String... nodes) {
    Cluster c = new Cluster(config, KEYS);
    c.random = tieBreaks;
    for (String n : nodes) {
      String[] dcAndId = n.split("/");
      c.add(dcAndId[0], dcAndId[1]);
    }
    return c.warmUp();
  }

  /** Random arrivals (bursts included) into nodes that sync late at random, for a while. */
  private static void run(Crowd crowd, int seconds, double arrivalsPerSecond, double late) {
    Random r = crowd.random;
    for (int s = 0; s < seconds; s++) {
      int burst = r.nextInt(20) == 0 ? (int) (arrivalsPerSecond * 10) : 0;
      int arrivals = burst + (int) Math.floor(arrivalsPerSecond) + (r.nextDouble() < arrivalsPerSecond % 1 ? 1 : 0);
      for (int q = 0; q < 4; q++) {
        if (q == 0) {
          for (int a = 0; a < arrivals; a++) {
            crowd.arrive(-1); // packed into the first quarter of the second
          }
        }
        crowd.act();
        crowd.cluster.step(r, late);
      }
    }
  }

  // A fixed seed: twelve whole multi-node runs per build, the same twelve every time. (For the two
  // cores before silent publishers counted the sessions that moved into them, the seed was
  // 20261202: with 20261130 the ninth run, total 10, variant 1 and seed 33, met the case of
  // aSilentDataCenterCountsTheSessionsThatMovedIntoIt below.)
  @Property(tries = 12, seed = "20261130")
  @Tag("slow")
  void nodesThatSeeEachOtherLateNeverExceedTheLimits(
      @ForAll @IntRange(min = 5, max = 40) int total,
      @ForAll @IntRange(min = 0, max = 2) int variant,
      @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
    Crowd crowd = withinLimits(total, variant, seed);
    assertThat(crowd.aheadGrew).as("'people ahead' grew for a polling visitor").isZero();
    assertThat(crowd.admissions).as("the line moves").hasSizeGreaterThan(total);
  }

  /**
   * Visitors whose every request goes to a random node (no session affinity), so that sessions
   * and called holders keep moving between nodes that see each other late. It went over the limit
   * by 1 to 3 for a few seeds in a hundred, for three causes in turn, each now a test of its own:
   * tallies that counted sessions as of the instant they were taken ({@code TallyWindowTest}), a
   * data center counted silent while sessions moved into it ({@link
   * #aSilentDataCenterCountsTheSessionsThatMovedIntoIt}), and a called holder whose node tallied
   * late ({@link #aCalledHolderWhoseNodeTalliesLateKeepsItsSlot}). With all three fixed, 150 random
   * seeds with totals of 20 to 40 stayed within the limits; the build runs 16 fixed ones.
   */
  @Property(tries = 16, seed = "20261203")
  @Tag("slow")
  void bouncingVisitorsNeverExceedTheLimits(
      @ForAll @IntRange(min = 20, max = 40) int total, @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
    withinLimits(total, 1, seed);
  }

  /**
   * The two properties above on random seeds, for a change to who may be let in: the build runs
   * their fixed seeds only, and those did not catch {@code 5995cae}, which 20 random seeds did
   * (see {@link #aHolderAnotherNodeCalledIsNotLetInWhereNoTallyHoldsItsSlot}). Every third case
   * also loses one answer in 20 ({@link #answersLostAfterTheStoreRanThemNeverExceedTheLimits}). Skipped unless asked
   * for: {@code mvn -pl waitingroom-core test -Dtest='LimitsTest#limitsHoldForRandomSeeds'
   * -Dlimits.randomSeeds=300} (1 to 2 s a seed on 2 cores). A failure names its case, to keep as a test.
   */
  @Test
  void limitsHoldForRandomSeeds() {
    int seeds = Integer.getInteger("limits.randomSeeds", 0);
    assumeTrue(seeds > 0, "run with -Dlimits.randomSeeds=N");
    java.util.SplittableRandom r = new java.util.SplittableRandom();
    for (int i = 0; i < seeds; i++) {
      // Every other case as each property draws it: bouncing visitors (which found 5995cae's
      // failure), then any of the three variants.
      boolean bouncing = i % 2 == 0;
      int total = bouncing ? 20 + r.nextInt(21) : 5 + r.nextInt(36);
      int variant = bouncing ? 1 : r.nextInt(3);
      withinLimits(total, variant, r.nextLong(1_000_001), i % 3 == 2 ? 0.05 : 0);
    }
  }

  /**
   * A case of {@link #bouncingVisitorsNeverExceedTheLimits} that 300 random seeds found on
   * {@code 5995cae} (the 20th of them), which let a holder that another node of its data center
   * called and reserved in on whichever node it polled: the room went 1 over (21 of 20). A node
   * that has not counted such a holder in its line holds no slot for it, and once the node that
   * called it stops counting it no tally does, while the node it polls may still let it in (as the
   * results diary found for the same idea in its sections 11 and 13: git history of
   * benchmarks/README.md). Reverted; this seed stays a test.
   */
  @Test
  void aHolderAnotherNodeCalledIsNotLetInWhereNoTallyHoldsItsSlot() {
    withinLimits(20, 1, 36135);
  }

  /**
   * Finding 8: visitors who bounce between data centers, with nodes that miss syncs at random. One
   * node (ap/e) planned an epoch counting data center eu silent, from eu's sum of three epochs
   * before (3 active), while eu's sum of that very epoch, which node us/d read a second later, said
   * 6: three sessions had moved into eu since. A check-in that moves a session counts it on the
   * node it moves to and takes it off the slice of the node it came from (so that the sums count
   * it once), and while the node it moved to is silent only the taking off shows. The room went 2
   * over (12 of 10). A silent publisher now also counts what the others lost since its last report
   * ({@code SilentDataCenterTest}).
   */
  @Test
  void aSilentDataCenterCountsTheSessionsThatMovedIntoIt() {
    Crowd crowd = lateNodes(10, 1, 33);
    assertThat(crowd.maxActive).as("peak active").isLessThanOrEqualTo(10);
  }

  /**
   * Two visitors of one arrival second, bouncing: the plan called one of them through node c
   * (a partial second), whose tally of the next epoch came a second late, just after the holder's
   * poll there was due, and so reserved nothing, while node a, where the holder had polled since,
   * counted it shared with c. Nobody counted the slot, the next plan called the other holder of
   * that second too, and both got in: 28 of 27 ({@code TallyWindowTest} holds it deterministically).
   */
  @Test
  void aCalledHolderWhoseNodeTalliesLateKeepsItsSlot() {
    Crowd crowd = lateNodes(27, 1, 9609);
    assertThat(crowd.maxActive).as("peak active").isLessThanOrEqualTo(27);
    assertThat(crowd.maxAdmissionsPerMinute).as("admissions in a minute").isLessThanOrEqualTo(27);
  }

  /**
   * Known gap: the plan calls the line in order on every node at once, yet with nodes that miss
   * syncs at random a visitor can still be let in from the line while one who arrived in an
   * earlier second, on another node, is not called there yet (2 visitors with total 9, parallel
   * requests, seed 32266). The issue asks for none; see the closing note.
   */

  @Test
  void nodesThatSeeEachOtherLateKeepTheOrder() {
    Crowd crowd = lateNodes(9, 2, 32266);
    assertThat(crowd.fifoInversions).as("FIFO inversions").isZero();
  }

  /**
   * Finding 9 of the results diary (git history of benchmarks/README.md): with parallel requests,
   * total 15 and seed 729770 the peak
   * was 16 in about 5 runs of 6 (places drew their tie-break bits at random; these are the bits of
   * one such run). Node b of data center eu missed its syncs for two seconds, so that eu's sums of
   * two epochs reached the store only after us and ap had settled the next epoch counting eu
   * silent (free slots: 2, where the room had 1); eu's own plan of the epoch before, made from the
   * sums ap never saw, had handed the other slot out already. A data center whose sums reach
   * the store late now skips the plans the others may have counted it silent for ({@code
   * SilentDataCenterTest.aDataCenterWhoseSumsReachedTheStoreLateDoesNotPlanTheEpochsTheOthersCountedItSilentFor}).
   */
  @Test
  void parallelRequestsOnNodesThatSeeEachOtherLateStayWithinTheLimit() {
    Crowd crowd = lateNodes(15, 2, 729770, new Random(1), 0);
    assertThat(crowd.maxActive).as("peak active").isLessThanOrEqualTo(15);
    assertThat(crowd.maxAdmissionsPerMinute).as("admissions in a minute").isLessThanOrEqualTo(15);
    assertThat(crowd.admissions).as("the line moves").hasSizeGreaterThan(15);
  }

  /** {@link #lateNodes} checked against both limits; a failure names the case. */
  private static Crowd withinLimits(int total, int variant, long seed) {
    return withinLimits(total, variant, seed, 0);
  }

  /** {@link #withinLimits(int, int, long)} with that share of answers lost after the store ran the exchange. */
  private static Crowd withinLimits(int total, int variant, long seed, double lostAnswers) {
    Crowd crowd = lateNodes(total, variant, seed, new java.util.SplittableRandom(seed), lostAnswers);
    String run = "lateNodes(" + total + ", " + variant + ", " + seed + (lostAnswers > 0 ? ", lost " + lostAnswers : "") + ")";
    assertThat(crowd.maxActive).as("peak active, %s", run).isLessThanOrEqualTo(total);
    assertThat(crowd.maxAdmissionsPerMinute).as("admissions in a minute, %s", run).isLessThanOrEqualTo(total);
    return crowd;
  }

  /**
   * The scenario with tie-break bits drawn from {@code seed} too, so that a seed is one whole run,
   * the same in every build (with bits from ThreadLocalRandom a fixed seed still varied: a CI run
   * of {@link #bouncingVisitorsNeverExceedTheLimits} went 1 over with total 21).
   */
  private static Crowd lateNodes(int total, int variant, long seed) {
    return lateNodes(total, variant, seed, new java.util.SplittableRandom(seed), 0);
  }

  /**
   * The scenario with these tie-break bits, losing that share of the store's answers after it ran
   * the exchange (see {@link Cluster.Store#loseAnswers}).
   */
  private static Crowd lateNodes(int total, int variant, long seed,
      java.util.random.@org.jspecify.annotations.Nullable RandomGenerator tieBreaks, double lostAnswers) {
    RoomConfig config = config(total, total, Duration.ofSeconds(60));
    Cluster c = cluster(config, tieBreaks, "eu/a", "eu/b", "eu/c", "us/d", "ap/e");
    c.store.loseAnswers = lostAnswers;
    c.store.losses.setSeed(seed);
    Crowd crowd = new Crowd(c, seed);
    crowd.bouncing = variant == 1;
    crowd.parallel = variant == 2 ? 3 : 1;
    run(crowd, 240, total / 15.0, 0.3);
    return crowd;
  }

  /**
   * A store that runs an exchange but whose answer never reaches the node (a command that timed out
   * after Redis ran it): the node takes it for an outage, while the others read the tallies it
   * published, count it by them and hand out what they leave. Found over Redis, where
   * {@code MultiDataCenterTest} went 201 of 200 active once in about 15 CI runs of a loaded
   * machine, and 101 of 100 a minute with one answer in 20 lost (seed 130723 of {@code
   * theLimitHoldsWithoutAffinityForRandomSeeds}).
   */
  @Property(tries = 12, seed = "20261204")
  @Tag("slow")
  void answersLostAfterTheStoreRanThemNeverExceedTheLimits(
      @ForAll @IntRange(min = 5, max = 40) int total,
      @ForAll @IntRange(min = 0, max = 2) int variant,
      @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
    withinLimits(total, variant, seed, 0.05);
  }

  @Test
  void perMinuteLimitHoldsInEverySlidingWindow() {
    // 500 a minute: 500 admitted in second 9, then 50 a second in seconds 61-69 used to give 900
    // admissions within one 60 s window.
    RoomConfig config = config(2000, 500, Duration.ofMinutes(10));
    Cluster c = cluster(config, "eu/a", "eu/b");
    Crowd crowd = new Crowd(c, 7);
    crowd.browseSeconds = 600;
    c.advance(Duration.ofSeconds(9));
    for (int i = 0; i < 600; i++) {
      crowd.arrive(i % 2);
    }
    for (int s = 10; s < 61; s++) {
      crowd.act();
      c.advance(Duration.ofSeconds(1));
    }
    for (int s = 61; s < 150; s++) {
      for (int i = 0; i < 50; i++) {
        crowd.arrive(i % 2);
      }
      crowd.act();
      c.advance(Duration.ofSeconds(1));
    }
    assertThat(crowd.maxAdmissionsPerMinute).isLessThanOrEqualTo(500);
    assertThat(crowd.admissions.size()).as("a second minute's worth got in").isGreaterThan(900);
  }

  @Test
  void aFlushedStoreNeverAdmitsPastTheLimit() {
    RoomConfig config = config(100, 100, Duration.ofMinutes(10));
    Cluster c = cluster(config, "eu/a", "eu/b", "us/c");
    Crowd crowd = new Crowd(c, 3);
    crowd.browseSeconds = 600;
    for (int i = 0; i < 150; i++) {
      crowd.arrive(i % 3);
      crowd.act();
      c.advance(Duration.ofMillis(250));
    }
    c.advance(Duration.ofSeconds(5));
    assertThat(crowd.admissions).hasSize(100);
    c.store.flush();
    for (int s = 0; s < 30; s++) {
      for (int i = 0; i < 3; i++) {
        crowd.arrive(i);
      }
      crowd.act();
      c.advance(Duration.ofSeconds(1));
    }
    assertThat(crowd.admissions).as("absence is never zero").hasSize(100);
    assertThat(c.activeUsers()).isEqualTo(100);
  }

  @Test
  void garbageOrANewerFormatInTheStoreBlocksNewGrantsInsteadOfCountingAsZero() throws Exception {
    RoomConfig config = config(10, 10, Duration.ofMinutes(10));
    Cluster c = cluster(config, "eu/a", "us/b");
    Crowd crowd = new Crowd(c, 5);
    crowd.browseSeconds = 600;
    for (int i = 0; i < 4; i++) {
      crowd.arrive(i % 2);
    }
    c.advance(Duration.ofSeconds(3));
    c.store.put("dc:eu", "evil\r\nINFO forged line", "{\"v\":99}".getBytes(StandardCharsets.UTF_8));
    c.store.put(Coordinator.GLOBAL_SCOPE, "mars", "not json".getBytes(StandardCharsets.UTF_8));
    c.advance(Duration.ofSeconds(3));
    for (int i = 0; i < 20; i++) {
      crowd.arrive(i % 2);
      c.advance(Duration.ofMillis(500));
    }
    // The grants handed out before the garbage arrived may still be spent; nothing new.
    assertThat(crowd.admissions.size()).isLessThanOrEqualTo(10);
    long blocked = crowd.admissions.size();
    c.advance(Duration.ofSeconds(3));
    assertThat(crowd.admissions.size()).isEqualTo(blocked);
  }

  @Test
  void clockSkewOfFiveSecondsLogsNobodyOutAndMovesNobodyBack() {
    RoomConfig config = config(2, 2, Duration.ofMinutes(1));
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom ahead = c.add("eu", "ahead", Duration.ofSeconds(5), FailurePolicy.FAIL_CLOSED);
    WaitingRoom behind = c.add("eu", "behind", Duration.ofSeconds(-5), FailurePolicy.FAIL_CLOSED);
    c.warmUp();
    Decision in = ahead.decide(null);
    assertThat(in.outcome()).isEqualTo(Decision.Outcome.ADMIT);
    String session = in.ticket();
    ahead.decide(null);
    Decision waiting = ahead.decide(null);
    assertThat(waiting.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    String place = waiting.ticket();
    long lastAhead = waiting.usersAhead();
    boolean admitted = false;
    for (int s = 0; s < 150; s++) {
      c.advance(Duration.ofSeconds(1));
      WaitingRoom node = s % 2 == 0 ? behind : ahead;
      Decision d = node.decide(session);
      assertThat(d.letsThrough()).as("second %d on %s", s, node == ahead ? "ahead" : "behind").isTrue();
      session = d.ticket() != null ? d.ticket() : session;
      Decision w = node.decide(place);
      if (admitted) {
        assertThat(w.outcome()).as("second %d", s).isEqualTo(Decision.Outcome.PASS);
      } else {
        assertThat(w.outcome()).as("second %d", s).isIn(Decision.Outcome.WAIT, Decision.Outcome.ADMIT);
        assertThat(w.usersAhead()).isLessThanOrEqualTo(lastAhead);
        lastAhead = w.usersAhead();
        admitted = w.outcome() == Decision.Outcome.ADMIT;
      }
      place = w.ticket() != null ? w.ticket() : place;
    }
    assertThat(admitted).as("the waiting user got in as the first sessions ran out").isTrue();
  }

  @Test
  void failClosedKeepsServingTheLineWithinTheLimitThroughALongOutage() {
    // Room full when the store fails, 15 minutes of outage, 2 minute sessions.
    RoomConfig config = config(10, 10, Duration.ofMinutes(2));
    Cluster c = cluster(config, "eu/a", "eu/b");
    Crowd crowd = new Crowd(c, 11);
    crowd.browseSeconds = 60;
    for (int i = 0; i < 12; i++) {
      crowd.arrive(i % 2);
    }
    c.advance(Duration.ofSeconds(3));
    c.store.failing = true;
    int admittedBefore = crowd.admissions.size();
    for (int s = 0; s < 15 * 60; s++) {
      if (s % 20 == 0) {
        crowd.arrive(-1);
      }
      crowd.act();
      c.advance(Duration.ofSeconds(1));
    }
    assertThat(crowd.maxActive).isLessThanOrEqualTo(10);
    long lateArrivalsAdmitted =
        crowd.users.stream().filter(u -> u.admittedAt >= 0 && u.arrival >= Cluster.START.getEpochSecond() + 6 * 60).count();
    assertThat(lateArrivalsAdmitted).as("arrivals after minute 6 get in as sessions expire").isPositive();
    assertThat(crowd.admissions.size()).isGreaterThan(admittedBefore + 10);
    // Each node serves its own line while it cannot see the others: order holds on each node.
    assertThat(crowd.fifoInversionsOnOneNode).isZero();
  }

  /**
   * An outage without session affinity: a user admitted on node a makes every request on node b
   * from then on, while b's own user leaves. Node b counts the mover (a node planning alone counts
   * every user who checked in on it, {@code NodeState.checkedInHere}; with 10 s slices it used to
   * net the mover against a's count, unseen during the outage, and took it for gone) and lets
   * nobody of its line in for it. Node a cannot tell a user who moved from one who left: once the mover's last check-in there runs out, a replaces it, as FAIL_CLOSED must
   * (a node cut off from a full room still serves its line as its users leave). That is the bound
   * the class comment of {@code Synchronizer} documents: the room runs over by the users who move
   * and stay away from their first node longer than a session, here by one for the seconds until
   * b's own user's session ends. (Until this test was rewritten it asserted 2, and was disabled as
   * a gap "not understood": the third user was a's replacement, which the bound allows.)
   */
  @Test
  void failClosedWithoutAffinityRunsOverByAtMostTheUsersWhoMoved() {
    RoomConfig config = config(2, 2, Duration.ofMinutes(2));
    Cluster c = cluster(config, new java.util.SplittableRandom(5), "eu/a", "eu/b");
    String mover = java.util.Objects.requireNonNull(c.nodes.get(0).decide(null).ticket());
    c.advance(Duration.ofSeconds(1));
    long leaverLast = c.now();
    assertThat(c.nodes.get(1).decide(null).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    c.advance(Duration.ofSeconds(1));
    // One waits on each node.
    String[] waiting = new String[2];
    for (int n = 0; n < 2; n++) {
      Decision d = c.nodes.get(n).decide(null);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
      waiting[n] = java.util.Objects.requireNonNull(d.ticket());
    }
    c.advance(Duration.ofSeconds(3));
    c.store.failing = true;
    long[] admittedAt = {-1, -1};
    long[] lastRequest = new long[2];
    int maxActive = 0;
    for (int s = 0; s < 400; s++) {
      c.advance(Duration.ofSeconds(1));
      long now = c.now();
      if (s % 5 == 0) {
        Decision d = c.nodes.get(1).decide(mover); // the mover's every request goes to b now
        assertThat(d.letsThrough()).as("the mover's session holds").isTrue();
        mover = d.ticket() != null ? d.ticket() : mover;
      }
      for (int n = 0; n < 2; n++) {
        if (admittedAt[n] < 0 && s % 5 == 0) {
          Decision d = c.nodes.get(n).decide(waiting[n]);
          waiting[n] = d.ticket() != null ? d.ticket() : waiting[n];
          if (d.letsThrough()) {
            admittedAt[n] = now;
          }
        }
        if (admittedAt[n] >= 0) {
          lastRequest[n] = now; // keeps browsing on its node
        }
      }
      int active = 1 + (now - leaverLast <= 120 ? 1 : 0);
      for (int n = 0; n < 2; n++) {
        active += admittedAt[n] >= 0 && now - lastRequest[n] <= 120 ? 1 : 0;
      }
      maxActive = Math.max(maxActive, active);
    }
    assertThat(maxActive).as("peak active: the limit and the one user who moved").isLessThanOrEqualTo(2 + 1);
    assertThat(admittedAt[1]).as("b, which counts the mover, let nobody of its line in").isNegative();
    assertThat(admittedAt[0]).as("a replaced the mover once its check-in there ran out").isPositive();
  }

  @Test
  void failOpenAdmitsNewArrivalsWithinEachNodesShareThroughAnOutage() {
    RoomConfig config = config(10, 10, Duration.ofMinutes(2));
    Cluster c = new Cluster(config, KEYS);
    c.add("eu", "a", Duration.ZERO, FailurePolicy.FAIL_OPEN);
    c.add("eu", "b", Duration.ZERO, FailurePolicy.FAIL_OPEN);
    c.warmUp();
    c.store.failing = true;
    Crowd crowd = new Crowd(c, 13);
    crowd.browseSeconds = 600;
    for (int i = 0; i < 30; i++) {
      crowd.arrive(i % 2);
      c.advance(Duration.ofSeconds(1));
    }
    assertThat(crowd.admissions).as("each node admits up to its share, 10 / 2 nodes").hasSize(10);
  }

  /**
   * A second of failed exchanges (timeouts) is not an outage: a FAIL_OPEN node that planned alone
   * at once took its share of the limits (10 / 3 nodes, rounded up) for new arrivals, with the room
   * full on the other two, and let them in over the limit. It keeps its grant until the others
   * count it silent.
   */
  @Test
  void aSecondOfFailedExchangesDoesNotOpenAFailOpenNode() {
    RoomConfig config = config(10, 10, Duration.ofMinutes(2));
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom a = c.add("eu", "a", Duration.ZERO, FailurePolicy.FAIL_OPEN);
    WaitingRoom b = c.add("eu", "b", Duration.ZERO, FailurePolicy.FAIL_OPEN);
    c.warmUp();
    c.fill(a, b);
    // A node that joins the full room: none of its users is active, and it has no slot.
    boolean[] cut = {false};
    WaitingRoom joined = c.add("eu", "c", FailurePolicy.FAIL_OPEN, (room, publications, retention) -> {
      if (cut[0]) {
        throw new java.io.IOException("timed out");
      }
      return c.store.exchange(room, publications, retention);
    });
    c.advance(Duration.ofSeconds(6));
    cut[0] = true;
    c.advance(Duration.ofSeconds(1));
    cut[0] = false;
    int admitted = 0;
    for (int i = 0; i < 20; i++) {
      admitted += joined.decide(null).letsThrough() ? 1 : 0;
      c.advance(Duration.ofMillis(500));
    }
    assertThat(admitted).as("newcomers let in on the node that joined, with the room full").isZero();
  }

  @Test
  void storeOperationsPerNodeStayFourPerEpochWhateverTheTraffic() {
    RoomConfig config = config(50, 50, Duration.ofMinutes(1));
    Cluster c = new Cluster(config, KEYS);
    java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
    Transport counting =
        (room, pubs, retention) -> {
          calls.incrementAndGet();
          return c.store.exchange(room, pubs, retention);
        };
    WaitingRoom node =
        WaitingRoom.builder(config, KEYS).clock(c.storeClock).transport(counting).backgroundSync(false).build();
    Duration total = Duration.ZERO;
    for (int i = 0; i < 200; i++) {
      Duration d = node.nextSyncDelay();
      total = total.plus(d);
      c.storeClock.advance(d);
      for (int a = 0; a < (i > 100 ? 50 : 0); a++) {
        node.decide(null); // a spike halfway through changes nothing
      }
      node.sync();
    }
    double perEpoch = calls.get() / (total.toMillis() / 1000.0);
    assertThat(perEpoch).as("exchanges per epoch (%d in %s)", calls.get(), total).isBetween(3.5, 4.5);
  }
}
