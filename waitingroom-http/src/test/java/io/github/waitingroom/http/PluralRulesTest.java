package io.github.waitingroom.http;

import static io.github.waitingroom.http.PluralRules.Category.FEW;
import static io.github.waitingroom.http.PluralRules.Category.MANY;
import static io.github.waitingroom.http.PluralRules.Category.ONE;
import static io.github.waitingroom.http.PluralRules.Category.OTHER;
import static io.github.waitingroom.http.PluralRules.Category.TWO;
import static io.github.waitingroom.http.PluralRules.Category.ZERO;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The CLDR cardinal rules of the shipped languages, checked against CLDR's own examples. */
class PluralRulesTest {
  private static List<PluralRules.Category> of(String lang, long... ns) {
    List<PluralRules.Category> out = new ArrayList<>();
    for (long n : ns) {
      out.add(PluralRules.of(lang, n));
    }
    return out;
  }

  @Test
  void englishGermanDutch() {
    for (String lang : List.of("en", "de", "nl", "en-GB")) {
      assertThat(of(lang, 0, 1, 2, 5, 11, 21, 101, 1_000_000)).containsExactly(OTHER, ONE, OTHER, OTHER, OTHER, OTHER, OTHER, OTHER);
    }
  }

  @Test
  void frenchAndBrazilianPortugueseCountZeroAsOneAndMillionsAsMany() {
    for (String lang : List.of("fr", "pt", "pt-BR")) {
      assertThat(of(lang, 0, 1, 2, 17, 100, 1_000_000, 2_000_000, 1_000_001)).containsExactly(ONE, ONE, OTHER, OTHER, OTHER, MANY, MANY, OTHER);
    }
    assertThat(of("pt-PT", 0, 1, 2, 1_000_000)).containsExactly(OTHER, ONE, OTHER, MANY);
  }

  @Test
  void spanishAndItalian() {
    for (String lang : List.of("es", "it")) {
      assertThat(of(lang, 0, 1, 2, 1_000_000, 3_000_000, 1_500_000)).containsExactly(OTHER, ONE, OTHER, MANY, MANY, OTHER);
    }
  }

  @Test
  void polishHasOneFewAndMany() {
    assertThat(of("pl", 1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 24, 25, 102, 112, 0))
        .containsExactly(ONE, FEW, FEW, FEW, MANY, MANY, MANY, MANY, MANY, FEW, FEW, MANY, FEW, MANY, MANY);
    assertThat(PluralRules.categories("pl")).containsExactlyInAnyOrder(ONE, FEW, MANY, OTHER);
  }

  @Test
  void arabicHasAllSix() {
    assertThat(of("ar", 0, 1, 2, 3, 10, 11, 99, 100, 101, 102, 103, 111, 1000))
        .containsExactly(ZERO, ONE, TWO, FEW, FEW, MANY, MANY, OTHER, OTHER, OTHER, FEW, MANY, OTHER);
    assertThat(PluralRules.categories("ar")).containsExactlyInAnyOrder(ZERO, ONE, TWO, FEW, MANY, OTHER);
  }

  @Test
  void hebrewHasOneTwoAndOther() {
    assertThat(of("he", 0, 1, 2, 3, 10, 20, 100)).containsExactly(OTHER, ONE, TWO, OTHER, OTHER, OTHER, OTHER);
    assertThat(of("iw", 2)).containsExactly(TWO);
    assertThat(PluralRules.categories("he")).containsExactlyInAnyOrder(ONE, TWO, OTHER);
  }

  @Test
  void japaneseAndChineseDoNotInflect() {
    for (String lang : List.of("ja", "zh", "zh-Hant")) {
      assertThat(of(lang, 0, 1, 2, 1_000_000)).containsOnly(OTHER);
    }
  }

  @Test
  void russianForUserBundles() {
    assertThat(of("ru", 1, 2, 5, 11, 21, 22, 25, 111)).containsExactly(ONE, FEW, MANY, MANY, ONE, FEW, MANY, MANY);
    assertThat(PluralRules.has("ru")).isTrue();
    assertThat(PluralRules.has("xx")).isFalse();
    assertThat(of("xx", 1, 2)).containsExactly(ONE, OTHER);
  }
}
