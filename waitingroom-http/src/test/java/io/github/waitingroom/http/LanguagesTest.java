package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Accept-Language: q-values, truncation, wildcards, the default and the override. */
class LanguagesTest {
  private static final List<String> AVAILABLE = Messages.SHIPPED;

  private static String choose(String header) {
    return Languages.choose(header, AVAILABLE, "en", null);
  }

  @Test
  void theBestQualityTheRoomHasWins() {
    assertThat(choose("de")).isEqualTo("de");
    assertThat(choose("sv, de;q=0.5, fr;q=0.8")).isEqualTo("fr");
    assertThat(choose("fr;q=0.8, de;q=0.8")).isEqualTo("fr"); // equal q: the order given
    assertThat(choose("de;q=0.1, pl")).isEqualTo("pl"); // no q is 1
    assertThat(choose("FR-ca;Q=0.9")).isEqualTo("fr");
    assertThat(choose("ja;q=0, pl;q=0.2")).isEqualTo("pl"); // q=0: not acceptable
  }

  @Test
  void regionsFallBackToTheirLanguage() {
    assertThat(choose("de-CH")).isEqualTo("de");
    assertThat(choose("pt-BR,pt;q=0.9,en;q=0.8")).isEqualTo("pt");
    assertThat(choose("zh-CN")).isEqualTo("zh");
    assertThat(choose("zh-Hans-CN")).isEqualTo("zh");
    assertThat(choose("he-IL")).isEqualTo("he");
    assertThat(choose("ar-EG,ar;q=0.9")).isEqualTo("ar");
  }

  @Test
  void traditionalChineseIsNotServedSimplified() {
    assertThat(choose("zh-TW, ja;q=0.5")).isEqualTo("ja");
    assertThat(choose("zh-Hant-HK")).isEqualTo("en");
    assertThat(Languages.choose("zh-TW", List.of("en", "zh", "zh-Hant"), "en", null)).isEqualTo("zh-Hant");
  }

  @Test
  void unknownOrMissingOrMalformedTakeTheDefault() {
    assertThat(Languages.choose(null, AVAILABLE, "de", null)).isEqualTo("de");
    assertThat(Languages.choose("", AVAILABLE, "de", null)).isEqualTo("de");
    assertThat(Languages.choose("sv, fi;q=0.5", AVAILABLE, "de", null)).isEqualTo("de");
    assertThat(Languages.choose("*", AVAILABLE, "it", null)).isEqualTo("it");
    assertThat(Languages.choose("sv, *;q=0.5, fr;q=0.1", AVAILABLE, "it", null)).isEqualTo("it");
    assertThat(Languages.choose("<script>, ;;;, fr;q=abc, de;q=2, nl", AVAILABLE, "it", null)).isEqualTo("nl");
  }

  @Test
  void theJdkParsesTheHeaderEntryByEntry() {
    // Each entry goes through Locale.LanguageRange.parse: one it refuses costs only itself.
    assertThat(choose("de;q=2, fr;q=0.5")).isEqualTo("fr");
    assertThat(choose("x-very-long-private-use-tag-that-nobody-has, it;q=0.3")).isEqualTo("it");
    assertThat(choose("de-*-CH, pl;q=0.4")).isEqualTo("pl");
    assertThat(choose(" pl ; q=0.9 , de ; q=0.8 ")).isEqualTo("pl"); // spaces around ";" as before
    assertThat(Languages.parse("fr;q=0.8, de;q=0.8, en").stream().map(Locale.LanguageRange::getRange))
        .containsExactly("en", "fr", "de");
  }

  @Test
  void theOverrideWins() {
    assertThat(Languages.choose("de, fr", AVAILABLE, "en", "pl")).isEqualTo("pl");
    assertThat(Languages.choose(null, AVAILABLE, "en", "ar")).isEqualTo("ar");
  }

  @Test
  void arabicAndHebrewAreRightToLeft() {
    assertThat(Languages.rightToLeft("ar")).isTrue();
    assertThat(Languages.rightToLeft("he")).isTrue();
    assertThat(Languages.rightToLeft("fa-IR")).isTrue();
    assertThat(Languages.rightToLeft("en")).isFalse();
    assertThat(Languages.rightToLeft("ja")).isFalse();
  }
}
