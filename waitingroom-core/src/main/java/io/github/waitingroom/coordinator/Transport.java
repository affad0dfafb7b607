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
 *   <li>The answer carries the store's time under {@link #CLOCK_SCOPE}: every answer to a call
 *       with publications, read in the same round trip, never going back from one call to the
 *       next. No publication ever names that scope. (A call with no publications may answer an
 *       empty map, without reaching the store.) Nodes keep the room's time by it: without it,
 *       nodes whose clocks disagree by a second or two can admit past the limits, so a node treats an
 *       answer without it, or with one that is not 8 bytes of a positive time, as a failed
 *       exchange (its {@link io.github.waitingroom.FailurePolicy} applies) and says so in one
 *       error; if the very first answer a node gets lacks it, building the room fails.
 *   <li>One call is one round trip where the store allows it. It is called from a background
 *       thread, never from a request thread, and never concurrently for the same room by one node.
 *   <li>A failure throws {@link IOException}; the caller keeps serving from its last view and
 *       tries again at the next sync. Implementations should bound how long a call can block.
 * </ul>
 */
@FunctionalInterface
public interface Transport {

  /**
   * The scope under which every answer carries the store's clock: publisher {@code "now"}, payload
   * the store's current time in epoch milliseconds as 8 bytes, big-endian (read where the store
   * keeps the values, such as Redis's {@code TIME}, so that expiry and the clock agree). Nodes keep
   * time by the store (offset by half the round trip), so that clock skew between nodes changes no
   * ticket and no epoch. Required: see the contract above.
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

  /**
   * What a node throws, as a failed exchange, for an answer whose store clock is missing or is not
   * 8 bytes of a positive time (see {@link #CLOCK_SCOPE}): the transport breaks its contract, and
   * no node may plan by its own clock instead.
   */
  final class MissingClockException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what the answer held, and which transport gave it
     */
    public MissingClockException(String message) {
      super(message);
    }
  }
}
