package io.github.waitingroom.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.jspecify.annotations.Nullable;

/**
 * Small runs of the simulator: bookkeeping invariants that hold whatever the tuning, the room's
 * limits on small topologies, and that a seed fixes the traffic.
 */
class SpikeSimulatorTest {

  private static Scenario oneNode(long seed) {
    return Scenarios.tiny(seed);
  }

  private static void assertBookkeeping(SimResult r) {
    int admittedFromLine = r.waits.size();
    assertThat(r.admitted).isLessThanOrEqualTo(r.users);
    // Every arrival was either admitted at once or queued.
    assertThat(r.admitted - admittedFromLine + r.queued).isEqualTo(r.users);
    assertThat(admittedFromLine + r.abandoned).isLessThanOrEqualTo(r.queued);
    // Users who keep polling as told keep their place, and admitted users are never turned away.
    // (Hidden tabs, API clients and frozen tabs poll later than told: the room decides whether
    // their place is still valid, and the report counts those it forgot.)
    assertThat(r.kind(ClientKind.PAGE).lostPlace).isZero();
    assertThat(r.kind(ClientKind.LEAVER).lostPlace).isZero();
    assertThat(r.bounced).isZero();
    assertThat(r.queued).isPositive();
    assertThat(admittedFromLine).isPositive();
    assertThat(r.syncs).isPositive();
    // Per client kind: every arrival counted once, and every queued user admitted from the line,
    // gone, or still waiting at the end (one who comes back after silence is not a new arrival).
    int arrivals = 0;
    for (KindStats k : r.byKind) {
      arrivals += k.arrivals;
      assertThat(k.admittedOnArrival + k.queued).as(k.kind.label()).isEqualTo(k.arrivals);
      assertThat(k.admittedFromLine + k.abandoned + k.stillWaiting).as(k.kind.label()).isEqualTo(k.queued);
      assertThat(k.waits.size()).as(k.kind.label()).isEqualTo(k.admittedFromLine);
      if (k.kind != ClientKind.LEAVER) {
        assertThat(k.abandoned).as(k.kind.label()).isZero();
      }
    }
    assertThat(arrivals).isEqualTo(r.users);
    assertThat(java.util.Arrays.stream(r.arrivedPerSecond).sum()).isEqualTo(r.users);
    assertThat(r.walkInsPassing).isLessThanOrEqualTo((int) r.strictInversions);
    assertThat(r.lateFromLine).isLessThanOrEqualTo(admittedFromLine);
  }

  private static void assertLimits(SimResult r) {
    assertThat(r.peakActive).isLessThanOrEqualTo(r.scenario.totalActiveUsers());
    assertThat(r.peakAdmittedPerMinute).isLessThanOrEqualTo(r.scenario.newUsersPerMinute());
  }

  @Test
  void oneNodeStaysWithinItsLimitsAndServesTheLineInOrder() {
    SimResult r = SpikeSimulator.run(oneNode(7));
    assertBookkeeping(r);
    assertLimits(r);
    assertThat(r.utilization).isGreaterThan(0.5);
  }

  /**
   * One run of {@code Scenarios.smoke(11)}, made once for the tests that read it (the longest run of
   * this class): each checks its own invariants on it, as each did before on a run of its own of
   * the same scenario and seed.
   */
  private static @Nullable SimResult smoke11;

  private static synchronized SimResult smoke11() {
    SimResult r = smoke11;
    if (r == null) {
      r = SpikeSimulator.run(Scenarios.smoke(11));
      smoke11 = r;
    }
    return r;
  }

  @Test
  void severalDataCentersWithLagKeepTheBookkeepingStraight() {
    SimResult r = smoke11();
    assertBookkeeping(r);
    assertThat(r.arrivalsByDc[1]).isGreaterThan(r.arrivalsByDc[0]);
    // Four nodes sync (at least) four times per epoch of 1 s, on their own schedules.
    assertThat(r.syncs).isGreaterThan(4L * 4 * 8 * 60 * 9 / 10);
    // Joining takes an exchange or more of its own.
    assertThat(r.storeExchanges).isGreaterThanOrEqualTo(r.syncs);
  }

  @Test
  void severalDataCentersWithLagStayWithinTheLimits() {
    SimResult r = smoke11();
    assertLimits(r);
  }

  // Known gap of issue 8: on 8786976, 1 or 2 FIFO-inverted users on seed 11 in 3 of 40 runs. A
  // holder of a partial second called by place on one node polls the other node of its data
  // center next; that node sees its slot reserved by the peer but did not call it, so it turns it
  // away while a later second gets in elsewhere. Letting it in there (5995cae) went over the limit
  // (LimitsTest.aHolderAnotherNodeCalledIsNotLetInWhereNoTallyHoldsItsSlot); see
  // sections 13 and 15 of the results diary (git history of benchmarks/README.md). Since then the count includes newcomers let in on
  // arrival (walk-ins) while a holder queued on a node that had given out its slots, which the
  // simulator did not count before (smoke seed 42: 2 users so inverted, on the cores before and
  // after 1d63f23).
  @org.junit.jupiter.api.Disabled("known gap: 0 FIFO-inverted users on smoke seed 11 in 37 of 40 runs, 1 or 2 in three")
  @Test
  void severalDataCentersWithLagServeTheLineInOrder() {
    SimResult r = smoke11();
    assertThat(r.invertedUsers).isZero();
  }

  /**
   * The runs that went 41 over a limit of 40 (seeds 71, 144, 154 and 197 of {@code --seeds=1..200
   * --mix=legacy tiny-one-node} on 902fafb): a tally kept a partial second's left slots for its
   * first holders, the next plan's cutoff called those holders by arrival (let in without a slot),
   * and the kept slots went to the next holders as well. The mechanism is pinned in {@code
   * PartialSecondTest}; this replays the whole run.
   */
  @Test
  void theRunsThatWentOneOverTheLimitStayWithinIt() {
    for (long seed : new long[] {71, 197}) {
      SimResult r = SpikeSimulator.run(Scenarios.tiny(seed).withClientMix(ClientMix.LEAVERS_ONLY, "legacy"));
      assertThat(r.peakActive).as("seed " + seed).isLessThanOrEqualTo(r.scenario.totalActiveUsers());
      assertLimits(r);
    }
  }

  @Test
  void theSameSeedGivesTheSameRunBitForBit() {
    // Not only the traffic: every random choice of every node (tie-break bits, draws, sync
    // jitter, publisher names) comes from the seed, so a failing run can be replayed.
    SimResult a = SpikeSimulator.run(Scenarios.smoke(11).truncated(3));
    SimResult b = SpikeSimulator.run(Scenarios.smoke(11).truncated(3));
    assertThat(b.users).isEqualTo(a.users);
    assertThat(b.arrivedPerSecond).containsExactly(a.arrivedPerSecond);
    assertThat(b.fingerprint()).isEqualTo(a.fingerprint());
    SimResult other = SpikeSimulator.run(Scenarios.smoke(12).truncated(3));
    assertThat(other.fingerprint()).isNotEqualTo(a.fingerprint());
  }

  @Test
  void parallelFetchesAndClonedCookiesCountAsTheyShould() {
    Scenario base = Scenarios.smoke(13).truncated(5);
    Scenario hostile = new Scenario(
        "tiny-hostile", "smoke with 3 parallel fetches per page and 20 clones of one waiting cookie",
        base.dataCenters(), base.nodesPerDataCenter(), base.syncInterval(), base.globalLag(), base.dataCenterLag(),
        base.totalActiveUsers(), base.newUsersPerMinute(), base.sessionDuration(), base.refreshInterval(),
        base.waves(), base.dataCenterWeights(), base.browseMean(), base.thinkMin(), base.thinkMax(),
        base.patienceMean(), base.duration(), base.seed(),
        Adversity.NONE.withParallel(3).withClones(20, Duration.ofMinutes(4)));
    SimResult r = SpikeSimulator.run(hostile);
    assertThat(r.cloneSkipped).isFalse();
    assertThat(r.decisions).isGreaterThanOrEqualTo(3L * r.users);
    // The cloned place gets in for a few holders at most (each node may admit it once before
    // the plans show it admitted), never for all 21.
    assertThat(r.clonePlaceAdmitted).isLessThanOrEqualTo(hostile.dataCenters() * hostile.nodesPerDataCenter());
  }

  private static Scenario tinyWith(ClientMix mix, int minutes) {
    return Scenarios.tiny(7).withClientMix(mix, "mix").truncated(minutes);
  }

  @Test
  void aStoreLoadRunTakesItsTopologyFromItsName() {
    Scenario s = Scenarios.named("load1x100");
    assertThat(s.name()).isEqualTo("load1x100");
    assertThat(s.dataCenters()).isEqualTo(1);
    assertThat(s.nodesPerDataCenter()).isEqualTo(100);
    assertThat(Scenarios.named("load1000").nodesPerDataCenter()).isEqualTo(50);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Scenarios.named("load0x5"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("load<D>x<N>");
  }

  @Test
  void everyScenarioHasTheDefaultMixUnlessItSaysOtherwise() {
    ClientMix d = ClientMix.DEFAULT;
    assertThat(d.page() + d.hidden() + d.frozen() + d.api() + d.leaver()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-12));
    for (String name : Scenarios.names()) {
      assertThat(Scenarios.named(name).clientMix()).as(name).isEqualTo(d);
    }
    assertThat(Scenarios.tiny(7).clientMix()).isEqualTo(d);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ClientMix(0.5, 0.2, 0.2, 0.2, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new ClientMix(0, 0, 1, 0, 0).pick(0.999)).isEqualTo(ClientKind.FROZEN);
    assertThat(d.pick(0.0)).isEqualTo(ClientKind.PAGE);
    assertThat(d.pick(0.56)).isEqualTo(ClientKind.HIDDEN);
    assertThat(d.pick(0.95)).isEqualTo(ClientKind.LEAVER);
  }

  @Test
  void eachKindPollsAtItsOwnPaceWhateverTheRoomTellsIt() {
    SimResult r = SpikeSimulator.run(Scenarios.tiny(7).truncated(4));
    assertBookkeeping(r);
    KindStats hidden = r.kind(ClientKind.HIDDEN);
    KindStats api = r.kind(ClientKind.API);
    KindStats page = r.kind(ClientKind.PAGE);
    // Every kind is in the default mix, in about its share.
    for (KindStats k : r.byKind) {
      assertThat(k.arrivals).as(k.kind.label())
          .isBetween((int) (r.users * r.scenario.clientMix().share(k.kind) * 0.7),
              (int) (r.users * r.scenario.clientMix().share(k.kind) * 1.3) + 1);
    }
    // Hidden tabs: once a minute (plus up to half a second of jitter), never sooner.
    assertThat(hidden.polls).isPositive();
    assertThat(hidden.minPollGapMillis).isGreaterThanOrEqualTo(60_000);
    assertThat(hidden.maxPollGapMillis).isLessThanOrEqualTo(60_500);
    // API clients: every 10-60 s, whatever they are told.
    assertThat(api.polls).isPositive();
    assertThat(api.minPollGapMillis).isGreaterThanOrEqualTo(10_000);
    assertThat(api.maxPollGapMillis).isLessThanOrEqualTo(60_000);
    // Pages: as told, at most the room's refresh interval (10 s) apart.
    assertThat(page.polls).isPositive();
    assertThat(page.maxPollGapMillis).isLessThanOrEqualTo(10_500);
  }

  @Test
  void aFrozenTabComesBackWithItsOldCookieAndIsNotANewArrival() {
    ClientMix frozenOnly = new ClientMix(0, 0, 1, 0, 0);
    SimResult r = SpikeSimulator.run(tinyWith(frozenOnly, 8));
    KindStats frozen = r.kind(ClientKind.FROZEN);
    assertThat(frozen.arrivals).isEqualTo(r.users);
    assertThat(frozen.froze).isPositive();
    // Silent for at least a minute, and at most the longest freeze plus one refresh.
    assertThat(frozen.maxPollGapMillis).isGreaterThanOrEqualTo(60_000).isLessThanOrEqualTo(10 * 60_000 + 10_500);
    // It presents its old place cookie, past its Max-Age: the client drops none.
    assertThat(frozen.cookieExpired).isZero();
    // Coming back is a poll of a waiting user, not an arrival: arrivals and queued users are those
    // of the first visits, and every queued user is admitted from the line, gone or still waiting.
    assertThat(java.util.Arrays.stream(r.arrivedPerSecond).sum()).isEqualTo(r.users);
    assertThat(r.admitted - r.waits.size() + r.queued).isEqualTo(r.users);
    assertThat(frozen.admittedFromLine + frozen.abandoned + frozen.stillWaiting).isEqualTo(frozen.queued);
    assertThat(frozen.abandoned).isZero();
    assertThat(r.bounced).isZero();
  }

  @Test
  void leaversAreTheOnlyOnesWhoGiveUp() {
    SimResult r = SpikeSimulator.run(tinyWith(ClientMix.LEAVERS_ONLY, 8));
    assertBookkeeping(r);
    assertThat(r.kind(ClientKind.LEAVER).arrivals).isEqualTo(r.users);
    assertThat(r.abandoned).isPositive();
    SimResult patient = SpikeSimulator.run(tinyWith(new ClientMix(1, 0, 0, 0, 0), 8));
    assertThat(patient.abandoned).isZero();
  }

  // Issue 8, finding 5 (see ConcurrentAdmissionTest in the core for the cause and the fix).
  @Test
  void requestThreadsRacingTheSyncNeverSpendMoreThanTheGrant() throws InterruptedException {
    ThreadRace.Outcome o = ThreadRace.run(60, 20, 8, 100, 24);
    assertThat(o.maxAdmitted()).isLessThanOrEqualTo(20);
    assertThat(o.trialsOver()).isZero();
    assertThat(o.meanAdmitted()).isGreaterThan(0);
  }
}
