package io.github.waitingroom.redis;

import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A node's view of the real Redis transport, as a test needs it: with or without the store's
 * clock in the answers, and with a switch that makes it fail at once (a store that refuses
 * connections), for outages too long to sit through real timeouts. The Lettuce timeout path itself
 * is covered with {@link PausableProxy}.
 */
final class TestTransport implements Transport, AutoCloseable {
  private final Transport delegate;
  private final boolean storeClock;
  private volatile boolean down;

  /**
   * @param storeClock whether answers keep {@link Transport#CLOCK_SCOPE}: with it, nodes keep
   *     time by Redis's {@code TIME}; without it, by their own (manual) clocks
   */
  TestTransport(Transport delegate, boolean storeClock) {
    this.delegate = delegate;
    this.storeClock = storeClock;
  }

  /** Makes every exchange fail at once (true) or reach the store again (false). */
  void down(boolean isDown) {
    this.down = isDown;
  }

  @Override
  public Map<String, Map<String, byte[]>> exchange(String roomId, List<Publication> publications, Duration retention)
      throws IOException {
    if (down) {
      throw new IOException("store unreachable (switched off by the test)");
    }
    Map<String, Map<String, byte[]>> answer = delegate.exchange(roomId, publications, retention);
    if (storeClock) {
      return answer;
    }
    Map<String, Map<String, byte[]>> stripped = new HashMap<>(answer);
    stripped.remove(Transport.CLOCK_SCOPE);
    return stripped;
  }

  @Override
  public void close() throws Exception {
    if (delegate instanceof AutoCloseable c) {
      c.close();
    }
  }
}
