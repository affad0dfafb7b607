package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.http.SettingException;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * How the auto-configuration hands a property to a builder: its role is to turn a builder's {@link
 * IllegalArgumentException}, or a missing required value, into a {@link SettingException} naming
 * the property, the one error of every stack (Spring Boot's failure analysis reports it through
 * {@link SettingFailureAnalyzer}). Durations are shown as written in ISO-8601.
 */
final class PropertyChecks {
  private PropertyChecks() {}

  static SettingException invalid(String name, @Nullable Object value, String reason) {
    return new SettingException(
        name, SettingException.Source.PROPERTY, name, value == null ? null : String.valueOf(display(value)), reason, null);
  }

  static <T> T required(String name, @Nullable T value) {
    if (value == null || (value instanceof String s && s.isBlank())) {
      throw invalid(name, null, name + " is required while waitingroom.enabled is true");
    }
    return value;
  }

  static <T> void set(String name, T value, Consumer<T> setter) {
    check(name, value, v -> {
      setter.accept(v);
      return v;
    });
  }

  static <T> void setIfGiven(String name, @Nullable T value, Consumer<T> setter) {
    if (value != null) {
      set(name, value, setter);
    }
  }

  static <T, R> R check(String name, T value, Function<T, R> factory) {
    try {
      return factory.apply(value);
    } catch (SettingException e) {
      throw e.from(SettingException.Source.PROPERTY, name);
    } catch (IllegalArgumentException e) {
      throw new SettingException(
          name, SettingException.Source.PROPERTY, name, String.valueOf(display(value)), String.valueOf(e.getMessage()), e);
    }
  }

  private static Object display(Object value) {
    return value instanceof Duration d ? d.toString() : value;
  }
}
