package io.github.waitingroom.http;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * One setting of the HTTP layer, declared once in {@link GateSettings}: its name, type, default,
 * validation and description. Every source binds through it: the builders ({@link GateOptions}),
 * the servlet filter's web.xml init-params, the Spring Boot properties, and the generated settings
 * reference in the docs. A value it refuses fails with a {@link SettingException} that names the
 * setting and the source.
 *
 * @param <T> the setting's type
 */
public final class Setting<T extends @Nullable Object> {
  private final String name;
  private final Class<?> type;
  private final T defaultValue;
  private final String defaultText;
  private final String description;
  private final @Nullable String initParam;
  private final @Nullable String property;
  private final @Nullable Function<String, T> parser;
  private final UnaryOperator<T> check;
  private final @Nullable String boundFrom;

  private Setting(Builder<T> b) {
    this.boundFrom = b.boundFrom;
    this.name = b.name;
    this.type = b.type;
    this.defaultValue = b.defaultValue;
    this.defaultText = b.defaultText != null ? b.defaultText : String.valueOf(b.defaultValue);
    this.description = Objects.requireNonNull(b.description, "description");
    this.initParam = b.initParam;
    this.property = b.property;
    this.parser = b.parser;
    this.check = b.check;
  }

  static <T extends @Nullable Object> Builder<T> of(String name, Class<?> type, T defaultValue) {
    return new Builder<>(name, type, defaultValue);
  }

  /**
   * The setting's name: the builder method's, and the web.xml init-param's unless {@link
   * #initParam()} says otherwise ({@code waitingStatus}).
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * The setting's Java type ({@code Integer}, {@code Duration}, an enumeration, {@code List}).
   *
   * @return the type
   */
  public Class<?> type() {
    return type;
  }

  /**
   * The default, or {@code null} for none (or one derived from another setting: see {@link
   * #defaultText()}).
   *
   * @return the default
   */
  public T defaultValue() {
    return defaultValue;
  }

  /**
   * The default as the docs write it ({@code 200}, {@code wr_<roomId>}, {@code none}).
   *
   * @return the text
   */
  public String defaultText() {
    return defaultText;
  }

  /**
   * One plain sentence or two on what the setting does: the docs' and the IDE's description.
   *
   * @return the description
   */
  public String description() {
    return description;
  }

  /**
   * The servlet filter's web.xml init-param, or {@code null} when the setting is bound from
   * several init-params at once ({@code humanCheck}).
   *
   * @return the init-param's name
   */
  public @Nullable String initParam() {
    return initParam;
  }

  /**
   * The Spring Boot property, relative to the room's prefix ({@code waiting-status}, {@code
   * cookie.same-site}), or {@code null} when it is bound from several properties at once.
   *
   * @return the property's name
   */
  public @Nullable String property() {
    return property;
  }

  /**
   * For a setting bound from several init-params or properties at once ({@code humanCheck}), what
   * the docs list for them; else {@code null}.
   *
   * @return the note
   */
  public @Nullable String boundFrom() {
    return boundFrom;
  }

  /**
   * The environment variable that Spring Boot's relaxed binding reads for the main room's property
   * ({@code WAITINGROOM_WAITING_STATUS}), or {@code null} when there is no single property.
   *
   * @return the variable's name
   */
  public @Nullable String environmentVariable() {
    String p = property;
    return p == null ? null : "WAITINGROOM_" + p.replace("-", "_").replace('.', '_').toUpperCase(Locale.ROOT);
  }

  /**
   * Checks a value given in code and returns it as the gate keeps it (trimmed, lower-cased where
   * that is how the setting compares).
   *
   * @param value the value
   * @return the value to keep
   * @throws SettingException naming the setting when the value is refused
   */
  public T check(T value) {
    return check(value, SettingException.Source.CODE, name);
  }

  /**
   * Checks a value that a source gave under its own name.
   *
   * @param value the value
   * @param source where it came from
   * @param key the name under which the source gave it
   * @return the value to keep
   * @throws SettingException naming the setting and the source when the value is refused
   */
  public T check(T value, SettingException.Source source, String key) {
    if (value == null && defaultValue != null) {
      throw new SettingException(name, source, key, null, name + " must be given (it has the default " + defaultText + ")", null);
    }
    try {
      return check.apply(value);
    } catch (SettingException e) {
      throw e.source() == source ? e : e.from(source, key);
    } catch (IllegalArgumentException e) {
      throw new SettingException(name, source, key, shown(value), String.valueOf(e.getMessage()), e);
    }
  }

  /**
   * Reads a value from text (a web.xml init-param, an environment variable) and checks it.
   * Numbers are decimal, booleans {@code true} or {@code false}, enumerations their constants in
   * any case ({@code same-site} {@code none} for {@code NONE}), durations seconds ({@code 300}), a
   * short form ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}) or ISO-8601 ({@code PT5M}), lists comma- or
   * space-separated.
   *
   * @param text the text
   * @param source where it came from
   * @param key the name under which the source gave it
   * @return the value to keep
   * @throws SettingException naming the setting and the source when the text is refused
   */
  public T parse(String text, SettingException.Source source, String key) {
    Function<String, T> p = parser;
    if (p == null) {
      throw new SettingException(name, source, key, null, name + " cannot be read from text", null);
    }
    T value;
    try {
      value = p.apply(text.trim());
    } catch (IllegalArgumentException e) {
      throw new SettingException(name, source, key, text, String.valueOf(e.getMessage()), e);
    }
    return check(value, source, key);
  }

  @Override
  public String toString() {
    return name;
  }

  /** A value as an error may show it: short, and never a human check's keys. */
  static @Nullable String shown(@Nullable Object value) {
    if (value == null || value instanceof HumanCheck) {
      return null;
    }
    String s = value instanceof Object[] a ? Arrays.toString(a) : String.valueOf(value);
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }

  // ---- text parsers, shared by every setting of a type ----

  /**
   * A whole number from text.
   *
   * @param name the setting, for the error
   * @param text the text
   * @return the number
   * @throws IllegalArgumentException naming the setting and the text
   */
  public static int wholeNumber(String name, String text) {
    try {
      return Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number but was '" + text + "'", e);
    }
  }

  /**
   * A decimal number from text ({@code 0.1}).
   *
   * @param name the setting, for the error
   * @param text the text
   * @return the number
   * @throws IllegalArgumentException naming the setting and the text
   */
  public static double decimal(String name, String text) {
    try {
      double d = Double.parseDouble(text.trim());
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new NumberFormatException(text);
      }
      return d;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a number such as 0.1 but was '" + text + "'", e);
    }
  }

  /**
   * {@code true} or {@code false}, in any case, from text.
   *
   * @param name the setting, for the error
   * @param text the text
   * @return the boolean
   * @throws IllegalArgumentException naming the setting and the text
   */
  public static boolean bool(String name, String text) {
    String s = text.trim();
    if (!s.equalsIgnoreCase("true") && !s.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException(name + " must be true or false but was '" + text + "'");
    }
    return Boolean.parseBoolean(s);
  }

  /**
   * An enumeration's constant from text, in any case, with {@code -} for {@code _} ({@code
   * fail-open} for {@code FAIL_OPEN}).
   *
   * @param name the setting, for the error
   * @param type the enumeration
   * @param text the text
   * @param <E> the enumeration
   * @return the constant
   * @throws IllegalArgumentException naming the setting, the constants and the text
   */
  public static <E extends Enum<E>> E constant(String name, Class<E> type, String text) {
    try {
      return Enum.valueOf(type, text.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          name + " must be one of " + Arrays.toString(type.getEnumConstants()) + " but was '" + text + "'", e);
    }
  }

  /**
   * A duration from text: seconds ({@code 300}), a short form ({@code 500ms}, {@code 300s}, {@code
   * 5m}, {@code 1h}) or ISO-8601 ({@code PT5M}); what web.xml and environment variables give.
   *
   * @param name the setting, for the error
   * @param text the text
   * @return the duration
   * @throws IllegalArgumentException naming the setting and the text
   */
  public static Duration duration(String name, String text) {
    String v = text.trim();
    try {
      String s = v.toLowerCase(Locale.ROOT);
      if (s.startsWith("p")) {
        return Duration.parse(v.toUpperCase(Locale.ROOT));
      }
      if (s.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
      }
      char unit = s.charAt(s.length() - 1);
      if (Character.isDigit(unit)) {
        return Duration.ofSeconds(Long.parseLong(s));
      }
      long n = Long.parseLong(s.substring(0, s.length() - 1));
      return switch (unit) {
        case 's' -> Duration.ofSeconds(n);
        case 'm' -> Duration.ofMinutes(n);
        case 'h' -> Duration.ofHours(n);
        default -> throw new NumberFormatException("unit " + unit);
      };
    } catch (NumberFormatException | DateTimeParseException | StringIndexOutOfBoundsException e) {
      throw new IllegalArgumentException(
          name + " must be seconds (300), a short form (500ms, 30s, 5m, 1h) or ISO-8601 (PT5M) but was '" + text + "'",
          e);
    }
  }

  /** Declares a setting; {@link GateSettings} holds every one. */
  static final class Builder<T extends @Nullable Object> {
    private final String name;
    private final Class<?> type;
    private final T defaultValue;
    private @Nullable String defaultText;
    private @Nullable String description;
    private @Nullable String initParam;
    private @Nullable String property;
    private @Nullable Function<String, T> parser;
    private UnaryOperator<T> check = v -> v;
    private @Nullable String boundFrom;

    private Builder(String name, Class<?> type, T defaultValue) {
      this.name = name;
      this.type = type;
      this.defaultValue = defaultValue;
      this.initParam = name;
      this.property = kebab(name);
    }

    Builder<T> defaultText(String text) {
      this.defaultText = text;
      return this;
    }

    Builder<T> description(String text) {
      this.description = text;
      return this;
    }

    Builder<T> initParam(@Nullable String param) {
      this.initParam = param;
      return this;
    }

    Builder<T> property(@Nullable String name) {
      this.property = name;
      return this;
    }

    Builder<T> composite(String boundFrom) {
      this.boundFrom = boundFrom;
      this.initParam = null;
      this.property = null;
      return this;
    }

    Builder<T> parser(Function<String, T> parser) {
      this.parser = parser;
      return this;
    }

    Builder<T> check(UnaryOperator<T> check) {
      this.check = check;
      return this;
    }

    Setting<T> build() {
      return new Setting<>(this);
    }

    private static String kebab(String camel) {
      StringBuilder s = new StringBuilder();
      for (char c : camel.toCharArray()) {
        if (Character.isUpperCase(c)) {
          s.append('-').append(Character.toLowerCase(c));
        } else {
          s.append(c);
        }
      }
      return s.toString();
    }
  }
}
