package io.github.waitingroom.coordinator;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What the store lost of one scope, put back: the remembered reports of other publishers that the
 * store's last answer lacked, which the next exchange re-publishes unchanged under their
 * publishers' names (see "What the store lost, the others put back" in {@link StoreCoordinator}).
 * Part of {@link StoreCoordinator}; used by the sync thread.
 */
final class Republication {
  private final ReportSeal seal;
  private final String scope;
  private final String self;
  /** The remembered reports of others that the store's last answer lacked. */
  private final Set<String> lost = new HashSet<>();

  /**
   * @param scope the scope whose reports these are
   * @param self the name this node publishes under in that scope, whose report is never a copy
   */
  Republication(ReportSeal seal, String scope, String self) {
    this.seal = seal;
    this.scope = scope;
    this.self = self;
  }

  /** How many reports the store's last answer lacked. */
  int size() {
    return lost.size();
  }

  /**
   * Adds to {@code out} a copy of every lost report that this node still remembers, unchanged and
   * under its publisher's name.
   */
  void republish(Map<String, Report> remembered, List<Transport.Publication> out) {
    for (Map.Entry<String, Report> e : new TreeMap<>(remembered).entrySet()) {
      if (lost.contains(e.getKey())) {
        out.add(new Transport.Publication(scope, e.getKey(),
            seal.seal(scope, e.getKey(), ReportCodec.encode(e.getValue()))));
      }
    }
  }

  /** Notes as lost the remembered reports of others that the answer's {@code values} of the scope lack. */
  void note(@Nullable Map<String, byte[]> values, Map<String, Report> remembered) {
    lost.clear();
    for (String who : remembered.keySet()) {
      if (!who.equals(self) && (values == null || !values.containsKey(who))) {
        lost.add(who);
      }
    }
  }
}
