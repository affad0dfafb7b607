package io.github.waitingroom.coordinator;

import static io.github.waitingroom.coordinator.Coordinator.DOCUMENT;
import static io.github.waitingroom.coordinator.Coordinator.GLOBAL_SCOPE;
import static io.github.waitingroom.coordinator.Coordinator.SILENT_AFTER_EPOCHS;
import static io.github.waitingroom.coordinator.StoreCoordinator.JOIN;
import static io.github.waitingroom.coordinator.StoreCoordinator.READER;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the values of an answer into the reports a node remembers: opens each with the room's
 * keys ({@link ReportSeal}), decodes it, and logs once what it cannot read: a value not sealed
 * with the room's keys (ignored), one sealed with a key this node's keyset lacks and a report that
 * does not decode (both unreadable: they block the plans). Also tells the store's time an answer
 * carries ({@link #storeClock}), and whether a node is alone in the room by the answer to its
 * join ({@link #alone}). Names from reports reach a log line only through {@link #printable}. Part of {@link StoreCoordinator}; used by the sync thread. Logs
 * under {@link StoreCoordinator}'s name.
 */
final class AnswerReader {
  private static final Logger log = LoggerFactory.getLogger(StoreCoordinator.class);

  private final String roomId;
  private final String dataCenter;
  private final ReportSeal seal;
  private final SumVisibility visibility;
  private final VanishWatch vanish;
  private final SumLateness lateness;
  /** The epoch each data center joins at, by name, as the join markers of the global scope tell. */
  private final Map<String, Long> joinedDataCenters;
  private final Set<String> loggedUnreadable = new HashSet<>();
  private final Set<String> loggedUnsealed = new HashSet<>();
  /** Values sealed with a key this node lacks, logged (by scope and name) until they open again. */
  private final Set<String> loggedOtherKey = new HashSet<>();

  /**
   * @param dataCenter this node's data center
   * @param joinedDataCenters where to note the data centers that nodes join (see {@link #read})
   */
  AnswerReader(String roomId, String dataCenter, ReportSeal seal, SumVisibility visibility, VanishWatch vanish,
      SumLateness lateness, Map<String, Long> joinedDataCenters) {
    this.roomId = roomId;
    this.dataCenter = dataCenter;
    this.seal = seal;
    this.visibility = visibility;
    this.vanish = vanish;
    this.lateness = lateness;
    this.joinedDataCenters = joinedDataCenters;
  }

  /**
   * Whether the answer to a node's join shows it alone in the room: nobody else in its data
   * center's scope, and nothing in the global scope but documents, the empty value of a reader
   * and the node's own join marker (see {@link StoreCoordinator#join}).
   */
  static boolean alone(Map<String, Map<String, byte[]>> answer, String dcScope, String dataCenter, String publisher) {
    boolean alone = true;
    for (String who : answer.getOrDefault(dcScope, Map.of()).keySet()) {
      alone &= who.equals(publisher);
    }
    for (String who : answer.getOrDefault(GLOBAL_SCOPE, Map.of()).keySet()) {
      alone &= who.equals(READER) || who.startsWith(DOCUMENT) || who.equals(dataCenter + JOIN + publisher);
    }
    return alone;
  }

  /** A name from a report made safe for a log line: printable ASCII only, at most 64 characters. */
  static String printable(@Nullable String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder(Math.min(s.length(), 64) + 3);
    for (int i = 0; i < s.length() && i < 64; i++) {
      char c = s.charAt(i);
      b.append(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return s.length() > 64 ? b.append("...").toString() : b.toString();
  }

  /** The store's time the answer carries (see {@link Transport#CLOCK_SCOPE}). */
  static long storeClock(Map<String, Map<String, byte[]>> answer, Transport transport)
      throws Transport.MissingClockException {
    Map<String, byte[]> clock = answer.get(Transport.CLOCK_SCOPE);
    byte[] now = clock == null ? null : clock.get("now");
    long millis = now != null && now.length == 8 ? ByteBuffer.wrap(now).getLong() : 0;
    if (millis > 0) {
      return millis;
    }
    throw new Transport.MissingClockException("transport " + transport.getClass().getName() + " answered with "
        + (now == null ? "no store clock" : "a store clock that is not 8 bytes of a positive time")
        + ": every answer must carry the store's current time under Transport.CLOCK_SCOPE (scope \""
        + Transport.CLOCK_SCOPE + "\", publisher \"now\", epoch milliseconds as 8 bytes, big-endian), read in the"
        + " same round trip as the values; waitingroom-tck's TransportCompatibilityKit checks it");
  }

  /**
   * Reads the values of one scope of an answer into the reports remembered of it ({@code into}),
   * and notes in {@code unreadable} (cleared first) the names of those it cannot read. A report
   * that is silent by {@code epoch} (a copy another node put back) never replaces a later one of
   * the same publisher. In the global scope, the join markers go to the joining data centers, and
   * the data centers' sums tell when they advanced ({@link SumLateness}) and whether this node's
   * data center's sum is there ({@link SumVisibility}).
   */
  void read(
      @Nullable Map<String, byte[]> values, String scope, Map<String, Report> into, Set<String> unreadable,
      long epoch) {
    boolean global = scope.equals(GLOBAL_SCOPE);
    String what = global ? "data center" : "node";
    unreadable.clear();
    if (global) {
      visibility.reading();
    }
    if (values == null) {
      return;
    }
    values.forEach(
        (who, sealed) -> {
          if (who.equals(READER) || who.startsWith(DOCUMENT)) {
            return;
          }
          byte[] bytes = seal.open(scope, who, sealed);
          if (bytes != null && loggedOtherKey.remove(scope + "/" + who)) {
            log.info("room '{}': the value under {} '{}' opens with this node's keyset again", roomId, what,
                printable(who));
          }
          if (bytes == null && seal.sealedWithOtherKey(sealed)) {
            // Most likely a node of this room with a keyset that does not overlap this one's:
            // ignoring it would split the room in two that each take every free slot, so it
            // blocks the plans as an unreadable report does.
            unreadable.add(who);
            if (loggedOtherKey.add(scope + "/" + who)) {
              log.error("room '{}': the value under {} '{}' in the store is sealed with a key this node's keyset lacks:"
                      + " a node with another keyset (a key promoted before every node had it, or another room's"
                      + " keyset)? This node plans no new slots while it is there; give every node keysets that"
                      + " share a key (rotate in three phases: TicketKeys.addKey, promote, retire)",
                  roomId, what, printable(who));
            }
            return;
          }
          if (bytes == null) {
            // Not written by a holder of the room's keys: not a node of this room, so it counts
            // for nothing, neither as users nor as an unknown that blocks the plans.
            if (loggedUnsealed.add(scope + "/" + who)) {
              log.warn("room '{}': ignoring a value under {} '{}' in the store that is not sealed with the room's keys",
                  roomId, what, printable(who));
            }
            return;
          }
          int join = who.indexOf(JOIN);
          if (global && join >= 0) {
            // A node joining data center who[0..join): the data center exists from its epoch on.
            try {
              long joined = ReportCodec.decode(bytes).joined();
              joinedDataCenters.merge(who.substring(0, join), joined, Math::min);
            } catch (IllegalArgumentException e) {
              unreadable.add(who);
            }
            return;
          }
          try {
            Report r = ReportCodec.decode(bytes);
            if (!r.publisher().equals(who)) {
              throw new IllegalArgumentException("it names another publisher");
            }
            if (global && who.equals(dataCenter) && !r.tallies().isEmpty()) {
              visibility.sawSum(r.latestEpoch()); // as the others read it, even if this node holds a later one
            }
            vanish.present(scope, who);
            Report held = into.get(who);
            boolean silent = r.latestEpoch() < epoch - SILENT_AFTER_EPOCHS;
            if (global) {
              lateness.read(who, r, held);
            }
            if (held == null || !silent || r.latestEpoch() >= held.latestEpoch()) {
              // A silent report (a copy another node put back) never hides a later one.
              into.put(who, r);
            }
            loggedUnreadable.remove(who);
          } catch (IllegalArgumentException e) {
            unreadable.add(who);
            if (loggedUnreadable.add(who)) {
              log.warn(
                  "room '{}': the report of {} '{}' does not decode; no new slots are planned while it is there: {}",
                  roomId, what, printable(who), printable(e.getMessage()));
            }
          }
        });
  }
}
