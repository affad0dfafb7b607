package io.github.waitingroom.testsupport;

import org.junit.jupiter.api.Assumptions;

/**
 * Skips a test whose outside service (a browser, Redis, a binary) is missing, unless the run
 * requires services: environment variable {@code WAITINGROOM_REQUIRE_SERVICES=true} (CI sets it) or
 * system property {@code waitingroom.requireServices=true} (the parent pom passes it to every
 * test); then a missing service fails the test.
 */
public final class Services {
  private Services() {}

  /** Whether this run requires its outside services: a missing one then fails instead of skipping. */
  public static boolean required() {
    return "true".equalsIgnoreCase(System.getenv("WAITINGROOM_REQUIRE_SERVICES"))
        || "true".equalsIgnoreCase(System.getProperty("waitingroom.requireServices"));
  }

  /**
   * Returns if {@code available}; otherwise fails the calling test where services are required and
   * skips it elsewhere.
   *
   * @param available whether the service is there
   * @param whatIsMissing a sentence that names the service and how to get it
   */
  public static void assume(boolean available, String whatIsMissing) {
    if (available) {
      return;
    }
    if (required()) {
      throw new AssertionError(whatIsMissing + " (required: WAITINGROOM_REQUIRE_SERVICES / waitingroom.requireServices is true)");
    }
    Assumptions.abort(whatIsMissing + "; skipping. Set WAITINGROOM_REQUIRE_SERVICES=true to fail instead.");
  }
}
