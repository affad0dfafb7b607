package io.github.waitingroom.servlet;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.FailurePolicy;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a filter's room and settings from web.xml init-params. Every name is checked (a typo
 * fails instead of being ignored), and every error names the init-param and its value.
 */
final class InitParams {
  /** A name-to-value lookup: init-params, or the environment. */
  @FunctionalInterface
  interface Lookup {
    @Nullable String get(String name);
  }

  private static final Logger log = LoggerFactory.getLogger(InitParams.class);

  static final Set<String> KNOWN =
      Collections.unmodifiableSet(
          new TreeSet<>(
              List.of(
                  "roomId",
                  "totalActiveUsers",
                  "newUsersPerMinute",
                  "sessionDuration",
                  "bucketWidth",
                  "sliceWidth",
                  "refreshInterval",
                  "waitingTimeout",
                  "keysetFile",
                  "keysetEnv",
                  "generateEphemeralKeyset",
                  "nodeId",
                  "dataCenter",
                  "failurePolicy",
                  "syncInterval",
                  "maxRequestsPerTicket",
                  "storeBudget",
                  "pathPrefix",
                  "ignorePaths",
                  "cookieName",
                  "cookieSecure",
                  "cookieSameSite",
                  "waitingStatus",
                  "rejectStatus",
                  "revoke",
                  "corsPassThrough",
                  "statusParam",
                  "templateFile",
                  "pageStyle",
                  "defaultLanguage",
                  "language",
                  "messagesDirectory",
                  "brandName",
                  "logoUrl",
                  "brandColor",
                  "proofOfWork",
                  "challengePenalty",
                  "noScriptPlaces",
                  "humanCheck",
                  "humanCheckSiteKey",
                  "humanCheckSecretEnv",
                  "humanCheckFlagBelow")));

  private static final java.util.regex.Pattern ENV_NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
  private static final java.util.regex.Pattern BASE64_RUN = java.util.regex.Pattern.compile("[A-Za-z0-9+/]{32,}");

  private final Lookup params;

  private InitParams(Lookup params) {
    this.params = params;
  }

  /**
   * Reads the settings and starts the room.
   *
   * @param params the init-param lookup
   * @param names the init-param names given
   * @param env the environment lookup, for {@code keysetEnv}
   */
  static WaitingRoomFilter.Settings read(
      Lookup params,
      Enumeration<String> names,
      Lookup env) {
    for (String name : Collections.list(names)) {
      if (!KNOWN.contains(name)) {
        throw new IllegalArgumentException("unknown init-param '" + name + "'; known: " + KNOWN);
      }
    }
    InitParams p = new InitParams(params);
    RoomConfig config = p.roomConfig();
    KeysetHandle keys = p.keys(config.roomId(), env);
    WaitingRoom.Builder rb = WaitingRoom.builder(config, keys);
    String nodeId = p.get("nodeId");
    if (nodeId != null) {
      rb.nodeId(nodeId);
    }
    String dc = p.get("dataCenter");
    if (dc != null) {
      rb.dataCenter(dc);
    }
    String policy = p.get("failurePolicy");
    if (policy != null) {
      rb.failurePolicy(p.enumValue("failurePolicy", policy, FailurePolicy.class));
    }
    Duration sync = p.duration("syncInterval");
    if (sync != null) {
      rb.syncInterval(sync);
    }
    String perTicket = p.get("maxRequestsPerTicket");
    if (perTicket != null) {
      rb.maxRequestsPerTicket(intValue("maxRequestsPerTicket", perTicket));
    }
    String budget = p.get("storeBudget");
    if (budget != null) {
      rb.storeBudget(intValue("storeBudget", budget));
    }
    WaitingRoom room = rb.build();
    try {
      WaitingRoomFilter.Builder fb = WaitingRoomFilter.builder(room);
      p.filterSettings(fb, env);
      return fb.settings(true);
    } catch (RuntimeException e) {
      room.close(); // a bad filter setting must leave no sync thread behind
      throw e;
    }
  }

  private RoomConfig roomConfig() {
    String roomId = require("roomId");
    RoomConfig.Builder b = RoomConfig.builder(roomId);
    b.totalActiveUsers(intValue("totalActiveUsers", require("totalActiveUsers")));
    b.newUsersPerMinute(intValue("newUsersPerMinute", require("newUsersPerMinute")));
    Duration session = duration("sessionDuration");
    if (session == null) {
      throw missing("sessionDuration");
    }
    b.sessionDuration(session);
    Duration d = duration("bucketWidth");
    if (d != null) {
      b.bucketWidth(d);
    }
    d = duration("sliceWidth");
    if (d != null) {
      b.sliceWidth(d);
    }
    d = duration("refreshInterval");
    if (d != null) {
      b.refreshInterval(d);
    }
    d = duration("waitingTimeout");
    if (d != null) {
      b.waitingTimeout(d);
    }
    return b.build();
  }

  private KeysetHandle keys(String roomId, Lookup env) {
    String file = get("keysetFile");
    String envName = get("keysetEnv");
    boolean ephemeral = Boolean.parseBoolean(booleanValue("generateEphemeralKeyset"));
    if (file != null && envName != null) {
      throw new IllegalArgumentException(
          "give one of init-params keysetFile (" + shown(file) + ") and keysetEnv (" + shown(envName) + "), not both");
    }
    if (file != null) {
      String text;
      try {
        text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
      } catch (IOException | RuntimeException e) {
        if (!safeToShow(file)) {
          // The exception's message holds the value too: name the error only, chain nothing.
          throw new IllegalArgumentException(
              "init-param keysetFile must be the path of a file holding the keyset, but no file can be read"
                  + " at the value given (" + errorName(e) + "), which looks like key material itself and is"
                  + " not shown: put the keyset in a file and give its path");
        }
        throw new IllegalArgumentException("init-param keysetFile: cannot read '" + file + "': " + e, e);
      }
      try {
        return TicketKeys.fromJson(text);
      } catch (IllegalArgumentException e) {
        // The parser's message may quote the text, and the text is a secret: name the error only.
        throw new IllegalArgumentException(
            "init-param keysetFile: " + shown(file) + " does not hold a Tink JSON keyset (" + errorName(e)
                + "; details not shown, they may quote key material)");
      }
    }
    if (envName != null) {
      if (!ENV_NAME.matcher(envName).matches()) {
        throw new IllegalArgumentException(
            "init-param keysetEnv must be the NAME of an environment variable (letters, digits and _) that"
                + " holds the keyset, but was " + shown(envName));
      }
      String json = env.get(envName);
      if (json == null || json.isBlank()) {
        throw new IllegalArgumentException(
            "init-param keysetEnv names the environment variable " + shown(envName) + ", which is not set");
      }
      try {
        return TicketKeys.fromJson(json);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "init-param keysetEnv: environment variable " + shown(envName) + " does not hold a Tink JSON keyset ("
                + errorName(e) + "; details not shown, they may quote key material)");
      }
    }
    if (ephemeral) {
      log.warn(
          "room '{}': generated an EPHEMERAL ticket keyset (generateEphemeralKeyset=true). Tickets"
              + " will not open after a restart or on any other node; use keysetFile or keysetEnv"
              + " in production.",
          roomId);
      return TicketKeys.generate();
    }
    throw new IllegalArgumentException(
        "no ticket keyset: set init-param keysetFile (path of a Tink JSON keyset) or keysetEnv (an"
            + " environment variable holding one); every node of a room needs the same keyset. For a"
            + " single throw-away node only, set generateEphemeralKeyset=true.");
  }

  /** The type of the innermost cause: what went wrong, without a message that may quote a secret. */
  private static String errorName(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName();
  }

  /** A keyset setting's value in quotes for a message, or a note that it is withheld. */
  static String shown(String value) {
    return safeToShow(value) ? "'" + value + "'" : "a value that looks like key material, which is not shown";
  }

  /**
   * Whether a value given as a file path or a variable name may appear in a message: not when it
   * holds JSON ({@code {}, quotes), base64 padding or whitespace, parses as a keyset, or holds a
   * run of 32 or more base64 characters that mixes upper case, lower case and digits, as key
   * material does and names rarely do.
   */
  static boolean safeToShow(String value) {
    if (value.length() > 1024 || value.indexOf('{') >= 0 || value.indexOf('}') >= 0 || value.indexOf('"') >= 0
        || value.indexOf('=') >= 0 || value.indexOf('+') >= 0 || value.chars().anyMatch(Character::isWhitespace)) {
      return false;
    }
    java.util.regex.Matcher run = BASE64_RUN.matcher(value);
    while (run.find()) {
      String r = run.group();
      if (r.chars().anyMatch(Character::isUpperCase) && r.chars().anyMatch(Character::isLowerCase)
          && r.chars().anyMatch(Character::isDigit)) {
        return false;
      }
    }
    return true;
  }

  private void filterSettings(WaitingRoomFilter.Builder fb, Lookup env) {
    frictionSettings(fb, env);
    String v = get("pathPrefix");
    if (v != null) {
      fb.pathPrefix(v);
    }
    v = get("ignorePaths");
    if (v != null) {
      for (String path : v.split("[,\\s]+")) {
        if (!path.isEmpty()) {
          fb.ignorePaths(path);
        }
      }
    }
    v = get("cookieName");
    if (v != null) {
      fb.cookieName(v);
    }
    v = get("cookieSecure");
    if (v != null) {
      fb.cookieSecure(enumValue("cookieSecure", v, io.github.waitingroom.http.CookieSecure.class));
    }
    v = get("cookieSameSite");
    if (v != null) {
      fb.cookieSameSite(enumValue("cookieSameSite", v, io.github.waitingroom.http.SameSite.class));
    }
    v = get("waitingStatus");
    if (v != null) {
      fb.waitingStatus(intValue("waitingStatus", v));
    }
    v = get("rejectStatus");
    if (v != null) {
      fb.rejectStatus(intValue("rejectStatus", v));
    }
    v = get("revoke");
    if (v != null) {
      fb.revoke(Boolean.parseBoolean(booleanValue("revoke")));
    }
    v = get("corsPassThrough");
    if (v != null) {
      fb.corsPassThrough(Boolean.parseBoolean(booleanValue("corsPassThrough")));
    }
    v = get("statusParam");
    if (v != null) {
      fb.statusParam(v);
    }
    v = get("templateFile");
    if (v != null) {
      try {
        fb.template(Files.readString(Path.of(v), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new IllegalArgumentException("init-param templateFile: cannot read '" + v + "': " + e, e);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("init-param templateFile: " + e.getMessage(), e);
      }
    }
    v = get("pageStyle");
    if (v != null) {
      fb.pageStyle(enumValue("pageStyle", v, io.github.waitingroom.http.PageStyle.class));
    }
    v = get("messagesDirectory");
    if (v != null) {
      Path dir = Path.of(v);
      if (!Files.isDirectory(dir)) {
        throw new IllegalArgumentException("init-param messagesDirectory: '" + v + "' is not a readable directory");
      }
      fb.messagesDirectory(dir);
    }
    for (String name : List.of("defaultLanguage", "language", "brandName", "logoUrl", "brandColor")) {
      String value = get(name);
      if (value == null) {
        continue;
      }
      try {
        switch (name) {
          case "defaultLanguage" -> fb.defaultLanguage(value);
          case "language" -> fb.language(value);
          case "brandName" -> fb.brandName(value);
          case "logoUrl" -> fb.logoUrl(value);
          default -> fb.brandColor(value);
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("init-param " + e.getMessage(), e);
      }
    }
  }

  /**
   * {@code proofOfWork} (bits), {@code challengePenalty}, {@code noScriptPlaces} (a minute), and a human check: {@code humanCheck}
   * ({@code turnstile}, {@code hcaptcha}, {@code recaptcha}) with {@code humanCheckSiteKey}, {@code
   * humanCheckSecretEnv} (the NAME of the environment variable that holds the secret key: never
   * the secret in web.xml) and optionally {@code humanCheckFlagBelow}.
   */
  private void frictionSettings(WaitingRoomFilter.Builder fb, Lookup env) {
    String v = get("proofOfWork");
    if (v != null) {
      try {
        fb.proofOfWork(intValue("proofOfWork", v));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("init-param " + e.getMessage(), e);
      }
    }
    Duration penalty = duration("challengePenalty");
    if (penalty != null) {
      try {
        fb.challengePenalty(penalty);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("init-param " + e.getMessage(), e);
      }
    }
    v = get("noScriptPlaces");
    if (v != null) {
      int perMinute = intValue("noScriptPlaces", v);
      try {
        fb.noScriptPlaces(perMinute);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("init-param " + e.getMessage(), e);
      }
    }
    String provider = get("humanCheck");
    if (provider == null) {
      for (String n : List.of("humanCheckSiteKey", "humanCheckSecretEnv", "humanCheckFlagBelow")) {
        if (get(n) != null) {
          throw new IllegalArgumentException("init-param " + n + " needs init-param humanCheck (turnstile, hcaptcha or recaptcha)");
        }
      }
      return;
    }
    String kind = provider.toLowerCase(java.util.Locale.ROOT);
    if (!List.of("turnstile", "hcaptcha", "recaptcha").contains(kind)) {
      throw new IllegalArgumentException(
          "init-param humanCheck must be turnstile, hcaptcha or recaptcha but was " + shown(provider));
    }
    String site = require("humanCheckSiteKey");
    String envName = require("humanCheckSecretEnv");
    if (!ENV_NAME.matcher(envName).matches()) {
      throw new IllegalArgumentException(
          "init-param humanCheckSecretEnv must be the NAME of an environment variable (letters, digits and _) that"
              + " holds the secret key, but was " + shown(envName));
    }
    String secret = env.get(envName);
    if (secret == null || secret.isBlank()) {
      throw new IllegalArgumentException(
          "init-param humanCheckSecretEnv names the environment variable " + shown(envName) + ", which is not set");
    }
    io.github.waitingroom.http.SiteVerify check;
    try {
      check = switch (kind) {
        case "turnstile" -> io.github.waitingroom.http.SiteVerify.turnstile(site, secret);
        case "hcaptcha" -> io.github.waitingroom.http.SiteVerify.hcaptcha(site, secret);
        default -> io.github.waitingroom.http.SiteVerify.recaptcha(site, secret);
      };
      String flag = get("humanCheckFlagBelow");
      if (flag != null) {
        double score;
        try {
          score = Double.parseDouble(flag);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("humanCheckFlagBelow must be a number from 0 to 1 but was " + shown(flag), e);
        }
        check = check.flagBelow(score);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("init-param " + e.getMessage(), e);
    }
    fb.humanCheck(check);
  }

  private @Nullable String get(String name) {
    String v = params.get(name);
    return v == null || v.isBlank() ? null : v.trim();
  }

  private String require(String name) {
    String v = get(name);
    if (v == null) {
      throw missing(name);
    }
    return v;
  }

  private static IllegalArgumentException missing(String name) {
    return new IllegalArgumentException("init-param " + name + " is required");
  }

  private String booleanValue(String name) {
    String v = get(name);
    if (v == null) {
      return "false";
    }
    if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException("init-param " + name + " must be true or false but was '" + v + "'");
    }
    return v;
  }

  private static int intValue(String name, String v) {
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("init-param " + name + " must be a whole number but was '" + v + "'", e);
    }
  }

  private <E extends Enum<E>> E enumValue(String name, String v, Class<E> type) {
    try {
      return Enum.valueOf(type, v.toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "init-param " + name + " must be one of " + java.util.Arrays.toString(type.getEnumConstants())
              + " but was '" + v + "'", e);
    }
  }

  /** Seconds ({@code 300}), a short form ({@code 300s}, {@code 5m}, {@code 1h}) or ISO-8601 ({@code PT5M}). */
  @Nullable Duration duration(String name) {
    String v = get(name);
    if (v == null) {
      return null;
    }
    return parseDuration(name, v);
  }

  static Duration parseDuration(String name, String v) {
    try {
      String s = v.toLowerCase(Locale.ROOT);
      if (s.startsWith("pt") || s.startsWith("p")) {
        return Duration.parse(v.toUpperCase(Locale.ROOT));
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
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException(
          "init-param " + name + " must be seconds (300), a short form (30s, 5m, 1h) or ISO-8601"
              + " (PT5M) but was '" + v + "'", e);
    }
  }
}
