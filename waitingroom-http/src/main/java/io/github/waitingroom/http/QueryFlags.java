package io.github.waitingroom.http;

import org.jspecify.annotations.Nullable;

/** Reads the raw (undecoded) query string without allocating where it can: the flags the gate looks for. */
final class QueryFlags {
  private QueryFlags() {}

  /** Whether the raw query string holds the flag {@code name} (with or without a value). */
  static boolean hasFlag(@Nullable String query, String name) {
    if (query == null) {
      return false;
    }
    int from = 0;
    while (from <= query.length()) {
      int end = query.indexOf('&', from);
      if (end < 0) {
        end = query.length();
      }
      if (query.startsWith(name, from)
          && (from + name.length() == end || query.charAt(from + name.length()) == '=')) {
        return true;
      }
      from = end + 1;
    }
    return false;
  }

  /** Whether the raw query holds {@code name=value} exactly, without allocating. */
  static boolean hasValue(String query, String name, String value) {
    int from = 0;
    while (from <= query.length()) {
      int end = query.indexOf('&', from);
      if (end < 0) {
        end = query.length();
      }
      int after = from + name.length();
      if (end - from == name.length() + 1 + value.length()
          && query.startsWith(name, from)
          && query.charAt(after) == '='
          && query.startsWith(value, after + 1)) {
        return true;
      }
      from = end + 1;
    }
    return false;
  }

  /** The value of a query parameter ({@code ""} without one), as sent (not decoded), or {@code null}. */
  static @Nullable String queryValue(@Nullable String query, String name) {
    if (query == null) {
      return null;
    }
    int from = 0;
    while (from <= query.length()) {
      int end = query.indexOf('&', from);
      if (end < 0) {
        end = query.length();
      }
      if (query.startsWith(name, from)) {
        int after = from + name.length();
        if (after == end) {
          return "";
        }
        if (query.charAt(after) == '=') {
          return query.substring(after + 1, end);
        }
      }
      from = end + 1;
    }
    return null;
  }

  /** Whether a request asks for JSON: the status flag in its query, or {@code application/json} in its {@code Accept}. */
  static boolean wantsJson(GateRequest request, String statusParam) {
    String accept = request.accept();
    return hasFlag(request.query(), statusParam) || accept != null && accept.contains("application/json");
  }
}
