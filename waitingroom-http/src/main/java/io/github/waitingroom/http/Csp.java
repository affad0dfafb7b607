package io.github.waitingroom.http;

import java.net.URI;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The Content-Security-Policy of every answer the gate writes. Pages allow only their own inline
 * script and style, by a fresh nonce per response (no hashes: the scripts carry per-visitor values),
 * same-origin requests and the image sources of the page's logo; the challenge page adds the human
 * check widget's sources and the proof-of-work worker; JSON and the worker script allow nothing.
 */
final class Csp {
  /** The policy of the JSON status and of the worker script. */
  static final String NONE = "default-src 'none'";

  private static final SecureRandom NONCES = new SecureRandom();
  private static final Base64.Encoder NONCE_ENCODER = Base64.getUrlEncoder().withoutPadding();

  private Csp() {}

  /** 128 random bits, base64url: a Content-Security-Policy nonce for one page. */
  static String nonce() {
    byte[] bytes = new byte[16];
    NONCES.nextBytes(bytes);
    return NONCE_ENCODER.encodeToString(bytes);
  }

  /** A random long, from the same source as the nonces. */
  static long randomLong() {
    return NONCES.nextLong();
  }

  /**
   * The waiting page's policy: its own inline script and style (by nonce), requests to its own
   * origin (the status poll) and same-origin images; nothing from elsewhere, no plugins, no
   * {@code <base>}.
   */
  static String page(String nonce) {
    return page(nonce, "'self'");
  }

  static String page(String nonce, String imageSources) {
    return "default-src 'none'; script-src 'nonce-" + nonce + "'; style-src 'nonce-" + nonce
        + "'; connect-src 'self'; img-src " + imageSources + "; base-uri 'none'; form-action 'self'";
  }

  /**
   * The challenge page's policy: the waiting page's, with the worker and the human check's widget
   * sources ({@code widgetSources}: {@code ""} for none, else each source after a space).
   */
  static String challenge(String nonce, String imageSources, String widgetSources) {
    String w = widgetSources;
    return "default-src 'none'; script-src 'nonce-" + nonce + "'" + w + "; style-src 'nonce-" + nonce + "'" + w
        + "; connect-src 'self'" + w + "; img-src " + imageSources + "; worker-src 'self'"
        + (w.isEmpty() ? "" : "; frame-src" + w) + "; base-uri 'none'; form-action 'self'";
  }

  /** {@code 'self'}, and the origin of an absolute logo URL: the page's {@code img-src}. */
  static String imageSources(String logoUrl) {
    if (logoUrl.startsWith("https://")) {
      URI u = URI.create(logoUrl);
      return "'self' https://" + u.getRawAuthority();
    }
    return "'self'";
  }
}
