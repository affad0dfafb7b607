package io.github.waitingroom.coordinator;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The documents of a room's global scope as one node sees them (see {@link StoreCoordinator}):
 * those it keeps in the store for the room (settings), the eras of its epochs, and the opened
 * documents of the last answer, from which it learns the eras other nodes scheduled. Written by
 * the sync thread; {@link #epochs()} is read by any. Logs under {@link StoreCoordinator}'s name.
 */
final class Documents {
  private static final Logger log = LoggerFactory.getLogger(StoreCoordinator.class);

  private final String roomId;
  private final ReportSeal seal;
  private final Duration retention;
  /** How time is cut into epochs; written by the sync thread, read by any. */
  private volatile Epochs epochs;
  /** The documents this node keeps in the store for the room (see {@link #keep}), by name. */
  private final Map<String, byte[]> kept = new TreeMap<>();
  /** When this node last published each kept document, by store epoch. */
  private final Map<String, Long> keptAt = new HashMap<>();
  /** The documents of the last answer, opened, by name. */
  private Map<String, byte[]> opened = Map.of();
  /** The documents of the latest eras this node knows (see {@link #schedule}), by name. */
  private final TreeMap<String, byte[]> eraDocuments = new TreeMap<>();
  private final Set<String> loggedEras = new HashSet<>();
  private final Set<String> loggedUnsealed = new HashSet<>();

  Documents(String roomId, ReportSeal seal, Duration retention, Duration epoch) {
    this.roomId = roomId;
    this.seal = seal;
    this.retention = retention;
    this.epochs = Epochs.of(epoch);
  }

  /** How time is cut into epochs, as this node last learned it. */
  Epochs epochs() {
    return epochs;
  }

  /** The documents of the last answer, opened: only those sealed with the room's keys under their name. */
  Map<String, byte[]> opened() {
    return opened;
  }

  /**
   * Keeps these documents in the store from the next exchange on, instead of those kept before
   * (see {@link StoreCoordinator#keep}).
   *
   * @throws IllegalArgumentException if a name does not start with {@link Coordinator#DOCUMENT} or
   *     is over 80 characters long; nothing is kept then
   */
  void keep(Map<String, byte[]> documents) {
    for (String name : documents.keySet()) {
      if (!name.startsWith(Coordinator.DOCUMENT) || name.length() > 80) {
        throw new IllegalArgumentException("a document's name must start with " + Coordinator.DOCUMENT + ": " + name);
      }
    }
    kept.clear();
    kept.putAll(documents);
    keptAt.keySet().removeIf(name -> !kept.containsKey(name) && !eraDocuments.containsKey(name));
  }

  /**
   * Begins a new era here at once (see {@link StoreCoordinator#schedule}).
   *
   * @throws IllegalArgumentException if it does not fit the schedule (see {@link Epochs#with})
   */
  void schedule(Epochs.Era era) {
    Epochs next = epochs.with(era);
    if (next == null) {
      throw new IllegalArgumentException("an era that does not fit " + epochs + ": " + era);
    }
    adopt(next, era);
  }

  /** Opens the documents of an answer's global scope and takes the eras among them. */
  void read(@Nullable Map<String, byte[]> global) {
    opened = readDocuments(global);
    readEras();
  }

  private void adopt(Epochs next, Epochs.Era era) {
    epochs = next;
    eraDocuments.put(Epochs.documentName(era), Epochs.encode(era));
    while (eraDocuments.size() > Epochs.ERAS_KEPT - 1) {
      keptAt.remove(eraDocuments.pollFirstEntry().getKey());
    }
  }

  /**
   * Takes the eras of the last answer's documents that come after the latest this node knows. A
   * node that has known no era yet (it is joining) takes the earliest as it is: its numbering of
   * the epochs before that era does not matter, it tallied none of them.
   */
  private void readEras() {
    TreeMap<Long, Epochs.Era> eras = new TreeMap<>();
    opened.forEach(
        (name, bytes) -> {
          if (name.startsWith(Epochs.NAME)) {
            Epochs.Era era = Epochs.decode(bytes);
            if (era != null && Epochs.documentName(era).equals(name)) {
              eras.put(era.first(), era);
            } else if (loggedEras.add(name)) {
              log.warn("room '{}': ignoring an epochs document '{}' that this release does not read", roomId,
                  AnswerReader.printable(name));
            }
          }
        });
    for (Epochs.Era era : eras.values()) {
      if (era.first() <= epochs.latest().first()) {
        continue;
      }
      Epochs next = epochs.with(era);
      if (next == null && eraDocuments.isEmpty() && epochs.latest().first() == 0) {
        next = epochs.anchored(era);
      }
      if (next != null) {
        adopt(next, era);
        log.info("room '{}': epochs of {} ms from epoch {} on", roomId, era.lengthMillis(), era.first());
      } else if (loggedEras.add(Epochs.documentName(era))) {
        log.warn("room '{}': ignoring an era that does not fit this node's epochs {}: {}", roomId, epochs, era);
      }
    }
  }

  /**
   * Adds to {@code out} the documents this node keeps (see {@link #keep}) and the eras it knows,
   * whenever the store's copy differs or is half the retention old.
   */
  void publish(long epoch, List<Transport.Publication> out) {
    Map<String, byte[]> all = new TreeMap<>(kept);
    all.putAll(eraDocuments);
    for (Map.Entry<String, byte[]> e : all.entrySet()) {
      byte[] there = opened.get(e.getKey());
      Long at = keptAt.get(e.getKey());
      if (at == null || there == null || !Arrays.equals(there, e.getValue())
          || epochs.start(epoch) - epochs.start(at) >= retention.toMillis() / 2) {
        out.add(new Transport.Publication(Coordinator.GLOBAL_SCOPE, e.getKey(), seal.seal(Coordinator.GLOBAL_SCOPE, e.getKey(), e.getValue())));
        keptAt.put(e.getKey(), epoch);
      }
    }
  }

  private Map<String, byte[]> readDocuments(@Nullable Map<String, byte[]> values) {
    if (values == null) {
      return Map.of();
    }
    Map<String, byte[]> out = new TreeMap<>();
    values.forEach(
        (who, sealed) -> {
          if (who.startsWith(Coordinator.DOCUMENT)) {
            byte[] bytes = seal.open(Coordinator.GLOBAL_SCOPE, who, sealed);
            if (bytes != null) {
              out.put(who, bytes);
            } else if (loggedUnsealed.add(Coordinator.GLOBAL_SCOPE + "/" + who)) {
              log.warn("room '{}': ignoring a document '{}' in the store that is not sealed with the room's keys",
                  roomId, AnswerReader.printable(who));
            }
          }
        });
    return out;
  }
}
