package io.github.waitingroom.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The plan is a pure function: its grants never exceed the free slots and follow the line. */
class PlanProperties {
  /** A full room whose per-minute limit is spent and one user leaves a second: one admission a second. */
  private static final Pace ONE_A_SECOND = new Pace(0, 0, 60, 600, Pace.evenly(), 0, new Pace.Leaving(0, 0, 1.0));

  private static RoomConfig config(int total, int perMinute) {
    return RoomConfig.builder("plan").totalActiveUsers(total).newUsersPerMinute(perMinute)
        .sessionDuration(Duration.ofMinutes(5)).build();
  }

  @Provide
  Arbitrary<Tally> tallies() {
    Arbitrary<Long> small = Arbitraries.longs().between(0, 30);
    Arbitrary<Map<Long, Long>> line = Arbitraries.maps(Arbitraries.longs().between(1000, 1010), Arbitraries.longs().between(1, 20)).ofMaxSize(5);
    return Combinators.combine(small, small, small, line)
        .as((active, outstanding, arrivals, l) ->
            new Tally(active, outstanding, active, arrivals, new TreeMap<>(l), new long[0]));
  }

  /**
   * The slots of every node of every data center, each computed on its own, let the room admit at
   * most what the limits leave: after its tally a node admits at most the larger of its new slots
   * and what it held (it may spend what it held before the plan takes over, and the plan takes
   * that off its new slots), and those come to at most what the limits leave, or to what the nodes
   * held if that was more (the limits were lowered: nobody gets more). Everyone at or below the cutoff second fits.
   */
  @Property(tries = 500)
  void slotsOfAllNodesNeverExceedWhatTheLimitsLeave(
      @ForAll @Size(min = 1, max = 3) List<@Size(min = 1, max = 4) List<@net.jqwik.api.From("tallies") Tally>> dcs,
      @ForAll @IntRange(min = 1, max = 200) int total,
      @ForAll @IntRange(min = 1, max = 200) int perMinuteRaw,
      @ForAll @IntRange(min = 0, max = 100) int epoch) {
    RoomConfig config = config(total, Math.min(total, perMinuteRaw));
    List<Tally> sums = new ArrayList<>();
    for (List<Tally> nodes : dcs) {
      sums.add(Tally.sum(nodes));
    }
    Tally room = Tally.sum(sums);
    long admittable = 0;
    long held = 0;
    long cutoff = Long.MIN_VALUE;
    for (int d = 0; d < dcs.size(); d++) {
      for (int n = 0; n < dcs.get(d).size(); n++) {
        Plan p = Plan.compute(config, epoch, sums, d, dcs.get(d), n);
        Tally me = dcs.get(d).get(n);
        admittable += Math.max(p.slots(), me.outstanding());
        held += me.outstanding();
        cutoff = p.cutoffSecond();
      }
    }
    long leave = Math.max(0, Math.min(total - room.activeUsers(), config.newUsersPerMinute() - room.recentAdmissions()));
    assertThat(admittable).isLessThanOrEqualTo(Math.max(leave, held));
    if (cutoff != Long.MIN_VALUE) {
      assertThat(room.distinct().line().headMap(cutoff, true).values().stream().mapToLong(Long::longValue).sum())
          .as("everyone at or below the cutoff fits").isLessThanOrEqualTo(leave);
    }
  }

  /**
   * The line is served oldest first: the cutoff covers every holder of the seconds that fit, and
   * of the first second that does not, the share of places the slots left cover; the slots go to
   * the data centers by their holders at or below it; newcomers only once the whole line fits.
   */
  @Test
  void theLineIsServedOldestFirstAndNewcomersOnlyWhenItFits() {
    RoomConfig config = config(10, 10);
    Tally a = new Tally(4, 0, 0, 1, new TreeMap<>(Map.of(100L, 2L, 102L, 3L)), new long[0]);
    Tally b = new Tally(0, 0, 0, 1, new TreeMap<>(Map.of(101L, 2L)), new long[0]);
    Plan pa = Plan.compute(config, 1, List.of(a, b), 0, List.of(a), 0);
    Plan pb = Plan.compute(config, 1, List.of(a, b), 1, List.of(b), 0);
    assertThat(pa.freeSlots()).isEqualTo(6);
    assertThat(pa.cutoffSecond()).isEqualTo(101);
    assertThat(pa.partialSecond()).isEqualTo(102);
    assertThat(pa.lineServed()).isFalse();
    // Two of the three holders of second 102: places whose tie-break bits lie below 2/3 of their range.
    assertThat(pa.cutPlace()).isEqualTo(pb.cutPlace()).isEqualTo((102L << 32) + (2L << 32) / 3 - 1);
    // Weights: a holds 2 below the cut and 2/3 of 3 in it (4), b holds 2: 4 and 2 of the 6 slots.
    assertThat(pa.slots()).isEqualTo(4);
    assertThat(pb.slots()).isEqualTo(2);
    assertThat(pa.usersAhead(102)).isEqualTo(4);
    assertThat(pa.usersAhead(101)).isEqualTo(2);

    Tally empty = new Tally(4, 0, 0, 1, new TreeMap<>(), new long[0]);
    Plan open = Plan.compute(config, 1, List.of(empty), 0, List.of(empty), 0);
    assertThat(open.slots()).isEqualTo(6);
    assertThat(open.cutPlace()).isEqualTo(Long.MAX_VALUE);
    assertThat(open.withoutNewArrivals().cutPlace()).as("closed to newcomers, with nobody in line").isEqualTo(Long.MIN_VALUE);
  }

  /**
   * Within the second it splits, the cutoff moves on from the one in force: the holders still
   * waiting at or below it come first, and the slots left beyond them cover a share of the range
   * above it, over the holders there. Cut from the start of the second again, it stood still while slots waited whenever
   * by chance fewer holders than slots lay below it (a node of a small room: 3 points of use).
   */
  @Test
  void withinTheSecondItSplitsTheCutoffMovesOnFromTheOneInForce() {
    RoomConfig config = config(10, 10);
    long second = 1_800_000_000L;
    long inForce = (second << 32) + (1L << 31) - 1; // the lower half of the second was covered
    Tally fresh = new Tally(9, 0, 0, 1, new TreeMap<>(Map.of(second, 4L)), new long[0]);
    Tally moved = new Tally(9, 0, 0, 1, new TreeMap<>(Map.of(second, 4L)), new long[0], new long[0],
        new TreeMap<>(), false, new long[0], 1, Tally.Browsing.NONE, new Tally.Cut(inForce, 0));
    Plan fromStart = Plan.compute(config, 1, List.of(fresh), 0, List.of(fresh), 0);
    Plan onwards = Plan.compute(config, 1, List.of(moved), 0, List.of(moved), 0);
    assertThat(fromStart.cutPlace()).as("one slot, four holders: a quarter of the second").isEqualTo((second << 32) + (1L << 30) - 1);
    assertThat(onwards.cutPlace()).as("a quarter of the upper half, above the cutoff in force")
        .isEqualTo(inForce + (1L << 29));
    Tally earlier = new Tally(9, 0, 0, 1, new TreeMap<>(Map.of(second, 4L)), new long[0], new long[0], new TreeMap<>(), false, new long[0], 1, Tally.Browsing.NONE,
        new Tally.Cut(((second - 1) << 32) | 0xFFFF_FFFFL, 0));
    assertThat(Plan.compute(config, 1, List.of(earlier), 0, List.of(earlier), 0).cutPlace())
        .as("a cutoff in force in another second: from the start").isEqualTo(fromStart.cutPlace());
    // One holder still waits at or below the cutoff in force (a hidden tab, say): the one slot is
    // its, and the cutoff stays.
    Tally waits = new Tally(9, 0, 0, 1, new TreeMap<>(Map.of(second, 4L)), new long[0], new long[0],
        new TreeMap<>(), false, new long[0], 1, Tally.Browsing.NONE, new Tally.Cut(inForce, 1));
    assertThat(Plan.compute(config, 1, List.of(waits), 0, List.of(waits), 0).cutPlace()).isEqualTo(inForce);
  }

  /**
   * A holder whose polls go to two data centers counts in the line of both, alone in the one it
   * polled first (us) and shared in the one it polled after (eu), which holds the one slot: the
   * slot stays in eu. It went to us, the data center the holder polled longest ago, and since eu
   * gives back at the switch what us may take only at the next plan, it sat with nobody for a
   * plan at every move, and a holder that polled in step with the moves never found it
   * (LiveSettingsTest failed in 3 to 7 runs of 60; now in none of 60 seeds).
   */
  @Test
  void aSlotStaysInADataCenterTheHolderPollsAmongThoseItPolledLately() {
    RoomConfig config = config(10, 10);
    TreeMap<Long, Long> holder = new TreeMap<>(Map.of(1_800_000_000L, 1L));
    Tally eu = new Tally(9, 1, 0, 0, holder, new long[0], new long[0], holder, false);
    Tally us = new Tally(0, 0, 0, 0, holder, new long[0], new long[0], new TreeMap<>(), false);
    for (long epoch = 600; epoch < 604; epoch++) {
      Plan inEu = Plan.compute(config, epoch, List.of(eu, us), 0, List.of(eu), 0);
      Plan inUs = Plan.compute(config, epoch, List.of(eu, us), 1, List.of(us), 0);
      assertThat(inEu.waitingUsers()).as("the line counts the holder once").isEqualTo(1);
      assertThat(inEu.cutPlace()).isGreaterThanOrEqualTo(1_800_000_000L << 32 | 0xFFFF_FFFFL);
      assertThat(inEu.slots()).as("epoch %s", epoch).isEqualTo(1);
      assertThat(inUs.slots()).as("epoch %s", epoch).isZero();
    }
  }

  @Test
  void splitRemaindersGoRoundEpochByEpoch() {
    long[] weights = {1, 1, 1};
    int[] got = new int[3];
    for (long epoch = 600; epoch < 606; epoch++) {
      long[] parts = Plan.split(1, weights, null, epoch);
      for (int i = 0; i < 3; i++) {
        got[i] += (int) parts[i];
      }
    }
    assertThat(got).containsExactly(2, 2, 2);
  }

  /**
   * The slots for new arrivals that no node holds go to nodes that want more, each one of them to
   * some node. Each node's growth used to be its want times the free slots over everyone's wants,
   * rounded down: with two free slots and four nodes wanting one each, every node got none, and
   * the two slots sat unplanned while newcomers queued (flash20x5, with 100 nodes, left about 20
   * slots of every plan idle).
   */
  @Test
  void slotsForNewArrivalsThatNobodyHoldsGoToTheNodesThatRanOut() {
    RoomConfig config = config(100, 100);
    List<Tally> nodes = new java.util.ArrayList<>();
    // Node 0 still holds 3 slots; 95 admissions in the last minute leave 2 more free.
    nodes.add(new Tally(0, 3, 95, 0, new TreeMap<>(), new long[0]));
    for (int n = 1; n < 10; n++) {
      nodes.add(new Tally(0, 0, 0, 0, new TreeMap<>(), new long[0]));
    }
    long[] grants = new long[nodes.size()];
    long sum = 0;
    for (int n = 0; n < nodes.size(); n++) {
      grants[n] = Plan.compute(config, 600, List.of(Tally.sum(nodes)), 0, nodes, n).slots();
      sum += grants[n];
    }
    assertThat(grants[0]).as("the holder keeps its fair share, one of five").isEqualTo(1);
    assertThat(sum).as("its one and the two that nobody holds: all granted").isEqualTo(3);
  }

  /**
   * A quiet data center weighs each of its nodes, not one for all: while the room has slots to
   * spare, every one of its nodes gets one for its next newcomer. Weighed by its arrivals plus one,
   * a quiet data center of five nodes got one slot for all five next to a busy one, and its other
   * nodes queued their next newcomer while the room had slots to spare (flash20x5 before the
   * crowd). The busy node still gets more than its arrivals until the next plans.
   */
  @Test
  void aQuietDataCenterGetsASlotForEachOfItsNodesWhileSlotsAreSpare() {
    RoomConfig config = config(200, 160);
    // One busy node: 100 arrivals, all admitted, in the last minute: 60 slots are free.
    List<Tally> busy = List.of(new Tally(100, 0, 100, 100, new TreeMap<>(), new long[0]));
    List<Tally> quiet = new java.util.ArrayList<>();
    for (int n = 0; n < 5; n++) {
      quiet.add(new Tally(0, 0, 0, 0, new TreeMap<>(), new long[0]));
    }
    List<Tally> dataCenters = List.of(Tally.sum(busy), Tally.sum(quiet));
    assertThat(Plan.compute(config, 600, dataCenters, 0, busy, 0).slots())
        .as("the busy node: more than its 10 arrivals of the next 6 s").isGreaterThan(10);
    for (int n = 0; n < quiet.size(); n++) {
      assertThat(Plan.compute(config, 600, dataCenters, 1, quiet, n).slots())
          .as("quiet node %d", n).isGreaterThanOrEqualTo(1);
    }
  }

  /**
   * A spare slot for new arrivals that nobody takes stays granted, plan after plan, to the node or
   * data center that holds it. It used to go round in turn: the next in turn could not take it
   * while another still held it, and the holder gave it back, so every other plan granted it to
   * nobody; with two it came back to the same holder at the next plan and never reached the other
   * (finding 10: a node whose holders poll only in the other epochs never finds it).
   */
  @Test
  void aSpareSlotForNewArrivalsThatNobodyTakesStaysGranted() {
    RoomConfig config = config(10, 10);
    for (boolean twoDataCenters : new boolean[] {false, true}) {
      long[] held = {0, 0};
      for (long epoch = 600; epoch < 610; epoch++) {
        // Nine active users, nobody waiting or arriving; each holds what the plan before gave it.
        List<Tally> nodes = List.of(
            new Tally(5, held[0], 0, 0, new TreeMap<>(), new long[0]),
            new Tally(4, held[1], 0, 0, new TreeMap<>(), new long[0]));
        long[] granted = new long[2];
        for (int n = 0; n < 2; n++) {
          Plan p = twoDataCenters
              ? Plan.compute(config, epoch, nodes, n, List.of(nodes.get(n)), 0)
              : Plan.compute(config, epoch, List.of(Tally.sum(nodes)), 0, nodes, n);
          granted[n] = p.slots();
        }
        assertThat(granted[0] + granted[1]).as("granted by plan %d (two data centers: %s)", epoch, twoDataCenters)
            .isEqualTo(1);
        if (held[0] + held[1] > 0) {
          assertThat(granted).as("plan %d keeps it where it is", epoch).containsExactly(held);
        }
        held = granted;
      }
    }
  }

  /**
   * Two nodes that each count the same 60 holders (their polls go to both) make a line of 120:
   * the estimate must not take twice as long as the 60 distinct holders need, nor show twice as
   * many people ahead. One minute of 60
   * arrivals, 60 admissions a minute: the last holder waits about 60 s, not 120 s.
   */
  @Test
  void holdersCountedOnSeveralNodesDoNotLengthenTheEstimate() {
    RoomConfig config = config(100, 60);
    TreeMap<Long, Long> line = new TreeMap<>();
    for (long second = 1000; second < 1060; second++) {
      line.put(second, 1L);
    }
    // The room is full; the last minute's 60 admissions and 60 arrivals are split over the nodes.
    Tally a = new Tally(50, 0, 30, 30, line, new long[0]);
    Tally b = new Tally(50, 0, 30, 30, line, new long[0]);
    Plan twice = Plan.compute(config, 1, List.of(Tally.sum(List.of(a, b))), 0, List.of(a, b), 0);
    Tally once = new Tally(100, 0, 60, 60, line, new long[0]);
    Plan single = Plan.compute(config, 1, List.of(once), 0, List.of(once), 0);

    assertThat(twice.usersAhead(1059)).isEqualTo(2 * single.usersAhead(1059)).isEqualTo(118);
    // 59 ahead and the holder's own admission, at one a second.
    assertThat(single.estimate(1059, 0, ONE_A_SECOND).seconds()).isEqualTo(60);
    assertThat(twice.estimate(1059, 0, ONE_A_SECOND).seconds()).as("the double count taken out").isEqualTo(60);
    assertThat(twice.estimate(1059, 0, ONE_A_SECOND).usersAhead()).as("and from the people ahead shown").isEqualTo(59);
    // A line whose last minute holds fewer counts than arrivals (some gave up or got in) is taken
    // as counted once.
    Tally fewer = new Tally(100, 0, 60, 120, line, new long[0]);
    assertThat(Plan.compute(config, 1, List.of(fewer), 0, List.of(fewer), 0).estimate(1059, 0, ONE_A_SECOND).seconds())
        .isEqualTo(60);
  }


  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<long[]> weights() {
    return net.jqwik.api.Arbitraries.longs().between(0, 500).array(long[].class).ofMinSize(1).ofMaxSize(8);
  }
}
