package io.github.waitingroom.servlet;

import java.util.ArrayList;
import java.util.List;

/**
 * Which request paths the room guards: everything under one prefix, minus ignored paths.
 *
 * <p>Paths are matched segment by segment, so the prefix {@code /shop} covers {@code /shop} and
 * {@code /shop/cart} but not {@code /shopping}. An ignored entry is either such a path (it and
 * everything below it pass through) or an extension pattern {@code *.css}.
 */
final class PathRules {
  private final String prefix;
  private final List<String> ignoredPaths;
  private final List<String> ignoredExtensions;

  PathRules(String prefix, List<String> ignored) {
    this.prefix = checkPath("pathPrefix", prefix);
    List<String> paths = new ArrayList<>();
    List<String> extensions = new ArrayList<>();
    for (String entry : ignored) {
      String e = entry.trim();
      if (e.startsWith("*.") && e.length() > 2 && e.indexOf('/') < 0) {
        extensions.add(e.substring(1));
      } else {
        paths.add(checkPath("ignorePaths", e));
      }
    }
    this.ignoredPaths = List.copyOf(paths);
    this.ignoredExtensions = List.copyOf(extensions);
  }

  private static String checkPath(String setting, String path) {
    if (!path.startsWith("/") || path.contains("//") || path.contains("?") || path.contains("#")) {
      throw new IllegalArgumentException(
          setting + " must be a path starting with '/' (or, for ignorePaths, an extension like"
              + " '*.css') but was '" + path + "'");
    }
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  /** The guarded prefix, without a trailing slash ({@code /} for the whole application). */
  String prefix() {
    return prefix;
  }

  /** Whether a request for {@code path} (within the context, decoded) goes through the room. */
  boolean guards(String path) {
    if (!under(path, prefix)) {
      return false;
    }
    for (String p : ignoredPaths) {
      if (under(path, p)) {
        return false;
      }
    }
    for (String ext : ignoredExtensions) {
      if (path.endsWith(ext)) {
        return false;
      }
    }
    return true;
  }

  private static boolean under(String path, String base) {
    if (base.equals("/")) {
      return true;
    }
    return path.startsWith(base) && (path.length() == base.length() || path.charAt(base.length()) == '/');
  }
}
