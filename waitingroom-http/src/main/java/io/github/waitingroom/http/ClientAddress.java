package io.github.waitingroom.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The client a challenge is bound to and a no-script place is counted for: its network address as
 * the adapter read it (the container's remote address, which behind a proxy is the client's only
 * once the container is told to trust the proxy's forwarded headers). An IPv4 address counts
 * whole; an IPv6 address by its first 64 bits, the block one host is usually given and can pick
 * addresses from at will. The key is 64 bits of SHA-256 of that, so that the address itself is
 * never kept; it travels only inside sealed challenges. Without an address (an adapter that has
 * none), every such client is one client.
 *
 * <p>Why the address and not a first-party cookie: the gate mints a cookie for whoever asks, so a
 * bot has as many cookies as it makes requests (that is what harvesting is), and a budget per
 * cookie is no budget. An address is the one thing the adapter sees that a bot cannot mint for
 * free: each further one costs it a proxy or a machine.
 */
final class ClientAddress {
  private ClientAddress() {}

  /**
   * The key of a client's address.
   *
   * @param remoteAddress an IPv4 or IPv6 literal (brackets and a zone allowed), or {@code null}
   * @return 64 bits that stand for the address (its IPv6 /64), the same for every spelling of it
   */
  static long key(@Nullable String remoteAddress) {
    String canonical = canonical(remoteAddress);
    MessageDigest md = ProofOfWork.SHA256.get();
    md.update("waitingroom client ".getBytes(StandardCharsets.US_ASCII));
    md.update(canonical.getBytes(StandardCharsets.UTF_8));
    return ByteBuffer.wrap(md.digest()).getLong();
  }

  /**
   * What a client counts as: {@code "4 a.b.c.d"} for IPv4 (IPv4-mapped IPv6 too), {@code "6 "}
   * and 16 hex digits for an IPv6 /64, the string itself lower-cased when it is neither, and
   * {@code ""} for none. Parsed by hand: never a name lookup.
   */
  static String canonical(@Nullable String remoteAddress) {
    if (remoteAddress == null) {
      return "";
    }
    String a = remoteAddress.strip();
    if (a.startsWith("[") && a.endsWith("]")) {
      a = a.substring(1, a.length() - 1);
    }
    int zone = a.indexOf('%');
    if (zone >= 0) {
      a = a.substring(0, zone);
    }
    if (a.indexOf(':') < 0) {
      int[] v4 = ipv4(a);
      return v4 != null ? "4 " + v4[0] + "." + v4[1] + "." + v4[2] + "." + v4[3] : a.toLowerCase(Locale.ROOT);
    }
    int[] groups = ipv6(a);
    if (groups == null) {
      return a.toLowerCase(Locale.ROOT);
    }
    boolean mapped = groups[0] == 0 && groups[1] == 0 && groups[2] == 0 && groups[3] == 0 && groups[4] == 0
        && groups[5] == 0xffff;
    if (mapped) {
      return "4 " + (groups[6] >>> 8) + "." + (groups[6] & 0xff) + "." + (groups[7] >>> 8) + "." + (groups[7] & 0xff);
    }
    return String.format(Locale.ROOT, "6 %04x%04x%04x%04x", groups[0], groups[1], groups[2], groups[3]);
  }

  /** The four parts of a dotted IPv4 address, or {@code null}. */
  private static int @Nullable [] ipv4(String s) {
    String[] parts = s.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    int[] v = new int[4];
    for (int i = 0; i < 4; i++) {
      String p = parts[i];
      if (p.isEmpty() || p.length() > 3) {
        return null;
      }
      int n = 0;
      for (int j = 0; j < p.length(); j++) {
        char c = p.charAt(j);
        if (c < '0' || c > '9') {
          return null;
        }
        n = n * 10 + (c - '0');
      }
      if (n > 255) {
        return null;
      }
      v[i] = n;
    }
    return v;
  }

  /** The eight 16-bit groups of an IPv6 address (with {@code ::} and a dotted tail), or {@code null}. */
  private static int @Nullable [] ipv6(String s) {
    int gap = s.indexOf("::");
    if (gap >= 0 && s.indexOf("::", gap + 1) >= 0) {
      return null;
    }
    String head = gap >= 0 ? s.substring(0, gap) : s;
    String tail = gap >= 0 ? s.substring(gap + 2) : "";
    java.util.List<Integer> h = groups(head);
    java.util.List<Integer> t = groups(tail);
    if (h == null || t == null) {
      return null;
    }
    int n = h.size() + t.size();
    if (gap < 0 ? n != 8 : n > 7) {
      return null;
    }
    int[] g = new int[8];
    for (int i = 0; i < h.size(); i++) {
      g[i] = h.get(i);
    }
    for (int i = 0; i < t.size(); i++) {
      g[8 - t.size() + i] = t.get(i);
    }
    return g;
  }

  /** The groups of one side of {@code ::}: hex groups, the last of which may be a dotted IPv4 address. */
  private static java.util.@Nullable List<Integer> groups(String s) {
    java.util.List<Integer> out = new java.util.ArrayList<>();
    if (s.isEmpty()) {
      return out;
    }
    String[] parts = s.split(":", -1);
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      if (i == parts.length - 1 && p.indexOf('.') >= 0) {
        int[] v4 = ipv4(p);
        if (v4 == null) {
          return null;
        }
        out.add(v4[0] << 8 | v4[1]);
        out.add(v4[2] << 8 | v4[3]);
        continue;
      }
      if (p.isEmpty() || p.length() > 4) {
        return null;
      }
      int n = 0;
      for (int j = 0; j < p.length(); j++) {
        int d = Character.digit(p.charAt(j), 16);
        if (d < 0) {
          return null;
        }
        n = n << 4 | d;
      }
      out.add(n);
    }
    return out.size() > 8 ? null : out;
  }
}
