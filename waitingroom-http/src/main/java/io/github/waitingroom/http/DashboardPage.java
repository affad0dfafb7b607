package io.github.waitingroom.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** The dashboard's page ({@code dashboard.html}): its text with the auth mode left open, and the CSP that allows its inline parts. */
final class DashboardPage {
  private final String html;
  final String policy;

  private DashboardPage(String html, String policy) {
    this.html = html;
    this.policy = policy;
  }

  static DashboardPage load() {
    String html;
    try (InputStream in = DashboardPage.class.getResourceAsStream("dashboard.html")) {
      if (in == null) {
        throw new IllegalStateException("dashboard.html is missing from the waitingroom-http jar");
      }
      html = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String policy =
        "default-src 'none'; script-src " + hash(html, "<script>", "</script>")
            + "; style-src " + hash(html, "<style>", "</style>")
            + "; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    return new DashboardPage(html, policy);
  }

  /** The CSP source of the one inline element between {@code open} and {@code close}. */
  private static String hash(String html, String open, String close) {
    int start = html.indexOf(open);
    int end = html.indexOf(close, start);
    if (start < 0 || end < 0 || html.indexOf(open, start + 1) >= 0) {
      throw new IllegalStateException("dashboard.html must hold exactly one " + open);
    }
    try {
      byte[] d = MessageDigest.getInstance("SHA-256")
          .digest(html.substring(start + open.length(), end).getBytes(StandardCharsets.UTF_8));
      return "'sha256-" + Base64.getEncoder().encodeToString(d) + "'";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** The page for one auth mode ({@code bearer} or {@code role}); outside the hashed parts. */
  byte[] page(String auth) {
    return html.replace("data-auth=\"{{auth}}\"", "data-auth=\"" + auth + "\"").getBytes(StandardCharsets.UTF_8);
  }
}
