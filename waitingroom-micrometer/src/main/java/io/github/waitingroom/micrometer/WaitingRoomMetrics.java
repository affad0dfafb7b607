package io.github.waitingroom.micrometer;

import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomMetrics;
import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.WaitingRoom;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * Meters for one {@link WaitingRoom}, for any Micrometer {@link MeterRegistry}:
 *
 * <pre>{@code
 * new WaitingRoomMetrics(room).bindTo(registry);
 * }</pre>
 *
 * <p>Every meter carries the tags {@value #ROOM_TAG} (the room's {@linkplain
 * io.github.waitingroom.RoomConfig#roomId() id}), {@value #DC_TAG} and {@value #NODE_TAG} (this
 * node's {@linkplain WaitingRoom#dataCenter() data center} and {@linkplain WaitingRoom#nodeId()
 * id}), and any extra tags given to the constructor. Gauges of the room as this node saw it at its
 * last sync:
 *
 * <ul>
 *   <li>{@value #USERS_ACTIVE} (users), tag {@code scope}: {@code room} for the active users of the
 *       whole room, {@code node} for those this node counts itself;
 *   <li>{@value #USERS_WAITING} (users): users waiting in the whole room;
 *   <li>{@value #SLOTS_FREE} (slots): slots the last plan handed out;
 *   <li>{@value #ADMISSIONS_RATE}: room-wide admissions in the minute before the last plan, so a
 *       rate in admissions per minute;
 *   <li>{@value #LIMIT_ACTIVE_USERS} (users) and {@value #LIMIT_NEW_USERS_PER_MINUTE}: the room's
 *       limits in force (its {@linkplain WaitingRoom#settings() live settings}; of active users, an
 *       adaptive limit's last decision where the room has one, {@link RoomStatus#totalActiveUsers()});
 *   <li>{@value #SETTINGS_VERSION}: the version of the settings in force on this node (0: its
 *       configuration), so that a dashboard shows when every node applies a change;
 *   <li>{@value #STORE_FAILING}: 1 while the last sync failed to reach the store, else 0;
 *   <li>{@value #NODES} (nodes): the live nodes of the room in the last plan;
 *   <li>{@value #VIEW_AGE} (seconds): how old the counts of the last plan are;
 *   <li>{@value #EPOCH_LENGTH} (seconds): the length of the room's epochs now, the sync interval
 *       or a multiple of it once a large room stretched them to stay within its store budget.
 * </ul>
 *
 * <p>Counters and timers of what this node did since it started ({@link WaitingRoom#metrics()}):
 *
 * <ul>
 *   <li>{@value #DECISIONS}, tag {@value #OUTCOME_TAG} ({@code pass}, {@code admit}, {@code queue},
 *       {@code wait}, {@code challenge}, {@code reject}): requests decided, and {@code revoke}:
 *       sessions the application ended;
 *   <li>{@value #ARRIVALS}: new arrivals (let in at once or put in line);
 *   <li>{@value #ADMISSIONS}, tag {@value #FROM_TAG} ({@code arrival} or {@code line}): users let in;
 *   <li>{@value #TICKETS_REJECTED}, tag {@value #REASON_TAG} ({@code expired}, {@code foreign},
 *       {@code forged}, {@code too_fast}, {@code revoked}): tickets not taken, whose requests
 *       arrived anew;
 *   <li>{@value #LINE_TIME} (a function timer): the real time in line of the users let in from it,
 *       from arrival to admission;
 *   <li>{@value #WAIT_ESTIMATED} (a function timer): the wait told to newcomers put in line, and
 *       {@value #WAIT_UNKNOWN}: those told it is unknown;
 *   <li>{@value #SYNC} (a function timer): syncs and the time they took, and {@value
 *       #SYNC_FAILURES}: those that failed to reach the store; {@value #STORE_OUTAGES}: how often
 *       the store stopped answering.
 * </ul>
 *
 * <p>Everything is read when the registry is scraped: gauges from {@link WaitingRoom#status()},
 * counters and timers from {@link WaitingRoom#metrics()}, which the room keeps itself with one
 * lock-free increment per event. Nothing of Micrometer runs on the request path. The meters hold
 * the room strongly: they keep reading it for as long as the registry holds them, whether or not
 * the application keeps a reference.
 */
public final class WaitingRoomMetrics implements MeterBinder {
  /** Active users; tag {@value #SCOPE_TAG} is {@value #SCOPE_ROOM} or {@value #SCOPE_NODE}. */
  public static final String USERS_ACTIVE = "waitingroom.users.active";

  /** Users waiting in the whole room. */
  public static final String USERS_WAITING = "waitingroom.users.waiting";

  /** Free slots the last plan handed out. */
  public static final String SLOTS_FREE = "waitingroom.slots.free";

  /** Room-wide admissions in the minute before the last plan (admissions per minute). */
  public static final String ADMISSIONS_RATE = "waitingroom.admissions.rate";

  /** The limit of active users in force. */
  public static final String LIMIT_ACTIVE_USERS = "waitingroom.limit.active.users";

  /** The limit of new users per minute in force. */
  public static final String LIMIT_NEW_USERS_PER_MINUTE = "waitingroom.limit.new.users.per.minute";

  /** 1 while the last sync failed to reach the store, else 0. */
  public static final String STORE_FAILING = "waitingroom.store.failing";

  /** Live nodes of the room in the last plan. */
  public static final String NODES = "waitingroom.nodes";

  /** How old the counts of the last plan are, in seconds. */
  public static final String VIEW_AGE = "waitingroom.view.age";

  /** The version of the room's settings in force on this node. */
  public static final String SETTINGS_VERSION = "waitingroom.settings.version";

  /** The length of the room's epochs now, in seconds. */
  public static final String EPOCH_LENGTH = "waitingroom.epoch.length";

  /** Requests decided, by {@value #OUTCOME_TAG}. */
  public static final String DECISIONS = "waitingroom.decisions";

  /** New arrivals: let in at once or put in line. */
  public static final String ARRIVALS = "waitingroom.arrivals";

  /** Users let in, by {@value #FROM_TAG}. */
  public static final String ADMISSIONS = "waitingroom.admissions";

  /** Tickets not taken, by {@value #REASON_TAG}. */
  public static final String TICKETS_REJECTED = "waitingroom.tickets.rejected";

  /** The real time in line of the users let in from it. */
  public static final String LINE_TIME = "waitingroom.line.time";

  /** The wait told to newcomers put in line. */
  public static final String WAIT_ESTIMATED = "waitingroom.wait.estimated";

  /** Newcomers put in line and told their wait is unknown. */
  public static final String WAIT_UNKNOWN = "waitingroom.wait.unknown";

  /** Syncs and the time they took. */
  public static final String SYNC = "waitingroom.sync";

  /** Syncs that failed to reach the store. */
  public static final String SYNC_FAILURES = "waitingroom.sync.failures";

  /** How often the store stopped answering. */
  public static final String STORE_OUTAGES = "waitingroom.store.outages";

  /** The tag that carries the room's id, on every meter. */
  public static final String ROOM_TAG = "room";

  /** The tag that carries this node's data center, on every meter. */
  public static final String DC_TAG = "dc";

  /** The tag that carries this node's id, on every meter. */
  public static final String NODE_TAG = "node";

  /** The tag of {@value #DECISIONS}: {@code pass}, {@code admit}, {@code queue} or {@code wait}. */
  public static final String OUTCOME_TAG = "outcome";

  /** The tag of {@value #ADMISSIONS}: {@code arrival} or {@code line}. */
  public static final String FROM_TAG = "from";

  /** The tag of {@value #TICKETS_REJECTED}: the {@link RoomMetrics.Rejection} in lower case. */
  public static final String REASON_TAG = "reason";

  /** The tag of {@value #USERS_ACTIVE} that says whose users are counted. */
  public static final String SCOPE_TAG = "scope";

  /** {@value #SCOPE_TAG} of the whole room's active users. */
  public static final String SCOPE_ROOM = "room";

  /** {@value #SCOPE_TAG} of the active users this node counts itself. */
  public static final String SCOPE_NODE = "node";

  private final WaitingRoom room;
  private final Tags tags;

  /**
   * Gauges for a room, tagged with its id.
   *
   * @param room the room to read
   */
  public WaitingRoomMetrics(WaitingRoom room) {
    this(room, Tags.empty());
  }

  /**
   * Gauges for a room, tagged with its id and further tags (an application or region, say).
   *
   * @param room the room to read
   * @param tags added to every meter; must not contain {@value #ROOM_TAG}, {@value #DC_TAG} or
   *     {@value #NODE_TAG}, which the room sets
   */
  public WaitingRoomMetrics(WaitingRoom room, @Nullable Iterable<Tag> tags) {
    this.room = Objects.requireNonNull(room, "room");
    Tags extra = Tags.of(tags == null ? Tags.empty() : tags);
    for (Tag t : extra) {
      if (t.getKey().equals(ROOM_TAG) || t.getKey().equals(DC_TAG) || t.getKey().equals(NODE_TAG)) {
        throw new IllegalArgumentException("the tag '" + t.getKey() + "' is the room's own and cannot be set");
      }
    }
    this.tags = extra.and(ROOM_TAG, room.config().roomId()).and(DC_TAG, room.dataCenter()).and(NODE_TAG, room.nodeId());
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    gauge(registry, USERS_ACTIVE, Tags.of(SCOPE_TAG, SCOPE_ROOM), "users",
        "Active users of the whole room at the last plan", s -> s.activeUsers());
    gauge(registry, USERS_ACTIVE, Tags.of(SCOPE_TAG, SCOPE_NODE), "users",
        "Active users this node counts itself", s -> s.localActiveUsers());
    gauge(registry, USERS_WAITING, Tags.empty(), "users",
        "Users waiting in the whole room at the last plan", s -> s.waitingUsers());
    gauge(registry, SLOTS_FREE, Tags.empty(), "slots",
        "Free slots the last plan handed out", s -> s.freeSlots());
    gauge(registry, ADMISSIONS_RATE, Tags.empty(), null,
        "Room-wide admissions in the minute before the last plan (admissions per minute)",
        s -> s.admissionsPerMinute());
    gauge(registry, STORE_FAILING, Tags.empty(), null,
        "1 while the last sync failed to reach the store, else 0", s -> s.transportFailing() ? 1 : 0);
    gauge(registry, NODES, Tags.empty(), "nodes",
        "Live nodes of the room in the last plan", s -> s.roomNodes());
    gauge(registry, LIMIT_ACTIVE_USERS, Tags.empty(), "users",
        "The room's limit of active users in force (an adaptive limit's last decision, where it has one)",
        RoomStatus::totalActiveUsers);
    gauge(registry, LIMIT_NEW_USERS_PER_MINUTE, Tags.empty(), null,
        "The room's limit of new users per minute in force (under an adaptive limit, at most it or scaled with it)",
        RoomStatus::newUsersPerMinute);
    Gauge.builder(SETTINGS_VERSION, room, r -> r.settings().version())
        .tags(tags)
        .description("The version of the room's settings in force on this node (0: its configuration)")
        .strongReference(true)
        .register(registry);
    gauge(registry, VIEW_AGE, Tags.empty(), "seconds",
        "How old the counts of the last plan are (-1 before the first)",
        s -> s.viewAgeMillis() < 0 ? -1 : s.viewAgeMillis() / 1000.0);
    gauge(registry, EPOCH_LENGTH, Tags.empty(), "seconds",
        "The length of the room's epochs now: the sync interval, or a multiple of it within the store budget",
        s -> s.epochMillis() / 1000.0);

    for (Decision.Outcome o : Decision.Outcome.values()) {
      counter(registry, DECISIONS, Tags.of(OUTCOME_TAG, lower(o)), "Requests decided, by outcome",
          m -> m.decisions(o));
    }
    counter(registry, DECISIONS, Tags.of(OUTCOME_TAG, "revoke"), "Sessions ended by the application",
        RoomMetrics::revoked);
    counter(registry, ARRIVALS, Tags.empty(), "New arrivals, let in at once or put in line",
        RoomMetrics::arrivals);
    counter(registry, ADMISSIONS, Tags.of(FROM_TAG, "arrival"), "Users let in", RoomMetrics::admittedOnArrival);
    counter(registry, ADMISSIONS, Tags.of(FROM_TAG, "line"), "Users let in", RoomMetrics::admittedFromLine);
    for (RoomMetrics.Rejection r : RoomMetrics.Rejection.values()) {
      counter(registry, TICKETS_REJECTED, Tags.of(REASON_TAG, lower(r)),
          "Tickets not taken (their requests arrived anew), by reason", m -> m.rejected(r));
    }
    counter(registry, WAIT_UNKNOWN, Tags.empty(), "Newcomers put in line and told their wait is unknown",
        RoomMetrics::waitUnknown);
    counter(registry, SYNC_FAILURES, Tags.empty(), "Syncs that failed to reach the store",
        RoomMetrics::syncFailures);
    counter(registry, STORE_OUTAGES, Tags.empty(), "How often the store stopped answering",
        RoomMetrics::storeOutages);
    timer(registry, LINE_TIME, "Real time in line of the users let in from it, from arrival to admission",
        m -> m.timeInLine().count(), m -> m.timeInLine().sumSeconds(), TimeUnit.SECONDS);
    timer(registry, WAIT_ESTIMATED, "The wait told to newcomers put in line",
        m -> m.waitShown().count(), m -> m.waitShown().sumSeconds(), TimeUnit.SECONDS);
    timer(registry, SYNC, "Syncs with the store and the time they took",
        RoomMetrics::syncs, RoomMetrics::syncNanos, TimeUnit.NANOSECONDS);
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  private void counter(
      MeterRegistry registry, String name, Tags more, String description, ToLongFunction<RoomMetrics> value) {
    FunctionCounter.builder(name, room, r -> value.applyAsLong(r.metrics()))
        .tags(tags.and(more))
        .description(description)
        // Held weakly (function meters cannot hold strongly); the gauges hold the room.
        .register(registry);
  }

  private void timer(
      MeterRegistry registry,
      String name,
      String description,
      ToLongFunction<RoomMetrics> count,
      ToLongFunction<RoomMetrics> total,
      TimeUnit unit) {
    FunctionTimer.builder(name, room, r -> count.applyAsLong(r.metrics()), r -> total.applyAsLong(r.metrics()), unit)
        .tags(tags)
        .description(description)
        .register(registry);
  }

  private void gauge(
      MeterRegistry registry,
      String name,
      Tags more,
      @Nullable String baseUnit,
      String description,
      ToDoubleFunction<RoomStatus> value) {
    Gauge.Builder<WaitingRoom> b =
        Gauge.builder(name, room, r -> value.applyAsDouble(r.status()))
            .tags(tags.and(more))
            .description(description)
            // Micrometer holds a gauge's object weakly by default; a room only the binder knows
            // would then read NaN after a collection.
            .strongReference(true);
    if (baseUnit != null) {
      b.baseUnit(baseUnit);
    }
    b.register(registry);
  }

  @Override
  public String toString() {
    return "WaitingRoomMetrics" + tags;
  }
}
