package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The settings document: its JSON form, and the errors an operator gets for a bad one. */
class RoomSettingsTest {
  private static final RoomConfig CONFIG = RoomConfig.builder("sale")
      .totalActiveUsers(100)
      .newUsersPerMinute(50)
      .sessionDuration(Duration.ofMinutes(5))
      .sliceWidth(Duration.ofSeconds(10))
      .build();
  private static final RoomSettings BASE = RoomSettings.of(CONFIG);

  @Test
  void startsAsTheConfigurationAtVersionZero() {
    assertThat(BASE.version()).isZero();
    assertThat(BASE.totalActiveUsers()).isEqualTo(100);
    assertThat(BASE.newUsersPerMinute()).isEqualTo(50);
    assertThat(BASE.sessionDuration()).isEqualTo(Duration.ofMinutes(5));
    assertThat(BASE.queueingMethod()).isEqualTo(RoomSettings.QueueingMethod.FIFO);
    assertThat(BASE.admitting()).isTrue();
  }

  @Test
  void jsonRoundTripsEveryField() {
    RoomSettings s = new RoomSettings(7, 300, 120, Duration.ofMinutes(3), RoomSettings.QueueingMethod.PASSTHROUGH,
        true, true, true, Map.of("title", "The \"spring\" sale <b>", "text.queued", "Hold on"),
        List.of(new RoomSettings.Event("drop", Instant.parse("2026-12-04T17:30:00Z"), Instant.parse("2026-12-04T18:00:00Z"),
                Instant.parse("2026-12-04T20:00:00Z"), 2000, 100, Duration.ofMinutes(2), RoomSettings.QueueingMethod.RANDOM,
                true, Map.of("title", "The drop")),
            new RoomSettings.Event("encore", null, Instant.parse("2026-12-05T18:00:00Z"),
                Instant.parse("2026-12-05T19:00:00Z"), null, null, null, null, false, Map.of())));
    assertThat(RoomSettings.fromJson(s.toJson(), BASE)).isEqualTo(s);
  }

  @Test
  void aPartialDocumentKeepsWhatItLeavesOutAndTakesTheNextVersion() {
    RoomSettings s = RoomSettings.fromJson("{\"totalActiveUsers\": 800, \"suspended\": true}", BASE);
    assertThat(s.version()).isEqualTo(1);
    assertThat(s.totalActiveUsers()).isEqualTo(800);
    assertThat(s.suspended()).isTrue();
    assertThat(s.newUsersPerMinute()).isEqualTo(50);
    assertThat(s.sessionDuration()).isEqualTo(Duration.ofMinutes(5));
    assertThat(s.admitting()).isFalse();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"totalActiveUser\": 5}|settings have no field 'totalActiveUser'",
        "{\"totalActiveUsers\": -1}|totalActiveUsers must be positive but was -1",
        "{\"totalActiveUsers\": \"many\"}|totalActiveUsers must be a whole number but was 'many'",
        "{\"totalActiveUsers\": 1.5}|totalActiveUsers must be a whole number but was 1.5",
        "{\"totalActiveUsers\": 99999999999}|totalActiveUsers must be at most 2147483647",
        "{\"newUsersPerMinute\": 500}|newUsersPerMinute (500) must not exceed totalActiveUsers (100)",
        "{\"sessionDuration\": \"5m\"}|sessionDuration must be an ISO-8601 duration such as PT5M but was '5m'",
        "{\"sessionDuration\": \"PT0.5S\"}|sessionDuration must be a positive whole number of seconds",
        "{\"queueingMethod\": \"lottery\"}|queueingMethod must be one of fifo, random, passthrough, reject but was 'lottery'",
        "{\"queueAll\": \"yes\"}|queueAll must be true or false",
        "{\"version\": -3}|version must not be negative",
        "{\"texts\": {\"<script>\": \"x\"}}|texts keys must be 1 to 64 letters, digits, dots or dashes",
        "{\"texts\": [\"x\"]}|texts must be an object",
        "[1, 2]|settings must be a JSON object",
        "{\"queueAll\": true} {}|settings must be one JSON object",
        "{\"queueAll\": tru}|settings are not valid JSON",
      })
  void aBadDocumentIsRefusedWithAMessageThatNamesTheField(String json, String message) {
    assertThatThrownBy(() -> RoomSettings.fromJson(json, BASE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }

  @Test
  void theConfigurationBoundsTheSession() {
    assertThatThrownBy(() -> RoomSettings.fromJson("{\"sessionDuration\": \"PT10M\"}", BASE).checkAgainst(CONFIG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sessionDuration (PT10M) must not exceed the room's configured sessionDuration (PT5M)");
    assertThatThrownBy(() -> RoomSettings.fromJson("{\"sessionDuration\": \"PT5S\"}", BASE).checkAgainst(CONFIG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not be shorter than the room's sliceWidth (PT10S)");
    RoomSettings shorter = RoomSettings.fromJson("{\"sessionDuration\": \"PT2M\"}", BASE).checkAgainst(CONFIG);
    assertThat(shorter.applyTo(CONFIG).sessionSeconds()).isEqualTo(120);
    assertThat(shorter.applyTo(CONFIG).sliceSeconds()).isEqualTo(CONFIG.sliceSeconds());
  }

  @Test
  void aTooLongTextOrDocumentIsRefused() {
    String longText = "x".repeat(RoomSettings.MAX_TEXT_LENGTH + 1);
    assertThatThrownBy(() -> RoomSettings.fromJson("{\"texts\": {\"title\": \"" + longText + "\"}}", BASE))
        .hasMessageContaining("texts.title must be at most " + RoomSettings.MAX_TEXT_LENGTH);
    assertThatThrownBy(() -> RoomSettings.fromJson(" ".repeat(RoomSettings.MAX_JSON_LENGTH + 1), BASE))
        .hasMessageContaining("at most " + RoomSettings.MAX_JSON_LENGTH);
  }
}
