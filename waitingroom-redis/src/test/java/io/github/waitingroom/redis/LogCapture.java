package io.github.waitingroom.redis;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Captures what slf4j-simple writes to {@code System.err} while it is open (and still shows it). */
final class LogCapture implements AutoCloseable {
  private final PrintStream original = System.err;
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  LogCapture() {
    OutputStream tee =
        new OutputStream() {
          @Override
          public synchronized void write(int b) {
            captured.write(b);
            original.write(b);
          }

          @Override
          public synchronized void write(byte[] b, int off, int len) {
            captured.write(b, off, len);
            original.write(b, off, len);
          }
        };
    System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
  }

  /** How many captured lines contain {@code text}. */
  synchronized long count(String text) {
    return lines(text).size();
  }

  /** The captured lines (split at CR, LF or CRLF) that contain {@code text}. */
  synchronized java.util.List<String> lines(String text) {
    return captured.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains(text)).toList();
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
