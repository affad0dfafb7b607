package io.github.waitingroom.http;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Chooses the language of a waiting page from the request's {@code Accept-Language} header
 * (RFC 9110 section 12.5.4, matched by RFC 4647 lookup): the ranges by falling quality ({@code q};
 * equal ones in the order given, {@code q=0} never), each tried as it is and then with its last
 * subtag cut off ({@code de-CH} finds {@code de}), until one names a language that the room has
 * texts for. {@code *} takes the room's default. Traditional Chinese ({@code zh-TW}, {@code zh-HK},
 * {@code zh-MO}, {@code zh-Hant}) is never served the shipped Simplified Chinese texts: it takes a
 * {@code zh-Hant} (or its own region's) bundle when there is one, else the next range.
 */
final class Languages {
  private Languages() {}

  private record Range(String tag, double q, int order) {}

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
    for (Range r : parse(acceptLanguage)) {
      if (r.tag.equals("*")) {
        return defaultTag;
      }
      String found = lookup(r.tag, available);
      if (found != null) {
        return found;
      }
    }
    return defaultTag;
  }

  /** The ranges of a header with {@code q > 0}, best first; malformed entries are skipped. */
  static List<Range> parse(String header) {
    List<Range> ranges = new ArrayList<>();
    int order = 0;
    for (String part : header.split(",")) {
      String[] pieces = part.split(";");
      String tag = pieces[0].trim();
      if (tag.isEmpty() || tag.length() > 64 || !tag.matches("\\*|[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*")) {
        continue;
      }
      double q = 1;
      boolean bad = false;
      for (int i = 1; i < pieces.length; i++) {
        String p = pieces[i].trim();
        if (p.regionMatches(true, 0, "q=", 0, 2)) {
          try {
            q = Double.parseDouble(p.substring(2).trim());
          } catch (NumberFormatException e) {
            bad = true;
          }
        }
      }
      if (bad || !(q > 0) || q > 1) {
        continue;
      }
      ranges.add(new Range(tag.toLowerCase(Locale.ROOT), q, order++));
    }
    ranges.sort(Comparator.comparingDouble((Range r) -> -r.q).thenComparingInt(r -> r.order));
    return ranges;
  }

  private static @Nullable String lookup(String range, Collection<String> available) {
    boolean traditional = isTraditionalChinese(range);
    String tag = range;
    while (true) {
      for (String a : available) {
        if (a.equalsIgnoreCase(tag) && !(traditional && !isTraditionalChinese(a))) {
          return a;
        }
      }
      if (traditional && tag.startsWith("zh-") && !tag.equals("zh-hant")) {
        // zh-TW, zh-Hant-TW: try zh-Hant before giving up (never plain zh, which is Simplified).
        for (String a : available) {
          if (a.equalsIgnoreCase("zh-Hant")) {
            return a;
          }
        }
      }
      int dash = tag.lastIndexOf('-');
      if (dash < 0) {
        return null;
      }
      tag = tag.substring(0, dash);
    }
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
