package io.github.waitingroom.http;

import io.github.waitingroom.AdaptiveLimit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The settings of a room's {@link AdaptiveLimit} (a room setting, of the core's {@code
 * RoomConfig}), declared once for every source that configures a room by name: the servlet
 * filter's web.xml init-params ({@code adaptiveLimit.min}) and the Spring Boot properties ({@code
 * waitingroom.adaptive-limit.min}, {@code waitingroom.rooms.<name>.adaptive-limit.min}). Both read
 * them through {@link #read} or {@link #of}, so they turn the limit on alike and fail alike.
 *
 * <p>Setting {@link #MIN}, {@link #MAX} and {@link #LATENCY} turns the adaptive limit on; {@link
 * #STEP}, {@link #FAILURE_SHARE} and {@link #SCALE_NEW_USERS_PER_MINUTE} have defaults. Giving some
 * of the three and not the others, or only a step, a failure share or the scaling of new users a
 * minute, is an error that names what is missing (a {@link SettingException}): never a room that
 * silently keeps its fixed limit.
 */
public final class AdaptiveLimitSettings {
  private AdaptiveLimitSettings() {}

  /** The lowest the limit goes. */
  public static final Setting<@Nullable Integer> MIN =
      Setting.<@Nullable Integer>of("adaptiveLimit.min", Integer.class, null)
          .defaultText("none (off)")
          .description(
              "The lowest the adaptive limit of active users goes, at least 1. With the max and the latency it turns the"
                  + " adaptive limit on: the room then sets its active users by how fast and how well the application"
                  + " answers, starting from totalActiveUsers.")
          .parser(s -> Setting.wholeNumber("adaptiveLimit.min", s))
          .build();

  /** The highest the limit goes. */
  public static final Setting<@Nullable Integer> MAX =
      Setting.<@Nullable Integer>of("adaptiveLimit.max", Integer.class, null)
          .defaultText("none (off)")
          .description("The highest the adaptive limit of active users goes, at least the min; needs the min and the latency.")
          .parser(s -> Setting.wholeNumber("adaptiveLimit.max", s))
          .build();

  /** The 90th percentile latency the application should keep. */
  public static final Setting<@Nullable Duration> LATENCY =
      Setting.<@Nullable Duration>of("adaptiveLimit.latency", Duration.class, null)
          .defaultText("none (off)")
          .description(
              "The time within which the application should answer 90 % of the requests the room lets through, 1 ms to"
                  + " 10 min: the adaptive limit rises while the application keeps it and falls when it does not; needs"
                  + " the min and the max.")
          .parser(s -> Setting.duration("adaptiveLimit.latency", s))
          .build();

  /** The largest relative change of one decision. */
  public static final Setting<Double> STEP =
      Setting.<Double>of("adaptiveLimit.step", Double.class, AdaptiveLimit.DEFAULT_STEP)
          .description("The largest relative change of the adaptive limit in one decision, above 0 and at most 0.5.")
          .parser(s -> Setting.decimal("adaptiveLimit.step", s))
          .build();

  /** The share of failed requests above which the limit falls. */
  public static final Setting<Double> FAILURE_SHARE =
      Setting.<Double>of("adaptiveLimit.failureShare", Double.class, AdaptiveLimit.DEFAULT_FAILURE_SHARE)
          .description(
              "The share of failed answers (status 500 or more, an error, a timeout) above which the adaptive limit"
                  + " falls, 0 to 1.")
          .parser(s -> Setting.decimal("adaptiveLimit.failureShare", s))
          .build();

  /** Whether {@code newUsersPerMinute} moves with the limit ({@link AdaptiveLimit#scaleNewUsersPerMinute()}). */
  public static final Setting<Boolean> SCALE_NEW_USERS_PER_MINUTE =
      Setting.<Boolean>of("adaptiveLimit.scaleNewUsersPerMinute", Boolean.class, false)
          .description(
              "Whether newUsersPerMinute moves with the adaptive limit: the configured new users a minute times the"
                  + " limit in force over totalActiveUsers, rounded, at least 1. Otherwise newUsersPerMinute stays as"
                  + " configured, at most the limit in force.")
          .parser(s -> Setting.bool("adaptiveLimit.scaleNewUsersPerMinute", s))
          .build();

  private static final List<Setting<?>> ALL =
      List.of(MIN, MAX, LATENCY, STEP, FAILURE_SHARE, SCALE_NEW_USERS_PER_MINUTE);

  /** The three settings that turn the limit on together. */
  private static final List<Setting<?>> REQUIRED = List.of(MIN, MAX, LATENCY);

  /**
   * {@return every setting of the adaptive limit, in the order of the docs}
   */
  public static List<Setting<?>> all() {
    return ALL;
  }

  /**
   * Reads the adaptive limit that a source gives as text, each setting under its name in that
   * source ({@link Setting#initParam()}, {@link Setting#environmentVariable()}, {@link
   * Setting#property()} or {@link Setting#name()}), as {@link GateSettings#bind} does for the gate.
   *
   * @param source where the values come from, which names them
   * @param texts a value by its name in the source, or {@code null} when it is not given
   * @return the limit, or {@code null} when the source gives none of its settings
   * @throws SettingException naming the setting, the source and the name: a value refused, or
   *     some of {@code min}, {@code max} and {@code latency} missing
   */
  public static @Nullable AdaptiveLimit read(SettingException.Source source, Gate.Lookup texts) {
    Function<Setting<?>, String> keys = s -> key(s, source);
    return of(
        parsed(MIN, source, texts), parsed(MAX, source, texts), parsed(LATENCY, source, texts),
        parsed(STEP, source, texts), parsed(FAILURE_SHARE, source, texts),
        parsed(SCALE_NEW_USERS_PER_MINUTE, source, texts), source, keys);
  }

  /**
   * The adaptive limit of values a source gives typed (the Spring Boot properties), each {@code
   * null} when not given.
   *
   * @param min {@link #MIN}'s value
   * @param max {@link #MAX}'s value
   * @param latency {@link #LATENCY}'s value
   * @param step {@link #STEP}'s value, {@code null} for the default
   * @param failureShare {@link #FAILURE_SHARE}'s value, {@code null} for the default
   * @param scaleNewUsersPerMinute {@link #SCALE_NEW_USERS_PER_MINUTE}'s value, {@code null} for the
   *     default
   * @param source where the values come from
   * @param keys the name of each setting in that source, for errors ({@code
   *     waitingroom.rooms.drop.adaptive-limit.min})
   * @return the limit, or {@code null} when every value is {@code null}
   * @throws SettingException naming the setting and its name in the source: some of {@code min},
   *     {@code max} and {@code latency} missing, or a value out of range ({@link AdaptiveLimit}'s checks)
   */
  public static @Nullable AdaptiveLimit of(
      @Nullable Integer min,
      @Nullable Integer max,
      @Nullable Duration latency,
      @Nullable Double step,
      @Nullable Double failureShare,
      @Nullable Boolean scaleNewUsersPerMinute,
      SettingException.Source source,
      Function<Setting<?>, String> keys) {
    @Nullable Object[] values = {min, max, latency, step, failureShare, scaleNewUsersPerMinute};
    List<String> given = new ArrayList<>();
    List<Setting<?>> missing = new ArrayList<>();
    for (int i = 0; i < ALL.size(); i++) {
      if (values[i] != null) {
        given.add(keys.apply(ALL.get(i)));
      } else if (REQUIRED.contains(ALL.get(i))) {
        missing.add(ALL.get(i));
      }
    }
    if (given.isEmpty()) {
      return null;
    }
    if (min == null || max == null || latency == null) {
      List<String> names = missing.stream().map(keys).toList();
      String reason = and(names) + (names.size() == 1 ? " is" : " are") + " missing: "
          + and(REQUIRED.stream().map(keys).toList()) + " turn the adaptive limit on together, and "
          + and(given) + (given.size() == 1 ? " is" : " are") + " given";
      Setting<?> first = missing.get(0);
      throw new SettingException(first.name(), source, keys.apply(first), null, reason, null);
    }
    try {
      return new AdaptiveLimit(min, max, latency, step != null ? step : STEP.defaultValue(),
          failureShare != null ? failureShare : FAILURE_SHARE.defaultValue(),
          scaleNewUsersPerMinute != null ? scaleNewUsersPerMinute : SCALE_NEW_USERS_PER_MINUTE.defaultValue());
    } catch (IllegalArgumentException e) {
      String message = String.valueOf(e.getMessage());
      Setting<?> blamed = MIN;
      int length = 0;
      for (Setting<?> s : ALL) {
        if (message.startsWith(s.name()) && s.name().length() > length) {
          blamed = s;
          length = s.name().length();
        }
      }
      Object value = values[ALL.indexOf(blamed)];
      throw new SettingException(blamed.name(), source, keys.apply(blamed), Setting.shown(value), message, e);
    }
  }

  private static String key(Setting<?> s, SettingException.Source source) {
    String key = switch (source) {
      case INIT_PARAM -> s.initParam();
      case ENVIRONMENT -> s.environmentVariable();
      case PROPERTY -> s.property();
      case CODE -> s.name();
    };
    return key != null ? key : s.name();
  }

  private static <T extends @Nullable Object> @Nullable T parsed(
      Setting<T> s, SettingException.Source source, Gate.Lookup texts) {
    String key = key(s, source);
    String text = texts.get(key);
    return text == null || text.isBlank() ? null : s.parse(text, source, key);
  }

  /** {@code a}, {@code a and b}, {@code a, b and c}. */
  private static String and(List<String> names) {
    int n = names.size();
    return n == 1 ? names.get(0) : String.join(", ", names.subList(0, n - 1)) + " and " + names.get(n - 1);
  }
}
