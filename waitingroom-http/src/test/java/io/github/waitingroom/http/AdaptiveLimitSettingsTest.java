package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.AdaptiveLimit;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The adaptive limit's declarations ({@link AdaptiveLimitSettings}): every source names them its
 * own way, three of them turn the limit on together, and a part missing or a value out of range
 * is a {@link SettingException} that names it in the source's terms.
 */
class AdaptiveLimitSettingsTest {
  @Test
  void eachSourceNamesTheSettingsItsOwnWay() {
    assertThat(AdaptiveLimitSettings.all()).extracting(Setting::initParam).containsExactly(
        "adaptiveLimit.min", "adaptiveLimit.max", "adaptiveLimit.latency", "adaptiveLimit.step",
        "adaptiveLimit.failureShare", "adaptiveLimit.scaleNewUsersPerMinute");
    assertThat(AdaptiveLimitSettings.all()).extracting(Setting::property).containsExactly(
        "adaptive-limit.min", "adaptive-limit.max", "adaptive-limit.latency", "adaptive-limit.step",
        "adaptive-limit.failure-share", "adaptive-limit.scale-new-users-per-minute");
    assertThat(AdaptiveLimitSettings.FAILURE_SHARE.environmentVariable()).isEqualTo("WAITINGROOM_ADAPTIVE_LIMIT_FAILURE_SHARE");
    assertThat(AdaptiveLimitSettings.SCALE_NEW_USERS_PER_MINUTE.environmentVariable())
        .isEqualTo("WAITINGROOM_ADAPTIVE_LIMIT_SCALE_NEW_USERS_PER_MINUTE");
    assertThat(AdaptiveLimitSettings.SCALE_NEW_USERS_PER_MINUTE.type()).isEqualTo(Boolean.class);
    assertThat(AdaptiveLimitSettings.SCALE_NEW_USERS_PER_MINUTE.defaultValue()).isFalse();
    assertThat(AdaptiveLimitSettings.STEP.defaultValue()).isEqualTo(AdaptiveLimit.DEFAULT_STEP);
    assertThat(AdaptiveLimitSettings.FAILURE_SHARE.defaultValue()).isEqualTo(AdaptiveLimit.DEFAULT_FAILURE_SHARE);
    for (Setting<?> s : AdaptiveLimitSettings.all()) {
      assertThat(s.description()).as(s.name()).isNotBlank().endsWith(".").doesNotContain("|", "{@");
    }
  }

  @Test
  void noneGivenIsNoLimitAndTheThreeTurnItOn() {
    assertThat(AdaptiveLimitSettings.read(SettingException.Source.INIT_PARAM, name -> null)).isNull();
    Map<String, String> env = Map.of(
        "WAITINGROOM_ADAPTIVE_LIMIT_MIN", "10",
        "WAITINGROOM_ADAPTIVE_LIMIT_MAX", "200",
        "WAITINGROOM_ADAPTIVE_LIMIT_LATENCY", "250ms");
    assertThat(AdaptiveLimitSettings.read(SettingException.Source.ENVIRONMENT, env::get))
        .isEqualTo(AdaptiveLimit.between(10, 200, Duration.ofMillis(250)));
    Map<String, String> code = Map.of(
        "adaptiveLimit.min", "10", "adaptiveLimit.max", "200", "adaptiveLimit.latency", "PT0.25S",
        "adaptiveLimit.step", "0.25", "adaptiveLimit.failureShare", "0");
    assertThat(AdaptiveLimitSettings.read(SettingException.Source.CODE, code::get))
        .isEqualTo(new AdaptiveLimit(10, 200, Duration.ofMillis(250), 0.25, 0));
  }

  @Test
  void scalingNewUsersAMinuteIsReadAndOffByDefault() {
    Map<String, String> on = Map.of(
        "adaptiveLimit.min", "10", "adaptiveLimit.max", "200", "adaptiveLimit.latency", "250ms",
        "adaptiveLimit.scaleNewUsersPerMinute", " TRUE ");
    AdaptiveLimit scaling = Objects.requireNonNull(AdaptiveLimitSettings.read(SettingException.Source.INIT_PARAM, on::get));
    assertThat(scaling.scaleNewUsersPerMinute()).isTrue();
    assertThat(scaling).isEqualTo(AdaptiveLimit.between(10, 200, Duration.ofMillis(250)).withScaleNewUsersPerMinute(true));

    Map<String, String> off = Map.of(
        "WAITINGROOM_ADAPTIVE_LIMIT_MIN", "10", "WAITINGROOM_ADAPTIVE_LIMIT_MAX", "200",
        "WAITINGROOM_ADAPTIVE_LIMIT_LATENCY", "250ms", "WAITINGROOM_ADAPTIVE_LIMIT_SCALE_NEW_USERS_PER_MINUTE", "false");
    assertThat(AdaptiveLimitSettings.read(SettingException.Source.ENVIRONMENT, off::get))
        .isEqualTo(AdaptiveLimit.between(10, 200, Duration.ofMillis(250)));

    Map<String, String> unset = Map.of("adaptiveLimit.min", "10", "adaptiveLimit.max", "200", "adaptiveLimit.latency", "1s");
    AdaptiveLimit byDefault = Objects.requireNonNull(AdaptiveLimitSettings.read(SettingException.Source.CODE, unset::get));
    assertThat(byDefault.scaleNewUsersPerMinute()).as("off by default").isFalse();

    assertThat(AdaptiveLimitSettings.of(10, 200, Duration.ofSeconds(1), null, null, true, SettingException.Source.PROPERTY,
        s -> "waitingroom." + s.property())).isEqualTo(AdaptiveLimit.between(10, 200, Duration.ofSeconds(1))
        .withScaleNewUsersPerMinute(true));
    assertThat(AdaptiveLimitSettings.of(10, 200, Duration.ofSeconds(1), null, null, null, SettingException.Source.PROPERTY,
        s -> "waitingroom." + s.property())).isEqualTo(AdaptiveLimit.between(10, 200, Duration.ofSeconds(1)));
  }

  @Test
  void scalingAloneOrABadValueIsNamed() {
    SettingException alone = catchSetting(() -> AdaptiveLimitSettings.of(
        null, null, null, null, null, true, SettingException.Source.PROPERTY, s -> "waitingroom." + s.property()));
    assertThat(alone.setting()).isEqualTo("adaptiveLimit.min");
    assertThat(alone.key()).isEqualTo("waitingroom.adaptive-limit.min");
    assertThat(alone.reason()).isEqualTo("waitingroom.adaptive-limit.min, waitingroom.adaptive-limit.max and"
        + " waitingroom.adaptive-limit.latency are missing: waitingroom.adaptive-limit.min, waitingroom.adaptive-limit.max"
        + " and waitingroom.adaptive-limit.latency turn the adaptive limit on together, and"
        + " waitingroom.adaptive-limit.scale-new-users-per-minute is given");

    SettingException off = catchSetting(() -> AdaptiveLimitSettings.read(SettingException.Source.INIT_PARAM,
        Map.of("adaptiveLimit.max", "200", "adaptiveLimit.scaleNewUsersPerMinute", "false")::get));
    assertThat(off.key()).as("false is given too").isEqualTo("adaptiveLimit.min");
    assertThat(off.reason()).isEqualTo("adaptiveLimit.min and adaptiveLimit.latency are missing: adaptiveLimit.min,"
        + " adaptiveLimit.max and adaptiveLimit.latency turn the adaptive limit on together, and adaptiveLimit.max and"
        + " adaptiveLimit.scaleNewUsersPerMinute are given");

    SettingException bad = catchSetting(() -> AdaptiveLimitSettings.read(SettingException.Source.INIT_PARAM,
        Map.of("adaptiveLimit.min", "10", "adaptiveLimit.max", "200", "adaptiveLimit.latency", "1s",
            "adaptiveLimit.scaleNewUsersPerMinute", "yes please")::get));
    assertThat(bad.setting()).isEqualTo("adaptiveLimit.scaleNewUsersPerMinute");
    assertThat(bad.key()).isEqualTo("adaptiveLimit.scaleNewUsersPerMinute");
    assertThat(bad.value()).isEqualTo("yes please");
    assertThat(bad.getMessage()).isEqualTo("init-param adaptiveLimit.scaleNewUsersPerMinute:"
        + " adaptiveLimit.scaleNewUsersPerMinute must be true or false but was 'yes please'");
  }

  @Test
  void aPartMissingOrOutOfRangeIsNamed() {
    SettingException missing = catchSetting(() -> AdaptiveLimitSettings.of(
        10, null, null, null, 0.5, null, SettingException.Source.PROPERTY, s -> "waitingroom." + s.property()));
    assertThat(missing.setting()).isEqualTo("adaptiveLimit.max");
    assertThat(missing.key()).isEqualTo("waitingroom.adaptive-limit.max");
    assertThat(missing.reason()).isEqualTo("waitingroom.adaptive-limit.max and waitingroom.adaptive-limit.latency are"
        + " missing: waitingroom.adaptive-limit.min, waitingroom.adaptive-limit.max and waitingroom.adaptive-limit.latency"
        + " turn the adaptive limit on together, and waitingroom.adaptive-limit.min and"
        + " waitingroom.adaptive-limit.failure-share are given");

    SettingException range = catchSetting(() -> AdaptiveLimitSettings.of(
        0, 10, Duration.ofSeconds(1), null, null, null, SettingException.Source.CODE, Setting::name));
    assertThat(range.setting()).isEqualTo("adaptiveLimit.min");
    assertThat(range.value()).isEqualTo("0");
    assertThat(range.getMessage()).isEqualTo("adaptiveLimit.min must be at least 1 but was 0");

    SettingException latency = catchSetting(() -> AdaptiveLimitSettings.of(
        1, 10, Duration.ofMinutes(11), null, null, null, SettingException.Source.CODE, Setting::name));
    assertThat(latency.setting()).isEqualTo("adaptiveLimit.latency");
    assertThat(latency.value()).isEqualTo("PT11M");

    SettingException text = catchSetting(() -> AdaptiveLimitSettings.read(SettingException.Source.INIT_PARAM,
        Map.of("adaptiveLimit.min", "10", "adaptiveLimit.max", "many", "adaptiveLimit.latency", "1s")::get));
    assertThat(text.key()).isEqualTo("adaptiveLimit.max");
    assertThat(text.getMessage()).isEqualTo("init-param adaptiveLimit.max: adaptiveLimit.max must be a whole number but"
        + " was 'many'");
  }

  @Test
  void durationsFromTextTakeMilliseconds() {
    assertThat(Setting.duration("d", "500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Setting.duration("d", "30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Setting.duration("d", "5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(Setting.duration("d", "300")).isEqualTo(Duration.ofSeconds(300));
    assertThatThrownBy(() -> Setting.duration("d", "5 ms")).hasMessage(
        "d must be seconds (300), a short form (500ms, 30s, 5m, 1h) or ISO-8601 (PT5M) but was '5 ms'");
    assertThat(Setting.decimal("d", " 0.05 ")).isEqualTo(0.05);
    assertThatThrownBy(() -> Setting.decimal("d", "NaN")).hasMessage("d must be a number such as 0.1 but was 'NaN'");
  }

  private static SettingException catchSetting(Runnable r) {
    try {
      r.run();
    } catch (SettingException e) {
      return e;
    }
    throw new AssertionError("expected a SettingException");
  }
}
