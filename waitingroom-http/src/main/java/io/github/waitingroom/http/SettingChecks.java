package io.github.waitingroom.http;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The checks that the declarations of {@link GateSettings} share: a token (cookie names, the status
 * flag), one of a few statuses, a language tag, the logo's URL, and the template file read. Each
 * throws an {@link IllegalArgumentException} whose message starts with the setting's name, which
 * {@link Setting#check} turns into a {@link SettingException}.
 */
final class SettingChecks {
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern TAG = Pattern.compile("[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*");

  private SettingChecks() {}

  static String token(String setting, String value) {
    if (!TOKEN.matcher(value).matches()) {
      throw new IllegalArgumentException(
          setting + " must be 1 to 64 characters out of A-Z a-z 0-9 . _ - but was '" + value + "'");
    }
    return value;
  }

  static Integer oneOf(String setting, Integer value, int... allowed) {
    for (int a : allowed) {
      if (a == Objects.requireNonNull(value, setting)) {
        return value;
      }
    }
    String list = Arrays.toString(allowed).replace("[", "").replace("]", "");
    int last = list.lastIndexOf(", ");
    throw new IllegalArgumentException(
        setting + " must be " + list.substring(0, last) + " or " + list.substring(last + 2) + " but was " + value);
  }

  static String tag(String setting, String tag) {
    if (!TAG.matcher(tag).matches()) {
      throw new IllegalArgumentException(
          setting + " must be a language tag such as 'de' or 'pt-BR' but was '" + tag + "'");
    }
    return tag.replace('_', '-');
  }

  static String logo(String url) {
    String u = Objects.requireNonNull(url, "logoUrl").strip();
    boolean path = u.startsWith("/") && !u.startsWith("//");
    boolean https = false;
    if (u.startsWith("https://")) {
      try {
        URI parsed = new URI(u);
        https = parsed.getRawAuthority() != null && parsed.getHost() != null;
      } catch (URISyntaxException e) {
        https = false;
      }
    }
    if (!u.isEmpty() && (!(path || https) || !u.matches("[^\\s\"'<>\\\\]+"))) {
      throw new IllegalArgumentException(
          "logoUrl must be a path on this site (/static/logo.svg) or an https:// URL but was '" + url + "'");
    }
    return u;
  }

  static String readTemplate(String file) {
    try {
      return Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("template: cannot read '" + file + "': " + e, e);
    }
  }
}
