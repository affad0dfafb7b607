package io.github.waitingroom.servlet;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;

/**
 * Skips a test whose outside service (a browser, Redis) is missing, unless the run requires
 * services: environment variable {@code WAITINGROOM_REQUIRE_SERVICES=true} (CI sets it) or system
 * property {@code waitingroom.requireServices=true}; then a missing service fails the test.
 */
final class Services {
  private Services() {}

  static boolean required() {
    return "true".equalsIgnoreCase(System.getenv("WAITINGROOM_REQUIRE_SERVICES"))
        || "true".equalsIgnoreCase(System.getProperty("waitingroom.requireServices"));
  }

  static void assume(boolean available, String whatIsMissing) {
    if (available) {
      return;
    }
    if (required()) {
      fail(whatIsMissing + " (required: WAITINGROOM_REQUIRE_SERVICES / waitingroom.requireServices is true)");
    }
    Assumptions.abort(whatIsMissing + "; skipping. Set WAITINGROOM_REQUIRE_SERVICES=true to fail instead.");
  }
}
