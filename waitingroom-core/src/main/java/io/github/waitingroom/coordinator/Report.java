package io.github.waitingroom.coordinator;

import io.github.waitingroom.allocation.Tally;
import java.util.Collections;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one publisher stores for one room: its {@link Tally tallies} at the end of its most recent
 * epochs. A node publishes its own tallies, and the data center's summed tallies, once they are
 * settled, to the global scope. Reports are full state,
 * not deltas: a lost or repeated report loses nothing, and a store that restarted empty is whole
 * again after one round. A tally of a past epoch never changes, so every reader of one epoch sees
 * the same numbers.
 *
 * @param publisher a node's id within its data center, or a data center's name
 * @param nodes how many nodes it sums (1 for a node's own report)
 * @param joined the first epoch it has a tally for (a node tallies itself from the epoch it joins
 *     in; it admitted nobody before): publishers that joined after an epoch are left out of it
 * @param tallies tallies by epoch (epoch = store time in milliseconds / epoch length)
 * @param settings the highest version of the room's live settings its publisher holds (for a data
 *     center's sum, the highest of its nodes'), 0 for none but its own configuration: a node that
 *     holds no document of the highest version any report carries plans nothing (see {@link
 *     Coordinator#roomSettingsVersion()})
 */
public record Report(String publisher, int nodes, long joined, NavigableMap<Long, Tally> tallies, long settings) {

  /** The format version written by this release, the first field of every encoded report. */
  public static final int FORMAT_VERSION = 3;

  /** How many epochs a report keeps. */
  public static final int EPOCHS_KEPT = 3;

  /** A report that says nothing of the room's settings (version 0). */
  public Report(String publisher, int nodes, long joined, NavigableMap<Long, Tally> tallies) {
    this(publisher, nodes, joined, tallies, 0);
  }

  /** Checks the fields and wraps the map read-only. */
  public Report {
    Objects.requireNonNull(publisher, "publisher");
    if (settings < 0) {
      throw new IllegalArgumentException("settings must not be negative but was " + settings);
    }
    if (nodes < 0) {
      throw new IllegalArgumentException("nodes must not be negative but was " + nodes);
    }
    tallies = Collections.unmodifiableNavigableMap(new TreeMap<>(tallies));
    if (!tallies.isEmpty() && tallies.firstKey() < joined) {
      throw new IllegalArgumentException("a tally of epoch " + tallies.firstKey() + " before joining at " + joined);
    }
  }

  /** The latest epoch it has a tally for, or the epoch before it joined if it has none yet. */
  public long latestEpoch() {
    return tallies.isEmpty() ? joined - 1 : tallies.lastKey();
  }
}
