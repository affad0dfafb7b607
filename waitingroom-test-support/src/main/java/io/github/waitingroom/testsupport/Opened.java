package io.github.waitingroom.testsupport;

import java.util.ArrayDeque;
import java.util.Deque;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a test opened (rooms, servers, browsers), closed after it, the last opened first: a test
 * registers one (or a module's fixture that extends it) with {@code @RegisterExtension} instead of
 * an {@code @AfterEach} that closes each in turn. Every one is closed even when one fails; the first
 * failure is thrown, the others added to it.
 */
public class Opened implements AfterEachCallback {
  private final Deque<AutoCloseable> open = new ArrayDeque<>();

  /** Nothing opened yet. */
  public Opened() {}

  /**
   * Closes {@code thing} after the test, before whatever was opened earlier.
   *
   * @return {@code thing}
   */
  public final <T extends AutoCloseable> T opened(T thing) {
    open.push(thing);
    return thing;
  }

  @Override
  public final void afterEach(ExtensionContext context) throws Exception {
    @Nullable Exception failed = null;
    while (!open.isEmpty()) {
      try {
        open.pop().close();
      } catch (Exception e) {
        if (failed == null) {
          failed = e;
        } else {
          failed.addSuppressed(e);
        }
      }
    }
    if (failed != null) {
      throw failed;
    }
  }
}
