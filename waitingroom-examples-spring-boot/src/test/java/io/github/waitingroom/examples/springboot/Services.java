package io.github.waitingroom.examples.springboot;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * Skips a test whose outside service (Redis, a browser) is missing, unless the run requires
 * services: environment variable {@code WAITINGROOM_REQUIRE_SERVICES=true} (CI sets it) or system
 * property {@code waitingroom.requireServices=true}; then a missing service fails the test. The
 * same rule as the other modules' tests.
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

  /** Redis at 127.0.0.1:6379, where the sample's {@code application.yml} points. */
  static void assumeRedis() {
    boolean up;
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", 6379), 2000);
      up = true;
    } catch (IOException e) {
      up = false;
    }
    assume(up, "Redis at 127.0.0.1:6379 is unreachable");
  }

  /** Debian's headless Chromium and its driver. */
  static void assumeChromium(Path chromium, Path chromedriver) {
    assume(
        Files.isExecutable(chromium) && Files.isExecutable(chromedriver),
        "headless Chromium needs " + chromium + " and " + chromedriver
            + " (Debian: apt-get install -y chromium chromium-driver)");
  }
}
