package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.ReportSeal;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Live settings over several nodes and data centers sharing one store: every node applies a change
 * at the same instant, limits change without logging anyone out or reordering the line, and what
 * the store loses, forges or garbles changes nothing.
 */
class LiveSettingsTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  private static RoomConfig config(int active) {
    return RoomConfig.builder("live")
        .totalActiveUsers(active)
        .newUsersPerMinute(active)
        .sessionDuration(Duration.ofMinutes(5))
        .refreshInterval(Duration.ofSeconds(20))
        .build();
  }

  private static Cluster fourNodes(RoomConfig config) {
    Cluster c = new Cluster(config, KEYS);
    c.add("eu", "a");
    c.add("eu", "b");
    c.add("us", "c");
    c.add("ap", "d");
    return c.warmUp();
  }

  @Test
  void everyNodeAppliesAChangeAtTheSameInstantWithinTwoSyncIntervals() {
    Cluster c = fourNodes(config(20));
    WaitingRoom operator = c.nodes.get(2);
    Instant from = operator.updateSettings(RoomSettings.fromJson("{\"totalActiveUsers\": 50}", operator.latestSettings()));
    Instant asked = c.storeClock.instant();
    assertThat(Duration.between(asked, from)).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(2));
    int steps = 0;
    while (c.nodes.stream().allMatch(n -> n.settings().version() == 0)) {
      assertThat(c.nodes).allSatisfy(n -> assertThat(n.latestSettings().version()).isLessThanOrEqualTo(1));
      c.step(null, 0);
      steps++;
      assertThat(steps).as("quarter epochs until the change is in force").isLessThanOrEqualTo(8);
    }
    // In the same quarter epoch on every node, and not before its instant.
    assertThat(c.nodes).allSatisfy(n -> {
      assertThat(n.settings().version()).isEqualTo(1);
      assertThat(n.settings().totalActiveUsers()).isEqualTo(50);
      assertThat(n.status().settingsVersion()).isEqualTo(1);
    });
    assertThat(c.storeClock.instant()).isAfterOrEqualTo(from);
    assertThat(Duration.between(from, c.storeClock.instant())).isLessThan(Cluster.STEP);
    // The configuration a node started with is unchanged; what is in force is not.
    assertThat(c.nodes.get(0).config().totalActiveUsers()).isEqualTo(20);
  }

  @Test
  void aChangeOfLimitsLogsNobodyOutAndKeepsTheLineInOrder() {
    Cluster c = fourNodes(config(10));
    List<String> active = admit(c, 10);
    // Six people queue, one a second, on the nodes in turn.
    LinkedHashMap<Integer, String> line = new LinkedHashMap<>();
    for (int i = 0; i < 6; i++) {
      Decision d = c.nodes.get(i % 4).decide(null);
      assertThat(d.outcome()).isEqualTo(Decision.Outcome.QUEUE);
      line.put(i, d.ticket());
      c.advance(Duration.ofSeconds(1));
    }
    WaitingRoom operator = c.nodes.get(1);
    operator.updateSettings(RoomSettings.fromJson("{\"totalActiveUsers\": 5, \"newUsersPerMinute\": 5}",
        operator.latestSettings()));
    Map<Integer, Integer> admittedAtRound = new LinkedHashMap<>();
    for (int round = 0; round < 40; round++) {
      if (round == 15) {
        // Raised again: six free slots for the six waiting.
        operator.updateSettings(RoomSettings.fromJson("{\"totalActiveUsers\": 16, \"newUsersPerMinute\": 16}",
            operator.latestSettings()));
      }
      // Every active user keeps browsing, on any node: nobody is logged out by the lower limit.
      for (int i = 0; i < active.size(); i++) {
        Decision d = c.nodes.get((i + round) % 4).decide(active.get(i));
        assertThat(d.letsThrough()).as("active user %s in round %s", i, round).isTrue();
        if (d.ticket() != null) {
          active.set(i, d.ticket());
        }
      }
      for (Map.Entry<Integer, String> e : line.entrySet()) {
        if (admittedAtRound.containsKey(e.getKey())) {
          continue;
        }
        Decision d = c.nodes.get((e.getKey() + round) % 4).decide(e.getValue());
        if (d.letsThrough()) {
          // In order: everyone who came before and still waits is at or below the cutoff on
          // every node too (among those, whoever polls a node with a slot first gets in first).
          for (Map.Entry<Integer, String> earlier : line.entrySet()) {
            if (earlier.getKey() < e.getKey() && !admittedAtRound.containsKey(earlier.getKey())) {
              long place = c.placeOf(earlier.getValue());
              assertThat(c.nodes).as("#%s waits while #%s gets in", earlier.getKey(), e.getKey())
                  .allSatisfy(n -> assertThat(Inside.eligible(n, place)).isTrue());
            }
          }
          admittedAtRound.put(e.getKey(), round);
        } else if (d.ticket() != null) {
          e.setValue(d.ticket());
        }
      }
      if (round < 17) {
        assertThat(admittedAtRound).as("admitted before the limit was raised, in round %s", round).isEmpty();
      }
      c.advance(Duration.ofSeconds(2));
    }
    assertThat(admittedAtRound).as("admitted from the line after the raise").hasSize(6);
    List<Integer> rounds = new ArrayList<>(admittedAtRound.values());
    assertThat(rounds).allSatisfy(r -> assertThat(r).isGreaterThanOrEqualTo(15));
    assertThat(c.activeUsers()).isLessThanOrEqualTo(16);
  }

  @Test
  void theModesChangeWhatEveryoneGets() {
    Cluster c = new Cluster(config(2), KEYS);
    WaitingRoom room = c.add("local", "only");
    c.warmUp();
    String a = room.decide(null).ticket();
    c.advance(Duration.ofSeconds(1));
    String b = room.decide(null).ticket();
    c.advance(Duration.ofSeconds(3));
    Decision w = room.decide(null);
    assertThat(w.outcome()).isEqualTo(Decision.Outcome.QUEUE);
    String waiting = w.ticket();

    // reject: no newcomer, nobody from the line; active users go on.
    set(c, room, "{\"queueingMethod\": \"reject\"}");
    assertThat(room.decide(null).outcome()).isEqualTo(Decision.Outcome.REJECT);
    assertThat(room.decide(null).ticket()).isNull();
    assertThat(room.decide(waiting).outcome()).isEqualTo(Decision.Outcome.REJECT);
    assertThat(room.decide(a).letsThrough()).isTrue();
    assertThat(room.status().queueingStatus()).isEqualTo("queueing");

    // suspended: active users wait too, keeping their session; the wait is not known.
    set(c, room, "{\"queueingMethod\": \"fifo\", \"suspended\": true}");
    Decision paused = room.decide(a);
    assertThat(paused.letsThrough()).isFalse();
    assertThat(paused.ticket()).as("the session cookie is left alone").isNull();
    assertThat(paused.waitKnown()).isFalse();
    assertThat(paused.refreshSeconds()).isEqualTo(20);
    Decision stillWaiting = room.decide(waiting);
    assertThat(stillWaiting.outcome()).isEqualTo(Decision.Outcome.WAIT);
    assertThat(stillWaiting.waitKnown()).isFalse();
    waiting = stillWaiting.ticket();
    assertThat(room.status().queueingStatus()).isEqualTo("suspended");
    assertThat(room.status().maxWaitSeconds()).isEqualTo(-1);
    set(c, room, "{\"suspended\": false}");
    assertThat(room.decide(a).letsThrough()).as("the same session after the pause").isTrue();

    // passthrough: everyone goes in, whatever the limits, and is counted.
    set(c, room, "{\"queueingMethod\": \"passthrough\"}");
    assertThat(room.decide(waiting).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    for (int i = 0; i < 5; i++) {
      assertThat(room.decide(null).outcome()).isEqualTo(Decision.Outcome.ADMIT);
    }
    c.advance(Duration.ofSeconds(4));
    assertThat(room.status().activeUsers()).isEqualTo(8);
    assertThat(b).isNotNull();
  }

  @Test
  void queueAllHoldsEveryNewcomerUntilTheDoorsOpenAndThenLetsThemInInOrder() {
    Cluster c = fourNodes(config(10));
    WaitingRoom operator = c.nodes.get(0);
    operator.updateSettings(RoomSettings.fromJson("{\"queueAll\": true}", operator.latestSettings()));
    c.advance(Duration.ofSeconds(3));
    List<String> line = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Decision d = c.nodes.get(i % 4).decide(null);
      assertThat(d.outcome()).as("newcomer %s while the room is empty", i).isEqualTo(Decision.Outcome.QUEUE);
      assertThat(d.waitKnown()).isFalse();
      line.add(d.ticket());
      c.advance(Duration.ofSeconds(1));
    }
    assertThat(c.nodes.get(3).status().queueingStatus()).isEqualTo("queueing");
    List<Integer> admitted = new ArrayList<>();
    for (int round = 0; round < 20; round++) {
      if (round == 8) {
        operator.updateSettings(RoomSettings.fromJson("{\"queueAll\": false}", operator.latestSettings()));
      }
      for (int i = 0; i < line.size(); i++) {
        if (admitted.contains(i)) {
          continue;
        }
        Decision d = c.nodes.get((i + round) % 4).decide(line.get(i));
        if (d.letsThrough()) {
          assertThat(round).as("admitted while queueAll held").isGreaterThanOrEqualTo(8);
          admitted.add(i);
        } else if (d.ticket() != null) {
          line.set(i, d.ticket());
        }
      }
      c.advance(Duration.ofSeconds(2));
    }
    assertThat(admitted).containsExactly(0, 1, 2, 3, 4);
  }

  @Test
  void withoutRenewalASessionEndsItsDurationAfterAdmission() {
    RoomConfig config = RoomConfig.builder("renewal").totalActiveUsers(5).newUsersPerMinute(5)
        .sessionDuration(Duration.ofSeconds(60)).build();
    for (boolean renewal : new boolean[] {true, false}) {
      Cluster c = new Cluster(config, KEYS);
      WaitingRoom room = c.add("local", "only");
      c.warmUp();
      if (!renewal) {
        set(c, room, "{\"disableSessionRenewal\": true}");
      }
      String t = room.decide(null).ticket();
      int seconds = 0;
      while (seconds < 120) {
        c.advance(Duration.ofSeconds(5));
        seconds += 5;
        Decision d = room.decide(t);
        if (d.outcome() != Decision.Outcome.PASS) {
          break;
        }
        t = d.ticket() != null ? d.ticket() : t;
      }
      if (renewal) {
        assertThat(seconds).as("a session in use is renewed").isEqualTo(120);
      } else {
        assertThat(seconds).as("seconds until the session ended").isBetween(60, 70);
      }
    }
  }

  @Test
  void aFlushedStoreLosesNothingAndANodeThatJoinsLaterGetsTheSettings() {
    Cluster c = fourNodes(config(10));
    c.nodes.get(0).updateSettings(RoomSettings.fromJson("{\"totalActiveUsers\": 30}", c.nodes.get(0).latestSettings()));
    c.advance(Duration.ofSeconds(3));
    c.store.flush();
    c.advance(Duration.ofSeconds(1));
    assertThat(c.nodes).allSatisfy(n -> assertThat(n.settings().totalActiveUsers()).isEqualTo(30));
    WaitingRoom late = c.add("us", "late");
    c.advance(Duration.ofSeconds(2));
    assertThat(late.settings().version()).isEqualTo(1);
    assertThat(late.settings().totalActiveUsers()).isEqualTo(30);
  }

  @Test
  void aForgedOrUnreadableDocumentIsIgnoredAndTheLastGoodOneKept() throws IOException {
    Cluster c = fourNodes(config(10));
    c.nodes.get(0).updateSettings(RoomSettings.fromJson("{\"totalActiveUsers\": 30}", c.nodes.get(0).latestSettings()));
    c.advance(Duration.ofSeconds(3));
    String name = Coordinator.DOCUMENT + "settings.9";
    RoomSettings open = RoomSettings.fromJson("{\"version\": 9, \"totalActiveUsers\": 1000}", RoomSettings.of(config(10)));
    byte[] doc = ("waitingroom-settings 1 0 " + Long.MIN_VALUE + "\n" + open.toJson()).getBytes(StandardCharsets.UTF_8);
    // Written by someone without the room's keys (sealed with another keyset).
    c.store.put(Coordinator.GLOBAL_SCOPE, name, new ReportSeal(TicketKeys.generate(), "live").seal(Coordinator.GLOBAL_SCOPE, name, doc));
    c.advance(Duration.ofSeconds(3));
    assertThat(c.nodes).allSatisfy(n -> assertThat(n.settings().totalActiveUsers()).isEqualTo(30));
    // Sealed with the room's keys, but a format this release does not know, or a field out of range.
    ReportSeal seal = new ReportSeal(KEYS, "live");
    byte[] newer = ("waitingroom-settings 2 0 " + Long.MIN_VALUE + "\n" + open.toJson()).getBytes(StandardCharsets.UTF_8);
    c.store.put(Coordinator.GLOBAL_SCOPE, name, seal.seal(Coordinator.GLOBAL_SCOPE, name, newer));
    String name10 = Coordinator.DOCUMENT + "settings.10";
    byte[] tooLong = ("waitingroom-settings 1 0 " + Long.MIN_VALUE + "\n{\"version\": 10, \"sessionDuration\": \"PT1H\"}").getBytes(StandardCharsets.UTF_8);
    c.store.put(Coordinator.GLOBAL_SCOPE, name10, seal.seal(Coordinator.GLOBAL_SCOPE, name10, tooLong));
    c.advance(Duration.ofSeconds(3));
    assertThat(c.nodes).allSatisfy(n -> {
      assertThat(n.settings().version()).isEqualTo(1);
      assertThat(n.settings().totalActiveUsers()).isEqualTo(30);
    });
    // A good document of the room, written by a holder of the keys, is taken.
    byte[] good = ("waitingroom-settings 1 0 " + Long.MIN_VALUE + "\n" + open.toJson()).getBytes(StandardCharsets.UTF_8);
    c.store.put(Coordinator.GLOBAL_SCOPE, name, seal.seal(Coordinator.GLOBAL_SCOPE, name, good));
    c.advance(Duration.ofSeconds(2));
    assertThat(c.nodes).allSatisfy(n -> assertThat(n.settings().totalActiveUsers()).isEqualTo(1000));
  }

  @Test
  void aStaleOrBadChangeIsRefusedOnTheNodeThatIsAsked() {
    Cluster c = fourNodes(config(10));
    WaitingRoom a = c.nodes.get(0);
    WaitingRoom b = c.nodes.get(3);
    RoomSettings base = b.latestSettings();
    a.updateSettings(RoomSettings.fromJson("{\"totalActiveUsers\": 30}", a.latestSettings()));
    c.advance(Duration.ofSeconds(1));
    assertThatThrownBy(() -> b.updateSettings(RoomSettings.fromJson("{\"totalActiveUsers\": 40}", base)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("settings version 1 is not newer than version 1");
    assertThatThrownBy(() -> b.updateSettings(RoomSettings.fromJson("{\"sessionDuration\": \"PT6M\"}", b.latestSettings())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sessionDuration (PT6M) must not exceed");
    c.advance(Duration.ofSeconds(2));
    assertThat(c.nodes).allSatisfy(n -> assertThat(n.settings().totalActiveUsers()).isEqualTo(30));
  }

  @Test
  void aNodeCutOffFromTheStoreAppliesTheChangeOnceItIsBack() {
    Cluster c = new Cluster(config(10), KEYS);
    c.add("eu", "a");
    boolean[] down = {false};
    Transport cut = (room, pubs, retention) -> {
      if (down[0]) {
        throw new IOException("cut off");
      }
      return c.store.exchange(room, pubs, retention);
    };
    WaitingRoom b = c.add("us", "b", cut);
    c.warmUp();
    down[0] = true;
    c.nodes.get(0).updateSettings(RoomSettings.fromJson("{\"suspended\": true}", c.nodes.get(0).latestSettings()));
    c.advance(Duration.ofSeconds(5));
    assertThat(c.nodes.get(0).settings().suspended()).isTrue();
    assertThat(b.settings().version()).isZero();
    down[0] = false;
    c.advance(Duration.ofMillis(500));
    assertThat(b.settings().suspended()).isTrue();
  }

  /**
   * Newcomers on the nodes in turn, every half second, who keep polling (as browsers do) until
   * {@code count} of them are in; returns their session tickets.
   */
  private static List<String> admit(Cluster c, int count) {
    List<String> active = new ArrayList<>();
    List<String> waiting = new ArrayList<>();
    for (int i = 0; active.size() < count; i++) {
      assertThat(i).as("half seconds to admit %s", count).isLessThan(400);
      WaitingRoom node = c.nodes.get(i % c.nodes.size());
      for (int w = 0; w < waiting.size() && active.size() < count; w++) {
        Decision d = node.decide(waiting.get(w));
        if (d.letsThrough()) {
          active.add(d.ticket());
          waiting.remove(w--);
        } else if (d.ticket() != null) {
          waiting.set(w, d.ticket());
        }
      }
      if (active.size() < count) {
        Decision d = node.decide(null);
        (d.letsThrough() ? active : waiting).add(d.ticket());
      }
      c.advance(Duration.ofMillis(500));
    }
    // The rest leave.
    c.advance(Duration.ofSeconds(15));
    return active;
  }

  private static void set(Cluster c, WaitingRoom room, String json) {
    room.updateSettings(RoomSettings.fromJson(json, room.latestSettings()));
    c.advance(Duration.ofSeconds(2));
  }

  /**
   * Lowered limits bind from the plan of the first epoch they are in force for: the slots for new
   * arrivals that the grants made under the old limits had left (10 a node, of 20 a minute) are
   * taken back, not handed out again by every plan (20 newcomers got in within the minute after
   * the limits went down to 2). Raised again, the room lets newcomers in up to the new limits.
   */
  @Test
  void loweredLimitsTakeBackTheSlotsTheOldGrantsLeftAndRaisedOnesGiveSlotsAgain() {
    RoomConfig config = RoomConfig.builder("rollback")
        .totalActiveUsers(20)
        .newUsersPerMinute(20)
        .sessionDuration(Duration.ofMinutes(1))
        .build();
    Cluster c = new Cluster(config, KEYS);
    WaitingRoom a = c.add("eu", "a");
    WaitingRoom b = c.add("eu", "b");
    c.warmUp();
    a.updateSettings(RoomSettings.fromJson("{\"totalActiveUsers\": 20, \"newUsersPerMinute\": 20}", a.latestSettings()));
    c.advance(Duration.ofSeconds(5));
    a.updateSettings(RoomSettings.fromJson("{\"totalActiveUsers\": 2, \"newUsersPerMinute\": 2}", a.latestSettings()));
    c.advance(Duration.ofSeconds(15));
    assertThat(c.nodes).allSatisfy(n -> assertThat(n.status().settingsVersion()).isEqualTo(2));
    assertThat(a.status().freeSlots()).isZero();
    List<Integer> admittedAt = new ArrayList<>();
    for (int second = 0; second < 60; second++) {
      for (WaitingRoom n : c.nodes) {
        if (n.decide(null).outcome() == Decision.Outcome.ADMIT) {
          admittedAt.add(second);
        }
      }
      assertThat(c.activeUsers()).as("active at second %s", second).isLessThanOrEqualTo(2);
      c.advance(Duration.ofSeconds(1));
    }
    assertThat(admittedAt).as("seconds in which a newcomer was admitted").hasSizeLessThanOrEqualTo(2);

    // Raised again, once the newcomers queued meanwhile (who never came back) have left the line:
    // newcomers get in again, up to the new limits.
    c.advance(Duration.ofSeconds(15));
    a.updateSettings(RoomSettings.fromJson("{\"totalActiveUsers\": 10, \"newUsersPerMinute\": 10}", a.latestSettings()));
    c.advance(Duration.ofSeconds(5));
    assertThat(c.nodes).allSatisfy(n -> assertThat(n.status().settingsVersion()).isEqualTo(3));
    int admitted = 0;
    for (int second = 0; second < 30; second++) {
      for (WaitingRoom n : c.nodes) {
        admitted += n.decide(null).outcome() == Decision.Outcome.ADMIT ? 1 : 0;
      }
      assertThat(c.activeUsers()).as("active at second %s after the raise", second).isLessThanOrEqualTo(10);
      c.advance(Duration.ofSeconds(1));
    }
    assertThat(admitted).as("newcomers admitted in the 30 s after the raise").isEqualTo(10);
  }
}
