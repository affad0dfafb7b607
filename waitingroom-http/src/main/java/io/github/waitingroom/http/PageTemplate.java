package io.github.waitingroom.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A waiting page template: HTML with named variables {@code {{name}}}, checked once when the
 * filter starts and rendered with HTML-escaped values. An unknown name fails at start-up.
 */
final class PageTemplate {
  /** The variables a template may use. */
  enum Var {
    ROOM_ID("roomId"),
    USERS_AHEAD("usersAhead"),
    WAIT_KNOWN("waitKnown"),
    WAIT_MINUTES("waitMinutes"),
    WAIT_TIME_FORMATTED("waitTimeFormatted"),
    REFRESH_SECONDS("refreshSeconds"),
    LAST_UPDATED("lastUpdated"),
    STATUS_PARAM("statusParam"),
    /** The Content-Security-Policy nonce of this response: {@code <script nonce="{{cspNonce}}">}. */
    CSP_NONCE("cspNonce");

    final String key;

    Var(String key) {
      this.key = key;
    }
  }

  private static final Pattern VARIABLE = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_]*)\\s*}}");
  private static final String DEFAULT_RESOURCE = "waiting-page.html";

  private final String[] literals;
  private final Var[] vars;

  private PageTemplate(String[] literals, Var[] vars) {
    this.literals = literals;
    this.vars = vars;
  }

  /**
   * Parses a template.
   *
   * @param source where the template came from, for error messages
   * @throws IllegalArgumentException naming the first unknown variable
   */
  static PageTemplate parse(String html, String source) {
    List<String> literals = new ArrayList<>();
    List<Var> vars = new ArrayList<>();
    Matcher m = VARIABLE.matcher(html);
    int at = 0;
    while (m.find()) {
      Var v = byKey(m.group(1));
      if (v == null) {
        throw new IllegalArgumentException(
            "the waiting page template (" + source + ") uses the unknown variable '" + m.group()
                + "'; known variables: " + known());
      }
      literals.add(html.substring(at, m.start()));
      vars.add(v);
      at = m.end();
    }
    literals.add(html.substring(at));
    return new PageTemplate(literals.toArray(new String[0]), vars.toArray(new Var[0]));
  }

  /** The page shipped with the filter. */
  static PageTemplate defaultPage() {
    try (InputStream in = PageTemplate.class.getResourceAsStream(DEFAULT_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + DEFAULT_RESOURCE);
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "built-in " + DEFAULT_RESOURCE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static @Nullable Var byKey(String key) {
    for (Var v : Var.values()) {
      if (v.key.equals(key)) {
        return v;
      }
    }
    return null;
  }

  static String known() {
    return Arrays.stream(Var.values()).map(v -> "{{" + v.key + "}}").toList().toString();
  }

  /**
   * Renders the page.
   *
   * @param values one value per {@link Var}, indexed by ordinal; escaped here
   */
  String render(String[] values) {
    StringBuilder out = new StringBuilder(4096);
    for (int i = 0; i < vars.length; i++) {
      out.append(literals[i]);
      escape(values[vars[i].ordinal()], out);
    }
    out.append(literals[vars.length]);
    return out.toString();
  }

  private static void escape(String s, StringBuilder out) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
  }

  /** "about 3 minutes", "less than a minute" or "unknown", for a wait in seconds (-1 unknown). */
  static String formatWait(long waitSeconds) {
    if (waitSeconds < 0) {
      return "unknown";
    }
    if (waitSeconds < 60) {
      return "less than a minute";
    }
    long minutes = (waitSeconds + 59) / 60;
    if (minutes < 120) {
      return "about " + minutes + " minutes";
    }
    return String.format(Locale.ROOT, "about %d hours %d minutes", minutes / 60, minutes % 60);
  }
}
