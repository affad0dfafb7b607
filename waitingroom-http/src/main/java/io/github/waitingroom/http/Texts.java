package io.github.waitingroom.http;

import java.text.DecimalFormatSymbols;
import java.text.NumberFormat;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DecimalStyle;
import java.time.format.FormatStyle;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The texts of one language, as {@link Messages} resolved them (fallbacks filled in), with its
 * number and time formats: what the waiting page and the JSON status say in it. Thread-safe.
 */
final class Texts {
  final String tag;
  final Locale locale;
  final boolean rightToLeft;
  private final Map<String, String> texts;
  private final DateTimeFormatter time;

  Texts(String tag, Map<String, String> texts) {
    this.tag = tag;
    this.locale = Locale.forLanguageTag(tag);
    this.rightToLeft = Languages.rightToLeft(tag);
    this.texts = Map.copyOf(texts);
    // The digits of the language, as its numbers have them (Arabic-Indic in Arabic).
    this.time =
        DateTimeFormatter.ofLocalizedTime(FormatStyle.MEDIUM)
            .withLocale(locale)
            .withDecimalStyle(DecimalStyle.of(locale))
            .withZone(ZoneOffset.UTC);
  }

  /** These texts with some replaced (keys the page knows, see {@link Messages#knows}). */
  Texts with(Map<String, String> replaced) {
    Map<String, String> all = new LinkedHashMap<>(texts);
    all.putAll(replaced);
    return new Texts(tag, all);
  }

  /** The raw text of a key (plural keys with their suffix), or {@code null}. */
  @Nullable String raw(String key) {
    return texts.get(key);
  }

  /** A plain text with its arguments ({@code name, value, name, value ...}) filled in. */
  String text(String key, String... args) {
    String t = texts.get(key);
    if (t == null) {
      throw new IllegalArgumentException("no text '" + key + "' for " + tag);
    }
    return fill(t, args);
  }

  /**
   * A counted text: the one of {@code n}'s plural category (else {@code .other}), with {@code
   * {count}} the number in local digits and the other arguments filled in.
   */
  String counted(String key, long n, String... args) {
    String t = texts.get(key + "." + PluralRules.of(tag, n).key());
    if (t == null) {
      t = texts.get(key + ".other");
    }
    if (t == null) {
      throw new IllegalArgumentException("no text '" + key + ".other' for " + tag);
    }
    String[] all = new String[args.length + 2];
    all[0] = "count";
    all[1] = number(n);
    System.arraycopy(args, 0, all, 2, args.length);
    return fill(t, all);
  }

  /** A whole number in local digits and grouping ({@code 1.234} in German, {@code ١٬٢٣٤} in Persian). */
  String number(long n) {
    return NumberFormat.getIntegerInstance(locale).format(n);
  }

  /**
   * The zero of the digits in which {@link #number} and {@link #clock} write (the JDK's locale data
   * for the language: {@code 0}, or {@code ٠} in Arabic on Java 17, whose locale data is older than
   * Java 25's). The page's own countdown writes in the same digits, whatever the browser's
   * locale data says.
   */
  char zeroDigit() {
    return DecimalFormatSymbols.getInstance(locale).getZeroDigit();
  }

  /** A countdown: {@code 4:05} or {@code 1:02:05} (hours, minutes, seconds), in local digits. */
  String clock(long seconds) {
    long s = Math.max(0, seconds);
    NumberFormat two = NumberFormat.getIntegerInstance(locale);
    two.setMinimumIntegerDigits(2);
    two.setGroupingUsed(false);
    NumberFormat one = NumberFormat.getIntegerInstance(locale);
    one.setGroupingUsed(false);
    long h = s / 3600;
    long m = s / 60 % 60;
    return h > 0
        ? one.format(h) + ":" + two.format(m) + ":" + two.format(s % 60)
        : one.format(m) + ":" + two.format(s % 60);
  }

  /** A time of day in UTC, in the local format, followed by "UTC". */
  String time(Instant t) {
    return time.format(t) + " UTC";
  }

  /** "about 3 minutes", "less than a minute", "unknown": a wait in seconds (-1 unknown). */
  String waitText(long seconds) {
    if (seconds < 0) {
      return text("waitUnknown");
    }
    if (seconds < 60) {
      return text("waitLessThanMinute");
    }
    return text("waitAbout", "duration", duration(seconds));
  }

  /** "3 minutes", "2 hours 5 minutes", "less than a minute": a duration in seconds, rounded up to minutes. */
  String duration(long seconds) {
    if (seconds < 60) {
      return text("waitLessThanMinute");
    }
    long minutes = (seconds + 59) / 60;
    if (minutes < 120) {
      return counted("minutes", minutes);
    }
    long h = minutes / 60;
    long m = minutes % 60;
    if (m == 0) {
      return counted("hours", h);
    }
    return text("hoursAndMinutes", "hours", counted("hours", h), "minutes", counted("minutes", m));
  }

  /** The 25-75 % range of a wait: "2 to 4 minutes", "up to 3 minutes", "1 to 2 hours". */
  String range(long lowSeconds, long highSeconds) {
    if (lowSeconds < 0 || highSeconds < 0) {
      return text("waitUnknown");
    }
    long hi = (highSeconds + 59) / 60;
    long lo = lowSeconds / 60;
    if (hi <= 1) {
      return text("waitLessThanMinute");
    }
    if (hi < 120) {
      if (lo >= hi) {
        return text("waitAbout", "duration", counted("minutes", hi));
      }
      if (lo == 0) {
        return text("waitUpTo", "duration", counted("minutes", hi));
      }
      return counted("rangeMinutes", hi, "low", number(lo), "high", number(hi));
    }
    long hiH = (hi + 59) / 60;
    long loH = lo / 60;
    if (loH >= hiH) {
      return text("waitAbout", "duration", counted("hours", hiH));
    }
    if (loH == 0) {
      return text("waitUpTo", "duration", counted("hours", hiH));
    }
    return counted("rangeHours", hiH, "low", number(loH), "high", number(hiH));
  }

  private static String fill(String t, String... args) {
    if (args.length == 0 || t.indexOf('{') < 0) {
      return t;
    }
    StringBuilder out = new StringBuilder(t.length() + 16);
    int at = 0;
    while (at < t.length()) {
      int open = t.indexOf('{', at);
      int close = open < 0 ? -1 : t.indexOf('}', open);
      if (close < 0) {
        out.append(t, at, t.length());
        break;
      }
      out.append(t, at, open);
      String name = t.substring(open + 1, close);
      String value = null;
      for (int i = 0; i + 1 < args.length; i += 2) {
        if (args[i].equals(name)) {
          value = args[i + 1];
        }
      }
      out.append(value != null ? value : t.substring(open, close + 1));
      at = close + 1;
    }
    return out.toString();
  }
}
