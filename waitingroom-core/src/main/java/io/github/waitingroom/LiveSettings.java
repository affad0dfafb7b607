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
 * <p>In the store a document lives under {@code ~settings.<version>} in the global scope, sealed
 * with the room's keys, as {@code waitingroom-settings 1 <activeFromMillis>\n<JSON>} (see {@link
 * RoomSettings#toJson()}). Every node keeps the highest version it knows there (see {@link
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

  /** Settings in force, and the configuration they make. */
  record Current(RoomSettings settings, RoomConfig config) {}

  /** A document and the instant (store clock, epoch milliseconds) it takes effect. */
  private record Doc(RoomSettings settings, RoomConfig config, long activeFrom, byte[] bytes) {}

  private final RoomConfig base;
  private final TreeMap<Long, Doc> docs = new TreeMap<>();
  private final Set<String> logged = new HashSet<>();
  private volatile Current current;
  private boolean changed = true;

  LiveSettings(RoomConfig base) {
    this.base = base;
    RoomSettings own = RoomSettings.of(base);
    docs.put(0L, new Doc(own, base, Long.MIN_VALUE, new byte[0]));
    this.current = new Current(own, base);
  }

  /** The settings in force on this node. */
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
    byte[] bytes = (MAGIC + activeFrom + "\n" + next.toJson()).getBytes(StandardCharsets.UTF_8);
    add(new Doc(next, next.applyTo(base), activeFrom, bytes));
    log.info("room '{}': settings version {} published, in force from {} (store clock, ms): {}", base.roomId(),
        next.version(), activeFrom, next.toJson());
    return activeFrom;
  }

  /** Takes the settings documents of the store's last answer (others are ignored). */
  synchronized void read(Map<String, byte[]> documents) {
    for (Map.Entry<String, byte[]> e : documents.entrySet()) {
      if (!e.getKey().startsWith(NAME)) {
        continue;
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
    return newest.settings().version() == 0
        ? Map.of()
        : Map.of(NAME + newest.settings().version(), newest.bytes());
  }

  /**
   * Puts in force the newest document whose instant has come.
   *
   * @return whether the settings in force changed
   */
  synchronized boolean activate(long nowMillis) {
    Doc d = at(nowMillis);
    if (d.settings() == current.settings()) {
      return false;
    }
    current = new Current(d.settings(), d.config());
    log.info("room '{}': settings version {} in force", base.roomId(), d.settings().version());
    return true;
  }

  /** The configuration of the newest document in force at {@code millis}: what a plan of an epoch ending then uses. */
  synchronized RoomConfig configAt(long millis) {
    return at(millis).config();
  }

  /** The settings of the newest document in force at {@code millis}. */
  synchronized RoomSettings settingsAt(long millis) {
    return at(millis).settings();
  }

  private Doc at(long millis) {
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
      long activeFrom = Long.parseLong(text.substring(MAGIC.length(), nl));
      RoomSettings s = RoomSettings.fromJson(text.substring(nl + 1), RoomSettings.of(base)).checkAgainst(base);
      if (s.version() != version) {
        throw new IllegalArgumentException("it holds version " + s.version());
      }
      logged.remove(name);
      return new Doc(s, s.applyTo(base), activeFrom, bytes);
    } catch (IllegalArgumentException e) {
      if (logged.add(name)) {
        log.warn("room '{}': ignoring the settings '{}' in the store, keeping version {}: {}", base.roomId(),
            RoomSettings.printable(name), current.settings().version(), RoomSettings.printable(String.valueOf(e.getMessage())));
      }
      return null;
    }
  }
}
