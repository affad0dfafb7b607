package io.github.waitingroom;

import io.github.waitingroom.coordinator.Coordinator;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The room's live settings on one node: the documents it knows (its own configuration as version
 * 0, and what operators published), which one is in force, and what the node keeps in the store.
 * Thread-safe: request threads read {@link #current()} (one volatile read); the sync thread and
 * operators call the rest.
 *
 * <p>A document takes effect on every node at the same instant of the store's clock, stamped when
 * it is published: the start of the epoch after next (one to two epochs later). Every node reads
 * the store four times an epoch, so by then every node that reaches the store knows it, and the
 * plan of every epoch that ends after that instant is computed from the document's limits on
 * every node alike. A node that learns of a document late (it was cut off from the store) applies
 * it at once.
 *
 * <p>Within a document, time is cut into <em>phases</em> by its events ({@link RoomSettings#events()}):
 * before and between events the document's own settings hold, during an event's pre-queue nobody
 * is let in, and during the event its overrides hold. Every phase says which arrival second
 * newcomers' places carry: their own (first in, first out), or one second for all of them, whose
 * places are then ordered by their random tie-break bits alone. That second is the pre-queue's
 * start for a pre-queue with {@code shuffleAtEventStart} (the lottery), the event's start for an
 * event that queues at random, and for a document that queues at random the instant random
 * queueing began (carried from document to document while it lasts). Every node computes the same
 * phases from the same document.
 *
 * <p>In the store a document lives under {@code ~settings.<version>} in the global scope, sealed
 * with the room's keys, as {@code waitingroom-settings 1 <activeFromMillis> <randomFromSecond>\n<JSON>}
 * (see {@link RoomSettings#toJson()}). Every node keeps the highest version it knows there (see {@link
 * Coordinator#keep}); two documents of one version (two operators at once) are decided by their
 * bytes, the same way on every node.
 */
final class LiveSettings {
  private static final Logger log = LoggerFactory.getLogger(LiveSettings.class);

  /** The prefix of a settings document's name in the store. */
  static final String NAME = Coordinator.DOCUMENT + "settings.";

  private static final String MAGIC = "waitingroom-settings 1 ";

  /** How many documents a node remembers for plans of epochs that ended before the newest one. */
  private static final int KEPT = 4;

  /**
   * The settings in force during one phase of a document, and the configuration they make.
   *
   * @param settings the document's settings with the phase's event applied
   * @param doc the document
   * @param event the event that is pre-queueing or running, or {@code null}
   * @param prequeueing whether the event is pre-queueing (nobody is let in)
   * @param lineSecond the arrival second of newcomers' places, or {@link Long#MIN_VALUE} for their own
   * @param from the first second of the phase
   * @param until the first second after it
   * @param limit the adaptive limit's decision in force, or {@code null} (no adaptive limit, or
   *     none decided for this document yet: its {@code totalActiveUsers} holds)
   */
  record Current(RoomSettings settings, RoomConfig config, Doc doc,
      RoomSettings.@Nullable Event event, boolean prequeueing, long lineSecond, long from, long until,
      @Nullable Limit limit) {

    /** Whether newcomers and people waiting may be let in. */
    boolean admitting() {
      return settings.admitting() && !prequeueing;
    }

    boolean holds(long second) {
      return second >= from && second < until;
    }

    /** The document, without the phase's event applied. */
    RoomSettings document() {
      return doc.settings();
    }
  }

  /**
   * A document, the instant (store clock, epoch milliseconds) it takes effect, and since when
   * (epoch second) the room has queued at random without a break, or {@link Long#MIN_VALUE}.
   */
  private record Doc(RoomSettings settings, long activeFrom, long randomFrom, byte[] bytes) {}

  /**
   * A decision of the room's {@link AdaptiveLimit}: in force from {@code activeFrom} (store clock,
   * epoch ms) for the settings document of version {@code settingsVersion}, while that document
   * is in force. Numbered by {@code seq}, one higher than the newest the deciding node knew; in
   * the store under {@code ~limit.<seq>} in the global scope, sealed with the room's keys, as
   * {@code waitingroom-limit 1 <activeFrom> <settingsVersion> <limit>\n<reason>}.
   */
  record Limit(long seq, long activeFrom, long settingsVersion, int limit, String reason, byte[] bytes) {}

  /** The prefix of an adaptive limit's decision in the store. */
  static final String LIMIT_NAME = Coordinator.DOCUMENT + "limit.";

  private static final String LIMIT_MAGIC = "waitingroom-limit 1 ";

  /**
   * The most characters of a decision's reason, as the deciding node keeps it and as every node
   * reads it (printable ASCII), so that every node shows the same reason; the law's reasons are
   * shorter (the longest it publishes, a raise with both edges of the band, at most 76).
   */
  static final int REASON_CHARS = 160;

  private final RoomConfig base;
  private final TreeMap<Long, Doc> docs = new TreeMap<>();
  private final TreeMap<Long, Limit> limits = new TreeMap<>();
  private final Set<String> logged = new HashSet<>();
  private volatile Current current;
  private boolean changed = true;

  LiveSettings(RoomConfig base) {
    this.base = base;
    RoomSettings own = RoomSettings.of(base);
    docs.put(0L, new Doc(own, Long.MIN_VALUE, Long.MIN_VALUE, new byte[0]));
    this.current = phase(docs.get(0L), 0L, null);
  }

  /**
   * The settings in force on this node at {@code second}: those the sync thread put in force, or,
   * at an event's boundary the sync thread has not reached yet, the next phase of the same
   * document (so that every node switches at the boundary's second, whatever its syncs).
   */
  Current current(long second) {
    Current c = current;
    return c.holds(second) ? c : phase(c.doc(), second * 1000, c.limit());
  }

  /** The settings the sync thread put in force last. */
  Current current() {
    return current;
  }

  /** The newest settings this node knows, in force or not yet. */
  synchronized RoomSettings latest() {
    return docs.lastEntry().getValue().settings();
  }

  /**
   * Takes an operator's document: it must be newer than every document this node knows and fit
   * the room's configuration. It is published at the next sync and takes effect at {@code
   * activeFrom} on every node.
   *
   * @return the instant (store clock, epoch milliseconds) it takes effect
   * @throws IllegalArgumentException naming the field the configuration does not allow
   * @throws IllegalStateException if this node knows a document of the same or a higher version
   */
  synchronized long update(RoomSettings next, long activeFrom) {
    next.checkAgainst(base);
    long known = docs.lastKey();
    if (next.version() <= known) {
      throw new IllegalStateException("settings version " + next.version() + " is not newer than version " + known
          + ", which this node knows: read the settings again and change those");
    }
    Doc latest = docs.lastEntry().getValue();
    long randomFrom = next.queueingMethod() != RoomSettings.QueueingMethod.RANDOM ? Long.MIN_VALUE
        : latest.randomFrom() != Long.MIN_VALUE ? latest.randomFrom()
        : Math.floorDiv(activeFrom, 1000L);
    byte[] bytes = (MAGIC + activeFrom + " " + randomFrom + "\n" + next.toJson()).getBytes(StandardCharsets.UTF_8);
    add(new Doc(next, activeFrom, randomFrom, bytes));
    log.info("room '{}': settings version {} published, in force from {} (store clock, ms): {}", base.roomId(),
        next.version(), activeFrom, next.toJson());
    return activeFrom;
  }

  /**
   * Takes a decision of the room's adaptive limit, which this node made (see {@link
   * LimitController}): published at the next sync, in force from {@code activeFrom} on every node
   * while the settings document in force now is.
   */
  synchronized Limit decide(int limit, String reason, long activeFrom) {
    long seq = limits.isEmpty() ? 1 : limits.lastKey() + 1;
    long version = current.document().version();
    // As every other node reads it (readLimit), so that all show the same.
    String shown = RoomSettings.printable(reason, REASON_CHARS);
    byte[] bytes = (LIMIT_MAGIC + activeFrom + " " + version + " " + limit + "\n" + shown)
        .getBytes(StandardCharsets.UTF_8);
    Limit l = new Limit(seq, activeFrom, version, limit, shown, bytes);
    addLimit(l);
    return l;
  }

  private void addLimit(Limit l) {
    limits.put(l.seq(), l);
    while (limits.size() > KEPT) {
      limits.pollFirstEntry();
    }
    changed = true;
  }

  /** Takes the settings documents and limit decisions of the store's last answer (others are ignored). */
  synchronized void read(Map<String, byte[]> documents) {
    for (Map.Entry<String, byte[]> e : documents.entrySet()) {
      if (e.getKey().startsWith(LIMIT_NAME)) {
        readLimit(e.getKey(), e.getValue());
        continue;
      }
      if (!e.getKey().startsWith(NAME) || holds(e.getValue())) {
        continue; // not settings, or the very bytes of a document this node holds (most answers)
      }
      Doc d = decode(e.getKey(), e.getValue());
      if (d == null) {
        continue;
      }
      Doc held = docs.get(d.settings().version());
      if (held == null && d.settings().version() > docs.firstKey()
          || held != null && Arrays.compare(d.bytes(), held.bytes()) > 0) {
        add(d);
        log.info("room '{}': settings version {} read from the store, in force from {} (store clock, ms)",
            base.roomId(), d.settings().version(), d.activeFrom());
      }
    }
  }

  /** A decision of the limit: taken if it is newer than those held, or of the same number and higher bytes. */
  private void readLimit(String name, byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    try {
      long seq = Long.parseLong(name.substring(LIMIT_NAME.length()));
      Limit held = limits.get(seq);
      if (held != null && Arrays.compare(bytes, held.bytes()) <= 0
          || held == null && !limits.isEmpty() && seq < limits.firstKey()) {
        return;
      }
      int nl = text.indexOf('\n');
      String[] header = nl < 0 || !text.startsWith(LIMIT_MAGIC) ? new String[0]
          : text.substring(LIMIT_MAGIC.length(), nl).split(" ");
      if (header.length != 3) {
        throw new IllegalArgumentException("it is not a limit decision of a version this node knows");
      }
      int limit = Integer.parseInt(header[2]);
      if (limit < 1) {
        throw new IllegalArgumentException("its limit is " + limit);
      }
      addLimit(new Limit(seq, Long.parseLong(header[0]), Long.parseLong(header[1]), limit,
          RoomSettings.printable(text.substring(nl + 1), REASON_CHARS), bytes));
      logged.remove(name);
    } catch (IllegalArgumentException e) {
      if (logged.add(name)) {
        log.warn("room '{}': ignoring the limit decision '{}' in the store: {}", base.roomId(),
            RoomSettings.printable(name), RoomSettings.printable(String.valueOf(e.getMessage())));
      }
    }
  }

  private boolean holds(byte[] bytes) {
    for (Doc d : docs.values()) {
      if (Arrays.equals(d.bytes(), bytes)) {
        return true;
      }
    }
    return false;
  }

  private void add(Doc d) {
    docs.put(d.settings().version(), d);
    while (docs.size() > KEPT) {
      docs.pollFirstEntry();
    }
    changed = true;
  }

  /**
   * What this node keeps in the store: its newest document (nothing while it knows only its own
   * configuration), or {@code null} when that has not changed since the last call.
   */
  synchronized @Nullable Map<String, byte[]> toKeep() {
    if (!changed) {
      return null;
    }
    changed = false;
    Doc newest = docs.lastEntry().getValue();
    Map<String, byte[]> keep = new TreeMap<>();
    if (newest.settings().version() != 0) {
      keep.put(NAME + newest.settings().version(), newest.bytes());
    }
    if (!limits.isEmpty()) {
      keep.put(LIMIT_NAME + limits.lastKey(), limits.lastEntry().getValue().bytes());
    }
    return keep;
  }

  /**
   * Puts in force the newest document whose instant has come.
   *
   * @return whether the settings in force changed
   */
  synchronized boolean activate(long nowMillis) {
    long second = Math.floorDiv(nowMillis, 1000L);
    Doc d = doc(nowMillis);
    Current was = current;
    if (d.settings() == was.document() && was.holds(second) && limit(d, nowMillis) == was.limit()) {
      return false;
    }
    Current next = phase(d, nowMillis, limit(d, nowMillis));
    current = next;
    if (d.settings() != was.document()) {
      log.info("room '{}': settings version {} in force", base.roomId(), d.settings().version());
    }
    RoomSettings.Event e = next.event();
    if (e != null && e != was.event() || e != null && next.prequeueing() != was.prequeueing()) {
      log.info("room '{}': event '{}' {}", base.roomId(), e.name(), next.prequeueing() ? "pre-queueing" : "started");
    } else if (e == null && was.event() != null) {
      log.info("room '{}': event '{}' ended", base.roomId(), was.event().name());
    }
    return !next.config().equals(was.config());
  }

  /** The settings in force at {@code millis}: what a plan of an epoch ending then uses. */
  synchronized Current at(long millis) {
    Doc d = doc(millis);
    return phase(d, millis, limit(d, millis));
  }

  /** The phase of a document at {@code millis} (see the class comment), under this decision of the limit. */
  private Current phase(Doc d, long millis, @Nullable Limit limit) {
    long second = Math.floorDiv(millis, 1000L);
    RoomSettings s = d.settings();
    long from = Long.MIN_VALUE;
    for (RoomSettings.Event e : s.events()) {
      long opens = e.opens().getEpochSecond();
      long start = e.start().getEpochSecond();
      long end = e.end().getEpochSecond();
      if (second < opens) {
        return phaseOf(d, s, null, false, d.randomFrom(), from, opens, limit);
      }
      if (second < start) {
        RoomSettings during = s.forEvent(e);
        long lottery = e.shuffleAtEventStart() ? opens : Long.MIN_VALUE;
        return phaseOf(d, during, e, true, lottery, opens, start, limit);
      }
      if (second < end) {
        RoomSettings during = s.forEvent(e);
        long line = during.queueingMethod() == RoomSettings.QueueingMethod.RANDOM ? start : Long.MIN_VALUE;
        return phaseOf(d, during, e, false, line, start, end, limit);
      }
      from = end;
    }
    return phaseOf(d, s, null, false, d.randomFrom(), from, Long.MAX_VALUE, limit);
  }

  private Current phaseOf(Doc d, RoomSettings s, RoomSettings.@Nullable Event e, boolean prequeueing,
      long randomOrShuffle, long from, long until, @Nullable Limit limit) {
    boolean random = s.queueingMethod() == RoomSettings.QueueingMethod.RANDOM;
    long line = prequeueing || random ? randomOrShuffle : Long.MIN_VALUE;
    RoomConfig config = s.applyTo(base);
    AdaptiveLimit a = s.adaptiveLimit();
    if (a != null) {
      config = config.withTotalActiveUsers(a.clamp(limit != null ? limit.limit() : d.settings().totalActiveUsers()));
    }
    return new Current(s, config, d, e, prequeueing, line, from, until, a != null ? limit : null);
  }

  /** The newest decision of the limit for document {@code d} in force at {@code millis}, or {@code null}. */
  private @Nullable Limit limit(Doc d, long millis) {
    if (d.settings().adaptiveLimit() == null) {
      return null;
    }
    @Nullable Limit best = null;
    for (Limit l : limits.values()) {
      if (l.settingsVersion() == d.settings().version() && l.activeFrom() <= millis) {
        best = l;
      }
    }
    return best;
  }

  private Doc doc(long millis) {
    Doc best = docs.firstEntry().getValue();
    for (Doc d : docs.values()) {
      if (d.activeFrom() <= millis) {
        best = d;
      }
    }
    return best;
  }

  private @Nullable Doc decode(String name, byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    try {
      long version = Long.parseLong(name.substring(NAME.length()));
      int nl = text.indexOf('\n');
      if (!text.startsWith(MAGIC) || nl < 0) {
        throw new IllegalArgumentException("it is not a settings document of a version this node knows");
      }
      String[] header = text.substring(MAGIC.length(), nl).split(" ");
      if (header.length != 2) {
        throw new IllegalArgumentException("its header is not of this release");
      }
      long activeFrom = Long.parseLong(header[0]);
      long randomFrom = Long.parseLong(header[1]);
      RoomSettings s = RoomSettings.fromJson(text.substring(nl + 1), RoomSettings.of(base)).checkAgainst(base);
      if (s.version() != version) {
        throw new IllegalArgumentException("it holds version " + s.version());
      }
      logged.remove(name);
      return new Doc(s, activeFrom, randomFrom, bytes);
    } catch (IllegalArgumentException e) {
      if (logged.add(name)) {
        log.warn("room '{}': ignoring the settings '{}' in the store, keeping version {}: {}", base.roomId(),
            RoomSettings.printable(name), current.settings().version(), RoomSettings.printable(String.valueOf(e.getMessage())));
      }
      return null;
    }
  }
}
