package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.coordinator.Coordinator;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The adaptive limit's decisions in the live settings of one node ({@link LiveSettings#decide},
 * {@link LiveSettings#read}, {@link LiveSettings#toKeep}): in force from their instant, for the
 * document they were made under, within its bounds, and read from the store as written.
 */
class LimitDecisionsTest {
  private static final AdaptiveLimit BOUNDS = AdaptiveLimit.between(10, 60, Duration.ofMillis(500));
  private static final RoomConfig ADAPTING = RoomConfig.builder("limits").totalActiveUsers(40).newUsersPerMinute(40)
      .sessionDuration(Duration.ofMinutes(5)).adaptiveLimit(BOUNDS).build();
  private static final RoomConfig FIXED = RoomConfig.builder("limits").totalActiveUsers(40).newUsersPerMinute(40)
      .sessionDuration(Duration.ofMinutes(5)).build();

  private static int limitAt(LiveSettings live, long millis) {
    return live.at(millis).config().totalActiveUsers();
  }

  @Test
  void aDecisionTakesEffectAtItsInstantAndTheNewestInForceHolds() {
    LiveSettings live = new LiveSettings(ADAPTING);
    assertThat(limitAt(live, 0)).as("the configuration's, until a decision").isEqualTo(40);
    assertThat(live.at(0).limit()).isNull();
    LiveSettings.Limit first = live.decide(27, "lowered: p90 800 ms over the target 500 ms", 10_000);
    assertThat(first.seq()).isEqualTo(1);
    assertThat(first.settingsVersion()).isZero();
    LiveSettings.Limit second = live.decide(24, "lowered again", 20_000);
    assertThat(second.seq()).isEqualTo(2);
    assertThat(limitAt(live, 9_999)).isEqualTo(40);
    assertThat(limitAt(live, 10_000)).isEqualTo(27);
    assertThat(limitAt(live, 19_999)).isEqualTo(27);
    assertThat(limitAt(live, 20_000)).isEqualTo(24);
    assertThat(Objects.requireNonNull(live.at(15_000).limit()).reason()).isEqualTo("lowered: p90 800 ms over the target 500 ms");
    assertThat(live.at(15_000).config().newUsersPerMinute()).as("no more new users a minute than the limit").isEqualTo(27);
    assertThat(live.at(15_000).settings().totalActiveUsers()).as("the document is unchanged").isEqualTo(40);

    assertThat(live.activate(9_999)).isFalse();
    assertThat(live.current().config().totalActiveUsers()).isEqualTo(40);
    assertThat(live.activate(10_000)).as("the limit in force changed").isTrue();
    assertThat(live.current().config().totalActiveUsers()).isEqualTo(27);
    assertThat(live.current(10).config().totalActiveUsers()).isEqualTo(27);
    assertThat(live.activate(12_000)).isFalse();
    assertThat(live.activate(25_000)).isTrue();
    assertThat(live.current().config().totalActiveUsers()).isEqualTo(24);
  }

  @Test
  void aDecisionIsKeptWithinTheBoundsAndSoIsTheDocumentsStart() {
    LiveSettings live = new LiveSettings(ADAPTING);
    live.decide(3, "too low", 1_000);
    assertThat(limitAt(live, 1_000)).isEqualTo(10);
    live.decide(5_000, "too high", 2_000);
    assertThat(limitAt(live, 2_000)).isEqualTo(60);
    LiveSettings low = new LiveSettings(RoomConfig.builder("limits").totalActiveUsers(5).newUsersPerMinute(5)
        .sessionDuration(Duration.ofMinutes(5)).adaptiveLimit(BOUNDS).build());
    assertThat(limitAt(low, 0)).as("a start below min").isEqualTo(10);
    LiveSettings high = new LiveSettings(RoomConfig.builder("limits").totalActiveUsers(500).newUsersPerMinute(60)
        .sessionDuration(Duration.ofMinutes(5)).adaptiveLimit(BOUNDS).build());
    assertThat(limitAt(high, 0)).as("a start above max").isEqualTo(60);
    assertThat(high.at(0).config().newUsersPerMinute()).isEqualTo(60);
    // New users a minute above max: refused, since the limit in force is at most max.
    assertThatThrownBy(() -> RoomConfig.builder("limits").totalActiveUsers(500).newUsersPerMinute(100)
        .sessionDuration(Duration.ofMinutes(5)).adaptiveLimit(BOUNDS).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("newUsersPerMinute (100) must not exceed adaptiveLimit.max (60)");
  }

  @Test
  void withoutAnAdaptiveLimitADecisionChangesNothing() {
    LiveSettings live = new LiveSettings(FIXED);
    live.decide(27, "lowered", 1_000);
    assertThat(limitAt(live, 1_000)).isEqualTo(40);
    assertThat(live.at(1_000).limit()).isNull();
    assertThat(live.activate(1_000)).isFalse();
  }

  @Test
  void aDocumentWithoutAnAdaptiveLimitPinsItsTotalActiveUsersFromItsInstant() {
    LiveSettings live = new LiveSettings(ADAPTING);
    live.decide(27, "lowered", 1_000);
    live.activate(2_000);
    live.update(RoomSettings.fromJson("{\"adaptiveLimit\": null, \"totalActiveUsers\": 35, \"newUsersPerMinute\": 35}", live.latest()), 5_000);
    assertThat(limitAt(live, 4_999)).isEqualTo(27);
    assertThat(limitAt(live, 5_000)).isEqualTo(35);
    assertThat(live.at(5_000).limit()).isNull();
    assertThat(live.activate(5_000)).isTrue();
    assertThat(live.current().config().adaptiveLimit()).isNull();
    // Decisions made from now on (a decider that has not read the document yet) change nothing.
    live.decide(12, "lowered", 6_000);
    assertThat(limitAt(live, 6_000)).isEqualTo(35);
    assertThat(live.activate(6_000)).isFalse();
  }

  @Test
  void aNewDocumentStartsFromItsOwnTotalActiveUsers() {
    LiveSettings live = new LiveSettings(ADAPTING);
    live.decide(27, "lowered", 1_000);
    live.update(RoomSettings.fromJson("{\"totalActiveUsers\": 50}", live.latest()), 5_000);
    assertThat(limitAt(live, 4_999)).isEqualTo(27);
    assertThat(limitAt(live, 5_000)).as("the decisions of version 0 are not version 1's").isEqualTo(50);
    live.activate(5_000);
    live.decide(45, "lowered", 8_000);
    assertThat(limitAt(live, 8_000)).as("a decision made under version 1").isEqualTo(45);
  }

  /**
   * A decision belongs to the document in force when it was made: the room's measurements and
   * limit under that document. A document published meanwhile that takes effect before the
   * decision starts from its own {@code totalActiveUsers}, as it would without the decision.
   */
  @Test
  void aDecisionMadeUnderOneDocumentIsNotTheLimitOfTheNext() {
    LiveSettings live = new LiveSettings(ADAPTING);
    live.activate(1_000);
    // Version 1 in force from 5 s on; the decider, still under version 0, decides for 6 s.
    live.update(RoomSettings.fromJson("{\"totalActiveUsers\": 50}", live.latest()), 5_000);
    live.decide(27, "lowered", 6_000);
    assertThat(limitAt(live, 6_000)).isEqualTo(50);
    assertThat(live.activate(6_000)).isTrue();
    assertThat(live.current().config().totalActiveUsers()).isEqualTo(50);
    assertThat(live.current().limit()).isNull();
  }

  @Test
  void anEventsLimitsGiveWayToTheAdaptiveLimit() {
    LiveSettings live = new LiveSettings(ADAPTING);
    Instant start = Instant.ofEpochSecond(100);
    RoomSettings withEvent = RoomSettings.fromJson("{\"events\": [{\"name\": \"drop\", \"start\": \"" + start
        + "\", \"end\": \"" + start.plusSeconds(100) + "\", \"totalActiveUsers\": 500, \"newUsersPerMinute\": 20}]}",
        live.latest());
    live.update(withEvent, 1_000);
    live.activate(1_000);
    assertThat(limitAt(live, 150_000)).as("the document's start, not the event's 500").isEqualTo(40);
    assertThat(live.at(150_000).config().newUsersPerMinute()).as("the event's new users a minute").isEqualTo(20);
    live.decide(30, "lowered", 120_000);
    assertThat(limitAt(live, 150_000)).isEqualTo(30);
    assertThat(limitAt(live, 250_000)).as("after the event").isEqualTo(30);
  }

  @Test
  void aNodeKeepsTheNewestDecisionInTheStoreAndAnotherReadsItAsWritten() {
    LiveSettings decider = new LiveSettings(ADAPTING);
    assertThat(decider.toKeep()).as("nothing but its configuration").isEmpty();
    assertThat(decider.toKeep()).as("unchanged").isNull();
    decider.decide(27, "lowered: p90 800 ms over the target 500 ms", 10_000);
    decider.decide(24, "lowered: 2.0 % of 100 requests failed", 20_000);
    Map<String, byte[]> kept = Objects.requireNonNull(decider.toKeep());
    assertThat(kept).containsOnlyKeys(LiveSettings.LIMIT_NAME + 2);
    assertThat(new String(kept.get(LiveSettings.LIMIT_NAME + 2), StandardCharsets.UTF_8))
        .isEqualTo("waitingroom-limit 1 20000 0 24\nlowered: 2.0 % of 100 requests failed");
    assertThat(decider.toKeep()).isNull();

    LiveSettings other = new LiveSettings(ADAPTING);
    other.read(kept);
    assertThat(limitAt(other, 20_000)).isEqualTo(24);
    assertThat(Objects.requireNonNull(other.at(20_000).limit()).reason()).isEqualTo("lowered: 2.0 % of 100 requests failed");
    assertThat(limitAt(other, 19_999)).as("the decision before it was never in the store").isEqualTo(40);
    assertThat(other.toKeep()).as("kept by every node that reads it").containsOnlyKeys(LiveSettings.LIMIT_NAME + 2);
    // The next decision, by whichever node decides then, is numbered after it.
    assertThat(other.decide(22, "lowered", 30_000).seq()).isEqualTo(3);
  }

  /**
   * A reason longer than an error message's 64 characters (the law's raises are: both edges of the
   * band) reads back whole on another node, so every node shows the same; one longer than {@link
   * LiveSettings#REASON_CHARS}, or with characters that are not printable, shows the same on the
   * deciding node as on the others.
   */
  @Test
  void everyNodeShowsTheReasonTheDecidingNodeShows() {
    String raised = "raised: p90 53.2-53.2 ms within the target 500 ms, people waiting";
    assertThat(raised).hasSizeGreaterThan(64);
    String tooLong = "lowered\u0007 " + "x".repeat(LiveSettings.REASON_CHARS);
    long at = 10_000;
    for (String reason : List.of(raised, tooLong)) {
      LiveSettings decider = new LiveSettings(ADAPTING);
      decider.decide(27, reason, at);
      LiveSettings other = new LiveSettings(ADAPTING);
      other.read(Objects.requireNonNull(decider.toKeep()));
      String shown = Objects.requireNonNull(decider.at(at).limit()).reason();
      assertThat(Objects.requireNonNull(other.at(at).limit()).reason()).as(reason).isEqualTo(shown);
      if (reason.equals(raised)) {
        assertThat(shown).isEqualTo(raised);
      } else {
        assertThat(shown).hasSize(LiveSettings.REASON_CHARS).startsWith("lowered? xxx");
      }
    }
  }

  @Test
  void aGarbledDecisionInTheStoreIsIgnored() {
    LiveSettings live = new LiveSettings(ADAPTING);
    Map<String, byte[]> store = new HashMap<>();
    String name = LiveSettings.LIMIT_NAME;
    store.put(name + "x", "waitingroom-limit 1 0 0 20\nbad name".getBytes(StandardCharsets.UTF_8));
    store.put(name + "1", "waitingroom-limit 2 0 0 20\nanother format".getBytes(StandardCharsets.UTF_8));
    store.put(name + "2", "waitingroom-limit 1 0 0 0\nzero".getBytes(StandardCharsets.UTF_8));
    store.put(name + "3", "waitingroom-limit 1 0 0\nshort".getBytes(StandardCharsets.UTF_8));
    store.put(name + "4", "waitingroom-limit 1 0 0 20".getBytes(StandardCharsets.UTF_8));
    store.put(name + "5", "waitingroom-limit 1 zero 0 20\nnot a number".getBytes(StandardCharsets.UTF_8));
    String logged = Logs.during(() -> live.read(store));
    assertThat(limitAt(live, 1_000)).isEqualTo(40);
    assertThat(live.at(1_000).limit()).isNull();
    assertThat(logged).contains("ignoring the limit decision");
    // A good one is taken; one numbered before it, later, is not.
    live.read(Map.of(name + "7", "waitingroom-limit 1 0 0 20\nfine\u0007".getBytes(StandardCharsets.UTF_8)));
    assertThat(limitAt(live, 1_000)).isEqualTo(20);
    assertThat(Objects.requireNonNull(live.at(1_000).limit()).reason()).doesNotContain("\u0007");
    live.read(Map.of(name + "6", "waitingroom-limit 1 500 0 50\nolder".getBytes(StandardCharsets.UTF_8)));
    assertThat(limitAt(live, 1_000)).isEqualTo(20);
  }

  @Test
  void twoDecisionsOfOneNumberAreDecidedByTheirBytesAlikeOnEveryNode() {
    byte[] a = "waitingroom-limit 1 0 0 20\nby a".getBytes(StandardCharsets.UTF_8);
    byte[] b = "waitingroom-limit 1 0 0 30\nby b".getBytes(StandardCharsets.UTF_8);
    for (List<byte[]> order : List.of(List.of(a, b), List.of(b, a))) {
      LiveSettings live = new LiveSettings(ADAPTING);
      for (byte[] bytes : order) {
        live.read(Map.of(LiveSettings.LIMIT_NAME + 1, bytes));
      }
      assertThat(limitAt(live, 0)).as("the higher bytes, whatever came first").isEqualTo(30);
    }
  }

  @Test
  void aDocumentsNameInTheStoreIsNotMistakenForADecision() {
    assertThat(LiveSettings.LIMIT_NAME).startsWith(Coordinator.DOCUMENT).doesNotStartWith(LiveSettings.NAME);
    assertThat(LiveSettings.NAME).doesNotStartWith(LiveSettings.LIMIT_NAME);
  }
}
