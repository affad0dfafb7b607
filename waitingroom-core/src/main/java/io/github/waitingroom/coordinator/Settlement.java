package io.github.waitingroom.coordinator;

import static io.github.waitingroom.coordinator.Coordinator.SILENT_AFTER_EPOCHS;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Settles the sums of an epoch from the reports a node remembers: its data center's sum from the
 * tallies of the data center's nodes ({@link #settle}), and the room's sums from every data
 * center's ({@link #settled}), counting the publishers that stopped publishing with their last
 * tally made silent (a silent data center with the free slots of its last plan, and either with
 * the sessions that may have moved into it: {@link ActiveHistory}). It waits instead for a data
 * center that is only late ({@link SumLateness}), for one whose sums did not reach the store in
 * time ({@link SumVisibility}), and after a gap in this node's own exchanges for the publishers
 * that published until the gap began ({@link #exchanged}). Also tells when this node publishes its
 * data center's sums. Part of {@link StoreCoordinator}; used by the sync thread.
 */
final class Settlement {
  private final RoomConfig config;
  private final String dataCenter;
  private final String publisher;
  /** The reports the coordinator remembers, and which of them it could not read. */
  private final Remembered known;
  private final SumLateness lateness;
  private final SumVisibility visibility;
  private final VanishWatch vanish;
  /** Whether this node counts the same publishers as the others ({@link Agreement}). */
  private final Agreement agreement;
  /** This data center's settled sums, by epoch (the last {@link Report#EPOCHS_KEPT}). */
  private final TreeMap<Long, Tally> mySums = new TreeMap<>();
  /** The free slots of the plan of every epoch this node settled, within the retention. */
  private final TreeMap<Long, Long> freeSlots = new TreeMap<>();
  /** What the data centers' own sums counted active, for those later counted silent ({@link ActiveHistory}). */
  private final ActiveHistory dataCenterActive = new ActiveHistory();
  /** What the nodes of this data center counted active, likewise. */
  private final ActiveHistory nodeActive = new ActiveHistory();
  private long lastExchangeEpoch = Long.MIN_VALUE / 2;
  private long graceUntil = Long.MIN_VALUE;
  /** After a gap in this node's exchanges: the epoch it last exchanged in before the gap. */
  private long gapFrom = Long.MIN_VALUE;

  /** Every data center's sum of one epoch, by name, and the live nodes of the room. */
  private record RoomSums(TreeMap<String, Tally> dataCenters, TreeMap<String, Integer> nodesByDataCenter, int nodes) {}

  /**
   * @param dataCenter this node's data center
   * @param publisher this node
   * @param known the reports the coordinator remembers
   */
  Settlement(RoomConfig config, String dataCenter, String publisher, Remembered known, SumLateness lateness,
      SumVisibility visibility, VanishWatch vanish) {
    this.config = config;
    this.dataCenter = dataCenter;
    this.publisher = publisher;
    this.known = known;
    this.lateness = lateness;
    this.visibility = visibility;
    this.vanish = vanish;
    this.agreement = new Agreement(config.roomId(), publisher, dataCenter);
  }

  /** Whether this node has settled any sum of its data center (within the last epochs). */
  boolean hasSums() {
    return !mySums.isEmpty();
  }

  /**
   * Notes an exchange in {@code epoch}, and whether this node may forget old reports: after a gap
   * in its exchanges (a store outage), it remembers every publisher for a few more epochs, so that
   * none is forgotten before it has had the chance to publish again, and waits for those that
   * published until the gap began instead of counting them silent: they were most likely cut off
   * too, and each would otherwise plan as the only live node.
   */
  boolean exchanged(long epoch) {
    if (lastExchangeEpoch < epoch - SILENT_AFTER_EPOCHS) {
      graceUntil = epoch + SILENT_AFTER_EPOCHS + 2;
      gapFrom = lastExchangeEpoch > Long.MIN_VALUE / 2 ? lastExchangeEpoch : Long.MIN_VALUE;
    }
    lastExchangeEpoch = epoch;
    return epoch > graceUntil;
  }

  /**
   * Whether a publisher that looks silent is still awaited: within the grace after this node's
   * own gap, one that published until the gap began.
   */
  private boolean awaited(Report r) {
    return lastExchangeEpoch <= graceUntil && gapFrom != Long.MIN_VALUE
        && r.latestEpoch() >= gapFrom - SILENT_AFTER_EPOCHS;
  }

  /**
   * Settles this data center's sum of each of the epochs before {@code epoch} that this node
   * tallied ({@code mine}), taking first those another node of the data center settled; whether
   * it settled one itself.
   */
  boolean settle(long epoch, NavigableMap<Long, Tally> mine) {
    Report sum = known.dataCenters().get(dataCenter);
    if (sum != null) {
      // Sums another node of this data center settled and this one did not (yet).
      sum.tallies().headMap(epoch, false).forEach(mySums::putIfAbsent);
    }
    boolean settledNow = false;
    for (long s = epoch - Report.EPOCHS_KEPT; s < epoch; s++) {
      if (!mySums.containsKey(s) && mine.containsKey(s)) {
        // only epochs this node has tallied itself, never one still running
        settledNow |= settleDataCenter(s);
      }
    }
    while (mySums.size() > Report.EPOCHS_KEPT) {
      mySums.pollFirstEntry();
    }
    return settledNow;
  }

  /** Settles this data center's sum of epoch {@code s} if every node has tallied it; whether it did. */
  private boolean settleDataCenter(long s) {
    if (!known.unreadableNodes().isEmpty()) {
      return false;
    }
    List<Tally> parts = new ArrayList<>();
    Map<String, Tally> live = new TreeMap<>();
    List<Report> silent = new ArrayList<>();
    for (Report r : new TreeMap<>(known.nodes()).values()) {
      Tally t = r.tallies().get(s);
      if (t != null) {
        parts.add(t);
        live.put(r.publisher(), t);
      } else if (r.joined() > s) {
        continue; // it joined after epoch s: it admitted nobody then
      } else if (r.tallies().isEmpty() || r.latestEpoch() >= s - SILENT_AFTER_EPOCHS || awaited(r)) {
        return false; // it has not published epoch s yet
      } else {
        silent.add(r);
      }
    }
    live.forEach((who, t) -> nodeActive.note(s, who, t));
    for (Report r : silent) {
      // A node of this data center: one cut off from the store plans alone from its last
      // published tally, without its last plan's slots (see Synchronizer), and one whose reports
      // do not decode blocks this data center's sums anyway. Sessions may have moved into it.
      parts.add(silent(r, 0, nodeActive, s, live));
    }
    mySums.put(s, Tally.sum(parts));
    return true;
  }

  /**
   * How many live nodes this data center's sum of epoch {@code s} counts: those whose reports hold
   * a tally of it, of which the sum is made, whichever node of the data center settled it (one
   * that took the sum from another node's report counted only itself before), and at least this
   * one.
   */
  private int nodeCount(long s) {
    int count = 0;
    for (Report r : known.nodes().values()) {
      if (r.tallies().containsKey(s)) {
        count++;
      }
    }
    return Math.max(1, count);
  }

  /**
   * Notes the free slots of the plan of every epoch of this data center's sums, also of those
   * this node plans none for (see {@link #silentDataCenter}).
   */
  void noteFreeSlots() {
    for (long s : mySums.keySet()) {
      if (!freeSlots.containsKey(s)) {
        roomSums(s);
      }
    }
  }

  /** Forgets the free slots of the plans of the epochs before {@code epoch}. */
  void forgetBefore(long epoch) {
    freeSlots.headMap(epoch, false).clear();
  }

  /**
   * This data center's settled sums, as this node publishes them to the global scope, with the
   * highest settings version of this node ({@code settingsVersion}) and the nodes it remembers, and
   * whom this node counted in the latest epoch it settled.
   */
  Report dataCenterSum(long settingsVersion) {
    int count = mySums.isEmpty() ? 1 : nodeCount(mySums.lastKey());
    long settings = settingsVersion;
    for (Report r : known.nodes().values()) {
      settings = Math.max(settings, r.settings());
    }
    return new Report(dataCenter, count, dcJoined(), mySums, settings, agreement.latest());
  }

  /** Whether every publisher this node counts has shown that it counts this node's data center too ({@link Agreement}). */
  boolean knownToAll() {
    return agreement.confirmedByAll();
  }

  /** Whom this node counted in the latest epoch it settled, for its reports ({@link Agreement}). */
  Report.Counted counted() {
    return agreement.latest();
  }

  /** When this node's data center joined, as far as this node knows; only once it has a sum. */
  private long dcJoined() {
    Report sum = known.dataCenters().get(dataCenter);
    long joined = sum == null ? mySums.firstKey() : Math.min(sum.joined(), mySums.firstKey());
    return joined;
  }

  /**
   * Whether this node has settled its data center's sum of every epoch it has tallied: only then
   * does it publish the sums, so the sums in the store never go back (a node that had not yet
   * settled an epoch would overwrite the sum of one that had, and the other data centers would
   * see the epoch late).
   */
  boolean settledAll(NavigableMap<Long, Tally> mine) {
    for (long s : mine.keySet()) {
      if (!mySums.containsKey(s)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether this node publishes a sum of its data center at once when it settles it: it comes
   * first, by publisher name, among the nodes of its data center that publish tallies and are not
   * silent (one extra exchange per data center and epoch). If it cannot settle (a report it
   * cannot read), the others publish at their next sync.
   */
  boolean firstOfDataCenter() {
    for (Report r : new TreeMap<>(known.nodes()).values()) {
      if (r.publisher().equals(publisher)) {
        return true;
      }
      if (!r.tallies().isEmpty() && r.latestEpoch() >= lastExchangeEpoch - SILENT_AFTER_EPOCHS) {
        return false; // a live node before this one
      }
    }
    return true;
  }

  /**
   * The settled tallies of epoch {@code s}, as the last exchange left them, or {@code null} if
   * the epoch is not settled for the whole room (see {@link StoreCoordinator#settled}), or if this
   * node may not plan by them: some publisher counted others than these ({@link Agreement}).
   */
  Coordinator.@Nullable Settled settled(long s) {
    Coordinator.Settled settled = candidate(s);
    if (settled == null) {
      return null;
    }
    if (!agreement.noted(s)) {
      Report.Counted counted = counted(s);
      if (counted != null) {
        agreement.note(counted);
      }
    }
    long joined = Objects.requireNonNull(known.nodes().get(publisher), "own report").joined();
    return agreement.agrees(s, settled, joined, known.nodes(), known.dataCenters()) ? settled : null;
  }

  /**
   * Notes whom this node counts in each epoch it has its data center's sum of, as soon as it
   * knows ({@link #counted(long)}), for its reports and for comparing with the others' ({@link
   * Agreement#note}).
   */
  void noteCounted() {
    for (long s : mySums.keySet()) {
      if (!agreement.noted(s)) {
        Report.Counted counted = counted(s);
        if (counted != null) {
          agreement.note(counted);
        }
      }
    }
  }

  /**
   * Whom this node counts in epoch {@code s}: the live nodes of its data center and the data
   * centers of the room's sums, or {@code null} while it does not know them all. It knows them
   * once every data center's sum of the epoch is settled and every node of its data center has
   * published the epoch or is silent for it, the same rule by which the epoch's sums are made:
   * honest nodes then count the same publishers, whoever settled the sums and whenever they
   * arrived. Whether this node can plan the epoch (its data center's sums in the store in time,
   * a tally of its own) does not change whom it counts, so it notes them all the same: a node
   * that joins is confirmed by the first report that counted the same publishers in an epoch it
   * noted ({@link Agreement}), and would wait a round trip longer if it noted only the epochs it
   * can plan.
   */
  private Report.@Nullable Counted counted(long s) {
    RoomSums room = roomSums(s);
    if (room == null) {
      return null;
    }
    List<String> nodes = liveNodes(s);
    if (nodes == null || !known.unreadableNodes().isEmpty() || vanish.any()) {
      return null;
    }
    return Report.Counted.of(s, nodes, new ArrayList<>(room.dataCenters().keySet()));
  }

  /**
   * The publishers of this data center's nodes that published epoch {@code s}, sorted, or {@code
   * null} while some node that joined by then has neither published it nor is silent for it (as
   * {@link #settleDataCenter} waits for it).
   */
  private @Nullable List<String> liveNodes(long s) {
    List<String> live = new ArrayList<>();
    for (Report r : new TreeMap<>(known.nodes()).values()) {
      if (r.tallies().containsKey(s)) {
        live.add(r.publisher());
      } else if (r.joined() <= s
          && (r.tallies().isEmpty() || r.latestEpoch() >= s - SILENT_AFTER_EPOCHS || awaited(r))) {
        return null;
      }
    }
    return live;
  }

  /** The settled tallies of epoch {@code s}, or {@code null} if it is not settled for the whole room. */
  private Coordinator.@Nullable Settled candidate(long s) {
    RoomSums room = roomSums(s);
    if (room != null && known.otherDataCenters(dataCenter) && !visibility.inTime(s, mySums.isEmpty() ? s : dcJoined())) {
      return null;
    }
    if (room == null || !known.unreadableNodes().isEmpty() || vanish.any()) {
      // A report of this data center that does not decode: this node does not know all of its
      // data center's nodes, and would split the data center's slots among too few of them (its
      // data center's sum may still come from a node that reads every report).
      return null;
    }
    List<Tally> live = new ArrayList<>();
    List<String> liveNames = new ArrayList<>();
    int me = -1;
    for (Map.Entry<String, Report> e : new TreeMap<>(known.nodes()).entrySet()) {
      Tally t = e.getValue().tallies().get(s);
      if (t != null) {
        if (e.getKey().equals(publisher)) {
          me = live.size();
        }
        live.add(t);
        liveNames.add(e.getKey());
      }
    }
    if (me < 0) {
      return null;
    }
    List<String> names = new ArrayList<>(room.dataCenters().keySet());
    return new Coordinator.Settled(names, new ArrayList<>(room.dataCenters().values()), names.indexOf(dataCenter),
        liveNames, live, me, room.nodes(), new ArrayList<>(room.nodesByDataCenter().values()));
  }

  /**
   * Every data center's sum of epoch {@code s}, or {@code null} if the epoch is not settled for the
   * whole room; notes the free slots of its plan (see {@link #silentDataCenter}).
   */
  private @Nullable RoomSums roomSums(long s) {
    Tally mine = mySums.get(s);
    if (mine == null || !known.unreadableDataCenters().isEmpty()) {
      return null;
    }
    TreeMap<String, Tally> dcs = new TreeMap<>();
    TreeMap<String, Integer> dcNodes = new TreeMap<>();
    dcs.put(dataCenter, mine);
    int roomNodes = nodeCount(s);
    dcNodes.put(dataCenter, roomNodes);
    List<Report> silent = new ArrayList<>();
    for (Report r : known.dataCenters().values()) {
      if (r.publisher().equals(dataCenter)) {
        continue;
      }
      Tally t = r.tallies().get(s);
      if (t != null) {
        dcs.put(r.publisher(), t);
        dcNodes.put(r.publisher(), r.nodes());
        roomNodes += r.nodes();
      } else if (r.joined() > s) {
        continue; // it joined after epoch s
      } else if (r.tallies().isEmpty() || r.latestEpoch() >= s - SILENT_AFTER_EPOCHS || awaited(r)
          || lateness.late(r)) {
        return null;
      } else {
        silent.add(r);
      }
    }
    Map<String, Tally> live = new TreeMap<>(dcs);
    live.forEach((who, t) -> dataCenterActive.note(s, who, t));
    for (Report r : silent) {
      dcs.put(r.publisher(), silentDataCenter(r, s, live));
      dcNodes.put(r.publisher(), 0); // its nodes do not reach the store
    }
    for (Map.Entry<String, Long> j : known.joinedDataCenters().entrySet()) {
      if (!dcs.containsKey(j.getKey()) && j.getValue() <= s) {
        return null; // a data center that joined by epoch s has not published it yet
      }
    }
    if (!freeSlots.containsKey(s)) {
      freeSlots.put(s, Plan.freeSlots(config, Tally.sum(dcs.values()))); // once per epoch, not per call
    }
    return new RoomSums(dcs, dcNodes, roomNodes);
  }

  /**
   * The last sum of a data center that has gone silent, made {@link Tally#silent(long, long, long)
   * silent}: its nodes may have applied the plan of its epoch after that sum, and go on admitting
   * under the grants of that plan while their sums do not reach the store (a report in their
   * scope that does not decode holds them), so the free slots of that plan count as admitted
   * too. Every node notes the free slots of each epoch it sees settled, including a node that
   * joins while its data center's sums of the last epochs are still in the store; one that never
   * saw the epoch settled cannot know them, and counts none. Sessions that moved into it since
   * that sum count too, for a while ({@link ActiveHistory}).
   */
  private Tally silentDataCenter(Report r, long s, Map<String, Tally> live) {
    return silent(r, freeSlots.getOrDefault(r.latestEpoch(), 0L), dataCenterActive, s, live);
  }

  /**
   * The last tally of a publisher counted silent for epoch {@code s}, made {@link
   * Tally#silent(long, long, long) silent} with {@code granted} more slots, and with the sessions
   * that may have moved into it since as {@code history} tells from the {@code live} tallies of
   * {@code s}.
   */
  private Tally silent(Report r, long granted, ActiveHistory history, long s, Map<String, Tally> live) {
    Map.Entry<Long, Tally> last = r.tallies().lastEntry();
    return last.getValue().silent(config.sessionSeconds(), granted,
        history.movedInto(r.publisher(), last.getKey(), s, live));
  }
}
