package io.github.waitingroom.coordinator;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.allocation.Tally;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

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
 * whose plan meets that one (see {@code SumVisibility.inTime}); otherwise they would plan from sums the others
 * never saw, and hand out slots the others' plans count nowhere. After a gap in its own
 * exchanges (a store outage), a node waits a few epochs for the publishers that published until
 * the gap began instead of counting them silent: they
 * were most likely cut off too, and nodes that come back together would otherwise each plan as
 * the only live node of the room and hand themselves every free slot. ({@code Settlement} settles
 * the sums; {@code SumLateness} tells a data center that is late from one that is gone.)
 *
 * <p>Everything written to the store is sealed with the room's keys ({@link ReportSeal}); a value
 * that is not is ignored, logged once, unless it looks sealed with a key this node's keyset lacks
 * ({@link ReportSeal#sealedWithOtherKey}): that is a node with another keyset, and it blocks the
 * plans like a report that does not decode, with an error in the log, rather than split the room
 * ({@code AnswerReader} reads the answers).
 *
 * <p><b>Absence is never zero.</b> The coordinator remembers every report it has seen until the
 * retention has passed since its last epoch ({@code Remembered}). A report that vanishes from the store (a flush, a
 * fail-over) still counts from memory, and a report that does not decode (garbage, or a newer
 * format during a rolling upgrade) blocks settlement instead of counting as nothing: the nodes
 * then plan nothing new, which never admits past the limit. Names from reports are escaped and
 * capped before they reach a log line ({@code AnswerReader.printable}).
 *
 * <p><b>What the store lost, the others put back.</b> Memory alone is not enough: a node that
 * joins after the store lost a report (of a node or data center that died, whose users still
 * count) has never seen it, and would sum its data center without those users. So a node
 * re-publishes, under its publisher's name and unchanged, every report of another publisher it
 * remembers (one it decoded itself, never one it made up) that the store's last answer lacked,
 * and keeps doing so, while it remembers it, whenever the store lacks it again. The copy carries
 * the report's own epochs, so every node forgets it at the same epoch whatever the store keeps,
 * and republication ({@code Republication}) stops by itself. A copy is at most as recent as the original, whose tallies
 * of past epochs never change; a copy may only make a reader wait for the original, except a
 * silent one, which could make a publisher that came back look silent: a silent report therefore
 * never replaces a later one of the same publisher that a node holds.
 *
 * <p><b>Everyone counts the same publishers.</b> Each report says whom its node counted in the
 * latest epoch it settled ({@link Report.Counted}: its data center's live nodes and the data
 * centers, hashed), and a node plans no epoch while a report counted others than it did in the
 * same epoch ({@code Agreement}): a node the others cannot see (its values deleted before they read
 * them) would otherwise plan with their tallies while they plan without its own.
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
  /** The reports this node remembers (see {@link Remembered}). */
  private final Remembered known = new Remembered();
  private final Map<String, Report> nodes = known.nodes();
  private final Map<String, Report> dataCenters = known.dataCenters();
  /** When this node saw its data center's sums in the store (see {@link SumVisibility}). */
  private final SumVisibility visibility = new SumVisibility();
  /** The publishers whose values left the store before their time (see {@link VanishWatch}). */
  private final VanishWatch vanish;
  /** How late the other data centers' sums reach this node (see {@link SumLateness}). */
  private final SumLateness lateness;
  /** Reads the answers into the reports above (see {@link AnswerReader}). */
  private final AnswerReader reader;
  /** This data center's sums and the room's, settled from the reports above (see {@link Settlement}). */
  private final Settlement sums;
  /** The reports of others the store lost, put back at the next exchange (see {@link Republication}). */
  private final Republication lostNodes;
  private final Republication lostDataCenters;
  /** This node's join marker, until it is retired (see {@link #retireJoinMarker}). */
  private Transport.@Nullable Publication joinMarker;

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
    this.lateness = new SumLateness(dataCenter, docs::epochs);
    this.reader =
        new AnswerReader(config.roomId(), dataCenter, seal, visibility, vanish, lateness, known.joinedDataCenters());
    this.sums = new Settlement(config, dataCenter, publisher, known, lateness, visibility, vanish);
    this.lostNodes = new Republication(seal, dcScope, publisher);
    this.lostDataCenters = new Republication(seal, GLOBAL_SCOPE, dataCenter);
  }

  /**
   * Joins the room. One exchange publishes this node (with no tally yet) to its data center's
   * scope and a join marker to the global scope ({@code <dataCenter>#<publisher>}), and learns the
   * store's clock and who else is in the room: the store answers calls one at a time, so of two
   * nodes that start together, one sees the other's marker. A node alone in the room (no other
   * node in its data center, no other data center) may plan at once, from the epoch before the
   * current one; any other node joins at the start of the next epoch, and no data center settles
   * an epoch from then on without it. The marker is needed only until the node's data center has a
   * sum in the global scope that every other publisher counts; from then on it lives one epoch more
   * (see {@link #retireJoinMarker}).
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
      joinMarker = publication(GLOBAL_SCOPE, dataCenter + JOIN + publisher, marker);
      answer = transport.exchange(config.roomId(), List.of(publication(dcScope, publisher, marker), joinMarker), retention);
      long store = AnswerReader.storeClock(answer, transport);
      lateness.answer(store);
      offset.accept(store - (before + clock.getAsLong()) / 2);
      docs.read(answer.get(GLOBAL_SCOPE));
      epoch = epochs().at(clock.getAsLong());
      // The right guess is the next epoch (or the current one, if an epoch began meanwhile).
    } while ((guess > epoch + 1 || guess < epoch) && ++attempt < 2);
    boolean alone = AnswerReader.alone(answer, dcScope, dataCenter, publisher);
    reader.read(answer.get(GLOBAL_SCOPE), GLOBAL_SCOPE, dataCenters, known.unreadableDataCenters(), epoch);
    // The marker said the next epoch by the room clock; a node alone may start one earlier. (If
    // the clock was still off at the second attempt, the node waits for the epoch the marker named.)
    long joined = alone ? epoch - 1 : Math.max(guess, epoch + 1);
    nodes.put(publisher, new Report(publisher, 1, joined, new TreeMap<>()));
    return new Join(joined, alone);
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
    Report own = new Report(publisher, 1, joined, mine, settingsVersion, sums.counted());
    out.add(publication(dcScope, publisher, own));
    lostNodes.republish(nodes, out);
    lostDataCenters.republish(dataCenters, out);
    docs.publish(epoch, out);
    if (sums.hasSums() && sums.settledAll(mine)) {
      out.add(dataCenterSum());
    } else {
      // Nothing to add to the global scope (yet: this node has not settled its data center's sum
      // of every epoch it tallied), but it must be read all the same: the one-method transport
      // answers only the scopes it was given, so publish an empty value under a name no data
      // center can have.
      out.add(new Transport.Publication(GLOBAL_SCOPE, READER, new byte[0]));
    }
    Map<String, Map<String, byte[]>> answer = transport.exchange(config.roomId(), out, retention);
    long store = AnswerReader.storeClock(answer, transport);
    lateness.answer(store);
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
    reader.read(answer.get(dcScope), dcScope, nodes, known.unreadableNodes(), epoch);
    reader.read(answer.get(GLOBAL_SCOPE), GLOBAL_SCOPE, dataCenters, known.unreadableDataCenters(), epoch);
    vanish.note(dcScope, nodes, publisher, epochs());
    vanish.note(GLOBAL_SCOPE, dataCenters, vanish.publishedNow(GLOBAL_SCOPE, dataCenter) ? dataCenter : "", epochs());
    visibility.noteVisible(epochs().at(store));
    if (sums.exchanged(epoch)) {
      // Not within the grace after a gap in this node's exchanges (see Settlement#exchanged).
      forgetBefore(epochs().at(epochs().start(epoch) - retention.toMillis()) - 1);
    }
    lostNodes.note(answer.get(dcScope), nodes);
    lostDataCenters.note(answer.get(GLOBAL_SCOPE), dataCenters);
    if (sums.settle(epoch, mine) && sums.firstOfDataCenter() && known.otherDataCenters(dataCenter)) {
      // Publish the new sum at once rather than at the next sync: the other data centers see it
      // a sync earlier, which lets plans settle in time with a lag between data centers of up to
      // about two thirds of an epoch. It costs one exchange per data center and epoch (none in a
      // room of one data center).
      Map<String, Map<String, byte[]>> again = transport.exchange(config.roomId(), List.of(dataCenterSum()), retention);
      long storeAgain = AnswerReader.storeClock(again, transport);
      lateness.answer(storeAgain);
      vanish.answer(storeAgain, List.of(new Transport.Publication(GLOBAL_SCOPE, dataCenter, new byte[0])));
      reader.read(again.get(GLOBAL_SCOPE), GLOBAL_SCOPE, dataCenters, known.unreadableDataCenters(), epoch);
      visibility.noteVisible(epochs().at(storeAgain));
    }
    sums.noteFreeSlots();
    sums.noteCounted();
    vanish.log();
    retireJoinMarker(answer.get(GLOBAL_SCOPE), epoch);
    return store;
  }

  /**
   * Lets this node's join marker expire once it tells nobody anything: the global scope holds a sum
   * of its data center (as the answer {@code global} shows), by which a node that joins later knows
   * the data center, and every publisher this node counts has shown that it counts this node's data
   * center too ({@link Settlement#knownToAll}), so none of the nodes that read the store with a lag
   * can still be waiting to learn of it (a node that read the marker keeps what it told). The sum
   * tells the epoch the data center joined in: no later than the marker said, unless this node
   * was the first of a new data center and joined later than its marker said (its clock was off),
   * and it admitted nobody before. The marker is published once more, unchanged, to live one epoch
   * (an exchange of its own, once in the life of a node). Every answer to every node carries every
   * live value of the global scope, so a marker that lived as long as reports cost each exchange
   * one value per node that joined within the retention: in a room of hundreds of nodes that
   * started together, most of what they read.
   */
  private void retireJoinMarker(@Nullable Map<String, byte[]> global, long epoch) throws IOException {
    Report sum = dataCenters.get(dataCenter);
    if (joinMarker == null || global == null || !global.containsKey(dataCenter) || sum == null
        || sum.tallies().isEmpty() || !sums.knownToAll()) {
      return;
    }
    Map<String, Map<String, byte[]>> again = transport.exchange(config.roomId(), List.of(joinMarker),
        Duration.ofMillis(epochs().length(epoch)));
    lateness.answer(AnswerReader.storeClock(again, transport));
    joinMarker = null;
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
    return known.latestAdmitted(publisher, dataCenter);
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
    return known.highestSettings(settingsVersion);
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

  /** A report sealed for the store under this scope and name. */
  private Transport.Publication publication(String scope, String name, Report report) {
    return new Transport.Publication(scope, name, seal.seal(scope, name, ReportCodec.encode(report)));
  }

  /**
   * {@inheritDoc} Of each data center, the least lateness of its last {@value
   * SumLateness#LATE_SAMPLES} sums: each also holds up to a sync interval of waiting for the
   * publishing and the reading node's syncs, which the least of several leaves out, so what
   * remains is the propagation lag.
   */
  @Override
  public long sumLateMillis() {
    return lateness.millis();
  }

  /** Forgets what this node remembers of the epochs before {@code epoch}, but publishers whose values are away. */
  private void forgetBefore(long epoch) {
    sums.forgetBefore(epoch);
    known.forgetBefore(epoch, dcScope, vanish);
    lateness.retain(dataCenters.keySet());
  }

  /** This data center's settled sums, as this node publishes them to the global scope. */
  private Transport.Publication dataCenterSum() {
    return publication(GLOBAL_SCOPE, dataCenter, sums.dataCenterSum(settingsVersion));
  }

  /**
   * The settled tallies of epoch {@code s}, as the last exchange left them, or {@code null} if
   * the epoch is not settled for the whole room.
   */
  @Override
  public @Nullable Settled settled(long s) {
    return sums.settled(s);
  }

  /** This node's data center. */
  @Override
  public String dataCenter() {
    return dataCenter;
  }

  /** The data centers this node knows of, sorted. */
  @Override
  public List<String> dataCenterNames() {
    return known.dataCenterNames(dataCenter);
  }
}
