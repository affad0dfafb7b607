package io.github.waitingroom.http;

/** The ticket cookies' {@code SameSite} attribute (session and place alike). */
public enum SameSite {
  /** {@code SameSite=Lax}: the default; sent on top-level navigation from other sites. */
  LAX,
  /** {@code SameSite=Strict}. */
  STRICT,
  /** {@code SameSite=None}, for rooms embedded in other sites; implies {@code Secure}. */
  NONE
}
