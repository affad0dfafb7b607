package io.github.waitingroom.testsupport;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Rooms of one node on a {@link ManualClock} without background sync, closed after the test (see
 * {@link Opened}): the test moves the clock and syncs the rooms itself. A test registers one (or its
 * module's fixture that extends it) with {@code @RegisterExtension}.
 */
public class ManualRooms extends Opened {
  /** Where the clock starts unless told otherwise: 2026-11-30T10:00:00Z. */
  public static final Instant START = Instant.parse("2026-11-30T10:00:00Z");

  /**
   * The keyset of every room built here: a browser sends its cookies to every port of 127.0.0.1,
   * so that rooms of one id behind several servers of a test open each other's tickets.
   */
  public final KeysetHandle keys = TicketKeys.generate();
  /** The clock of the rooms; the test moves it. */
  public final ManualClock clock;
  /** The rooms built so far, in order. */
  public final List<WaitingRoom> rooms = new ArrayList<>();

  /** Rooms whose clock starts at {@link #START}. */
  public ManualRooms() {
    this(START);
  }

  /** Rooms whose clock starts at {@code start}. */
  public ManualRooms(Instant start) {
    clock = new ManualClock(start);
  }

  /** A room {@code id} of one active user and one new user a minute, with sessions of {@code session}. */
  public static RoomConfig.Builder oneSlot(String id, Duration session) {
    return RoomConfig.builder(id).totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(session);
  }

  /** Builds a room of {@code config} with {@link #keys} on {@link #clock}, without background sync. */
  public final WaitingRoom room(RoomConfig.Builder config) {
    return room(config, b -> {});
  }

  /**
   * Builds a room of {@code config} with {@link #keys} on {@link #clock}, without background sync,
   * and whatever else {@code more} sets on its builder (a coordinator, a node id).
   */
  public final WaitingRoom room(RoomConfig.Builder config, Consumer<WaitingRoom.Builder> more) {
    WaitingRoom.Builder b = WaitingRoom.builder(config.build(), keys).clock(clock).backgroundSync(false);
    more.accept(b);
    WaitingRoom room = opened(b.build());
    rooms.add(room);
    return room;
  }

  /** {@link LiveChanges#putInForce} on {@link #clock}. */
  public final RoomSettings putInForce(WaitingRoom room, String json) {
    return LiveChanges.putInForce(room, clock, json);
  }
}
