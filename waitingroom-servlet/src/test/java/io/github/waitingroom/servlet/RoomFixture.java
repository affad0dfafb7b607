package io.github.waitingroom.servlet;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.PageStyle;
import io.github.waitingroom.testsupport.Chromium;
import io.github.waitingroom.testsupport.ManualRooms;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The set-up the servlet tests share: {@link ManualRooms} (rooms on one manual clock without
 * background sync), each behind a {@link TestServer} (or another server), and a headless Chromium,
 * all closed after each test, the last opened first. A test registers one with {@code
 * @RegisterExtension}; what a test checks stays in the test.
 */
final class RoomFixture extends ManualRooms {
  /** A fixture whose clock starts at {@link ManualRooms#START}. */
  RoomFixture() {}

  /** A fixture whose clock starts at {@code start}. */
  RoomFixture(String start) {
    super(Instant.parse(start));
  }

  /** A room {@code "shop"} of one active user and one new user a minute, with sessions of {@code session}. */
  static RoomConfig.Builder oneSlot(Duration session) {
    return oneSlot("shop", session);
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

  /**
   * The session of whoever holds the slot of {@code room} (sessions of 60 s at most) runs out, and
   * syncs let the room see it: 90 s pass, a sync, 2 s more, a sync.
   */
  void sessionRunsOut(WaitingRoom room) {
    clock.advance(Duration.ofSeconds(90));
    room.sync();
    clock.advance(Duration.ofSeconds(2));
    room.sync();
  }

  /** Starts a {@link TestServer} with the filter {@code filter} builds. */
  TestServer serve(WaitingRoomFilter.Builder filter) throws Exception {
    return opened(TestServer.start(filter.build()));
  }

  /** A headless Chromium of 1024 x 768 with its profile in {@code profile}, without JavaScript unless {@code javascript}. */
  ChromeDriver chromium(boolean javascript, Path profile) {
    ChromeOptions options = Chromium.options(profile, "1024,768");
    if (!javascript) {
      Chromium.withoutJavaScript(options);
    }
    return chromium(options);
  }

  /** Starts a headless Chromium with {@code options}; it quits after the test. */
  ChromeDriver chromium(ChromeOptions options) {
    ChromeDriver b = Chromium.start(options);
    opened(b::quit);
    return b;
  }
}
