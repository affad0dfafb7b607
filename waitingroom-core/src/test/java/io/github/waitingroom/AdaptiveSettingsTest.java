package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code adaptiveLimit} in the settings document ({@link SettingsJson}, {@link RoomSettings}) and
 * in the configuration: written and read back, turned off by {@code null}, a partial object
 * keeping the rest, and every mistake named.
 */
class AdaptiveSettingsTest {
  private static final AdaptiveLimit ADAPTIVE = new AdaptiveLimit(100, 2000, Duration.ofMillis(500), 0.2, 0.05);
  private static final RoomConfig FIXED = RoomConfig.builder("sale").totalActiveUsers(100).newUsersPerMinute(50)
      .sessionDuration(Duration.ofMinutes(5)).build();
  private static final RoomConfig ADAPTING = FIXED.toBuilder().adaptiveLimit(ADAPTIVE).build();

  @Test
  void theConfigurationsAdaptiveLimitIsTheStartingDocumentsAndSurvivesToBuilder() {
    assertThat(FIXED.adaptiveLimit()).isNull();
    assertThat(RoomSettings.of(FIXED).adaptiveLimit()).isNull();
    assertThat(ADAPTING.adaptiveLimit()).isEqualTo(ADAPTIVE);
    assertThat(RoomSettings.of(ADAPTING).adaptiveLimit()).isEqualTo(ADAPTIVE);
    assertThat(ADAPTING.toBuilder().build()).isEqualTo(ADAPTING);
    assertThatThrownBy(() -> FIXED.toBuilder().adaptiveLimit(ADAPTIVE).adaptiveLimit(ADAPTIVE))
        .hasMessageContaining("already set");
  }

  @Test
  void withTotalActiveUsersKeepsEverythingElseAndAtMostAsManyNewUsersAMinute() {
    RoomConfig lower = ADAPTING.withTotalActiveUsers(30);
    assertThat(lower.totalActiveUsers()).isEqualTo(30);
    assertThat(lower.newUsersPerMinute()).as("at most the limit").isEqualTo(30);
    assertThat(lower.adaptiveLimit()).isEqualTo(ADAPTIVE);
    assertThat(lower.sessionDuration()).isEqualTo(ADAPTING.sessionDuration());
    assertThat(lower.sliceWidth()).isEqualTo(ADAPTING.sliceWidth());
    assertThat(lower.waitingTimeout()).isEqualTo(ADAPTING.waitingTimeout());
    RoomConfig higher = ADAPTING.withTotalActiveUsers(500);
    assertThat(higher.totalActiveUsers()).isEqualTo(500);
    assertThat(higher.newUsersPerMinute()).as("kept").isEqualTo(50);
    assertThat(ADAPTING.withTotalActiveUsers(100)).isSameAs(ADAPTING);
    RoomConfig moreAMinute = RoomConfig.builder("sale").totalActiveUsers(5).newUsersPerMinute(40)
        .sessionDuration(Duration.ofMinutes(5)).adaptiveLimit(AdaptiveLimit.between(1, 100, Duration.ofMillis(500))).build();
    assertThat(moreAMinute.withTotalActiveUsers(5).newUsersPerMinute()).as("the limit unchanged: still at most it").isEqualTo(5);
  }

  @Test
  void scaledNewUsersAMinuteKeepTheConfiguredShareOfTheLimit() {
    RoomConfig scaling = FIXED.toBuilder().adaptiveLimit(ADAPTIVE.withScaleNewUsersPerMinute(true)).build();
    assertThat(scaling.withTotalActiveUsers(30).newUsersPerMinute()).as("50 of 100: 15 of 30").isEqualTo(15);
    assertThat(scaling.withTotalActiveUsers(500).newUsersPerMinute()).as("250 of 500").isEqualTo(250);
    assertThat(scaling.withTotalActiveUsers(33).newUsersPerMinute()).as("16.5, half up").isEqualTo(17);
    assertThat(scaling.withTotalActiveUsers(1).newUsersPerMinute()).as("0.5, half up").isEqualTo(1);
    assertThat(scaling.withTotalActiveUsers(100)).isSameAs(scaling);
    AdaptiveLimit a = ADAPTIVE.withScaleNewUsersPerMinute(true);
    assertThat(a.newUsersPerMinute(1, 1000, 1)).as("at least 1").isEqualTo(1);
    assertThat(a.newUsersPerMinute(7, 10, 10)).as("at most the limit").isEqualTo(7);
    assertThat(a.newUsersPerMinute(Integer.MAX_VALUE, 1000, 1000)).as("no overflow").isEqualTo(Integer.MAX_VALUE);
    assertThat(ADAPTIVE.newUsersPerMinute(30, 100, 50)).as("not scaled: at most the limit").isEqualTo(30);
    assertThat(ADAPTIVE.newUsersPerMinute(500, 100, 50)).as("not scaled").isEqualTo(50);
  }

  @Test
  void scalingIsWrittenReadBackAndKeptByAPartialObject() {
    RoomSettings base = RoomSettings.of(FIXED.toBuilder().adaptiveLimit(ADAPTIVE.withScaleNewUsersPerMinute(true)).build());
    assertThat(base.toJson()).contains("\"scaleNewUsersPerMinute\":true");
    assertThat(RoomSettings.fromJson(base.toJson(), RoomSettings.of(FIXED))).isEqualTo(base);
    assertThat(RoomSettings.fromJson("{\"adaptiveLimit\": {\"max\": 900}}", base).adaptiveLimit())
        .isEqualTo(new AdaptiveLimit(100, 900, Duration.ofMillis(500), 0.2, 0.05, true));
    assertThat(RoomSettings.fromJson("{\"adaptiveLimit\": {\"scaleNewUsersPerMinute\": false}}", base).adaptiveLimit())
        .isEqualTo(ADAPTIVE);
    assertThat(RoomSettings.fromJson("{\"adaptiveLimit\": {\"min\": 1, \"max\": 90, \"latency\": \"PT1S\"}}",
        RoomSettings.of(FIXED)).adaptiveLimit()).as("off by default")
        .extracting(a -> a != null && a.scaleNewUsersPerMinute()).isEqualTo(false);
    assertThatThrownBy(() -> RoomSettings.fromJson("{\"adaptiveLimit\": {\"scaleNewUsersPerMinute\": 1}}", base))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("adaptiveLimit.scaleNewUsersPerMinute");
  }

  @Test
  void anAdaptiveLimitIsWrittenAndReadBack() {
    RoomSettings s = RoomSettings.fromJson("{\"totalActiveUsers\": 300}", RoomSettings.of(ADAPTING));
    assertThat(s.toJson()).contains(
        "\"adaptiveLimit\":{\"min\":100,\"max\":2000,\"latency\":\"PT0.5S\",\"step\":0.2,\"failureShare\":0.05,"
            + "\"scaleNewUsersPerMinute\":false}");
    assertThat(RoomSettings.fromJson(s.toJson(), RoomSettings.of(FIXED))).isEqualTo(s);
    RoomSettings odd = new RoomSettings(3, 7, 7, Duration.ofMinutes(5), RoomSettings.QueueingMethod.FIFO, false, false,
        false, Map.of(), List.of(), new AdaptiveLimit(1, Integer.MAX_VALUE, Duration.ofNanos(1_234_567_891), 0.123456789, 0.0001));
    assertThat(RoomSettings.fromJson(odd.toJson(), RoomSettings.of(FIXED))).as("every digit").isEqualTo(odd);
  }

  @Test
  void noneIsWrittenAsNullAndNullTurnsItOff() {
    RoomSettings fixed = RoomSettings.of(FIXED);
    assertThat(fixed.toJson()).contains("\"adaptiveLimit\":null");
    assertThat(RoomSettings.fromJson(fixed.toJson(), RoomSettings.of(ADAPTING)).adaptiveLimit()).isNull();
    RoomSettings off = RoomSettings.fromJson("{\"adaptiveLimit\": null, \"totalActiveUsers\": 250}", RoomSettings.of(ADAPTING));
    assertThat(off.adaptiveLimit()).isNull();
    assertThat(off.totalActiveUsers()).isEqualTo(250);
    assertThat(off.applyTo(ADAPTING).adaptiveLimit()).as("what plans run on").isNull();
    assertThat(RoomSettings.fromJson("{\"suspended\": true}", RoomSettings.of(ADAPTING)).adaptiveLimit())
        .as("left out: the base's").isEqualTo(ADAPTIVE);
  }

  @Test
  void aPartialObjectKeepsTheBasesFields() {
    RoomSettings base = RoomSettings.of(ADAPTING);
    assertThat(RoomSettings.fromJson("{\"adaptiveLimit\": {\"max\": 5000}}", base).adaptiveLimit())
        .isEqualTo(new AdaptiveLimit(100, 5000, Duration.ofMillis(500), 0.2, 0.05));
    assertThat(RoomSettings.fromJson("{\"adaptiveLimit\": {\"latency\": \"PT2S\", \"step\": 0.5}}", base).adaptiveLimit())
        .isEqualTo(new AdaptiveLimit(100, 2000, Duration.ofSeconds(2), 0.5, 0.05));
    assertThat(RoomSettings.fromJson("{\"adaptiveLimit\": {}}", base).adaptiveLimit()).isEqualTo(ADAPTIVE);
    assertThat(Objects.requireNonNull(RoomSettings.fromJson("{\"adaptiveLimit\": {\"failureShare\": 0}}", base)
        .adaptiveLimit()).failureShare()).isZero();
  }

  @Test
  void withoutABaseLimitMinMaxAndLatencyAreRequiredAndStepAndShareDefault() {
    RoomSettings base = RoomSettings.of(FIXED);
    AdaptiveLimit a = Objects.requireNonNull(RoomSettings.fromJson("{\"adaptiveLimit\": {\"min\": 10, \"max\": 90, \"latency\": \"PT0.25S\"}}", base)
        .adaptiveLimit());
    assertThat(a).isEqualTo(AdaptiveLimit.between(10, 90, Duration.ofMillis(250)));
    assertThat(a.step()).isEqualTo(AdaptiveLimit.DEFAULT_STEP);
    assertThat(a.failureShare()).isEqualTo(AdaptiveLimit.DEFAULT_FAILURE_SHARE);
    for (String partial : List.of("{}", "{\"min\": 10, \"max\": 90}", "{\"min\": 10, \"latency\": \"PT1S\"}",
        "{\"max\": 90, \"latency\": \"PT1S\", \"step\": 0.2}")) {
      assertThatThrownBy(() -> RoomSettings.fromJson("{\"adaptiveLimit\": " + partial + "}", base)).as(partial)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("adaptiveLimit needs min, max and latency");
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"adaptiveLimit\": {\"minimum\": 5}}|adaptiveLimit has no field 'minimum' (known: min, max, latency, step, failureShare, scaleNewUsersPerMinute)",
        "{\"adaptiveLimit\": {\"min\": 5, \"extra\": {\"a\": 1}}}|adaptiveLimit has no field 'extra'",
        "{\"adaptive\": {\"min\": 5}}|settings have no field 'adaptive'",
        "{\"adaptiveLimit\": 5}|adaptiveLimit must be null or an object",
        "{\"adaptiveLimit\": [100, 200]}|adaptiveLimit must be null or an object",
        "{\"adaptiveLimit\": true}|adaptiveLimit must be null or an object",
        "{\"adaptiveLimit\": {\"min\": 0}}|adaptiveLimit.min must be at least 1 but was 0",
        "{\"adaptiveLimit\": {\"min\": 1.5}}|adaptiveLimit.min must be a whole number",
        "{\"adaptiveLimit\": {\"min\": \"5\"}}|adaptiveLimit.min must be a whole number",
        "{\"adaptiveLimit\": {\"max\": 99999999999}}|adaptiveLimit.max must be at most 2147483647",
        "{\"adaptiveLimit\": {\"max\": 50}}|adaptiveLimit.max (50) must not be below adaptiveLimit.min (100)",
        "{\"adaptiveLimit\": {\"latency\": \"500ms\"}}|adaptiveLimit.latency must be an ISO-8601 duration",
        "{\"adaptiveLimit\": {\"latency\": 500}}|adaptiveLimit.latency must be a string",
        "{\"adaptiveLimit\": {\"latency\": \"PT0S\"}}|adaptiveLimit.latency must be between 1 ms and 10 minutes",
        "{\"adaptiveLimit\": {\"step\": 0.7}}|adaptiveLimit.step must be above 0 and at most 0.5 but was 0.7",
        "{\"adaptiveLimit\": {\"step\": \"0.1\"}}|adaptiveLimit.step must be a number",
        "{\"adaptiveLimit\": {\"step\": 1e400}}|adaptiveLimit.step must be above 0 and at most 0.5",
        "{\"adaptiveLimit\": {\"failureShare\": 2}}|adaptiveLimit.failureShare must be between 0 and 1 but was 2.0",
        "{\"adaptiveLimit\": {\"failureShare\": null}}|adaptiveLimit.failureShare must be a number",
      })
  void aBadAdaptiveLimitIsRefusedWithAMessageThatNamesTheField(String json, String message) {
    assertThatThrownBy(() -> RoomSettings.fromJson(json, RoomSettings.of(ADAPTING)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }

  @Test
  void aDocumentWithAnAdaptiveLimitFromTheStoreIsReadAsWritten() {
    LiveSettings live = new LiveSettings(FIXED);
    RoomSettings next = RoomSettings.fromJson("{\"adaptiveLimit\": {\"min\": 20, \"max\": 400, \"latency\": \"PT1S\"}}",
        live.latest());
    live.update(next, 1_000);
    LiveSettings other = new LiveSettings(FIXED);
    other.read(Objects.requireNonNull(live.toKeep()));
    assertThat(other.latest()).isEqualTo(next);
    assertThat(other.latest().adaptiveLimit()).isEqualTo(AdaptiveLimit.between(20, 400, Duration.ofSeconds(1)));
  }
}
