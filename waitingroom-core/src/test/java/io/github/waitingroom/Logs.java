package io.github.waitingroom;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What slf4j-simple writes to {@code System.err} while a piece of a test runs. */
final class Logs {
  private Logs() {}

  /** Runs {@code body} and returns what was logged meanwhile. */
  static String during(Runnable body) {
    PrintStream original = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      body.run();
    } finally {
      System.setErr(original);
    }
    return err.toString(StandardCharsets.UTF_8);
  }
}
