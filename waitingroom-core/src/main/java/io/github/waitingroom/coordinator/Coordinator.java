package io.github.waitingroom.coordinator;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.allocation.Tally;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import org.jspecify.annotations.Nullable;

/**
 * One node's side of the room's coordination: it exchanges this node's tallies for the room's
 * <em>settled</em> state of each epoch over a {@link Transport}. The default, {@link
 * StoreCoordinator}, is the two-tier design of the published waiting room (nodes report to their
 * data center's scope, data centers to the global one); a room can be given another with {@code
 * WaitingRoom.Builder#coordinator}. Not thread-safe: one sync thread of one node calls it, except
 * {@link #epochs()}.
 *
 * <p><b>Contract.</b> The room's limits rest on three promises of {@link #settled}: an epoch is
 * settled only once every publisher the room knows has published its tally of it (or counts with
 * its last tally made {@link Tally#silent(long) silent}, never as zero); every node that sees an
 * epoch settled sees the same tallies (so every node computes the same plan); and an epoch is
 * settled only once the store's clock has left it. {@code waitingroom-tck} checks a {@link
 * Transport}; a coordinator of your own must keep these promises itself.
 */
public interface Coordinator {
  /** The scope every data center publishes its sum to. */
  String GLOBAL_SCOPE = "global";

  /**
   * The first character of the names in the global scope that hold documents, not reports (the
   * room's live settings): no data center's name can start with it.
   */
  String DOCUMENT = "~";

  /** Epochs a publisher may lag before it counts as silent. */
  int SILENT_AFTER_EPOCHS = 2;

  /** Makes the coordinator of one node. */
  @FunctionalInterface
  interface Factory {
    /**
     * The coordinator of one node.
     *
     * @param config the room's configuration
     * @param transport the store shared by every node of the room
     * @param seal authenticates what the node writes and reads in the store (see {@link ReportSeal})
     * @param dataCenter the node's data center (region, cluster)
     * @param publisher the node's id, unique within the data center for the life of this process
     * @param epoch the configured length of an epoch
     */
    Coordinator create(
        RoomConfig config, Transport transport, ReportSeal seal, String dataCenter, String publisher, Duration epoch);
  }

  /** The coordinator of the published design: {@link StoreCoordinator}. */
  Factory STORE = StoreCoordinator::new;

  /**
   * How long a report must be kept: long enough that the users a node admitted keep counting
   * until their sessions expire, even if the node dies.
   */
  static Duration retention(RoomConfig config) {
    long longest = Math.max(Math.max(config.sessionSeconds(), config.waitingTimeoutSeconds()), 120);
    return Duration.ofSeconds(longest + 2 * config.sliceSeconds());
  }

  /**
   * How a node joined.
   *
   * @param epoch its first tally is of this epoch
   * @param alone whether it was the only node of the room
   */
  record Join(long epoch, boolean alone) {}

  /**
   * Joins the room: publishes this node, learns the store's clock and who else is in the room.
   *
   * @param clock the room clock
   * @param offset takes how far the room clock is off the store's time the exchange returns (the
   *     correction to add to it), before the clock is read again
   * @return the epoch this node joins at, and whether it is alone
   * @throws IOException if the transport fails, or answers without the store's clock ({@link
   *     Transport.MissingClockException}); call again at the next sync
   */
  Join join(java.util.function.LongSupplier clock, java.util.function.LongConsumer offset) throws IOException;

  /**
   * Publishes this node's tallies and reads back everyone's. Epochs are settled only if they
   * ended by both this node's clock ({@code epoch}) and the store's.
   *
   * @param joined the epoch this node joined in: its first tally is of that epoch
   * @param mine this node's tallies of its latest epochs
   * @param epoch the current epoch by the node's room clock
   * @return the store's time in epoch milliseconds, as the answer carried it
   * @throws IOException if the transport fails, or answers without the store's clock; the
   *     coordinator then keeps what it knew
   */
  long exchange(long joined, NavigableMap<Long, Tally> mine, long epoch) throws IOException;

  /**
   * The settled tallies of epoch {@code s}, as the last exchange left them, or {@code null} if the
   * epoch is not settled for the whole room.
   */
  @Nullable Settled settled(long s);

  /** How time is cut into epochs, as this node last learned it. Any thread may call it. */
  Epochs epochs();

  /**
   * Begins a new era that this node decided from a settled plan; it must begin late enough for
   * every node to read it first.
   *
   * @throws IllegalArgumentException if it does not fit the schedule (see {@link Epochs#with})
   */
  void schedule(Epochs.Era era);

  /**
   * The documents the store's last answer held in the global scope, opened: only those sealed with
   * the room's keys under their name. Empty before the first exchange.
   */
  Map<String, byte[]> documents();

  /**
   * Keeps these documents in the global scope from the next exchange on, instead of those kept
   * before.
   *
   * @param documents by name: each starting with {@link #DOCUMENT}, then letters, digits, dots or
   *     dashes; the bytes are sealed like reports
   */
  void keep(Map<String, byte[]> documents);

  /**
   * The places the other publishers list as admitted from the line in their latest tallies, as the
   * last answer showed them, sorted.
   */
  long[] latestAdmitted();

  /**
   * Tells the coordinator the highest version of the room's live settings this node holds, for it
   * to publish with this node's reports (see {@link Report#settings()}). Called by the sync thread
   * before every exchange. The default ignores it.
   */
  default void settingsVersion(long version) {}

  /**
   * The highest settings version that the reports of the last answer carry (this node's own
   * included), or 0 when the coordinator does not tell. A node that holds no document of that
   * version (someone who can write to the store deleted it, or wrote an older one back) plans
   * nothing until it reads it: it never plans by settings older than the room's.
   */
  default long roomSettingsVersion() {
    return 0;
  }

  /**
   * How late the other data centers' sums reach this node: of each data center's latest sum, the
   * time from its epoch's end to the answer that first held it (store time), the largest; 0 when
   * the room has one data center or none has been seen yet. A node whose plans stall because the
   * sums come too late for any plan to take over paces the epochs by it (the default: plans that
   * settle late tell the same, where one settles at all).
   */
  default long sumLateMillis() {
    return 0;
  }


  /** This node's data center. */
  String dataCenter();

  /** The data centers this node knows of, sorted. */
  List<String> dataCenterNames();

  /**
   * An epoch's settled tallies, ready for {@link io.github.waitingroom.allocation.Plan#compute}.
   *
   * @param dataCenterNames the names of the data centers, sorted
   * @param dataCenters every data center's summed tally, in name order
   * @param myDataCenter the index of this node's data center
   * @param nodeNames the publishers of the live nodes of this node's data center (node id, {@code
   *     #} and a suffix per process), sorted
   * @param nodes the tallies of the live nodes of this node's data center, in publisher order
   * @param me the index of this node among them
   * @param roomNodes the live nodes of the whole room
   * @param dataCenterNodes how many nodes each data center sums, in name order (this node's data
   *     center: its live nodes of the epoch; the others: as their latest sums say; a silent one: 0)
   */
  record Settled(
      List<String> dataCenterNames,
      List<Tally> dataCenters,
      int myDataCenter,
      List<String> nodeNames,
      List<Tally> nodes,
      int me,
      int roomNodes,
      List<Integer> dataCenterNodes) {}
}
