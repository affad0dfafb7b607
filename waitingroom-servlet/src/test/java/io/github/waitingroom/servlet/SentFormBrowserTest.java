package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.jspecify.annotations.Nullable;
import io.github.waitingroom.testsupport.Chromium;

/**
 * The PetClinic case in a real headless Chromium: a visitor fills in a form, their session runs
 * out and someone else takes the room's only slot, and they send the form. The waiting page says
 * the form was not sent; once capacity frees, the page takes them back to the form by the
 * browser's history, with what they typed still in it, and sending it again creates the owner once.
 * Tagged {@code slow} (-P full): every build runs the server's side of the case over HTTP ({@link
 * SentFormTest}).
 */
@Tag("slow")
class SentFormBrowserTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z"));
  private WaitingRoom room;
  private TestServer server;
  private @Nullable ChromeDriver browser;

  @BeforeEach
  void start() throws Exception {
    Chromium.assumeInstalled();
    RoomConfig config =
        RoomConfig.builder("shop")
            .totalActiveUsers(1)
            .newUsersPerMinute(1)
            .sessionDuration(Duration.ofSeconds(60))
            .sliceWidth(Duration.ofSeconds(10))
            .refreshInterval(Duration.ofSeconds(1))
            .build();
    room = WaitingRoom.builder(config, KEYS).clock(clock).backgroundSync(false).build();
    server = TestServer.start(WaitingRoomFilter.builder(room).build());
  }

  @AfterEach
  void stop() throws Exception {
    ChromeDriver b = browser;
    if (b != null) {
      b.quit();
    }
    // Nothing was started when Chromium is missing (the test is skipped).
    if (server != null) {
      server.close();
      room.close();
    }
  }

  private ChromeDriver chromium(Path profile) {
    ChromeOptions options = Chromium.options(profile, "1024,768");
    ChromeDriver b = Chromium.start(options);
    browser = b;
    return b;
  }

  /** The session of whoever holds the slot runs out, and syncs let the room see it. */
  private void sessionRunsOut() {
    clock.advance(Duration.ofSeconds(90));
    room.sync();
    clock.advance(Duration.ofSeconds(2));
    room.sync();
  }

  @Test
  void aFormSentWhileTheRoomIsFullIsNotLostAndIsSentOnceAfterTheWait(@TempDir Path profile) throws Exception {
    ChromeDriver b = chromium(profile);
    WebDriverWait wait = Chromium.waitFor(b, Duration.ofSeconds(20));

    b.get(server.uri("/store/owners/new").toString());
    assertThat(Chromium.heading(b)).isEqualTo("New owner");
    b.findElement(By.id("name")).sendKeys("Jean Coleman");
    sessionRunsOut();
    assertThat(new Visitor(server).get("/store").body()).contains("Welcome to the shop");

    b.findElement(By.id("add")).click();
    wait.until(d -> Chromium.heading(b).equals("You are in line"));
    assertThat(b.findElement(By.id("wr-form")).getText()).startsWith("The site is busy, so your form was not sent.");
    assertThat(server.owners).isEmpty();

    sessionRunsOut();
    // The page's script goes back, not the test: wait for that page to have loaded in full.
    wait.until(d -> Chromium.heading(b).equals("New owner") && "complete".equals(b.executeScript("return document.readyState")));
    assertThat(b.getCurrentUrl()).isEqualTo(server.uri("/store/owners/new").toString());
    assertThat(b.findElement(By.id("name")).getAttribute("value")).isEqualTo("Jean Coleman");

    b.findElement(By.id("add")).click();
    wait.until(d -> Chromium.heading(b).equals("Owner added"));
    assertThat(server.owners).containsExactly("Jean Coleman");
  }
}
