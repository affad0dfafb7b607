package io.github.waitingroom.micrometer;

import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.WaitingRoom;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * Gauges for one {@link WaitingRoom}, for any Micrometer {@link MeterRegistry}:
 *
 * <pre>{@code
 * new WaitingRoomMetrics(room).bindTo(registry);
 * }</pre>
 *
 * <p>Every meter carries the tag {@code room} (the room's {@linkplain
 * io.github.waitingroom.RoomConfig#roomId() id}) and any extra tags given to the constructor:
 *
 * <ul>
 *   <li>{@value #USERS_ACTIVE} (users), tag {@code scope}: {@code room} for the active users of the
 *       whole room, {@code node} for those this node counts itself;
 *   <li>{@value #USERS_WAITING} (users): users waiting in the whole room;
 *   <li>{@value #SLOTS_FREE} (slots): slots the last plan handed out;
 *   <li>{@value #ADMISSIONS_RATE}: room-wide admissions in the minute before the last plan, so a
 *       rate in admissions per minute;
 *   <li>{@value #LIMIT_ACTIVE_USERS} (users) and {@value #LIMIT_NEW_USERS_PER_MINUTE}: the room's
 *       configured limits;
 *   <li>{@value #STORE_FAILING}: 1 while the last sync failed to reach the store, else 0;
 *   <li>{@value #NODES} (nodes): the live nodes of the room in the last plan.
 * </ul>
 *
 * <p>All are gauges read from {@link WaitingRoom#status()} when the registry is scraped; nothing is
 * recorded on the request path. The values are the room as this node saw it at its last sync, so
 * they move once per sync, not per request. The gauges hold the room strongly: they keep reading it
 * for as long as the registry holds them, whether or not the application keeps a reference.
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

  /** The configured limit of active users. */
  public static final String LIMIT_ACTIVE_USERS = "waitingroom.limit.active.users";

  /** The configured limit of new users per minute. */
  public static final String LIMIT_NEW_USERS_PER_MINUTE = "waitingroom.limit.new.users.per.minute";

  /** 1 while the last sync failed to reach the store, else 0. */
  public static final String STORE_FAILING = "waitingroom.store.failing";

  /** Live nodes of the room in the last plan. */
  public static final String NODES = "waitingroom.nodes";

  /** The tag that carries the room's id, on every meter. */
  public static final String ROOM_TAG = "room";

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
   * @param tags added to every meter; must not contain {@value #ROOM_TAG}, which is the room's id
   */
  public WaitingRoomMetrics(WaitingRoom room, @Nullable Iterable<Tag> tags) {
    this.room = Objects.requireNonNull(room, "room");
    Tags extra = Tags.of(tags == null ? Tags.empty() : tags);
    for (Tag t : extra) {
      if (t.getKey().equals(ROOM_TAG)) {
        throw new IllegalArgumentException("the tag '" + ROOM_TAG + "' is the room's id and cannot be set");
      }
    }
    this.tags = extra.and(ROOM_TAG, room.config().roomId());
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
    Gauge.builder(LIMIT_ACTIVE_USERS, room, r -> r.config().totalActiveUsers())
        .tags(tags)
        .baseUnit("users")
        .description("The room's configured limit of active users")
        .strongReference(true)
        .register(registry);
    Gauge.builder(LIMIT_NEW_USERS_PER_MINUTE, room, r -> r.config().newUsersPerMinute())
        .tags(tags)
        .description("The room's configured limit of new users per minute")
        .strongReference(true)
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
