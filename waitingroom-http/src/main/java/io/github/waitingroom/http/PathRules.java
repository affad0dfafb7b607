package io.github.waitingroom.http;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which requests the room guards: everything under one prefix, minus ignored static paths.
 *
 * <p>Paths are matched segment by segment, so the prefix {@code /shop} covers {@code /shop} and
 * {@code /shop/cart} but not {@code /shopping}. The prefix is matched against the path as the
 * container decoded it, so no spelling of a guarded path escapes the room.
 *
 * <p>An ignored entry is a path ({@code /static/}: it and everything below it) or an extension
 * under a path ({@code /static/*.css}: a last segment that ends in {@code .css}, anywhere below
 * {@code /static}). An extension for the whole application ({@code *.css}, {@code /*.css}) is
 * refused at start-up: it would also cover paths that the application routes elsewhere ({@code
 * /admin/x.css}, which a controller mapped to {@code /admin/**} may answer). An ignore applies to
 * a request only when
 *
 * <ol>
 *   <li>its method is {@code GET} or {@code HEAD} (a write is never a static fetch), and
 *   <li>its path is <em>canonical</em>: the path as sent (after the context path) holds only
 *       {@code A-Z a-z 0-9 - . _ ~ /}, has no empty, {@code .} or {@code ..} segment, and equals
 *       the path the container decoded. So no percent-escape ({@code /buy%3B.css}, {@code
 *       /buy%20.css}), no path parameter ({@code /buy;x.css}) and no dot segment makes a request
 *       look like an ignored one while an application routes it elsewhere.
 * </ol>
 *
 * <p>Everything else goes through the room.
 *
 * <p>A {@link Gate} holds one; the adapters never build their own.
 */
public final class PathRules {
  private static final Pattern EXTENSION = Pattern.compile("\\*(\\.[A-Za-z0-9]+)+");
  private static final Pattern CANONICAL_CHARS = Pattern.compile("[A-Za-z0-9._~/-]*");

  /** An extension rule: a last segment ending in {@code extension}, below {@code under}. */
  private record ExtensionRule(String under, String extension) {}

  private final String prefix;
  private final List<String> ignoredPaths;
  private final List<ExtensionRule> ignoredExtensions;

  PathRules(String prefix, List<String> ignored) {
    this.prefix = checkPath("pathPrefix", prefix);
    List<String> paths = new ArrayList<>();
    List<ExtensionRule> extensions = new ArrayList<>();
    for (String entry : ignored) {
      String e = entry.trim();
      int star = e.startsWith("*.") ? -1 : e.lastIndexOf("/*.");
      if (e.startsWith("*.") || star >= 0) {
        String under = star <= 0 ? "/" : checkPath("ignorePaths", e.substring(0, star));
        String extension = checkExtension(e, e.substring(star + 1));
        if (under.equals("/")) {
          throw new IllegalArgumentException(
              "ignorePaths '" + e + "' would exempt every path ending in " + extension + " at any depth, also"
                  + " below the application's own routes (/admin/x" + extension + "); name the directory of your"
                  + " assets, e.g. '/static/*" + extension + "'");
        }
        extensions.add(new ExtensionRule(under, extension));
      } else {
        paths.add(checkPath("ignorePaths", e));
      }
    }
    this.ignoredPaths = List.copyOf(paths);
    this.ignoredExtensions = List.copyOf(extensions);
  }

  private static String checkExtension(String entry, String pattern) {
    if (!EXTENSION.matcher(pattern).matches()) {
      throw new IllegalArgumentException(
          "ignorePaths: an extension must be written '*.css' or '/static/*.css' (letters and digits"
              + " after each dot) but was '" + entry + "'");
    }
    return pattern.substring(1);
  }

  private static String checkPath(String setting, String path) {
    if (!path.startsWith("/") || path.contains("//") || path.contains("?") || path.contains("#")
        || path.contains("*")) {
      throw new IllegalArgumentException(
          setting + " must be a path starting with '/' (or, for ignorePaths, an extension like"
              + " '*.css' or '/static/*.css') but was '" + path + "'");
    }
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  /**
   * The guarded prefix, without a trailing slash ({@code /} for the whole application).
   *
   * @return the prefix
   */
  public String prefix() {
    return prefix;
  }

  /**
   * Whether a canonical {@code GET} of {@code path} goes through the room.
   *
   * @param path a path within the application
   * @return whether the room decides it
   */
  public boolean guards(String path) {
    return guards("GET", path, path);
  }

  /**
   * Whether a request goes through the room.
   *
   * @param method the HTTP method
   * @param rawPath the path as the client sent it, after the context path (percent-escapes and
   *     path parameters intact)
   * @param path the path within the application as the container decoded it
   * @return whether the room decides the request
   */
  public boolean guards(String method, String rawPath, String path) {
    if (!under(path, prefix)) {
      return false;
    }
    return !(("GET".equals(method) || "HEAD".equals(method)) && canonical(rawPath, path) && ignored(path));
  }

  private boolean ignored(String path) {
    for (String p : ignoredPaths) {
      if (under(path, p)) {
        return true;
      }
    }
    int lastSlash = path.lastIndexOf('/');
    for (ExtensionRule rule : ignoredExtensions) {
      if (under(path, rule.under)
          && path.endsWith(rule.extension)
          && path.length() - lastSlash - 1 > rule.extension.length()) {
        return true;
      }
    }
    return false;
  }

  /** Whether the path as sent is already in the form the container decoded (see the class comment). */
  static boolean canonical(String rawPath, String path) {
    if (!rawPath.equals(path) || !CANONICAL_CHARS.matcher(rawPath).matches() || !rawPath.startsWith("/")) {
      return false;
    }
    int at = 1;
    while (at <= rawPath.length()) {
      int end = rawPath.indexOf('/', at);
      if (end < 0) {
        end = rawPath.length();
      }
      String segment = rawPath.substring(at, end);
      boolean last = end == rawPath.length();
      if ((segment.isEmpty() && !last) || segment.equals(".") || segment.equals("..")) {
        return false;
      }
      at = end + 1;
    }
    return true;
  }

  /**
   * Whether {@code path} is {@code base} or below it, by whole segments.
   *
   * @param path a decoded path
   * @param base a path without a trailing slash, or {@code /}
   * @return whether {@code path} lies under {@code base}
   */
  public static boolean under(String path, String base) {
    if (base.equals("/")) {
      return true;
    }
    return path.startsWith(base) && (path.length() == base.length() || path.charAt(base.length()) == '/');
  }
}
