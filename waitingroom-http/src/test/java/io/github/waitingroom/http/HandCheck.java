package io.github.waitingroom.http;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import org.jspecify.annotations.Nullable;

/**
 * A human check run by hand, for tests of the adapters: each question the gate asks waits in
 * {@link #asked()} until the test gives its verdict (or fails it), so a test decides when the
 * service answers. Its widget loads from {@code https://check.example}; its timeout is 30 s.
 */
public final class HandCheck implements HumanCheck {
  private final String siteKey;
  private final BlockingQueue<CompletableFuture<Verdict>> asked = new LinkedBlockingQueue<>();

  /**
   * A check whose widget carries the given site key.
   *
   * @param siteKey the widget's {@code data-sitekey}
   */
  public HandCheck(String siteKey) {
    this.siteKey = siteKey;
  }

  /**
   * The questions asked and not yet taken, oldest first: complete one to answer it.
   *
   * @return the queue of pending verdicts
   */
  public BlockingQueue<CompletableFuture<Verdict>> asked() {
    return asked;
  }

  @Override
  public Widget widget() {
    return new Widget("https://check.example/api.js", "hand-check", siteKey, List.of("https://check.example"));
  }

  @Override
  public CompletionStage<Verdict> verify(String token, @Nullable String remoteAddress) {
    CompletableFuture<Verdict> v = new CompletableFuture<>();
    asked.add(v);
    return v;
  }

  @Override
  public Duration timeout() {
    return Duration.ofSeconds(30);
  }
}
