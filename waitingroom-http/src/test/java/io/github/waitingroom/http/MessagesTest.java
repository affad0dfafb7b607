package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped texts: every key in every language, with a text for every plural category the
 * language has, translated, with the arguments English has; and the formats built from them.
 */
class MessagesTest {
  private static final Pattern ARG = Pattern.compile("\\{([a-z]+)}");
  private static final Messages M = Messages.builtIn();

  /** Texts that may read the same as English in a language: names, and words both languages share. */
  private static final Map<String, Set<String>> SAME_AS_ENGLISH =
      Map.of(
          "fr", Set.of("minutes.one", "minutes.other"),
          "de", Set.of("minutes.one"));

  private static Set<String> args(String text) {
    Set<String> out = new TreeSet<>();
    Matcher m = ARG.matcher(text);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  @Test
  void twelveLanguagesAreShipped() {
    assertThat(M.tags()).containsExactlyInAnyOrder("en", "de", "fr", "es", "it", "pt", "nl", "pl", "ja", "zh", "ar", "he");
  }

  @Test
  void everyLanguageHasEveryKeyAndEveryPluralCategory() throws Exception {
    Texts en = M.texts("en");
    for (String tag : Messages.SHIPPED) {
      // Read the file itself: the loader would quietly fill a gap from English.
      java.util.Properties p = new java.util.Properties();
      try (var in = Messages.class.getResourceAsStream("i18n/messages_" + tag + ".properties")) {
        p.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
      }
      for (String key : M.plainKeys()) {
        assertThat(p.getProperty(key)).as(tag + ": " + key).isNotBlank();
        assertThat(args(p.getProperty(key))).as(tag + ": arguments of " + key).isEqualTo(args(en.text(key)));
      }
      Set<String> expected = new TreeSet<>();
      for (String key : M.pluralKeys()) {
        for (PluralRules.Category c : PluralRules.categories(tag)) {
          String full = key + "." + c.key();
          expected.add(full);
          String text = p.getProperty(full);
          assertThat(text).as(tag + ": " + full).isNotBlank();
          Set<String> allowed = args(String.valueOf(en.raw(key + ".other")));
          assertThat(allowed).as(tag + ": arguments of " + full).containsAll(args(text));
          // A category that covers more than one number must show the number.
          long members = java.util.stream.LongStream.rangeClosed(key.equals("usersAheadSentence") ? 0 : 1, 200)
              .filter(n -> PluralRules.of(tag, n) == c).count();
          if (members > 1 && allowed.contains("count")) {
            assertThat(text).as(tag + ": " + full + " covers " + members + " numbers").contains("{count}");
          }
        }
      }
      // Nothing but the schema's keys (a typo would be a key nobody reads).
      Set<String> extra = new TreeSet<>(p.stringPropertyNames());
      extra.removeAll(M.plainKeys());
      extra.removeAll(expected);
      assertThat(extra).as(tag + ": keys the page does not use").isEmpty();
    }
  }

  @Test
  void noLanguageButEnglishReadsLikeEnglish() {
    Texts en = M.texts("en");
    for (String tag : Messages.SHIPPED) {
      if (tag.equals("en")) {
        continue;
      }
      Texts t = M.texts(tag);
      for (String key : M.plainKeys()) {
        String text = t.text(key);
        if (ARG.matcher(text).replaceAll("").isBlank() || SAME_AS_ENGLISH.getOrDefault(tag, Set.of()).contains(key)) {
          continue;
        }
        assertThat(text).as(tag + ": " + key).isNotEqualTo(en.text(key));
      }
      for (String key : M.pluralKeys()) {
        String text = String.valueOf(t.raw(key + ".other"));
        if (SAME_AS_ENGLISH.getOrDefault(tag, Set.of()).contains(key + ".other")) {
          continue;
        }
        assertThat(text).as(tag + ": " + key + ".other").isNotEqualTo(en.raw(key + ".other"));
      }
    }
  }

  @Test
  void countsAndDurationsReadNaturally() {
    Texts en = M.texts("en");
    assertThat(en.waitText(-1)).isEqualTo("unknown");
    assertThat(en.waitText(59)).isEqualTo("less than a minute");
    assertThat(en.waitText(60)).isEqualTo("about 1 minute");
    assertThat(en.waitText(61)).isEqualTo("about 2 minutes");
    assertThat(en.waitText(2 * 3600)).isEqualTo("about 2 hours");
    assertThat(en.waitText(3 * 3600 + 60)).isEqualTo("about 3 hours 1 minute");
    assertThat(en.range(90, 250)).isEqualTo("1 to 5 minutes");
    assertThat(en.range(10, 170)).isEqualTo("up to 3 minutes");
    assertThat(en.range(0, 30)).isEqualTo("less than a minute");
    assertThat(en.range(3 * 3600, 5 * 3600)).isEqualTo("3 to 5 hours");
    assertThat(en.counted("usersAheadSentence", 1)).isEqualTo("1 person is ahead of you.");
    assertThat(en.counted("usersAheadSentence", 1234)).isEqualTo("1,234 people are ahead of you.");

    Texts pl = M.texts("pl");
    assertThat(pl.counted("minutes", 1)).isEqualTo("1 minuta");
    assertThat(pl.counted("minutes", 3)).isEqualTo("3 minuty");
    assertThat(pl.counted("minutes", 5)).isEqualTo("5 minut");
    assertThat(pl.counted("minutes", 22)).isEqualTo("22 minuty");
    assertThat(pl.counted("usersAheadSentence", 12)).isEqualTo("Przed Tobą jest 12 osób.");
    assertThat(pl.counted("usersAheadSentence", 1234)).isEqualTo("Przed Tobą są 1\u00a0234 osoby.");

    Texts ar = M.texts("ar");
    assertThat(ar.counted("minutes", 1)).isEqualTo("دقيقة واحدة");
    assertThat(ar.counted("minutes", 2)).isEqualTo("دقيقتان");
    // In the digits of the JDK's locale data for Arabic: Arabic-Indic on Java 17, Latin on Java 25.
    assertThat(ar.counted("minutes", 3)).isEqualTo(inDigitsOf(ar, "3") + " دقائق");
    assertThat(ar.counted("minutes", 11)).isEqualTo(inDigitsOf(ar, "11") + " دقيقة");
    assertThat(ar.counted("usersAheadSentence", 0)).isEqualTo("لا أحد قبلك.");
    assertThat(ar.rightToLeft).isTrue();

    Texts fr = M.texts("fr");
    assertThat(fr.counted("usersAheadSentence", 0)).isEqualTo("0 personne devant vous.");
    assertThat(fr.counted("usersAheadSentence", 2_000_000)).isEqualTo("2\u202f000\u202f000 de personnes devant vous.");
    assertThat(M.texts("de").waitText(3 * 3600 + 600)).isEqualTo("etwa 3 Stunden und 10 Minuten");
    assertThat(M.texts("he").counted("hours", 2)).isEqualTo("שעתיים");
    assertThat(M.texts("ja").waitText(600)).isEqualTo("約10分");
  }

  @Test
  void numbersAndTimesFollowTheLanguage() {
    assertThat(M.texts("de").number(1234567)).isEqualTo("1.234.567");
    assertThat(M.texts("en").number(1234567)).isEqualTo("1,234,567");
    assertThat(new Texts("fa", Map.of()).number(1234)).isEqualTo("۱٬۲۳۴");
    assertThat(M.texts("ar").number(12)).isEqualTo(inDigitsOf(M.texts("ar"), "12"));
    Instant t = Instant.parse("2026-11-30T14:05:09Z");
    // The JDK's CLDR puts a space before PM (a narrow one from CLDR 42, JDK 20).
    assertThat(M.texts("en").time(t)).matches("2:05:09[ \u202f]PM UTC");
    assertThat(M.texts("de").time(t)).isEqualTo("14:05:09 UTC");
    // A time in the digits of the language's numbers, whichever the JDK's locale data has.
    assertThat(M.texts("ar").time(t)).startsWith(inDigitsOf(M.texts("ar"), "2:05:09"));
    assertThat(new Texts("fa", Map.of()).time(t)).startsWith("۱۴:۰۵:۰۹");
    assertThat(new Texts("fa", Map.of()).clock(3725)).isEqualTo("۱:۰۲:۰۵");
  }

  /** {@code text} with its digits in those that {@code texts} write numbers in. */
  private static String inDigitsOf(Texts texts, String text) {
    StringBuilder out = new StringBuilder();
    for (char c : text.toCharArray()) {
      out.append(c >= '0' && c <= '9' ? (char) (texts.zeroDigit() + c - '0') : c);
    }
    return out.toString();
  }

  @Test
  void aDirectoryOverridesKeysAndAddsLanguages(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("messages_en.properties"), "heading=Almost there\n", StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve("messages_sv.properties"),
        "heading=Du står i kö\nminutes.one={count} minut\nminutes.other={count} minuter\n",
        StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("messages_pt_BR.properties"), "heading=Você está na fila!\n", StandardCharsets.UTF_8);
    Messages m = Messages.load(dir, List.of());
    assertThat(m.texts("en").text("heading")).isEqualTo("Almost there");
    assertThat(m.texts("en").text("title")).isEqualTo("You are in line");
    assertThat(m.texts("sv").text("heading")).isEqualTo("Du står i kö");
    assertThat(m.texts("sv").counted("minutes", 5)).isEqualTo("5 minuter");
    assertThat(m.texts("sv").text("title")).isEqualTo("You are in line"); // missing: English, logged
    assertThat(m.find("pt_br")).isEqualTo("pt-BR");
    assertThat(m.texts("pt-BR").text("heading")).isEqualTo("Você está na fila!");
    assertThat(m.texts("pt-BR").text("title")).isEqualTo("Você está na fila"); // from pt
    assertThat(Languages.choose("pt-BR", m.tags(), "en", null)).isEqualTo("pt-BR");
    assertThat(Languages.choose("pt-PT", m.tags(), "en", null)).isEqualTo("pt");
  }

  @Test
  void theClassPathOverridesKeysAndAddsLanguages(@TempDir Path root) throws Exception {
    Path dir = Files.createDirectories(root.resolve("waitingroom"));
    Files.writeString(dir.resolve("messages_de.properties"), "heading=Gleich geht es los\n", StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("messages_eo.properties"), "heading=Vi estas en la vico\n", StandardCharsets.UTF_8);
    Thread thread = Thread.currentThread();
    ClassLoader before = thread.getContextClassLoader();
    try (java.net.URLClassLoader cl = new java.net.URLClassLoader(new java.net.URL[] {root.toUri().toURL()}, before)) {
      thread.setContextClassLoader(cl);
      Messages m = Messages.load(null, List.of());
      assertThat(m.texts("de").text("heading")).isEqualTo("Gleich geht es los");
      assertThat(m.texts("de").text("title")).isEqualTo("Sie sind in der Warteschlange");
      assertThat(m.texts("eo").text("heading")).isEqualTo("Vi estas en la vico");
      assertThat(m.tags()).contains("eo").hasSize(13);
    } finally {
      thread.setContextClassLoader(before);
    }
  }

  @Test
  void aMissingDirectoryIsNamed(@TempDir Path dir) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Messages.load(dir.resolve("nope"), List.of()))
        .withMessageContaining("messagesDirectory")
        .withMessageContaining("nope");
  }
}
