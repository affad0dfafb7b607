package io.github.waitingroom.coordinator;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which values of publishers a node remembers left the store before their time: deleted, or
 * overwritten with values that do not open, by someone who can write to the store but lacks the
 * room's keys. While any is away, {@link StoreCoordinator} settles no epoch (see {@link #note}).
 * Used by the sync thread; logs under {@link StoreCoordinator}'s name.
 */
final class VanishWatch {
  private static final Logger log = LoggerFactory.getLogger(StoreCoordinator.class);

  private final String roomId;
  private final String publisher;
  private final Duration retention;
  /**
   * When (store time) each remembered publisher's value was last in an answer, opening, and not
   * put there by this node in that same exchange; by scope and name.
   */
  private final Map<String, Long> lastPresent = new HashMap<>();
  /** The publishers whose values left the store before their time, by scope and name. */
  private final Set<String> vanished = new TreeSet<>();
  /** Whether the values in {@link #vanished} have been logged since it was last empty. */
  private boolean loggedVanished;
  /** The publications of the exchange being read, by scope and name. */
  private Set<String> publishedNow = Set.of();
  /** The store's time of the answer being read. */
  private long answerMillis;

  /** @param publisher this node, whose own values never count as vanished */
  VanishWatch(String roomId, String publisher, Duration retention) {
    this.roomId = roomId;
    this.publisher = publisher;
    this.retention = retention;
  }

  /** Begins reading the answer, at the store's time {@code storeMillis}, to an exchange that published {@code out}. */
  void answer(long storeMillis, List<Transport.Publication> out) {
    publishedNow = names(out);
    answerMillis = storeMillis;
  }

  /** Whether the exchange being read published a value under this scope and name. */
  boolean publishedNow(String scope, String name) {
    return publishedNow.contains(scope + "/" + name);
  }

  /** Notes that the answer being read holds a value that opens under this scope and name. */
  void present(String scope, String name) {
    if (!publishedNow(scope, name) && answerMillis != 0) {
      lastPresent.put(scope + "/" + name, answerMillis);
    }
  }

  /** Whether the value of this publisher left the store before its time and is not back. */
  boolean away(String scope, String name) {
    return vanished.contains(scope + "/" + name);
  }

  /** Whether any value is away (see {@link #away}). */
  boolean any() {
    return !vanished.isEmpty();
  }

  /** Forgets when the publishers that are no longer {@code remembered} (by scope and name) were last present. */
  void forget(BiPredicate<String, String> remembered) {
    lastPresent.keySet().removeIf(key -> {
      int slash = key.indexOf('/');
      return !remembered.test(key.substring(0, slash), key.substring(slash + 1));
    });
  }

  /**
   * How long before its report's retention runs out a value may leave the store without counting
   * as vanished: the store expires a dead node's value about when every node forgets its report
   * (the retention after its last epoch), give or take an epoch of clocks and syncs.
   */
  static final int VANISH_MARGIN_EPOCHS = 4;

  /**
   * Notes the remembered publishers of {@code scope} (but {@code self}) whose values left the
   * store before their time: missing from the answer, or there but not opening with the room's
   * keys, while the retention of their latest report has still more than {@value
   * #VANISH_MARGIN_EPOCHS} epochs to run. A dead node's value stays in the store (silent) until
   * about then, and a store that loses everything (a flush, a fail-over) has every value back
   * within an exchange, put back by its publisher or by any node that remembers it (see {@link
   * StoreCoordinator}); a value that stays away is being deleted or overwritten by someone without the
   * room's keys. Such a publisher is not forgotten, and no epoch is settled until its value is
   * back.
   */
  void note(String scope, Map<String, Report> remembered, String self, Epochs epochs) {
    for (Report r : remembered.values()) {
      String key = scope + "/" + r.publisher();
      if (r.publisher().equals(self) || r.publisher().equals(publisher)) {
        continue;
      }
      Long seen = lastPresent.get(key);
      if (seen != null && seen == answerMillis) {
        vanished.remove(key);
        continue;
      }
      long due = epochs.start(r.latestEpoch() + 1) + retention.toMillis()
          - VANISH_MARGIN_EPOCHS * epochs.length(r.latestEpoch());
      if (seen != null && seen < due) {
        vanished.add(key);
      }
    }
  }

  private static Set<String> names(List<Transport.Publication> out) {
    Set<String> names = new HashSet<>();
    for (Transport.Publication p : out) {
      names.add(p.scope() + "/" + p.publisher());
    }
    return names;
  }

  /**
   * Logs, once until they are all back, the values of publishers this node knew that left the
   * store before their time (see {@link #note}): while there are any, no epoch is settled
   * (see {@link StoreCoordinator#settled}), as with a report that does not decode, so the nodes plan nothing new
   * and keep their grants whatever their failure policy.
   */
  void log() {
    if (vanished.isEmpty()) {
      loggedVanished = false;
    } else if (!loggedVanished) {
      loggedVanished = true;
      log.error("room '{}': the values of {} left the store before their time (deleted, or overwritten with values"
              + " that do not open): someone without the room's keys writes to it? No plan is made while they are away",
          roomId, AnswerReader.printable(String.join(", ", vanished)));
    }
  }
}
