package io.github.waitingroom.servlet;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.testsupport.Opened;
import io.github.waitingroom.http.PageStyle;
import io.github.waitingroom.testsupport.Chromium;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The set-up the servlet tests share: rooms on one {@link ManualClock} without background sync,
 * each behind a {@link TestServer} (or another server), and a headless Chromium, all closed after
 * each test, the last opened first. A test registers one with {@code @RegisterExtension}; what a
 * test checks stays in the test.
 */
final class RoomFixture extends Opened {
  /** The keyset of every room the fixture builds. */
  static final KeysetHandle KEYS = TicketKeys.generate();

  /** The clock of the rooms; the test moves it. */
  final ManualClock clock;
  /** The rooms the fixture built, in order. */
  final List<WaitingRoom> rooms = new ArrayList<>();

  /** A fixture whose clock starts at 2026-11-30T10:00:00Z. */
  RoomFixture() {
    this("2026-11-30T10:00:00Z");
  }

  /** A fixture whose clock starts at {@code start}. */
  RoomFixture(String start) {
    clock = new ManualClock(Instant.parse(start));
  }

  /** A room {@code "shop"} of one active user and one new user a minute, with sessions of {@code session}. */
  static RoomConfig.Builder oneSlot(Duration session) {
    return RoomConfig.builder("shop").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(session);
  }

  /** {@link #oneSlot} with sessions of 60 s, polled every second, places kept ten minutes: the browser tests' room. */
  static RoomConfig.Builder polledEverySecond() {
    return oneSlot(Duration.ofSeconds(60)).refreshInterval(Duration.ofSeconds(1)).waitingTimeout(Duration.ofMinutes(10));
  }

  /** The branded page of the README's screenshots, with {@code /static/} passing the room. */
  static WaitingRoomFilter.Builder branded(WaitingRoom room, PageStyle style) {
    return WaitingRoomFilter.builder(room)
        .ignorePaths("/static/")
        .pageStyle(style)
        .brandName("Ticket Shop")
        .brandColor("#0a7d4f")
        .logoUrl("/static/logo.svg");
  }

  /** Builds a room of {@code config} on the fixture's clock, without background sync. */
  WaitingRoom room(RoomConfig.Builder config) {
    WaitingRoom r = opened(WaitingRoom.builder(config.build(), KEYS).clock(clock).backgroundSync(false).build());
    rooms.add(r);
    return r;
  }

  /** Starts a {@link TestServer} with the filter {@code filter} builds. */
  TestServer serve(WaitingRoomFilter.Builder filter) throws Exception {
    return opened(TestServer.start(filter.build()));
  }

  /** A room of {@code config} behind a {@link TestServer} whose filter {@code filter} makes from the room's builder. */
  TestServer serve(RoomConfig.Builder config, UnaryOperator<WaitingRoomFilter.Builder> filter) throws Exception {
    return serve(filter.apply(WaitingRoomFilter.builder(room(config))));
  }

  /** Starts a headless Chromium with {@code options}; it quits after the test. */
  ChromeDriver chromium(ChromeOptions options) {
    ChromeDriver b = Chromium.start(options);
    opened(b::quit);
    return b;
  }
}
