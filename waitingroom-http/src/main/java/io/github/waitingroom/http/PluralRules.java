package io.github.waitingroom.http;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The CLDR plural rules (CLDR 46, cardinals) of whole numbers, for the languages whose texts the
 * waiting page ships and a few more that a user bundle may add. Only integers are ever counted on
 * the page (people, minutes, hours, seconds), so the operands reduce to {@code n = i}, {@code v =
 * 0}. A language without a rule here counts like English ({@code one} for 1, else {@code other});
 * {@link #has(String)} tells which ones have one.
 */
public final class PluralRules {
  /** The CLDR plural categories. */
  public enum Category {
    /** CLDR {@code zero} (Arabic 0). */
    ZERO,
    /** CLDR {@code one}. */
    ONE,
    /** CLDR {@code two} (Arabic, Hebrew). */
    TWO,
    /** CLDR {@code few} (Polish, Arabic, ...). */
    FEW,
    /** CLDR {@code many} (Polish, Arabic; French, Spanish, Italian, Portuguese for millions). */
    MANY,
    /** CLDR {@code other}: every language has it. */
    OTHER;

    /**
     * The category's name as a message key suffix: {@code one}, {@code few}, ...
     *
     * @return the lower-case name
     */
    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private static final Set<String> RULES =
      Set.of("en", "de", "nl", "sv", "da", "nb", "no", "fi", "et", "el", "bg", "hu", "tr", "ca", "it", "es",
          "fr", "pt", "pl", "ru", "uk", "be", "cs", "sk", "ar", "he", "iw", "ja", "zh", "ko", "vi", "th", "id",
          "ms", "fa", "hi");

  private PluralRules() {}

  /**
   * Whether a language has a rule of its own here (otherwise it counts like English).
   *
   * @param language a language code ({@code pl}), or a whole tag ({@code pt-BR})
   * @return whether its rule is implemented
   */
  public static boolean has(String language) {
    return RULES.contains(base(language));
  }

  private static String base(String tag) {
    int dash = tag.indexOf('-');
    return (dash < 0 ? tag : tag.substring(0, dash)).toLowerCase(Locale.ROOT);
  }

  /**
   * The category of a whole number in a language.
   *
   * @param language a language code or tag ({@code pl}, {@code pt-BR})
   * @param n a count, zero or more
   * @return its CLDR plural category
   */
  public static Category of(String language, long n) {
    long i = Math.abs(n);
    long mod10 = i % 10;
    long mod100 = i % 100;
    switch (base(language)) {
      case "ja", "zh", "ko", "vi", "th", "id", "ms":
        return Category.OTHER;
      case "fr":
        // one: i = 0,1; many: e = 0 and i != 0 and i % 1000000 = 0 and v = 0
        return i <= 1 ? Category.ONE : millions(i) ? Category.MANY : Category.OTHER;
      case "pt":
        // one: i = 0..1 (CLDR's pt, as spoken in Brazil; pt-PT counts like Spanish); many as French
        if (language.equalsIgnoreCase("pt-PT")) {
          return i == 1 ? Category.ONE : millions(i) ? Category.MANY : Category.OTHER;
        }
        return i <= 1 ? Category.ONE : millions(i) ? Category.MANY : Category.OTHER;
      case "es", "it", "ca":
        // one: n = 1 (it, ca: i = 1 and v = 0); many: e = 0 and i != 0 and i % 1000000 = 0 and v = 0
        return i == 1 ? Category.ONE : millions(i) ? Category.MANY : Category.OTHER;
      case "fa", "hi":
        // one: i = 0 or n = 1
        return i <= 1 ? Category.ONE : Category.OTHER;
      case "pl":
        // one: i = 1 and v = 0; few: v = 0 and i % 10 = 2..4 and i % 100 != 12..14; many: the other integers
        if (i == 1) {
          return Category.ONE;
        }
        return mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14) ? Category.FEW : Category.MANY;
      case "ru", "uk", "be":
        // one: v = 0 and i % 10 = 1 and i % 100 != 11; few: i % 10 = 2..4 and i % 100 != 12..14; many: else
        if (mod10 == 1 && mod100 != 11) {
          return Category.ONE;
        }
        return mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14) ? Category.FEW : Category.MANY;
      case "cs", "sk":
        // one: i = 1 and v = 0; few: i = 2..4 and v = 0; many: v != 0 (never for integers)
        return i == 1 ? Category.ONE : i >= 2 && i <= 4 ? Category.FEW : Category.OTHER;
      case "ar":
        // zero: n = 0; one: n = 1; two: n = 2; few: n % 100 = 3..10; many: n % 100 = 11..99
        if (i == 0) {
          return Category.ZERO;
        }
        if (i == 1) {
          return Category.ONE;
        }
        if (i == 2) {
          return Category.TWO;
        }
        if (mod100 >= 3 && mod100 <= 10) {
          return Category.FEW;
        }
        return mod100 >= 11 ? Category.MANY : Category.OTHER;
      case "he", "iw":
        // one: i = 1 and v = 0 or i = 0 and v != 0; two: i = 2 and v = 0 (CLDR 42 dropped "many")
        return i == 1 ? Category.ONE : i == 2 ? Category.TWO : Category.OTHER;
      default:
        // en, de, nl, sv, da, nb, fi, et, el, bg, hu, tr, ...: one: i = 1 and v = 0
        return i == 1 ? Category.ONE : Category.OTHER;
    }
  }

  private static boolean millions(long i) {
    return i != 0 && i % 1_000_000 == 0;
  }

  /**
   * The categories that whole numbers take in a language: what a bundle must have a text for.
   *
   * @param language a language code or tag
   * @return the categories, {@link Category#OTHER} always included
   */
  public static Set<Category> categories(String language) {
    Set<Category> all = EnumSet.of(Category.OTHER);
    for (long n = 0; n <= 200; n++) {
      all.add(of(language, n));
    }
    all.add(of(language, 1_000_000));
    return all;
  }
}
