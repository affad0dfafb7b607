package io.github.waitingroom.redis;

import io.github.waitingroom.coordinator.ReportSeal;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A node's view of the real Redis transport, as a test needs it: with Redis's clock or a virtual
 * one as the store's clock in the answers, with a switch that makes it fail at once (a store that
 * refuses connections), for outages too long to sit through real timeouts (the Lettuce timeout path itself
 * is covered with {@link PausableProxy}), and able to pass for a node of another release.
 */
final class TestTransport implements Transport, AutoCloseable {
  private final Transport delegate;
  private final @Nullable InstantSource storeClock;
  private volatile boolean down;
  /**
   * Whether the next exchanges reach the store but their answers are lost, as when a command times
   * out after Redis ran it: the node sees a failure, the others see what it published.
   */
  volatile boolean loseAnswers;
  /** Run before each exchange: what others do to the store just before this node's exchange. */
  volatile @Nullable Runnable before;
  private volatile byte @Nullable [] publishAs;
  private volatile @Nullable String rewrittenScope;
  private volatile @Nullable ReportSeal seal;
  /**
   * What this node published as it wrote it, where the store holds something else in its name:
   * it reads those values back as it wrote them.
   */
  private final Map<String, Map<String, byte[]>> written = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * @param storeClock the time the answers carry as the store's ({@link Transport#CLOCK_SCOPE}),
   *     which nodes keep time by: a test's virtual clock, or {@code null} for Redis's {@code TIME}
   */
  TestTransport(Transport delegate, @Nullable InstantSource storeClock) {
    this.delegate = delegate;
    this.storeClock = storeClock;
  }

  /** Makes every exchange fail at once (true) or reach the store again (false). */
  void down(boolean isDown) {
    this.down = isDown;
  }

  /**
   * Makes the node look like one of another release to the others: what it publishes to {@code
   * scope} (every scope if null) is stored as {@code payload} instead, sealed with the room's keys
   * like anything a node of the room writes, while the node itself reads back what it wrote.
   * {@code null} payload: publish as written again.
   */
  void publishAs(byte @Nullable [] payload, @Nullable String scope, @Nullable ReportSeal seal) {
    this.rewrittenScope = scope;
    this.seal = seal;
    this.publishAs = payload;
  }

  @Override
  public Map<String, Map<String, byte[]>> exchange(String roomId, List<Publication> publications, Duration retention)
      throws IOException {
    if (down) {
      throw new IOException("store unreachable (switched off by the test)");
    }
    Runnable first = before;
    if (first != null) {
      first.run();
    }
    byte[] other = publishAs;
    String scope = rewrittenScope;
    List<Publication> out = publications;
    if (other != null) {
      out = new ArrayList<>();
      for (Publication p : publications) {
        boolean rewrite = scope == null || scope.equals(p.scope());
        ReportSeal by = seal;
        byte[] payload = by == null ? other : by.seal(p.scope(), p.publisher(), other);
        out.add(rewrite ? new Publication(p.scope(), p.publisher(), payload) : p);
      }
    }
    Map<String, Map<String, byte[]>> answer = new HashMap<>(delegate.exchange(roomId, out, retention));
    for (int i = 0; i < publications.size(); i++) {
      Publication p = publications.get(i);
      Map<String, byte[]> mine = written.computeIfAbsent(p.scope(), k -> new java.util.concurrent.ConcurrentHashMap<>());
      if (out.get(i) != p) {
        mine.put(p.publisher(), p.payload());
      } else {
        // Stored as written: the store's answer shows it (or whatever replaced it since, such as
        // the original of a report this node put back for a publisher the store had lost).
        mine.remove(p.publisher());
      }
    }
    this.written.forEach(
        (written, mine) -> {
          Map<String, byte[]> values = answer.get(written);
          if (values != null) {
            Map<String, byte[]> fixed = new HashMap<>(values);
            mine.forEach((who, payload) -> fixed.computeIfPresent(who, (k, v) -> payload));
            answer.put(written, fixed);
          }
        });
    InstantSource virtual = storeClock;
    if (virtual != null && answer.containsKey(Transport.CLOCK_SCOPE)) {
      answer.put(Transport.CLOCK_SCOPE, Map.of("now", ByteBuffer.allocate(8).putLong(virtual.millis()).array()));
    }
    if (loseAnswers) {
      throw new IOException("answer lost (timed out after the store ran the exchange)");
    }
    return answer;
  }

  @Override
  public void close() throws Exception {
    if (delegate instanceof AutoCloseable c) {
      c.close();
    }
  }
}
