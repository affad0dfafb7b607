package io.github.waitingroom.servlet;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.AdaptiveLimit;
import io.github.waitingroom.FailurePolicy;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.AdaptiveLimitSettings;
import io.github.waitingroom.http.GateSettings;
import io.github.waitingroom.http.Keysets;
import io.github.waitingroom.http.Setting;
import io.github.waitingroom.http.SettingException;
import io.github.waitingroom.http.SiteVerify;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a filter's room and settings from web.xml init-params. The gate's settings are bound
 * through their declarations ({@link GateSettings}); the room's through the core's builders, its
 * adaptive limit ({@code adaptiveLimit.min}, {@code .max}, {@code .latency}, {@code .step}, {@code
 * .failureShare}, {@code .scaleNewUsersPerMinute}) through its declarations ({@link
 * AdaptiveLimitSettings}). Every
 * name is checked (a typo fails instead of being ignored), and every error is a {@link
 * SettingException} that names the init-param.
 */
final class InitParams {
  /** A name-to-value lookup: init-params, or the environment. */
  @FunctionalInterface
  interface Lookup {
    @Nullable String get(String name);
  }

  private static final Logger log = LoggerFactory.getLogger(InitParams.class);
  private static final SettingException.Source INIT_PARAM = SettingException.Source.INIT_PARAM;

  /** The room's and the node's init-params, and the keyset's. */
  private static final List<String> ROOM =
      List.of(
          "roomId", "totalActiveUsers", "newUsersPerMinute", "sessionDuration", "bucketWidth", "sliceWidth",
          "refreshInterval", "waitingTimeout", "keysetFile", "keysetEnv", "generateEphemeralKeyset", "nodeId",
          "dataCenter", "failurePolicy", "syncInterval", "maxRequestsPerTicket", "storeBudget");

  /** The human check's init-params ({@link GateSettings#HUMAN_CHECK} is bound from all four). */
  private static final List<String> HUMAN_CHECK =
      List.of("humanCheck", "humanCheckSiteKey", "humanCheckSecretEnv", "humanCheckFlagBelow");

  static final Set<String> KNOWN = known();

  private final Lookup params;

  private InitParams(Lookup params) {
    this.params = params;
  }

  private static Set<String> known() {
    Set<String> names = new TreeSet<>(ROOM);
    names.addAll(HUMAN_CHECK);
    for (Setting<?> s : AdaptiveLimitSettings.all()) {
      names.add(Objects.requireNonNull(s.initParam()));
    }
    for (Setting<?> s : GateSettings.all()) {
      String p = s.initParam();
      if (p != null) {
        names.add(p);
      }
    }
    return Collections.unmodifiableSet(names);
  }

  /**
   * Reads the settings and starts the room.
   *
   * @param params the init-param lookup
   * @param names the init-param names given
   * @param env the environment lookup, for {@code keysetEnv} and {@code humanCheckSecretEnv}
   * @throws SettingException naming the init-param
   */
  static FilterSettings read(Lookup params, Enumeration<String> names, Lookup env) {
    for (String name : Collections.list(names)) {
      if (!KNOWN.contains(name)) {
        throw new SettingException(name, INIT_PARAM, name, null, "unknown init-param '" + name + "'; known: " + KNOWN, null);
      }
    }
    InitParams p = new InitParams(params);
    RoomConfig config = p.roomConfig();
    WaitingRoom.Builder rb = WaitingRoom.builder(config, p.keys(config.roomId(), env));
    p.ifGiven("nodeId", v -> v, rb::nodeId);
    p.ifGiven("dataCenter", v -> v, rb::dataCenter);
    p.ifGiven("failurePolicy", v -> Setting.constant("failurePolicy", FailurePolicy.class, v), rb::failurePolicy);
    p.ifGiven("syncInterval", v -> Setting.duration("syncInterval", v), rb::syncInterval);
    p.ifGiven("maxRequestsPerTicket", v -> Setting.wholeNumber("maxRequestsPerTicket", v), rb::maxRequestsPerTicket);
    p.ifGiven("storeBudget", v -> (long) Setting.wholeNumber("storeBudget", v), rb::storeBudget);
    WaitingRoom room = rb.build();
    try {
      WaitingRoomFilter.Builder fb = WaitingRoomFilter.builder(room);
      GateSettings.bind(fb, INIT_PARAM, p::get);
      p.humanCheck(fb, env);
      try {
        return fb.settings(true);
      } catch (SettingException e) {
        // A check that spans settings: name the init-param of the setting it blames.
        Setting<?> s = GateSettings.named(e.setting());
        String name = s == null ? null : s.initParam();
        throw e.from(INIT_PARAM, name == null ? e.setting() : name);
      }
    } catch (RuntimeException e) {
      room.close(); // a bad filter setting must leave no sync thread behind
      throw e;
    }
  }

  private RoomConfig roomConfig() {
    String roomId = require("roomId");
    RoomConfig.Builder b = given("roomId", roomId, RoomConfig::builder);
    given("totalActiveUsers", require("totalActiveUsers"), v -> b.totalActiveUsers(Setting.wholeNumber("totalActiveUsers", v)));
    given("newUsersPerMinute", require("newUsersPerMinute"), v -> b.newUsersPerMinute(Setting.wholeNumber("newUsersPerMinute", v)));
    given("sessionDuration", require("sessionDuration"), v -> b.sessionDuration(Setting.duration("sessionDuration", v)));
    for (String name : List.of("bucketWidth", "sliceWidth", "refreshInterval", "waitingTimeout")) {
      ifGiven(name, v -> Setting.duration(name, v), d -> {
        switch (name) {
          case "bucketWidth" -> b.bucketWidth(d);
          case "sliceWidth" -> b.sliceWidth(d);
          case "refreshInterval" -> b.refreshInterval(d);
          default -> b.waitingTimeout(d);
        }
      });
    }
    AdaptiveLimit adaptive = AdaptiveLimitSettings.read(INIT_PARAM, this::get);
    if (adaptive != null) {
      b.adaptiveLimit(adaptive);
    }
    return given("roomId", roomId, v -> b.build());
  }

  private KeysetHandle keys(String roomId, Lookup env) {
    String file = get("keysetFile");
    String envName = get("keysetEnv");
    String generate = get("generateEphemeralKeyset");
    boolean ephemeral =
        generate != null && given("generateEphemeralKeyset", generate, v -> Setting.bool("generateEphemeralKeyset", v));
    if (file != null && envName != null) {
      throw new SettingException("keyset", INIT_PARAM, "keysetFile", null,
          "give one of init-params keysetFile (" + Keysets.shown(file) + ") and keysetEnv (" + Keysets.shown(envName)
              + "), not both", null);
    }
    if (file != null) {
      return Keysets.fromFile(file, INIT_PARAM, "keysetFile");
    }
    if (envName != null) {
      return Keysets.fromEnvironment(envName, env::get, INIT_PARAM, "keysetEnv");
    }
    if (ephemeral) {
      log.warn(
          "room '{}': generated an EPHEMERAL ticket keyset (generateEphemeralKeyset=true). Tickets"
              + " will not open after a restart or on any other node; use keysetFile or keysetEnv"
              + " in production.",
          roomId);
      return TicketKeys.generate();
    }
    throw new SettingException("keyset", INIT_PARAM, "keysetFile", null,
        "no ticket keyset: set init-param keysetFile (path of a Tink JSON keyset) or keysetEnv (an"
            + " environment variable holding one); every node of a room needs the same keyset. For a"
            + " single throw-away node only, set generateEphemeralKeyset=true.", null);
  }

  /**
   * The human check, from {@code humanCheck} ({@code turnstile}, {@code hcaptcha}, {@code
   * recaptcha}) with {@code humanCheckSiteKey}, {@code humanCheckSecretEnv} (the NAME of the
   * environment variable that holds the secret key: never the secret in web.xml) and optionally
   * {@code humanCheckFlagBelow}.
   */
  private void humanCheck(WaitingRoomFilter.Builder fb, Lookup env) {
    String provider = get("humanCheck");
    if (provider == null) {
      for (String n : HUMAN_CHECK) {
        if (get(n) != null) {
          throw new SettingException("humanCheck", INIT_PARAM, n, null,
              n + " needs init-param humanCheck (turnstile, hcaptcha or recaptcha)", null);
        }
      }
      return;
    }
    String kind = given("humanCheck", provider, SiteVerify::provider);
    String site = require("humanCheckSiteKey");
    String secret = Keysets.environmentSecret(
        "humanCheck", require("humanCheckSecretEnv"), env::get, INIT_PARAM, "humanCheckSecretEnv", "the secret key");
    SiteVerify check = given("humanCheckSiteKey", site, v -> SiteVerify.of(kind, v, secret));
    String flag = get("humanCheckFlagBelow");
    fb.set(GateSettings.HUMAN_CHECK,
        flag == null ? check : given("humanCheckFlagBelow", flag, v -> check.flagBelow(number("humanCheckFlagBelow", v))));
  }

  /** An init-param's value, trimmed; {@code null} when it is not given or blank. */
  private @Nullable String get(String name) {
    String v = params.get(name);
    return v == null || v.isBlank() ? null : v.trim();
  }

  private String require(String name) {
    String v = get(name);
    if (v == null) {
      throw new SettingException(name, INIT_PARAM, name, null, name + " is required", null);
    }
    return v;
  }

  /** Reads an init-param with {@code read}, and gives it to {@code to}; an error of either names the init-param. */
  private <T> void ifGiven(String name, Function<String, T> read, Consumer<T> to) {
    String v = get(name);
    if (v != null) {
      given(name, v, t -> {
        to.accept(read.apply(t));
        return Boolean.TRUE;
      });
    }
  }

  /** Applies an init-param's value; an {@link IllegalArgumentException} becomes a {@link SettingException} naming it. */
  private static <R> R given(String name, String value, Function<String, R> apply) {
    try {
      return apply.apply(value);
    } catch (SettingException e) {
      throw e;
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new SettingException(name, INIT_PARAM, name, value, String.valueOf(e.getMessage()), e);
    }
  }

  private static double number(String name, String v) {
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a number from 0 to 1 but was '" + v + "'", e);
    }
  }
}
