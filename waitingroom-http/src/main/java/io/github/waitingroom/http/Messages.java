package io.github.waitingroom.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The waiting page's texts in every language the room has: the shipped bundles
 * ({@code io/github/waitingroom/http/i18n/messages_<tag>.properties}, UTF-8), then, key by key on
 * top, every {@code waitingroom/messages_<tag>.properties} on the class path (for any ISO 639
 * language, and for the tags the room is configured with), then every {@code
 * messages_<tag>.properties} in the messages directory, if one is set. A tag is written with
 * {@code -} or {@code _} ({@code pt-BR}, {@code pt_BR}).
 *
 * <p>A key missing from a language is taken from its parent tag ({@code pt-BR} from {@code pt}),
 * then from English, and logged once at start-up. A text is plain text with named arguments in
 * braces ({@code {count}}); a counted text has one key per CLDR plural category ({@code
 * minutes.one}, {@code minutes.few}, {@code minutes.other}; see {@link PluralRules}).
 */
final class Messages {
  private static final Logger LOG = LoggerFactory.getLogger(Messages.class);

  /** The languages shipped with the library. */
  static final List<String> SHIPPED =
      List.of("en", "de", "fr", "es", "it", "pt", "nl", "pl", "ja", "zh", "ar", "he");

  private static final String BUILT_IN = "/io/github/waitingroom/http/i18n/messages_";
  private static final String USER = "waitingroom/messages_";
  private static final Pattern PLURAL_KEY = Pattern.compile("(.+)\\.(zero|one|two|few|many|other)");
  private static final Pattern FILE = Pattern.compile("messages_([A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*)\\.properties");

  /** Canonical tag to its texts (plural keys with their suffix), fallbacks resolved. */
  private final Map<String, Texts> byTag;
  private final Set<String> pluralKeys;
  private final Set<String> plainKeys;

  private Messages(Map<String, Texts> byTag, Set<String> pluralKeys, Set<String> plainKeys) {
    this.byTag = byTag;
    this.pluralKeys = pluralKeys;
    this.plainKeys = plainKeys;
  }

  /** The shipped texts only. */
  static Messages builtIn() {
    return load(null, List.of());
  }

  /**
   * Loads the texts.
   *
   * @param directory the messages directory (a setting), or {@code null}
   * @param configured further tags to look for on the class path (the room's languages)
   * @throws IllegalArgumentException when the directory cannot be read or a file has no {@code .other} text
   */
  static Messages load(@Nullable Path directory, List<String> configured) {
    Map<String, Map<String, String>> raw = new LinkedHashMap<>();
    for (String tag : SHIPPED) {
      Map<String, String> m = new LinkedHashMap<>();
      readResource(Messages.class.getResource(BUILT_IN + tag + ".properties"), m, "built-in " + tag);
      raw.put(tag, m);
    }
    ClassLoader cl = Thread.currentThread().getContextClassLoader();
    if (cl == null) {
      cl = Messages.class.getClassLoader();
    }
    Set<String> probe = new LinkedHashSet<>(SHIPPED);
    probe.addAll(List.of(Locale.getISOLanguages()));
    probe.addAll(configured);
    for (String tag : probe) {
      for (String name : new LinkedHashSet<>(List.of(tag, tag.replace('-', '_')))) {
        try {
          for (URL url : Collections.list(cl.getResources(USER + name + ".properties"))) {
            readResource(url, raw.computeIfAbsent(canonical(tag, raw), t -> new LinkedHashMap<>()), url.toString());
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    if (directory != null) {
      if (!Files.isDirectory(directory)) {
        throw new IllegalArgumentException("messagesDirectory '" + directory + "' is not a readable directory");
      }
      try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "messages_*.properties")) {
        List<Path> sorted = new ArrayList<>();
        files.forEach(sorted::add);
        Collections.sort(sorted);
        for (Path f : sorted) {
          var m = FILE.matcher(f.getFileName().toString());
          if (!m.matches()) {
            continue;
          }
          String tag = canonical(m.group(1).replace('_', '-'), raw);
          try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            read(r, raw.computeIfAbsent(tag, t -> new LinkedHashMap<>()));
          }
        }
      } catch (IOException e) {
        throw new IllegalArgumentException("messagesDirectory '" + directory + "' cannot be read: " + e, e);
      }
    }
    // The English bundle is the schema: its keys are what every language needs.
    Map<String, String> english = Objects.requireNonNull(raw.get("en"), "English texts");
    Set<String> pluralKeys = new TreeSet<>();
    Set<String> plainKeys = new TreeSet<>();
    for (String key : english.keySet()) {
      var m = PLURAL_KEY.matcher(key);
      if (m.matches()) {
        pluralKeys.add(m.group(1));
      } else {
        plainKeys.add(key);
      }
    }
    Map<String, Texts> byTag = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (Map.Entry<String, Map<String, String>> e : raw.entrySet()) {
      String tag = e.getKey();
      Map<String, String> resolved = new LinkedHashMap<>();
      List<String> missing = new ArrayList<>();
      for (String key : plainKeys) {
        String v = find(raw, tag, key);
        if (v == null) {
          missing.add(key);
          v = english.get(key);
        }
        resolved.put(key, v);
      }
      for (String key : pluralKeys) {
        for (PluralRules.Category c : PluralRules.categories(tag)) {
          String full = key + "." + c.key();
          String v = find(raw, tag, full);
          if (v == null && c != PluralRules.Category.OTHER) {
            continue; // falls back to .other when formatting
          }
          if (v == null) {
            missing.add(full);
            v = english.get(full);
          }
          resolved.put(full, v);
        }
      }
      if (!missing.isEmpty()) {
        LOG.warn("Waiting page texts for '{}' lack {}: taken from English", tag, missing);
      }
      if (!PluralRules.has(tag)) {
        LOG.warn("No plural rule for '{}': its counted texts use 'one' for 1 and 'other' for every other number", tag);
      }
      byTag.put(tag, new Texts(tag, resolved));
    }
    return new Messages(byTag, pluralKeys, plainKeys);
  }

  /** The tag as already known (case-insensitively), or as given with a canonical case. */
  private static String canonical(String tag, Map<String, ?> known) {
    for (String k : known.keySet()) {
      if (k.equalsIgnoreCase(tag)) {
        return k;
      }
    }
    return Locale.forLanguageTag(tag.replace('_', '-')).toLanguageTag();
  }

  private static @Nullable String find(Map<String, Map<String, String>> raw, String tag, String key) {
    String t = tag;
    while (true) {
      Map<String, String> m = raw.get(t);
      if (m != null && m.get(key) != null) {
        return m.get(key);
      }
      int dash = t.lastIndexOf('-');
      if (dash < 0) {
        return null;
      }
      t = t.substring(0, dash);
    }
  }

  private static void readResource(@Nullable URL url, Map<String, String> into, String what) {
    if (url == null) {
      throw new IllegalStateException("missing resource: " + what);
    }
    try (InputStream in = url.openStream(); Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      read(r, into);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + what, e);
    }
  }

  private static void read(Reader r, Map<String, String> into) throws IOException {
    Properties p = new Properties();
    p.load(r);
    for (String k : new TreeSet<>(p.stringPropertyNames())) {
      into.put(k, p.getProperty(k));
    }
  }

  /** The tags with texts, each in its canonical case. */
  Set<String> tags() {
    return Collections.unmodifiableSet(byTag.keySet());
  }

  /**
   * The tag as the room has it, or {@code null}.
   *
   * @param tag a tag in any case, with {@code -} or {@code _}
   */
  @Nullable String find(String tag) {
    Texts t = byTag.get(tag.replace('_', '-'));
    return t == null ? null : t.tag;
  }

  /** The texts of one language (a tag from {@link #tags()}). */
  Texts texts(String tag) {
    Texts t = byTag.get(tag);
    if (t == null) {
      throw new IllegalArgumentException("no texts for '" + tag + "'");
    }
    return t;
  }

  /** The keys of counted texts, without their category suffix. */
  Set<String> pluralKeys() {
    return pluralKeys;
  }

  /** The keys of plain texts. */
  Set<String> plainKeys() {
    return plainKeys;
  }

  /**
   * Whether a key names a text of the page: a plain key, or a counted key with its plural
   * category ({@code refreshNote.other}).
   */
  boolean knows(String key) {
    if (plainKeys.contains(key)) {
      return true;
    }
    var m = PLURAL_KEY.matcher(key);
    return m.matches() && pluralKeys.contains(m.group(1));
  }
}
