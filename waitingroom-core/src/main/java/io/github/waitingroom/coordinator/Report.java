package io.github.waitingroom.coordinator;

import io.github.waitingroom.allocation.Tally;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

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
 * @param counted whom its publisher counted in the latest epoch it settled (for a data center's
 *     sum, as the node that published it counted), {@link Counted#NONE} before its first; {@code
 *     null} in a report of an earlier release, which does not say: a node plans nothing while a
 *     publisher counts others than it does ({@link Counted})
 */
public record Report(
    String publisher, int nodes, long joined, NavigableMap<Long, Tally> tallies, long settings,
    @Nullable Counted counted) {

  /** The format version written by this release, the first field of every encoded report. */
  public static final int FORMAT_VERSION = 3;

  /** How many epochs a report keeps. */
  public static final int EPOCHS_KEPT = 3;

  /** A report that says nothing of the room's settings (version 0) and has counted nobody yet. */
  public Report(String publisher, int nodes, long joined, NavigableMap<Long, Tally> tallies) {
    this(publisher, nodes, joined, tallies, 0);
  }

  /** A report whose publisher has counted nobody yet ({@link Counted#NONE}). */
  public Report(String publisher, int nodes, long joined, NavigableMap<Long, Tally> tallies, long settings) {
    this(publisher, nodes, joined, tallies, settings, Counted.NONE);
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

  /**
   * Whom a node counted in the plan of one epoch: the live nodes of its data center and the data
   * centers of the room, each as how many and a 64-bit hash of their sorted names (the first 8
   * bytes of SHA-256), so that a report stays small however many nodes a data center has. Every
   * node that plans an epoch must count the same publishers, or their plans split the slots among
   * different sets and together hand out more than the room has: a node the others cannot see (a
   * writer without the room's keys deletes its values) would plan with everyone's tallies while
   * the others plan without it. So a node compares whom it counted with whom every report it reads
   * counted in the same epoch, and plans nothing while they differ; since it compares the whole
   * set, it also learns whether the others count it.
   *
   * @param epoch the settled epoch, {@link Long#MIN_VALUE} for none yet
   * @param nodes how many live nodes of its data center it counted
   * @param nodesHash the hash of their names
   * @param dataCenters how many data centers it counted
   * @param dataCentersHash the hash of their names
   */
  public record Counted(long epoch, int nodes, long nodesHash, int dataCenters, long dataCentersHash) {
    /** Nobody counted yet: the publisher has settled no epoch. */
    public static final Counted NONE = new Counted(Long.MIN_VALUE, 0, 0, 0, 0);

    /** Checks the counts. */
    public Counted {
      if (nodes < 0 || dataCenters < 0) {
        throw new IllegalArgumentException("counts must not be negative but were " + nodes + " and " + dataCenters);
      }
    }

    /** Whom a node counted in epoch {@code epoch}: these nodes and data centers, each sorted. */
    static Counted of(long epoch, List<String> nodeNames, List<String> dataCenterNames) {
      return new Counted(epoch, nodeNames.size(), hash(nodeNames), dataCenterNames.size(), hash(dataCenterNames));
    }

    /** Whether the same live nodes of a data center as {@code other} counted. */
    boolean sameNodes(Counted other) {
      return nodes == other.nodes && nodesHash == other.nodesHash;
    }

    /** Whether the same data centers as {@code other} counted. */
    boolean sameDataCenters(Counted other) {
      return dataCenters == other.dataCenters && dataCentersHash == other.dataCentersHash;
    }

    private static long hash(List<String> names) {
      try {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (String name : names) {
          byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
          sha.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
          sha.update(bytes);
        }
        return ByteBuffer.wrap(sha.digest()).getLong();
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("every Java platform has SHA-256", e);
      }
    }
  }
}
