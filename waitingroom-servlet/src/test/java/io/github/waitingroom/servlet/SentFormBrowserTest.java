package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.WaitingRoom;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
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
  @RegisterExtension final RoomFixture fixture = new RoomFixture("2026-12-01T10:00:00Z");
  private WaitingRoom room;
  private TestServer server;

  @BeforeEach
  void start() throws Exception {
    Chromium.assumeInstalled();
    room = fixture.room(
        RoomFixture.oneSlot(Duration.ofSeconds(60)).sliceWidth(Duration.ofSeconds(10)).refreshInterval(Duration.ofSeconds(1)));
    server = fixture.serve(WaitingRoomFilter.builder(room));
  }

  @Test
  void aFormSentWhileTheRoomIsFullIsNotLostAndIsSentOnceAfterTheWait(@TempDir Path profile) throws Exception {
    ChromeDriver b = fixture.chromium(true, profile);
    WebDriverWait wait = Chromium.waitFor(b, Duration.ofSeconds(20));

    b.get(server.uri("/store/owners/new").toString());
    assertThat(Chromium.heading(b)).isEqualTo("New owner");
    b.findElement(By.id("name")).sendKeys("Jean Coleman");
    fixture.sessionRunsOut(room);
    assertThat(new Visitor(server).get("/store").body()).contains("Welcome to the shop");

    b.findElement(By.id("add")).click();
    wait.until(d -> Chromium.heading(b).equals("You are in line"));
    assertThat(b.findElement(By.id("wr-form")).getText()).startsWith("The site is busy, so your form was not sent.");
    assertThat(server.owners).isEmpty();

    fixture.sessionRunsOut(room);
    // The page's script goes back, not the test: wait for that page to have loaded in full.
    wait.until(d -> Chromium.heading(b).equals("New owner") && "complete".equals(b.executeScript("return document.readyState")));
    assertThat(b.getCurrentUrl()).isEqualTo(server.uri("/store/owners/new").toString());
    assertThat(b.findElement(By.id("name")).getAttribute("value")).isEqualTo("Jean Coleman");

    b.findElement(By.id("add")).click();
    wait.until(d -> Chromium.heading(b).equals("Owner added"));
    assertThat(server.owners).containsExactly("Jean Coleman");
  }
}
