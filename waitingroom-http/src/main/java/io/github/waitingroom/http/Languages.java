package io.github.waitingroom.http;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Locale.LanguageRange;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Chooses the language of a waiting page from the request's {@code Accept-Language} header
 * (RFC 9110 section 12.5.4), parsed by the JDK's {@link LanguageRange#parse(String)} and matched
 * by its RFC 4647 lookup ({@link Locale#lookupTag}): the ranges by falling quality ({@code q};
 * equal ones in the order given, {@code q=0} never), each tried as it is and then with its last
 * subtag cut off ({@code de-CH} finds {@code de}), until one names a language that the room has
 * texts for. An entry the JDK refuses is skipped, not the whole header. {@code *} takes the room's default. Traditional Chinese ({@code zh-TW}, {@code zh-HK},
 * {@code zh-MO}, {@code zh-Hant}) is never served the shipped Simplified Chinese texts: it takes a
 * {@code zh-Hant} (or its own region's) bundle when there is one, else the next range.
 */
final class Languages {
  private static final Pattern OWS = Pattern.compile("[ \t]*([;=])[ \t]*");

  private Languages() {}

  /**
   * The language for a request.
   *
   * @param acceptLanguage the header, or {@code null}
   * @param available the tags with texts, in their canonical case ({@code en}, {@code pt-BR})
   * @param defaultTag the room's default (one of {@code available})
   * @param override the room's fixed language (one of {@code available}), or {@code null} to follow the header
   * @return one of {@code available}
   */
  static String choose(
      @Nullable String acceptLanguage, Collection<String> available, String defaultTag, @Nullable String override) {
    if (override != null) {
      return override;
    }
    if (acceptLanguage == null || acceptLanguage.isBlank()) {
      return defaultTag;
    }
    for (LanguageRange r : parse(acceptLanguage)) {
      String range = r.getRange();
      if (range.equals("*")) {
        return defaultTag;
      }
      String found;
      if (isTraditionalChinese(range)) {
        // zh-TW, zh-Hant-TW: its own bundle, else zh-Hant; never plain zh, which is Simplified.
        List<String> traditional = available.stream().filter(Languages::isTraditionalChinese).toList();
        found = Locale.lookupTag(List.of(r), traditional);
        if (found == null && !range.equals("zh-hant")) {
          found = traditional.stream().filter(a -> a.equalsIgnoreCase("zh-Hant")).findFirst().orElse(null);
        }
      } else {
        found = Locale.lookupTag(List.of(r), available);
      }
      if (found != null) {
        return found;
      }
    }
    return defaultTag;
  }

  /**
   * The ranges of a header with {@code q > 0}, best first (equal ones in the order given), each
   * parsed by {@link LanguageRange#parse(String)}; an entry it refuses, or an extended range ({@code
   * de-*-CH}), is skipped, not the whole header.
   */
  static List<LanguageRange> parse(String header) {
    List<LanguageRange> ranges = new ArrayList<>();
    for (String part : header.split(",")) {
      // Optional white space around ";" and "=" (RFC 9110), which the JDK's parser refuses.
      String entry = OWS.matcher(part.trim()).replaceAll("$1");
      if (entry.isEmpty() || entry.length() > 80) {
        continue;
      }
      List<LanguageRange> parsed;
      try {
        parsed = LanguageRange.parse(entry);
      } catch (IllegalArgumentException e) {
        continue;
      }
      for (LanguageRange r : parsed) {
        String range = r.getRange();
        if (r.getWeight() > 0 && (range.equals("*") || range.indexOf('*') < 0)) {
          ranges.add(r);
        }
      }
    }
    // A stable sort: equal weights keep the order given.
    ranges.sort(Comparator.comparingDouble((LanguageRange r) -> -r.getWeight()));
    return ranges;
  }

  private static boolean isTraditionalChinese(String tag) {
    String t = tag.toLowerCase(Locale.ROOT);
    return t.equals("zh-tw") || t.equals("zh-hk") || t.equals("zh-mo") || t.startsWith("zh-hant");
  }

  /**
   * Whether a language is written right to left (Arabic, Hebrew, Persian, Urdu, Pashto, Yiddish,
   * Dhivehi, Sindhi, Uyghur, Central Kurdish).
   *
   * @param tag a language tag
   * @return whether the page takes {@code dir="rtl"}
   */
  static boolean rightToLeft(String tag) {
    String t = tag.toLowerCase(Locale.ROOT);
    int dash = t.indexOf('-');
    String lang = dash < 0 ? t : t.substring(0, dash);
    return switch (lang) {
      case "ar", "he", "iw", "fa", "ur", "ps", "yi", "dv", "sd", "ug", "ckb" -> true;
      default -> false;
    };
  }
}
