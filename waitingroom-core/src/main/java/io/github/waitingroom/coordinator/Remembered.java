package io.github.waitingroom.coordinator;

import io.github.waitingroom.internal.LongList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The reports a node remembers (see "Absence is never zero" in {@link StoreCoordinator}): those of
 * its data center's nodes and the sums of every data center, by publisher; which values of the
 * last answer it could not read; and the epoch each data center joins at. It forgets them once the
 * retention has passed since their last epoch, but not those whose values left the store before
 * their time ({@link VanishWatch}). Part of {@link StoreCoordinator}; used by the sync thread.
 */
final class Remembered {
  private final Map<String, Report> nodes = new HashMap<>();
  private final Map<String, Report> dataCenters = new HashMap<>();
  private final Set<String> unreadableNodes = new HashSet<>();
  private final Set<String> unreadableDataCenters = new HashSet<>();
  private final Map<String, Long> joinedDataCenters = new HashMap<>();

  /** The reports of this data center's nodes, this node's own included, by publisher. */
  Map<String, Report> nodes() {
    return nodes;
  }

  /** The sums of every data center, by name. */
  Map<String, Report> dataCenters() {
    return dataCenters;
  }

  /** The nodes of this data center whose values in the last answer this node could not read. */
  Set<String> unreadableNodes() {
    return unreadableNodes;
  }

  /** The data centers whose values in the last answer this node could not read. */
  Set<String> unreadableDataCenters() {
    return unreadableDataCenters;
  }

  /** The epoch each data center joins at, by name, as the join markers of the global scope tell. */
  Map<String, Long> joinedDataCenters() {
    return joinedDataCenters;
  }

  /**
   * Forgets the reports whose latest epoch is before {@code epoch}, but those whose values are
   * away ({@link VanishWatch#away}), and the join markers of epochs before it; tells {@code vanish}
   * to forget the publishers forgotten.
   */
  void forgetBefore(long epoch, String dcScope, VanishWatch vanish) {
    nodes.values().removeIf(r -> r.latestEpoch() < epoch && !vanish.away(dcScope, r.publisher()));
    dataCenters.values().removeIf(r -> r.latestEpoch() < epoch && !vanish.away(Coordinator.GLOBAL_SCOPE, r.publisher()));
    vanish.forget((scope, name) ->
        scope.equals(Coordinator.GLOBAL_SCOPE) ? dataCenters.containsKey(name) : nodes.containsKey(name));
    joinedDataCenters.values().removeIf(joined -> joined < epoch);
  }

  /** Whether the room has data centers other than {@code dataCenter}, as far as this node knows. */
  boolean otherDataCenters(String dataCenter) {
    for (String name : dataCenters.keySet()) {
      if (!name.equals(dataCenter)) {
        return true;
      }
    }
    for (String name : joinedDataCenters.keySet()) {
      if (!name.equals(dataCenter)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The places the publishers other than {@code publisher} and {@code dataCenter} list as admitted
   * in their latest tallies, sorted.
   */
  long[] latestAdmitted(String publisher, String dataCenter) {
    LongList all = new LongList();
    for (Map<String, Report> scope : List.of(nodes, dataCenters)) {
      for (Report r : scope.values()) {
        if (!r.publisher().equals(publisher) && !r.publisher().equals(dataCenter) && !r.tallies().isEmpty()) {
          for (long place : r.tallies().lastEntry().getValue().admittedPlaces()) {
            all.add(place);
          }
        }
      }
    }
    return all.sorted();
  }

  /** The highest settings version of the reports remembered, and {@code own}. */
  long highestSettings(long own) {
    long highest = own;
    for (Map<String, Report> scope : List.of(nodes, dataCenters)) {
      for (Report r : scope.values()) {
        highest = Math.max(highest, r.settings());
      }
    }
    return highest;
  }

  /** The data centers remembered and {@code dataCenter}, sorted. */
  List<String> dataCenterNames(String dataCenter) {
    TreeMap<String, Boolean> names = new TreeMap<>();
    names.put(dataCenter, true);
    dataCenters.keySet().forEach(n -> names.put(n, true));
    return List.copyOf(names.keySet());
  }
}
