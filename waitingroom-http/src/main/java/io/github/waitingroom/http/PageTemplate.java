package io.github.waitingroom.http;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.MustacheException;
import com.samskivert.mustache.Template;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A waiting page template: logic-less Mustache, compiled by JMustache with HTML escaping on
 * ({@code {{name}}} escaped, {@code {{{name}}}} as is). Checked once when the filter is built: a
 * tag that is not closed, a section closed in the wrong place or never, partials, delimiter
 * changes and unknown names all fail with the line and column of the tag. A template that leaves
 * out the page's refresh machinery ({@code {{{refreshMeta}}}}, {@code {{{refreshScript}}}}) gets
 * it injected, so that the page keeps polling and lets the visitor in.
 */
final class PageTemplate {
  private static final Logger LOG = LoggerFactory.getLogger(PageTemplate.class);

  /** The variables of a page, as documented in the README ("Your own waiting page"). */
  static final List<String> VARIABLES =
      List.of(
          "roomId", "locale", "dir", "usersAhead", "usersAheadFormatted", "waitTimeKnown", "waitTime",
          "waitTimeSeconds", "waitTimeFormatted", "waitTimeLow", "waitTimeHigh", "waitTimeLowFormatted",
          "waitTimeHighFormatted", "waitTimeRangeFormatted", "refreshIntervalSeconds", "lastUpdated",
          "lastUpdatedFormatted", "statusParam", "cspNonce", "refreshMeta", "refreshScript", "brandName",
          "logoUrl", "brandColor", "brandTextColor", "formNotSent", "returnUrl", "text", "challenge", "humanCheckWidget",
          "rejected", "suspended", "queueAll", "queueingMethod", "settingsVersion",
          "isRandom", "isEventActive", "isEventPrequeueing", "eventName", "shuffleAtEventStart", "timeUntilEventStart",
          "timeUntilEventStartFormatted", "timeUntilEventEnd", "timeUntilEventEndFormatted", "eventCountdown",
          // The names of the first template syntax, kept so that such templates still work.
          "waitKnown", "waitMinutes", "refreshSeconds");

  /** The texts that exist only as parts of others (they hold arguments a page cannot fill). */
  static final Set<String> PARTS = Set.of("waitAbout", "waitUpTo", "hoursAndMinutes");

  private static final Mustache.Compiler COMPILER =
      Mustache.compiler().escapeHTML(true).emptyStringIsFalse(true).strictSections(false);
  private static final Pattern META_REFRESH = Pattern.compile("(?i)http-equiv\\s*=\\s*[\"']?refresh");
  private static final Pattern LINE = Pattern.compile("@ line (\\d+)");

  private final Template template;
  private final boolean injectMeta;
  private final boolean injectScript;
  private final boolean usesWidget;

  private PageTemplate(Template template, boolean injectMeta, boolean injectScript, boolean usesWidget) {
    this.template = template;
    this.injectMeta = injectMeta;
    this.injectScript = injectScript;
    this.usesWidget = usesWidget;
  }

  /** Whether the template places {@code {{{humanCheckWidget}}}} itself (else it comes with the script). */
  boolean usesWidget() {
    return usesWidget;
  }

  /**
   * Checks and compiles a template.
   *
   * @param source where the template came from, for error messages
   * @param textKeys the names a template may use after {@code text.}
   * @throws PageTemplateException with the line and column of the first problem
   */
  static PageTemplate parse(String html, String source, Set<String> textKeys) {
    Set<String> used = check(html, source, textKeys);
    Template t;
    try {
      t = COMPILER.compile(html);
    } catch (MustacheException e) {
      // check() finds what JMustache refuses; should anything slip through, keep its line.
      Matcher m = LINE.matcher(String.valueOf(e.getMessage()));
      throw new PageTemplateException(source, m.find() ? Integer.parseInt(m.group(1)) : 1, 1, String.valueOf(e.getMessage()));
    }
    boolean injectMeta = !used.contains("refreshMeta") && !META_REFRESH.matcher(html).find();
    boolean injectScript = !used.contains("refreshScript");
    if (injectScript || injectMeta) {
      LOG.info(
          "The waiting page template ({}) has no {}: the page gets it added{}, so that it keeps refreshing",
          source,
          injectScript && injectMeta ? "{{{refreshMeta}}} and {{{refreshScript}}}" : injectScript ? "{{{refreshScript}}}" : "{{{refreshMeta}}}",
          injectScript ? " before </body>" : " before </head>");
    }
    return new PageTemplate(t, injectMeta, injectScript, used.contains("humanCheckWidget"));
  }

  /** One of the pages shipped with the library. */
  static PageTemplate builtIn(PageStyle style, Set<String> textKeys) {
    try (InputStream in = PageTemplate.class.getResourceAsStream(style.resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + style.resource);
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "built-in " + style.resource, textKeys);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Renders the page; {@code values} holds every name of {@link #VARIABLES}. */
  String render(Map<String, Object> values) {
    String html = template.execute(values);
    if (!injectMeta && !injectScript) {
      return html;
    }
    StringBuilder out = new StringBuilder(html);
    if (injectScript) {
      int body = lastIndexOfIgnoreCase(out, "</body>");
      out.insert(body < 0 ? out.length() : body, values.get("refreshScript") + "\n");
    }
    if (injectMeta) {
      int head = lastIndexOfIgnoreCase(out, "</head>");
      int at = head >= 0 ? head : lastIndexOfIgnoreCase(out, "</body>");
      out.insert(at < 0 ? out.length() : at, values.get("refreshMeta") + "\n");
    }
    return out.toString();
  }

  private static int lastIndexOfIgnoreCase(CharSequence s, String what) {
    return s.toString().toLowerCase(Locale.ROOT).lastIndexOf(what);
  }

  /**
   * Walks the tags of a template: every tag closed, sections nested and closed, names known.
   *
   * @param textKeys the keys allowed after {@code text.}, or {@code null} for any (checked later)
   * @return the names the template uses
   */
  static Set<String> check(String html, String source, @Nullable Set<String> textKeys) {
    Set<String> used = new java.util.HashSet<>();
    record Open(String name, int line, int column) {}
    Deque<Open> sections = new ArrayDeque<>();
    int line = 1;
    int lineStart = 0;
    int at = 0;
    int counted = 0; // lines are counted up to here
    while (true) {
      int open = html.indexOf("{{", at);
      if (open < 0) {
        break;
      }
      for (int i = counted; i < open; i++) {
        if (html.charAt(i) == '\n') {
          line++;
          lineStart = i + 1;
        }
      }
      counted = open;
      int column = open - lineStart + 1;
      boolean triple = html.startsWith("{{{", open);
      String close = triple ? "}}}" : "}}";
      int from = open + (triple ? 3 : 2);
      int end = html.indexOf(close, from);
      int next = html.indexOf("{{", from);
      if (end < 0 || (next >= 0 && next < end && html.charAt(from) != '!')) {
        throw new PageTemplateException(source, line, column, "the tag '" + excerpt(html, open) + "' is not closed with '" + close + "'");
      }
      String inner = html.substring(from, end).trim();
      at = end + close.length();
      if (inner.isEmpty()) {
        throw new PageTemplateException(source, line, column, "empty tag '" + html.substring(open, at) + "'");
      }
      char kind = triple ? '{' : inner.charAt(0);
      String name = "#^/&>=!".indexOf(kind) >= 0 && !triple ? inner.substring(1).trim() : inner;
      switch (kind) {
        case '!' -> { }
        case '>' -> throw new PageTemplateException(source, line, column,
            "partials ('" + html.substring(open, at) + "') are not supported: put the HTML into the template");
        case '=' -> throw new PageTemplateException(source, line, column,
            "changing the delimiters ('" + html.substring(open, at) + "') is not supported");
        case '#', '^' -> {
          known(html.substring(open, at), name, source, line, column, textKeys, !sections.isEmpty(), used);
          sections.push(new Open(name, line, column));
        }
        case '/' -> {
          Open o = sections.peek();
          if (o == null) {
            throw new PageTemplateException(source, line, column, "'{{/" + name + "}}' closes a section that was never opened");
          }
          if (!o.name.equals(name)) {
            throw new PageTemplateException(source, line, column,
                "'{{/" + name + "}}' closes a section, but the open one is '{{#" + o.name + "}}' (line " + o.line
                    + ", column " + o.column + ")");
          }
          sections.pop();
        }
        default -> known(html.substring(open, at), name, source, line, column, textKeys, !sections.isEmpty(), used);
      }
    }
    Open o = sections.peek();
    if (o != null) {
      throw new PageTemplateException(source, o.line, o.column, "section '{{#" + o.name + "}}' is never closed with '{{/" + o.name + "}}'");
    }
    return used;
  }

  private static void known(
      String tag, String name, String source, int line, int column, @Nullable Set<String> textKeys, boolean inSection,
      Set<String> used) {
    if (name.equals(".") && inSection) {
      return;
    }
    if (name.startsWith("text.") && name.length() > 5 && (textKeys == null || textKeys.contains(name.substring(5)))) {
      used.add(name);
      return;
    }
    if (VARIABLES.contains(name)) {
      used.add(name);
      return;
    }
    String hint = name.startsWith("text.") && textKeys != null
        ? "; texts: " + String.join(", ", textKeys.stream().sorted().map(k -> "{{text." + k + "}}").toList())
        : "; variables: " + String.join(", ", VARIABLES.stream().map(v -> "{{" + v + "}}").toList())
            + ", and {{text.<key>}} for the page's texts";
    throw new PageTemplateException(source, line, column, "unknown name '" + name + "' in '" + tag + "'" + hint);
  }

  /** "about 3 minutes", "less than a minute" or "unknown": the JSON status's English {@code waitTimeFormatted}, as before. */
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

  private static String excerpt(String html, int from) {
    int end = Math.min(html.length(), from + 30);
    int nl = html.indexOf('\n', from);
    if (nl >= 0 && nl < end) {
      end = nl;
    }
    return html.substring(from, end);
  }
}
