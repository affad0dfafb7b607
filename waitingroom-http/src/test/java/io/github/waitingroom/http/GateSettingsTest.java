package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The settings model: each setting's declaration checks a value the same way whatever its source
 * (code, text from web.xml or the environment), and every refusal, those of the checks that span
 * settings included, is one {@link SettingException} that names the setting and the source.
 */
class GateSettingsTest {
  private final WaitingRoom room =
      WaitingRoom.builder(
              RoomConfig.builder("shop").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(1)).build(),
              TicketKeys.generate())
          .backgroundSync(false)
          .build();

  @AfterEach
  void close() {
    room.close();
  }

  @Test
  void everyDefaultPassesItsOwnCheckAndABuilderStartsAtTheDefaults() {
    Gate.Builder b = Gate.builder(room);
    for (Setting<?> s : GateSettings.all()) {
      assertThat(b.get(s)).as(s.name()).isEqualTo(s.defaultValue());
      checkDefault(s);
    }
    Gate gate = b.build();
    assertThat(gate.waitingStatus()).isEqualTo(GateSettings.WAITING_STATUS.defaultValue());
    assertThat(gate.rejectStatus()).isEqualTo(GateSettings.REJECT_STATUS.defaultValue());
    assertThat(gate.statusParam()).isEqualTo(GateSettings.STATUS_PARAM.defaultValue());
    assertThat(gate.cookieSameSite()).isEqualTo(GateSettings.COOKIE_SAME_SITE.defaultValue());
  }

  private static <T extends @org.jspecify.annotations.Nullable Object> void checkDefault(Setting<T> s) {
    assertThat(s.check(s.defaultValue())).as(s.name()).isEqualTo(s.defaultValue());
  }

  @Test
  void aValueFromCodeAndTheSameFromTextAreRefusedAlikeNamingTheSource() {
    SettingException code = refused(b -> b.waitingStatus(503));
    assertThat(code.source()).isEqualTo(SettingException.Source.CODE);
    assertThat(code.setting()).isEqualTo("waitingStatus");
    assertThat(code.getMessage()).isEqualTo("waitingStatus must be 200, 202 or 429 but was 503");
    SettingException text = catchSetting(
        () -> GateSettings.WAITING_STATUS.parse("503", SettingException.Source.ENVIRONMENT, "WAITINGROOM_WAITING_STATUS"));
    assertThat(text.reason()).isEqualTo(code.reason());
    assertThat(text.value()).isEqualTo("503");
    assertThat(text.getMessage())
        .isEqualTo("environment variable WAITINGROOM_WAITING_STATUS: waitingStatus must be 200, 202 or 429 but was 503");
    assertThat(GateSettings.WAITING_STATUS.environmentVariable()).isEqualTo("WAITINGROOM_WAITING_STATUS");
    assertThat(GateSettings.COOKIE_SAME_SITE.environmentVariable()).isEqualTo("WAITINGROOM_COOKIE_SAME_SITE");
    assertThat(catchSetting(() -> GateSettings.REVOKE.parse("yes", SettingException.Source.INIT_PARAM, "revoke")).reason())
        .isEqualTo("revoke must be true or false but was 'yes'");
    // The root cause of a refusal is the refusal, which names the source.
    assertThat(text.getCause()).isNull();
  }

  @Test
  void textBecomesTheSettingsType() {
    SettingException.Source s = SettingException.Source.INIT_PARAM;
    assertThat(GateSettings.CHALLENGE_PENALTY.parse("1m", s, "challengePenalty")).isEqualTo(Duration.ofMinutes(1));
    assertThat(GateSettings.CHALLENGE_PENALTY.parse("45", s, "challengePenalty")).isEqualTo(Duration.ofSeconds(45));
    assertThat(GateSettings.CHALLENGE_PENALTY.parse("PT2M", s, "challengePenalty")).isEqualTo(Duration.ofMinutes(2));
    assertThat(GateSettings.COOKIE_SAME_SITE.parse("none", s, "cookieSameSite")).isEqualTo(SameSite.NONE);
    assertThat(GateSettings.IGNORE_PATHS.parse("/a/, /b *.css", s, "ignorePaths")).containsExactly("/a/", "/b", "*.css");
    assertThat(GateSettings.BRAND_COLOR.parse(" #ABC ", s, "brandColor")).isEqualTo("#abc");
    assertThat(GateSettings.LANGUAGE.parse("pt_BR", s, "language")).isEqualTo("pt-BR");
  }

  @Test
  void theChecksThatSpanSettingsBlameTheSettingTheirMessageNames() {
    SettingException sameSite = refused(b -> b.cookieSameSite(SameSite.NONE).cookieSecure(CookieSecure.NEVER));
    assertThat(sameSite.setting()).isEqualTo("cookieSameSite");
    SettingException host = refused(b -> b.cookieName("__Host-line").pathPrefix("/shop"));
    assertThat(host.setting()).isEqualTo("cookieName");
    assertThat(host.value()).isEqualTo("__Host-line");
    SettingException prefix = refused(b -> b.pathPrefix("shop"));
    assertThat(prefix.setting()).isEqualTo("pathPrefix");
    SettingException ignore = refused(b -> b.ignorePaths("/ok", "no-slash"));
    assertThat(ignore.setting()).isEqualTo("ignorePaths");
    assertThat(ignore.value()).isEqualTo(List.of("/ok", "no-slash").toString());
    SettingException language = refused(b -> b.language("tlh"));
    assertThat(language.setting()).isEqualTo("language");
    assertThat(language.getMessage()).contains("'tlh' has no texts");
  }

  @Test
  void bindReadsEachSettingUnderItsNameInTheSource() {
    Gate.Builder b = Gate.builder(room);
    java.util.Map<String, String> env = java.util.Map.of("WAITINGROOM_WAITING_STATUS", "429", "waitingStatus", "202");
    GateSettings.bind(b, SettingException.Source.ENVIRONMENT, env::get);
    assertThat(b.get(GateSettings.WAITING_STATUS)).isEqualTo(429);
    GateSettings.bind(b, SettingException.Source.INIT_PARAM,
        java.util.Map.of("waitingStatus", "202", "cookieSameSite", "strict")::get);
    assertThat(b.get(GateSettings.WAITING_STATUS)).isEqualTo(202);
    assertThat(b.get(GateSettings.COOKIE_SAME_SITE)).isEqualTo(SameSite.STRICT);
    assertThat(b.get(GateSettings.REVOKE)).isFalse(); // not given: left at its default
    SettingException bad = catchSetting(() -> GateSettings.bind(
        Gate.builder(room), SettingException.Source.INIT_PARAM, java.util.Map.of("rejectStatus", "500")::get));
    assertThat(bad.getMessage()).isEqualTo("init-param rejectStatus: rejectStatus must be 200, 403, 410, 429 or 503 but was 500");
  }

  @Test
  @SuppressWarnings("NullAway") // the null a caller without null checks could pass
  void aRequiredValueCannotBeSetToNothing() {
    assertThatThrownBy(() -> Gate.builder(room).set(GateSettings.WAITING_STATUS, null))
        .isInstanceOf(SettingException.class)
        .hasMessage("waitingStatus must be given (it has the default 200)");
  }

  private SettingException refused(Consumer<Gate.Builder> settings) {
    return catchSetting(() -> {
      Gate.Builder b = Gate.builder(room);
      settings.accept(b);
      b.build();
    });
  }

  private static SettingException catchSetting(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    Throwable t = org.assertj.core.api.Assertions.catchThrowable(call);
    assertThat(t).isInstanceOf(SettingException.class);
    return (SettingException) t;
  }
}
