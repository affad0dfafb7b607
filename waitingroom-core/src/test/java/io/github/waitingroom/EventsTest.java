package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import org.junit.jupiter.api.Tag;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Scheduled events, the pre-queue and its lottery, and random queueing, over nodes in two data
 * centers: what people see before, during and after an event, and that a draw gives everyone the
 * same chance (chi-square tests over many seeded runs; each run is the real room, in virtual time).
 */
class EventsTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  private static RoomConfig config(int active) {
    return RoomConfig.builder("events")
        .totalActiveUsers(active)
        .newUsersPerMinute(active)
        .sessionDuration(Duration.ofSeconds(10))
        .sliceWidth(Duration.ofSeconds(10))
        .refreshInterval(Duration.ofSeconds(10))
        .build();
  }

  private static Cluster threeNodes(RoomConfig config, long seed) {
    Cluster c = new Cluster(config, KEYS);
    // Seeded, so that the test gives the same answer every run; SplittableRandom, whose first
    // outputs for neighbouring seeds are independent (java.util.Random's are not).
    SplittableRandom bits = new SplittableRandom(seed);
    c.random = bits;
    c.add("eu", "a");
    c.add("eu", "b");
    c.add("us", "c");
    return c.warmUp();
  }

  private static String event(Cluster c, long prequeueIn, long startIn, long endIn, boolean shuffle, String extra) {
    Instant now = Instant.ofEpochSecond(c.now());
    return "{\"events\": [{\"name\": \"drop\", \"prequeueStart\": \"" + now.plusSeconds(prequeueIn) + "\", \"start\": \""
        + now.plusSeconds(startIn) + "\", \"end\": \"" + now.plusSeconds(endIn) + "\", \"shuffleAtEventStart\": "
        + shuffle + extra + "}]}";
  }

  @Test
  void aPreQueueHoldsEveryoneUntilTheStartAndThenLetsThemInBeforeLaterArrivals() {
    Cluster c = threeNodes(config(3), 1);
    WaitingRoom operator = c.nodes.get(0);
    operator.updateSettings(RoomSettings.fromJson(event(c, 10, 40, 300, false, ", \"totalActiveUsers\": 4"),
        operator.latestSettings()));
    c.advance(Duration.ofSeconds(3));
    // Before the pre-queue the room is as before: an empty room lets a newcomer in.
    assertThat(c.nodes.get(1).decide(null).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    c.advance(Duration.ofSeconds(25));
    assertThat(c.nodes.get(2).status().queueingStatus()).isEqualTo("event_prequeueing");
    assertThat(c.nodes.get(2).status().event()).isNotNull();
    List<String> line = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Decision d = c.nodes.get(i).decide(null);
      assertThat(d.outcome()).as("a newcomer in the pre-queue, with slots free").isEqualTo(Decision.Outcome.QUEUE);
      assertThat(d.waitKnown()).isFalse();
      line.add(d.ticket());
      c.advance(Duration.ofSeconds(1));
    }
    List<Integer> order = new ArrayList<>();
    String late = null;
    for (int s = 0; s < 120 && order.size() < 4; s += 2) {
      if (late == null && c.nodes.get(0).status().event() != null && !c.nodes.get(0).status().eventPrequeueing()) {
        Decision d = c.nodes.get(1).decide(null);
        late = d.letsThrough() ? "in" : d.ticket();
        if (d.letsThrough()) {
          order.add(3);
        }
      }
      for (int i = 0; i < line.size(); i++) {
        if (!order.contains(i)) {
          Decision d = c.nodes.get((i + s) % 3).decide(line.get(i));
          if (d.letsThrough()) {
            order.add(i);
          } else if (d.ticket() != null) {
            line.set(i, d.ticket());
          }
        }
      }
      if (late != null && !late.equals("in") && !order.contains(3)) {
        Decision d = c.nodes.get(s % 3).decide(late);
        if (d.letsThrough()) {
          order.add(3);
        } else if (d.ticket() != null) {
          late = d.ticket();
        }
      }
      c.advance(Duration.ofSeconds(2));
    }
    assertThat(order).as("admission order: the pre-queued in arrival order, then the one who came after the start")
        .containsExactly(0, 1, 2, 3);
  }

  @Test
  @Tag("slow")
  void theLotteryGivesEveryPreQueuedUserTheSameChanceOfEveryRank() {
    int users = 6;
    int runs = 120;
    long[][] counts = new long[users][3];
    for (int run = 0; run < runs; run++) {
      int[] group = draw(run, true, users);
      for (int u = 0; u < users; u++) {
        counts[u][group[u]]++;
      }
    }
    assertUniform(counts, runs);
  }

  @Test
  void withoutTheLotteryThePreQueueKeepsArrivalOrder() {
    int[] group = draw(7, false, 6);
    assertThat(group).containsExactly(0, 0, 1, 1, 2, 2);
  }

  @Test
  @Tag("slow")
  void randomQueueingGivesEveryoneWaitingTheSameChance() {
    int users = 6;
    int runs = 120;
    long[][] counts = new long[users][3];
    for (int run = 0; run < runs; run++) {
      int[] group = random(run, RoomSettings.QueueingMethod.RANDOM, users);
      for (int u = 0; u < users; u++) {
        counts[u][group[u]]++;
      }
    }
    assertUniform(counts, runs);
    // The same crowd in FIFO goes in arrival order.
    assertThat(random(3, RoomSettings.QueueingMethod.FIFO, users)).containsExactly(0, 0, 1, 1, 2, 2);
  }

  @Test
  void aHolderWaitingAtRandomIsShownEveryoneWaitingAndATypicalWait() {
    Cluster c = threeNodes(config(2), 5);
    c.turnOver(80); // over three nodes: each must see 25 leave
    c.advance(Duration.ofSeconds(61));
    c.nodes.get(1).updateSettings(RoomSettings.fromJson("{\"queueingMethod\": \"random\"}", c.nodes.get(1).latestSettings()));
    c.advance(Duration.ofSeconds(3));
    c.admitNewcomers(2, Duration.ZERO);
    List<String> line = queue(c, 6);
    Decision d = c.nodes.get(0).decide(line.get(0));
    for (int s = 0; s < 6; s += 2) {
      for (int i = 0; i < line.size(); i++) {
        d = c.nodes.get(i % 3).decide(line.get(i));
        line.set(i, d.ticket() != null ? d.ticket() : line.get(i));
      }
      c.advance(Duration.ofSeconds(2));
    }
    // A node that saw too few users leave cannot tell when the next one does (the wait is not
    // known there); one that saw enough can.
    Decision known = null;
    for (int i = 0; i < c.nodes.size() && known == null; i++) {
      Decision e = c.nodes.get(i).decide(line.get(5));
      known = e.waitKnown() ? e : null;
    }
    assertThat(known).as("a node that saw users leave knows the wait").isNotNull();
    d = java.util.Objects.requireNonNull(known);
    assertThat(d.usersAhead()).as("everyone waiting").isEqualTo(6);
    assertThat(d.waitLowSeconds()).isLessThan(d.waitSeconds());
    assertThat(d.waitHighSeconds()).isGreaterThan(d.waitSeconds());
  }

  /**
   * Chi-square test of independence of user and group, each group being one third of the
   * ranks: with 5 x 2 degrees of freedom the statistic exceeds 29.59 with probability 0.001.
   * The runs are seeded, so the test gives the same answer every time.
   */
  private static void assertUniform(long[][] counts, int runs) {
    double expected = runs / 3.0;
    double chi2 = 0;
    for (long[] row : counts) {
      for (long n : row) {
        chi2 += (n - expected) * (n - expected) / expected;
      }
    }
    assertThat(chi2).as("chi-square over %s", Arrays.deepToString(counts)).isLessThan(29.59);
  }

  /**
   * One run: {@code users} newcomers pre-queue, one a second, on the three nodes in turn; the
   * event starts with room for two a minute; returns each one's group (0: let in first, 1: a minute
   * later, 2: last).
   */
  private static int[] draw(long seed, boolean shuffle, int users) {
    Cluster c = threeNodes(config(2), seed);
    // Each run starts its event at another epoch, as real events start at epochs nobody chose.
    c.advance(Duration.ofSeconds(seed % 60));
    WaitingRoom operator = c.nodes.get(seed % 2 == 0 ? 0 : 2);
    operator.updateSettings(RoomSettings.fromJson(event(c, 3, 3 + users + 4, 3600, shuffle, ""), operator.latestSettings()));
    c.advance(Duration.ofSeconds(5));
    List<String> line = queue(c, users);
    // One more arrives just after the start: behind every pre-queued user, lottery or not.
    c.advance(Duration.ofSeconds(3));
    Decision late = c.nodes.get((int) (seed % 3)).decide(null);
    assertThat(late.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    line.add(late.ticket());
    long[] at = admissions(c, line);
    long lastPrequeued = Arrays.stream(at, 0, users).max().orElseThrow();
    assertThat(at[users]).as("the arrival after the start gets in after every pre-queued user").isGreaterThan(lastPrequeued);
    return groups(at, users);
  }

  /** The group of each of the first {@code users}: let in first, a minute later, or last. */
  private static int[] groups(long[] at, int users) {
    long first = Arrays.stream(at, 0, users).min().orElseThrow();
    int[] group = new int[users];
    for (int i = 0; i < users; i++) {
      group[i] = (int) Math.min(2, (at[i] - first) / 50);
    }
    return group;
  }

  /** One run of a full room whose line is served at random (or in order). */
  private static int[] random(long seed, RoomSettings.QueueingMethod method, int users) {
    Cluster c = threeNodes(config(2), seed);
    WaitingRoom operator = c.nodes.get(1);
    operator.updateSettings(RoomSettings.fromJson("{\"queueingMethod\": \"" + method.jsonName() + "\"}",
        operator.latestSettings()));
    c.advance(Duration.ofSeconds(3));
    // Two users fill the room and leave; six arrive while it is full.
    c.admitNewcomers(2, Duration.ZERO);
    return groups(c, queue(c, users));
  }

  /** {@code users} newcomers, one a second, on the nodes in turn, all put in line; their tickets. */
  private static List<String> queue(Cluster c, int users) {
    List<String> line = new ArrayList<>();
    for (int i = 0; i < users; i++) {
      Decision d = c.nodes.get(i % 3).decide(null);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
      line.add(d.ticket());
      c.advance(Duration.ofSeconds(1));
    }
    return line;
  }

  /** Everyone in {@code line} polls every 2 s (on nodes in turn) until let in; the group of each. */
  private static int[] groups(Cluster c, List<String> line) {
    return groups(admissions(c, line), line.size());
  }

  /** Everyone in {@code line} polls every 2 s (on nodes in turn) until let in; the second each got in. */
  private static long[] admissions(Cluster c, List<String> line) {
    long[] at = new long[line.size()];
    Arrays.fill(at, -1);
    int admitted = 0;
    // Browsers poll at phases of their own: each round the users poll in an order drawn from the
    // run's seed, not by index (a fixed order would let the first users win every tie among those
    // at or below the cutoff, who get in in the order they poll a node with a slot left).
    java.util.Random phases = new java.util.Random(c.now());
    for (int s = 0; s < 400 && admitted < line.size(); s += 2) {
      int first = phases.nextInt(line.size());
      for (int k = 0; k < line.size(); k++) {
        int i = (first + k) % line.size();
        if (at[i] >= 0) {
          continue;
        }
        Decision d = c.nodes.get((i + s / 2) % 3).decide(line.get(i));
        if (d.letsThrough()) {
          at[i] = c.now();
          admitted++;
        } else if (d.ticket() != null) {
          line.set(i, d.ticket());
        }
      }
      c.advance(Duration.ofSeconds(2));
    }
    assertThat(at).as("everyone let in").doesNotContain(-1L);
    return at;
  }

  @Test
  void badEventsAreRefusedWithTheirNameAndField() {
    RoomSettings base = RoomSettings.of(config(2));
    assertThatThrownBy(() -> RoomSettings.fromJson("{\"events\": [{\"name\": \"a\", \"start\": \"2026-12-04T18:00:00Z\","
        + " \"end\": \"2026-12-04T17:00:00Z\"}]}", base))
        .hasMessageContaining("events 'a': end (2026-12-04T17:00:00Z) must be after start (2026-12-04T18:00:00Z)");
    assertThatThrownBy(() -> RoomSettings.fromJson("{\"events\": [{\"name\": \"a\", \"start\": \"2026-12-04T18:00:00Z\","
        + " \"end\": \"2026-12-04T19:00:00Z\", \"shuffleAtEventStart\": true}]}", base))
        .hasMessageContaining("events 'a': shuffleAtEventStart needs a prequeueStart before start");
    assertThatThrownBy(() -> RoomSettings.fromJson("{\"events\": [{\"name\": \"a\", \"start\": \"2026-12-04T18:00:00Z\","
        + " \"end\": \"2026-12-04T19:00:00Z\"}, {\"name\": \"b\", \"prequeueStart\": \"2026-12-04T18:30:00Z\","
        + " \"start\": \"2026-12-04T19:30:00Z\", \"end\": \"2026-12-04T20:00:00Z\"}]}", base))
        .hasMessageContaining("events 'a' and 'b' overlap");
    assertThatThrownBy(() -> RoomSettings.fromJson("{\"events\": [{\"name\": \"a\", \"start\": \"tomorrow\","
        + " \"end\": \"2026-12-04T19:00:00Z\"}]}", base))
        .hasMessageContaining("events[0].start must be an ISO-8601 instant");
    assertThatThrownBy(() -> RoomSettings.fromJson("{\"events\": [{\"name\": \"a\", \"start\": \"2026-12-04T18:00:00Z\","
        + " \"end\": \"2026-12-04T19:00:00Z\", \"colour\": 1}]}", base))
        .hasMessageContaining("events[0] has no field 'colour'");
    assertThatThrownBy(() -> RoomSettings.fromJson("{\"events\": [{\"name\": \"a\", \"start\": \"2026-12-04T18:00:00Z\","
        + " \"end\": \"2026-12-04T19:00:00Z\", \"sessionDuration\": \"PT1H\"}]}", base).checkAgainst(config(2)))
        .hasMessageContaining("events 'a': sessionDuration (PT1H) must lie between");
    String six = "{\"events\": [" + String.join(", ", java.util.Collections.nCopies(6,
        "{\"name\": \"a\", \"start\": \"2026-12-04T18:00:00Z\", \"end\": \"2026-12-04T19:00:00Z\"}")) + "]}";
    assertThatThrownBy(() -> RoomSettings.fromJson(six, base)).hasMessageContaining("events may hold at most 5 events");
  }
}
