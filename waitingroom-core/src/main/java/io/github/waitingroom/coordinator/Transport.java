package io.github.waitingroom.coordinator;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The one method a coordinator store implements: publish my reports, get back what everyone
 * published. Implementations ship with the library ({@link InMemoryTransport}, the Redis transport
 * of {@code waitingroom-redis}); a user can write their own and check it against the transport
 * compatibility kit.
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li>Each publication stores {@code payload} under ({@code roomId}, {@code scope}, {@code
 *       publisher}), replacing whatever that publisher stored there before. Rooms never see each
 *       other's values.
 *   <li>The answer maps every scope named by a publication to all values stored in that scope
 *       that have not expired, keyed by publisher, <em>including the ones just published</em>.
 *       Payloads come back byte for byte.
 *   <li>A value expires once {@code retention} has passed since it was last published. A
 *       publisher that stops publishing therefore keeps counting for the retention time and then
 *       disappears by itself. Expiry may be late by a second or so, never early.
 *   <li>The answer may also carry the store's time under {@link #CLOCK_SCOPE}; no publication
 *       ever names that scope.
 *   <li>One call is one round trip where the store allows it. It is called from a background
 *       thread, never from a request thread, and never concurrently for the same room by one node.
 *   <li>A failure throws {@link IOException}; the caller keeps serving from its last view and
 *       tries again at the next sync. Implementations should bound how long a call can block.
 * </ul>
 */
@FunctionalInterface
public interface Transport {

  /**
   * The scope under which an answer may carry the store's clock: publisher {@code "now"}, payload
   * the store's current time in epoch milliseconds as 8 bytes, big-endian. Nodes then keep time
   * by the store (offset by half the round trip), so that clock skew between nodes changes no
   * ticket and no epoch. Optional: without it, nodes use their own clocks.
   */
  String CLOCK_SCOPE = "clock";

  /**
   * Stores the publications and returns the live contents of their scopes.
   *
   * @param roomId the room; never shared between rooms
   * @param publications what to store, at most one per (scope, publisher)
   * @param retention how long a value lives after it was published
   * @return for each scope named in {@code publications}: publisher to payload
   * @throws IOException if the store cannot be reached or fails
   */
  Map<String, Map<String, byte[]>> exchange(
      String roomId, List<Publication> publications, Duration retention) throws IOException;

  /**
   * A value to store.
   *
   * @param scope a data center's scope ({@code "dc:<name>"}) or the global scope ({@code
   *     "global"})
   * @param publisher who publishes it, unique within the scope
   * @param payload the encoded {@link Report}
   */
  record Publication(String scope, String publisher, byte[] payload) {}
}
