package io.github.waitingroom.http;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.TicketKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one policy for reading a room's ticket keyset from configuration, for web.xml and Spring
 * Boot alike: an error names the setting and the source, and the type of what went wrong, never
 * the parser's message (it may quote the key material), and never a value that looks like key
 * material itself (a keyset pasted where a file name or a variable name belongs). Settings that
 * name where a secret is ({@link #fromFile}, {@link #fromEnvironment}, {@link #environmentSecret})
 * are read here, for the servlet filter's init-params and any other source of plain text.
 */
public final class Keysets {
  private static final Pattern BASE64_RUN = Pattern.compile("[A-Za-z0-9+/]{32,}");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

  private Keysets() {}

  /**
   * Reads a keyset from its JSON.
   *
   * @param json the text, a Tink JSON keyset
   * @param source where the setting came from
   * @param key the name under which the source gave it ({@code keysetEnv}, {@code waitingroom.keyset.file})
   * @param where what held the text, for the message ({@code the environment variable 'SHOP_KEYSET'})
   * @return the keyset
   * @throws SettingException naming the setting, the source and the error's type only
   */
  public static KeysetHandle parse(String json, SettingException.Source source, String key, String where) {
    try {
      return TicketKeys.fromJson(json);
    } catch (IllegalArgumentException e) {
      // The parser's message may quote the text, and the text is a secret: name the error only, chain nothing.
      throw new SettingException(
          "keyset", source, key, null,
          where + " does not hold a Tink JSON keyset (" + errorName(e) + "; details not shown, they may quote key material)",
          null);
    }
  }

  /**
   * Reads a keyset from the file a setting names.
   *
   * @param file the file's path, as given
   * @param source where the setting came from
   * @param key the name under which the source gave it ({@code keysetFile})
   * @return the keyset
   * @throws SettingException naming the setting when the file cannot be read (without the path when
   *     it looks like key material) or holds no keyset
   */
  public static KeysetHandle fromFile(String file, SettingException.Source source, String key) {
    String text;
    try {
      text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      if (!safeToShow(file)) {
        // The exception's message holds the value too: name the error only, chain nothing.
        throw new SettingException("keyset", source, key, null,
            key + " must be the path of a file holding the keyset, but no file can be read at the value given ("
                + errorName(e) + "), which looks like key material itself and is not shown: put the"
                + " keyset in a file and give its path", null);
      }
      throw new SettingException("keyset", source, key, file, "cannot read '" + file + "': " + e, e);
    }
    return parse(text, source, key, shown(file));
  }

  /**
   * Reads a keyset from the environment variable a setting names ({@link #environmentSecret}).
   *
   * @param name the variable's name, as given
   * @param environment the environment, a variable's value by name
   * @param source where the setting came from
   * @param key the name under which the source gave it ({@code keysetEnv})
   * @return the keyset
   * @throws SettingException naming the setting when the name is not a variable's, the variable is
   *     not set, or it holds no keyset
   */
  public static KeysetHandle fromEnvironment(
      String name, Gate.Lookup environment, SettingException.Source source, String key) {
    String json = environmentSecret("keyset", name, environment, source, key, "the keyset");
    return parse(json, source, key, "environment variable '" + name + "'");
  }

  /**
   * The secret held by the environment variable a setting names, so that the secret itself never
   * stands in the configuration (the keyset, the human check's secret key).
   *
   * @param setting the setting's declared name ({@code keyset}, {@code humanCheck})
   * @param name the variable's name, as given: letters, digits and {@code _}
   * @param environment the environment, a variable's value by name
   * @param source where the setting came from
   * @param key the name under which the source gave it ({@code humanCheckSecretEnv})
   * @param holds what the variable holds, for the message ({@code the secret key})
   * @return the variable's value, not blank
   * @throws SettingException naming the setting when the name is not a variable's (never showing a
   *     value that looks like key material) or the variable is not set
   */
  public static String environmentSecret(String setting, String name, Gate.Lookup environment,
      SettingException.Source source, String key, String holds) {
    if (!ENV_NAME.matcher(name).matches()) {
      throw new SettingException(setting, source, key, null,
          key + " must be the NAME of an environment variable (letters, digits and _) that holds " + holds
              + ", but was " + shown(name), null);
    }
    String value = environment.get(name);
    if (value == null || value.isBlank()) {
      throw new SettingException(setting, source, key, name,
          key + " names the environment variable '" + name + "', which is not set", null);
    }
    return value;
  }

  /**
   * A keyset setting's value (a file path, a variable name) in quotes for a message, or a note that
   * it is withheld when it looks like key material.
   *
   * @param value the value
   * @return the text to show
   */
  public static String shown(String value) {
    return safeToShow(value) ? "'" + value + "'" : "a value that looks like key material, which is not shown";
  }

  /**
   * Whether a value given as a file path or a variable name may appear in a message: not when it
   * holds JSON (a brace, quotes), base64 padding or whitespace, or a run of 32 or more base64
   * characters that mixes upper case, lower case and digits, as key material does and names rarely do.
   *
   * @param value the value
   * @return whether a message may show it
   */
  public static boolean safeToShow(String value) {
    if (value.length() > 1024 || value.indexOf('{') >= 0 || value.indexOf('}') >= 0 || value.indexOf('"') >= 0
        || value.indexOf('=') >= 0 || value.indexOf('+') >= 0 || value.chars().anyMatch(Character::isWhitespace)) {
      return false;
    }
    Matcher run = BASE64_RUN.matcher(value);
    while (run.find()) {
      String r = run.group();
      if (r.chars().anyMatch(Character::isUpperCase) && r.chars().anyMatch(Character::isLowerCase)
          && r.chars().anyMatch(Character::isDigit)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The type of the innermost cause: what went wrong, without a message that may quote a secret.
   *
   * @param e the error
   * @return its innermost cause's simple class name
   */
  public static String errorName(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName();
  }
}
