package io.github.waitingroom;

import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Epochs;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sync thread's part of an {@link AdaptiveLimit}: every node keeps what the room measured in
 * each settled epoch it plans by ({@link Tally.Origin}, the same sums on every node) since the
 * plans made under the limit in force took over, while the limit holds people back (at most a
 * session's epochs; otherwise the last {@link AdaptiveLimit#DECIDE_EVERY_EPOCHS}; a decision while
 * the room is over its limit goes by the last {@link AdaptiveLimit#DECIDE_EVERY_EPOCHS} of them),
 * and every {@link AdaptiveLimit#DECIDE_EVERY_EPOCHS} epochs the node that decides the epochs' length (see {@link
 * EpochPacer#decides}) applies the control law to them and, if the limit moves, hands the decision
 * to the live settings, which publish it and put it in force on every node at the start of the
 * epoch after next. Every node keeps the same epochs at the same time, so a node that takes over
 * the decisions (the decider left) has the same measurements. Used by {@link Synchronizer} under
 * its lock; logs under its name.
 */
final class LimitController {
  private static final Logger log = LoggerFactory.getLogger(Synchronizer.class);

  private final String roomId;
  private final LiveSettings live;
  private final Coordinator coordinator;
  private final LongSupplier nowMillis;
  /** What the room measured in each settled epoch the next decision goes by, oldest first. */
  private final ArrayDeque<Measured> window = new ArrayDeque<>();
  /** The limit the plans of the epochs in {@link #window} were made under. */
  private int windowLimit = -1;
  /** The latest epoch added to the window. */
  private long noted = Long.MIN_VALUE;
  /** When (room clock, ms) the last raise this node decided takes effect. */
  private long raisedAt = Long.MIN_VALUE / 2;

  LimitController(String roomId, LiveSettings live, Coordinator coordinator, LongSupplier nowMillis) {
    this.roomId = roomId;
    this.live = live;
    this.coordinator = coordinator;
    this.nowMillis = nowMillis;
  }

  /** Adds the settled epoch {@code epoch} to the window, and decides if this node decides and it is time. */
  void note(Coordinator.Settled s, long epoch) {
    if (epoch <= noted) {
      return;
    }
    noted = epoch;
    Epochs epochs = coordinator.epochs();
    // The settings the plans that took over at this epoch were made under (a plan takes over two
    // epochs after the tallies it is made from): this epoch's users came in under their limit.
    LiveSettings.Current under = live.at(epochs.start(epoch - 2));
    if (under.settings().adaptiveLimit() == null) {
      window.clear();
      return;
    }
    if (under.config().totalActiveUsers() != windowLimit) {
      windowLimit = under.config().totalActiveUsers();
      window.clear();
    }
    Tally room = Tally.sum(s.dataCenters());
    window.addLast(new Measured(room.origin(), epochs.length(epoch)));
    long session = Math.max(AdaptiveLimit.DECIDE_EVERY_EPOCHS,
        under.config().sessionDuration().toMillis() / Math.max(1, epochs.length(epoch)));
    while (window.size() > session) {
      window.removeFirst();
    }
    if (Math.floorMod(epoch + 1, AdaptiveLimit.DECIDE_EVERY_EPOCHS) != 0) {
      return;
    }
    // The settings in force now, under which the decision is made and stays (see LiveSettings#decide).
    LiveSettings.Current in = live.current();
    AdaptiveLimit a = in.settings().adaptiveLimit();
    if (a == null) {
      return;
    }
    int limit = in.config().totalActiveUsers();
    // A higher limit lets more in only if it is what keeps people waiting: a plan admits the lesser
    // of what the two limits leave (PlanMaker#headroom), so the limit of active users must leave
    // less than the per-minute limit, or raise it with itself (the settings ask for more new users
    // a minute than the limit, which cuts them to itself, or scale them with it). Fewer admissions
    // in the last minute than the per-minute limit do not tell: its budget frees as admissions age
    // and is used as people poll.
    long byActive = limit - room.activeUsers();
    long byRate = in.config().newUsersPerMinute() - room.recentAdmissions();
    boolean holdsBack = room.waiting() > 0
        && (byActive < byRate || in.settings().newUsersPerMinute() > limit || a.scaleNewUsersPerMinute());
    // Over the limit, the users in use leave while the room waits: the last epochs measured those there are.
    List<Measured> epochsMeasured = List.copyOf(window);
    if (room.activeUsers() > limit) {
      epochsMeasured = epochsMeasured.subList(
          Math.max(0, epochsMeasured.size() - AdaptiveLimit.DECIDE_EVERY_EPOCHS), epochsMeasured.size());
    }
    if (!holdsBack) {
      // The load follows the arrivals, not the limit: the next decision goes by epochs to come.
      window.clear();
    }
    if (!EpochPacer.decides(s)) {
      return;
    }
    long now = epochs.at(nowMillis.getAsLong());
    if (now > epoch + 2) {
      return; // too late for every node to read it in time (a sync thread that stalled)
    }
    Tally.Origin measured = Tally.Origin.NONE;
    long millis = 0;
    for (Measured m : epochsMeasured) {
      measured = measured.plus(m.origin());
      millis += m.millis();
    }
    boolean raisedLately = nowMillis.getAsLong() - raisedAt < in.config().refreshSeconds() * 1000;
    AdaptiveLimit.Decision d = a.next(limit, room.activeUsers(), holdsBack, raisedLately, measured,
        AdaptiveLimit.standardError(epochsMeasured.stream().map(Measured::origin).toList()), millis / 1000.0);
    if (d.limit() != limit) {
      live.decide(d.limit(), d.reason(), epochs.start(now + 2));
      if (d.limit() > limit) {
        raisedAt = epochs.start(now + 2);
      }
      log.info("room '{}': adaptive limit {} -> {} from epoch {} ({})", roomId, limit, d.limit(), now + 2, d.reason());
    } else {
      log.debug("room '{}': adaptive limit {} {}", roomId, limit, d.reason());
    }
  }

  /** What the room measured in one settled epoch, and how long the epoch lasted. */
  private record Measured(Tally.Origin origin, long millis) {}
}
