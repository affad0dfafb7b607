package io.github.waitingroom.coordinator;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.internal.LongList;
import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's side of the two-tier coordination, and the judge of when an epoch is
 * <em>settled</em>. Not thread-safe: one sync thread of one node calls it.
 *
 * <p>Each {@link #exchange} publishes the node's tallies to its data center's scope and the data
 * center's settled sums to the global scope (once the node has settled the sum of every epoch it
 * tallied, so that the sums in the store never go back), and reads both back; the data center's
 * first live node (by name) publishes a sum it settles at once, in one more exchange, so the
 * other data centers see it a sync sooner. An epoch is settled for a data
 * center once every publisher of its scope has published its tally of that epoch; publishers that
 * stopped publishing (silent for more than two epochs) count with their last tally made {@link
 * Tally#silent(long) silent}, and with the users the others lost since, which may have moved into
 * them, for the first few epochs of their silence ({@link ActiveHistory}). An epoch is settled for
 * the room once every known data center's sum for it is there. A silent data center's nodes may
 * have applied the plan of its last epoch after its last sum, so the free slots of that plan count
 * as its users too. A data center that is only
 * late (its nodes missed syncs) must then act as a silent one: its nodes plan an epoch only if
 * its sums reached the store in time for no other data center to count it silent for an epoch
 * whose plan meets that one (see {@code inTime}); otherwise they would plan from sums the others
 * never saw, and hand out slots the others' plans count nowhere. After a gap in its own
 * exchanges (a store outage), a node waits a few epochs for the publishers that published until
 * the gap began instead of counting them silent: they
 * were most likely cut off too, and nodes that come back together would otherwise each plan as
 * the only live node of the room and hand themselves every free slot.
 *
 * <p>Everything written to the store is sealed with the room's keys ({@link ReportSeal}); a value
 * that is not is ignored, logged once, unless it looks sealed with a key this node's keyset lacks
 * ({@link ReportSeal#sealedWithOtherKey}): that is a node with another keyset, and it blocks the
 * plans like a report that does not decode, with an error in the log, rather than split the room.
 *
 * <p><b>Absence is never zero.</b> The coordinator remembers every report it has seen until the
 * retention has passed since its last epoch. A report that vanishes from the store (a flush, a
 * fail-over) still counts from memory, and a report that does not decode (garbage, or a newer
 * format during a rolling upgrade) blocks settlement instead of counting as nothing: the nodes
 * then plan nothing new, which never admits past the limit. Names from reports are escaped and
 * capped before they reach a log line.
 *
 * <p><b>What the store lost, the others put back.</b> Memory alone is not enough: a node that
 * joins after the store lost a report (of a node or data center that died, whose users still
 * count) has never seen it, and would sum its data center without those users. So a node
 * re-publishes, under its publisher's name and unchanged, every report of another publisher it
 * remembers (one it decoded itself, never one it made up) that the store's last answer lacked,
 * and keeps doing so, while it remembers it, whenever the store lacks it again. The copy carries
 * the report's own epochs, so every node forgets it at the same epoch whatever the store keeps,
 * and republication stops by itself. A copy is at most as recent as the original, whose tallies
 * of past epochs never change; a copy may only make a reader wait for the original, except a
 * silent one, which could make a publisher that came back look silent: a silent report therefore
 * never replaces a later one of the same publisher that a node holds.
 *
 * <p><b>Documents.</b> Beside reports, the global scope holds documents under names that start
 * with {@link #DOCUMENT}: the room's live settings, and the eras of its {@link Epochs} (one node
 * decides each, see {@link #schedule}; every node takes it from the store and keeps it there). A
 * node keeps the settings it is given ({@link #keep}) and the latest eras in the store, putting
 * them back whenever an answer lacks them, and hands on those of
 * each answer that are sealed with the room's keys ({@link #documents()}). They never count as
 * data centers.
 *
 * <p><b>Time is the store's.</b> Settlement follows the store's clock (the time each answer
 * carries; an answer without it is a failed exchange, see {@link Transport#CLOCK_SCOPE}), not
 * the node's: an epoch is settled only once the store's clock has left it, so a node whose clock
 * runs ahead (at its first exchange, before it knows its offset, or after its
 * clock jumps forward) never settles, publishes or plans an epoch the others have not reached.
 */
public final class StoreCoordinator implements Coordinator {
  /** Separates a data center's name from a joining node's in the global scope's join markers. */
  static final String JOIN = "#";

  /** The publisher of the empty value a node publishes only to read a scope; never a report. */
  static final String READER = "";

  private static final Logger log = LoggerFactory.getLogger(StoreCoordinator.class);

  private final RoomConfig config;
  private final Transport transport;
  private final ReportSeal seal;
  private final String dataCenter;
  private final String publisher;
  private final String dcScope;
  private final Duration retention;
  /** The documents of the global scope, and the epochs' eras among them. */
  private final Documents docs;
  /** The highest settings version this node holds (see {@link #settingsVersion}). */
  private long settingsVersion;
  private final Map<String, Report> nodes = new HashMap<>();
  private final Map<String, Report> dataCenters = new HashMap<>();
  private final Set<String> unreadableNodes = new HashSet<>();
  private final Set<String> unreadableDataCenters = new HashSet<>();
  private final Set<String> loggedUnreadable = new HashSet<>();
  private final Set<String> loggedUnsealed = new HashSet<>();
  /** Values sealed with a key this node lacks, logged (by scope and name) until they open again. */
  private final Set<String> loggedOtherKey = new HashSet<>();
  private final TreeMap<Long, Tally> mySums = new TreeMap<>();
  /** The free slots of the plan of every epoch this node settled, within the retention. */
  private final TreeMap<Long, Long> freeSlots = new TreeMap<>();
  private final Map<String, Long> joinedDataCenters = new HashMap<>();
  /** What the data centers' own sums counted active, for those later counted silent ({@link ActiveHistory}). */
  private final ActiveHistory dataCenterActive = new ActiveHistory();
  /** What the nodes of this data center counted active, likewise. */
  private final ActiveHistory nodeActive = new ActiveHistory();
  private long lastExchangeEpoch = Long.MIN_VALUE / 2;
  private long graceUntil = Long.MIN_VALUE;
  /** After a gap in this node's exchanges: the epoch it last exchanged in before the gap. */
  private long gapFrom = Long.MIN_VALUE;
  private final TreeMap<Long, Integer> myNodeCounts = new TreeMap<>();
  // Remembered reports of others that the store's last answer lacked: re-published at the next
  // exchange (see the class comment).
  private final Set<String> lostNodes = new HashSet<>();
  private final Set<String> lostDataCenters = new HashSet<>();
  /** When this node saw its data center's sums in the store (see {@link SumVisibility}). */
  private final SumVisibility visibility = new SumVisibility();
  /** The publishers whose values left the store before their time (see {@link VanishWatch}). */
  private final VanishWatch vanish;
  /** When (store time) each data center's latest sum last advanced in an answer (see {@link #late}). */
  private final Map<String, Long> advancedAt = new HashMap<>();
  /**
   * How late each data center's latest sums reached this node, in ms, the last {@value
   * #LATE_SAMPLES} (see {@link #sumLateMillis}).
   */
  private final Map<String, ArrayDeque<Long>> sumLate = new HashMap<>();
  /** How many of a data center's latest sums {@link #sumLateMillis} looks at. */
  private static final int LATE_SAMPLES = 8;
  /** The store's time of the answer last read. */
  private long answerMillis;


  /**
   * A coordinator for one node.
   *
   * @param seal authenticates what the node writes and reads in the store (see {@link ReportSeal})
   * @param dataCenter the node's data center (region, cluster)
   * @param publisher the node's id, unique within the data center for the life of this process
   * @param epoch the length of an epoch
   */
  public StoreCoordinator(
      RoomConfig config, Transport transport, ReportSeal seal, String dataCenter, String publisher, Duration epoch) {
    this.config = Objects.requireNonNull(config, "config");
    this.seal = Objects.requireNonNull(seal, "seal");
    this.transport = Objects.requireNonNull(transport, "transport");
    this.dataCenter = Objects.requireNonNull(dataCenter, "dataCenter");
    this.publisher = Objects.requireNonNull(publisher, "publisher");
    this.dcScope = "dc:" + dataCenter;
    this.retention = Coordinator.retention(config);
    this.vanish = new VanishWatch(config.roomId(), publisher, retention);
    this.docs = new Documents(config.roomId(), seal, retention, epoch);
  }

  /**
   * Joins the room. One exchange publishes this node (with no tally yet) to its data center's
   * scope and a join marker to the global scope ({@code <dataCenter>#<publisher>}), and learns the
   * store's clock and who else is in the room: the store answers calls one at a time, so of two
   * nodes that start together, one sees the other's marker. A node alone in the room (no other
   * node in its data center, no other data center) may plan at once, from the epoch before the
   * current one; any other node joins at the start of the next epoch, and no data center settles
   * an epoch from then on without it.
   *
   * <p>The marker names the epoch by the node's clock, which is not yet corrected by the store's
   * at its first join: if the store's time shows that the marker named an epoch other than the
   * next one (the node's clock is an epoch or more off), a second exchange rewrites the marker
   * (same names) by the corrected clock before the node counts as joined. Otherwise a node whose
   * clock is ahead would wait for as long as its clock is ahead, and one whose clock is behind
   * would name an epoch it never tallies, which the others would wait for in vain.
   *
   * @param clock the room clock
   * @param offset takes how far the room clock is off the store's time the exchange returns (the
   *     correction to add to it), before the clock is read again
   * @return the epoch this node joins at, and whether it is alone
   * @throws IOException if the transport fails, or answers without the store's clock ({@link
   *     Transport.MissingClockException}); call again at the next sync
   */
  @Override
  public Join join(java.util.function.LongSupplier clock, java.util.function.LongConsumer offset) throws IOException {
    long guess;
    long epoch;
    Map<String, Map<String, byte[]>> answer;
    int attempt = 0;
    do {
      long before = clock.getAsLong();
      guess = epochs().at(before) + 1;
      Report marker = new Report(publisher, 1, guess, new TreeMap<>());
      answer =
          transport.exchange(
              config.roomId(),
              List.of(
                  publication(dcScope, publisher, marker),
                  publication(GLOBAL_SCOPE, dataCenter + JOIN + publisher, marker)),
              retention);
      answerMillis = storeClock(answer);
      offset.accept(answerMillis - (before + clock.getAsLong()) / 2);
      docs.read(answer.get(GLOBAL_SCOPE));
      epoch = epochs().at(clock.getAsLong());
      // The right guess is the next epoch (or the current one, if an epoch began meanwhile).
    } while ((guess > epoch + 1 || guess < epoch) && ++attempt < 2);
    boolean alone = true;
    for (String who : answer.getOrDefault(dcScope, Map.of()).keySet()) {
      alone &= who.equals(publisher);
    }
    for (String who : answer.getOrDefault(GLOBAL_SCOPE, Map.of()).keySet()) {
      alone &= who.equals(READER) || who.startsWith(DOCUMENT) || who.equals(dataCenter + JOIN + publisher);
    }
    read(answer.get(GLOBAL_SCOPE), GLOBAL_SCOPE, dataCenters, unreadableDataCenters, "data center", epoch);
    // The marker said the next epoch by the room clock; a node alone may start one earlier. (If
    // the clock was still off at the second attempt, the node waits for the epoch the marker named.)
    long joined = alone ? epoch - 1 : Math.max(guess, epoch + 1);
    nodes.put(publisher, new Report(publisher, 1, joined, new TreeMap<>()));
    return new Join(joined, alone);
  }

  /** The store's time the answer carries (see {@link Transport#CLOCK_SCOPE}). */
  private long storeClock(Map<String, Map<String, byte[]>> answer) throws Transport.MissingClockException {
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
   * Publishes this node's tallies, what it knows of its data center's sums, and the remembered
   * reports the store lost (see the class comment), and reads back everyone's. Epochs are settled
   * only if they ended by both this node's clock ({@code epoch}) and the store's: if the store's
   * time shows that tallies in {@code mine} are of epochs that have not ended, the caller must
   * withdraw them (publish without them at its next exchange) and tally them again when they end.
   *
   * @param joined the epoch this node joined in: its first tally is of that epoch
   * @param mine this node's tallies of its latest epochs
   * @param epoch the current epoch by the node's room clock
   * @return the store's time in epoch milliseconds, as the answer carried it
   * @throws IOException if the transport fails, or answers without the store's clock ({@link
   *     Transport.MissingClockException}); the coordinator then keeps what it knew
   */
  @Override
  public long exchange(long joined, NavigableMap<Long, Tally> mine, long epoch) throws IOException {
    List<Transport.Publication> out = new ArrayList<>(2 + lostNodes.size() + lostDataCenters.size());
    Report own = new Report(publisher, 1, joined, mine, settingsVersion);
    out.add(publication(dcScope, publisher, own));
    republish(lostNodes, nodes, dcScope, out);
    republish(lostDataCenters, dataCenters, GLOBAL_SCOPE, out);
    docs.publish(epoch, out);
    if (!mySums.isEmpty() && settledAll(mine)) {
      out.add(dataCenterSum());
    } else {
      // Nothing to add to the global scope (yet: this node has not settled its data center's sum
      // of every epoch it tallied), but it must be read all the same: the one-method transport
      // answers only the scopes it was given, so publish an empty value under a name no data
      // center can have.
      out.add(new Transport.Publication(GLOBAL_SCOPE, READER, new byte[0]));
    }
    Map<String, Map<String, byte[]>> answer = transport.exchange(config.roomId(), out, retention);
    long store = storeClock(answer);
    answerMillis = store;
    Epochs before = epochs();
    docs.read(answer.get(GLOBAL_SCOPE));
    if (epochs() != before && !mine.isEmpty() && mine.lastKey() >= epochs().latest().first()) {
      // An era that has begun already (this node missed its document while its exchanges
      // failed): the caller withdraws the tallies it made with the old lengths (see
      // Synchronizer), and nothing is settled from them.
      return store;
    }
    // Never ahead of the store: a node whose clock runs ahead settles nothing the store's clock
    // has not left, and does not forget by it.
    epoch = Math.min(epoch, epochs().at(store));
    nodes.put(publisher, own);
    vanish.answer(store, out);
    read(answer.get(dcScope), dcScope, nodes, unreadableNodes, "node", epoch);
    read(answer.get(GLOBAL_SCOPE), GLOBAL_SCOPE, dataCenters, unreadableDataCenters, "data center", epoch);
    vanish.note(dcScope, nodes, publisher, epochs());
    vanish.note(GLOBAL_SCOPE, dataCenters, vanish.publishedNow(GLOBAL_SCOPE, dataCenter) ? dataCenter : "", epochs());
    visibility.noteVisible(epochs().at(store));
    if (lastExchangeEpoch < epoch - SILENT_AFTER_EPOCHS) {
      // Back in touch after a gap (a store outage): remember every publisher for a few more
      // epochs, so that none is forgotten before it has had the chance to publish again; and
      // wait for those that published until the gap began, instead of counting them silent:
      // they were most likely cut off too, and each would otherwise plan as the only live node.
      graceUntil = epoch + SILENT_AFTER_EPOCHS + 2;
      gapFrom = lastExchangeEpoch > Long.MIN_VALUE / 2 ? lastExchangeEpoch : Long.MIN_VALUE;
    }
    lastExchangeEpoch = epoch;
    if (epoch > graceUntil) {
      forgetBefore(epochs().at(epochs().start(epoch) - retention.toMillis()) - 1);
    }
    lost(answer.get(dcScope), nodes, publisher, lostNodes);
    lost(answer.get(GLOBAL_SCOPE), dataCenters, dataCenter, lostDataCenters);
    Report known = dataCenters.get(dataCenter);
    if (known != null) {
      // Sums another node of this data center settled and this one did not (yet).
      known.tallies().headMap(epoch, false).forEach(mySums::putIfAbsent);
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
    if (settledNow && firstOfDataCenter() && otherDataCenters()) {
      // Publish the new sum at once rather than at the next sync: the other data centers see it
      // a sync earlier, which lets plans settle in time with a lag between data centers of up to
      // about two thirds of an epoch. It costs one exchange per data center and epoch (none in a
      // room of one data center).
      Map<String, Map<String, byte[]>> again = transport.exchange(config.roomId(), List.of(dataCenterSum()), retention);
      long storeAgain = storeClock(again);
      answerMillis = storeAgain;
      vanish.answer(storeAgain, List.of(new Transport.Publication(GLOBAL_SCOPE, dataCenter, new byte[0])));
      read(again.get(GLOBAL_SCOPE), GLOBAL_SCOPE, dataCenters, unreadableDataCenters, "data center", epoch);
      visibility.noteVisible(epochs().at(storeAgain));
    }
    for (long s : mySums.keySet()) {
      if (!freeSlots.containsKey(s)) {
        roomSums(s); // notes the free slots of every settled epoch, also of those this node plans none for
      }
    }
    while (myNodeCounts.size() > Report.EPOCHS_KEPT) {
      myNodeCounts.pollFirstEntry();
    }
    vanish.log();
    return store;
  }

  /**
   * Keeps these documents in the global scope from the next exchange on, instead of those kept
   * before: each is published when this node has not published it yet, whenever an answer lacks
   * it or holds other bytes under its name, and at least every half retention (so it never
   * expires while a node keeps it). Every node that keeps a document keeps it alive; a flushed
   * store has it back after one exchange.
   *
   * @param documents by name: each starting with {@link #DOCUMENT}, then letters, digits, dots or
   *     dashes; the bytes are sealed like reports
   */
  @Override
  public void keep(Map<String, byte[]> documents) {
    for (String name : documents.keySet()) {
      if (!name.startsWith(DOCUMENT) || name.length() > 80) {
        throw new IllegalArgumentException("a document's name must start with " + DOCUMENT + ": " + name);
      }
    }
    docs.keep(documents);
  }

  /**
   * The places the other publishers list as admitted from the line in their latest tallies, as
   * the last answer showed them, sorted: the other nodes of this data center, and the sums of the
   * other data centers (settled or not). A waiting ticket with one of these places is a copy of
   * one that got in, an epoch or more before a plan that counts the admission shows it.
   */
  @Override
  public long[] latestAdmitted() {
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

  @Override
  public void settingsVersion(long version) {
    settingsVersion = version;
  }

  /**
   * The highest settings version of the reports this node holds: those of its data center's nodes
   * and the sums of every data center (each the highest of its nodes'), and its own.
   */
  @Override
  public long roomSettingsVersion() {
    long highest = settingsVersion;
    for (Map<String, Report> scope : List.of(nodes, dataCenters)) {
      for (Report r : scope.values()) {
        highest = Math.max(highest, r.settings());
      }
    }
    return highest;
  }

  /** How time is cut into epochs, as this node last learned it. Any thread may call it. */
  @Override
  public Epochs epochs() {
    return docs.epochs();
  }

  /**
   * Begins a new era: this node decided it from a settled plan (only one node of the room decides
   * each one). It takes effect here at once and in the store at the next exchange, where every
   * node reads it and keeps it (see {@link #keep}); it must begin late enough for every node to
   * read it before then.
   *
   * @throws IllegalArgumentException if it does not fit the schedule (see {@link Epochs#with})
   */
  @Override
  public void schedule(Epochs.Era era) {
    docs.schedule(era);
  }

  /**
   * The documents the store's last answer held in the global scope, opened: only those sealed
   * with the room's keys under their name. Empty before the first exchange.
   */
  @Override
  public Map<String, byte[]> documents() {
    return docs.opened();
  }

  /**
   * Adds to {@code out} a copy of every report named in {@code lost} that this node still
   * remembers, unchanged and under its publisher's name.
   */
  private Transport.Publication publication(String scope, String name, Report report) {
    return new Transport.Publication(scope, name, seal.seal(scope, name, ReportCodec.encode(report)));
  }

  private void republish(
      Set<String> lost, Map<String, Report> remembered, String scope, List<Transport.Publication> out) {
    for (Map.Entry<String, Report> e : new TreeMap<>(remembered).entrySet()) {
      if (lost.contains(e.getKey())) {
        out.add(publication(scope, e.getKey(), e.getValue()));
      }
    }
  }

  /**
   * Notes in {@code lost} the remembered reports of others (all but {@code self}) that the answer
   * for their scope lacks.
   */
  private static void lost(
      @Nullable Map<String, byte[]> values, Map<String, Report> remembered, String self, Set<String> lost) {
    lost.clear();
    for (String who : remembered.keySet()) {
      if (!who.equals(self) && (values == null || !values.containsKey(who))) {
        lost.add(who);
      }
    }
  }

  /** When this node's data center joined, as far as this node knows. */
  private long dcJoined() {
    Report known = dataCenters.get(dataCenter);
    long joined = known == null ? mySums.firstKey() : Math.min(known.joined(), mySums.firstKey());
    return joined;
  }

  private void read(
      @Nullable Map<String, byte[]> values, String scope, Map<String, Report> into, Set<String> unreadable,
      String what, long epoch) {
    unreadable.clear();
    if (into == dataCenters) {
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
            log.info("room '{}': the value under {} '{}' opens with this node's keyset again", config.roomId(), what,
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
                  config.roomId(), what, printable(who));
            }
            return;
          }
          if (bytes == null) {
            // Not written by a holder of the room's keys: not a node of this room, so it counts
            // for nothing, neither as users nor as an unknown that blocks the plans.
            if (loggedUnsealed.add(scope + "/" + who)) {
              log.warn("room '{}': ignoring a value under {} '{}' in the store that is not sealed with the room's keys",
                  config.roomId(), what, printable(who));
            }
            return;
          }
          int join = who.indexOf(JOIN);
          if (into == dataCenters && join >= 0) {
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
            if (into == dataCenters && who.equals(dataCenter) && !r.tallies().isEmpty()) {
              visibility.sawSum(r.latestEpoch()); // as the others read it, even if this node holds a later one
            }
            vanish.present(scope, who);
            Report held = into.get(who);
            boolean silent = r.latestEpoch() < epoch - SILENT_AFTER_EPOCHS;
            if (into == dataCenters && (held == null || r.latestEpoch() > held.latestEpoch())) {
              advancedAt.put(who, answerMillis);
              if (held != null && !who.equals(dataCenter) && !r.tallies().isEmpty()) {
                ArrayDeque<Long> late = sumLate.computeIfAbsent(who, k -> new ArrayDeque<>());
                late.addLast(Math.max(0, answerMillis - epochs().start(r.latestEpoch() + 1)));
                if (late.size() > LATE_SAMPLES) {
                  late.removeFirst();
                }
              }
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
                  config.roomId(), what, printable(who), printable(e.getMessage()));
            }
          }
        });
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
   * {@inheritDoc} Of each data center, the least lateness of its last {@value #LATE_SAMPLES} sums:
   * each also holds up to a sync interval of waiting for the publishing and the reading node's
   * syncs, which the least of several leaves out, so what remains is the propagation lag.
   */
  @Override
  public long sumLateMillis() {
    long late = 0;
    for (ArrayDeque<Long> samples : sumLate.values()) {
      long least = Long.MAX_VALUE;
      for (long l : samples) {
        least = Math.min(least, l);
      }
      late = Math.max(late, least);
    }
    return late;
  }

  /**
   * Whether a data center whose sums are behind is late rather than gone: its latest sum advanced
   * within the last {@value Coordinator#SILENT_AFTER_EPOCHS} epochs of store time, as this node
   * read it. Its sums reach this data center more than two epochs after their epoch (a lag between
   * data centers beyond the sync interval), and most likely this data center's reach it as late:
   * counting it silent, each would plan as a room of its own and hand out slots the other's plans
   * count nowhere. So the epoch waits for its sum instead; plans then settle late, and the room
   * lengthens its epochs until they settle in time (see the epoch pacing of the sync thread). A
   * data center that is gone stops advancing, and counts silent once its last sum is that old.
   */
  private boolean late(Report r) {
    Long at = advancedAt.get(r.publisher());
    return at != null && answerMillis - at <= SILENT_AFTER_EPOCHS * epochs().length(epochs().at(answerMillis));
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

  private void forgetBefore(long epoch) {
    freeSlots.headMap(epoch, false).clear();
    nodes.values().removeIf(r -> r.latestEpoch() < epoch && !vanish.away(dcScope, r.publisher()));
    dataCenters.values().removeIf(r -> r.latestEpoch() < epoch && !vanish.away(GLOBAL_SCOPE, r.publisher()));
    advancedAt.keySet().retainAll(dataCenters.keySet());
    sumLate.keySet().retainAll(dataCenters.keySet());
    vanish.forget((scope, name) -> scope.equals(GLOBAL_SCOPE) ? dataCenters.containsKey(name) : nodes.containsKey(name));
    joinedDataCenters.values().removeIf(joined -> joined < epoch);
  }

  /** Whether the room has data centers other than this node's, as far as this node knows. */
  private boolean otherDataCenters() {
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

  /** This data center's settled sums, as this node publishes them to the global scope. */
  private Transport.Publication dataCenterSum() {
    int count = myNodeCounts.isEmpty() ? 1 : myNodeCounts.lastEntry().getValue();
    long settings = settingsVersion;
    for (Report r : nodes.values()) {
      settings = Math.max(settings, r.settings());
    }
    return publication(GLOBAL_SCOPE, dataCenter, new Report(dataCenter, count, dcJoined(), mySums, settings));
  }

  /**
   * Whether this node has settled its data center's sum of every epoch it has tallied: only then
   * does it publish the sums, so the sums in the store never go back (a node that had not yet
   * settled an epoch would overwrite the sum of one that had, and the other data centers would
   * see the epoch late).
   */
  private boolean settledAll(NavigableMap<Long, Tally> mine) {
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
  private boolean firstOfDataCenter() {
    for (Report r : new TreeMap<>(nodes).values()) {
      if (r.publisher().equals(publisher)) {
        return true;
      }
      if (!r.tallies().isEmpty() && r.latestEpoch() >= lastExchangeEpoch - SILENT_AFTER_EPOCHS) {
        return false; // a live node before this one
      }
    }
    return true;
  }

  /** Settles this data center's sum of epoch {@code s} if every node has tallied it; whether it did. */
  private boolean settleDataCenter(long s) {
    if (!unreadableNodes.isEmpty()) {
      return false;
    }
    List<Tally> parts = new ArrayList<>();
    Map<String, Tally> live = new TreeMap<>();
    List<Report> silent = new ArrayList<>();
    for (Report r : new TreeMap<>(nodes).values()) {
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
    myNodeCounts.put(s, live.size());
    return true;
  }

  /**
   * The settled tallies of epoch {@code s}, as the last exchange left them, or {@code null} if
   * the epoch is not settled for the whole room.
   */
  @Override
  public @Nullable Settled settled(long s) {
    RoomSums room = roomSums(s);
    if (room != null && otherDataCenters() && !visibility.inTime(s, mySums.isEmpty() ? s : dcJoined())) {
      return null;
    }
    if (room == null || !unreadableNodes.isEmpty() || vanish.any()) {
      // A report of this data center that does not decode: this node does not know all of its
      // data center's nodes, and would split the data center's slots among too few of them (its
      // data center's sum may still come from a node that reads every report).
      return null;
    }
    List<Tally> live = new ArrayList<>();
    List<String> liveNames = new ArrayList<>();
    int me = -1;
    for (Map.Entry<String, Report> e : new TreeMap<>(nodes).entrySet()) {
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
    return new Settled(names, new ArrayList<>(room.dataCenters().values()), names.indexOf(dataCenter), liveNames, live, me,
        room.nodes(), new ArrayList<>(room.nodesByDataCenter().values()));
  }

  /** Every data center's sum of one epoch, by name, and the live nodes of the room. */
  private record RoomSums(TreeMap<String, Tally> dataCenters, TreeMap<String, Integer> nodesByDataCenter, int nodes) {}

  /**
   * Every data center's sum of epoch {@code s}, or {@code null} if the epoch is not settled for the
   * whole room; notes the free slots of its plan (see {@link #silentDataCenter}).
   */
  private @Nullable RoomSums roomSums(long s) {
    Tally mine = mySums.get(s);
    if (mine == null || !unreadableDataCenters.isEmpty()) {
      return null;
    }
    TreeMap<String, Tally> dcs = new TreeMap<>();
    TreeMap<String, Integer> dcNodes = new TreeMap<>();
    dcs.put(dataCenter, mine);
    int roomNodes = myNodeCounts.getOrDefault(s, 1);
    dcNodes.put(dataCenter, roomNodes);
    List<Report> silent = new ArrayList<>();
    for (Report r : dataCenters.values()) {
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
      } else if (r.tallies().isEmpty() || r.latestEpoch() >= s - SILENT_AFTER_EPOCHS || awaited(r) || late(r)) {
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
    for (Map.Entry<String, Long> j : joinedDataCenters.entrySet()) {
      if (!dcs.containsKey(j.getKey()) && j.getValue() <= s) {
        return null; // a data center that joined by epoch s has not published it yet
      }
    }
    if (!freeSlots.containsKey(s)) {
      freeSlots.put(s, Plan.freeSlots(config, Tally.sum(dcs.values()))); // once per epoch, not per call
    }
    return new RoomSums(dcs, dcNodes, roomNodes);
  }

  /** This node's data center. */
  @Override
  public String dataCenter() {
    return dataCenter;
  }

  /** The data centers this node knows of, sorted. */
  @Override
  public List<String> dataCenterNames() {
    TreeMap<String, Boolean> names = new TreeMap<>();
    names.put(dataCenter, true);
    dataCenters.keySet().forEach(n -> names.put(n, true));
    return List.copyOf(names.keySet());
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
}
