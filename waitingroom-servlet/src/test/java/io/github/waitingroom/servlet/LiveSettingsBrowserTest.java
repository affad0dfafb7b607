package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Tag;

import io.github.waitingroom.ManualClock;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.PageStyle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.text.DecimalFormatSymbols;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import io.github.waitingroom.testsupport.Chromium;
import io.github.waitingroom.testsupport.Services;

/**
 * The pages of the live settings' states in a real headless Chromium: the paused page of {@code
 * suspended} (an admitted visitor waits on it, it keeps polling, and it goes on to the site by
 * itself once the room resumes), the static "sold out" page of {@code reject} (a waiting page
 * turns into it by itself; it has no script), and the page of {@code queueAll}; each without an
 * axe-core violation; and the pages of a sale: the countdown page while a scheduled event
 * pre-queues (its heading, a countdown that ticks each second, the lottery line; it goes on to the
 * site by itself when the event starts), and the page of a random queue (how many wait, the same
 * chance for each, a typical wait). The room runs on a {@link ManualClock} without background
 * sync: the test puts each change in force itself. Screenshots go to {@code target/live-settings/}
 * (the README's {@code docs/images/sold-out-page.png}, {@code paused-page.png}, {@code
 * countdown-page.png} and {@code random-page.png} are copies).
 */
@Tag("slow")
class LiveSettingsBrowserTest {
  private static final Duration PATIENCE = Duration.ofSeconds(30);
  /** The heading of the application's page at {@code /store} (see {@link TestServer}). */
  private static final String SHOP = "Welcome to the shop";
  @RegisterExtension final RoomFixture fixture = new RoomFixture();
  private final ManualClock clock = fixture.clock;
  private String axeSource = "";

  @BeforeEach
  void start() throws IOException {
    Chromium.assumeInstalled();
    Path axe = WaitingPageAccessibilityBrowserTest.AXE;
    Services.assume(Files.isRegularFile(axe), "the accessibility checks need axe-core at " + axe
        + " (npm install --prefix ~/.cache/waitingroom-npm axe-core@4.14.1, as .ci/run does)");
    axeSource = Files.readString(axe, StandardCharsets.UTF_8);
  }

  /** A room of one active user, polled every second, behind the branded page of the README's screenshots. */
  private TestServer site() throws Exception {
    return fixture.serve(RoomFixture.branded(fixture.room(RoomFixture.polledEverySecond()), PageStyle.BRANDED));
  }

  private WaitingRoom room() {
    return fixture.rooms.get(0);
  }

  /** Publishes a change and syncs until it is in force (at most 40 syncs). */
  private void change(String json) {
    fixture.putInForce(room(), json);
  }

  private ChromeDriver chromium(Path profile) {
    ChromeDriver b = fixture.chromium(Chromium.options(profile, "1000,760", "--hide-scrollbars"));
    b.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
    b.executeCdpCommand("Network.enable", Map.of());
    return b;
  }

  private static String body(ChromeDriver b) {
    return String.valueOf(b.executeScript("return document.body ? document.body.innerText : '';"));
  }

  /** The zero of each digit of {@code text}: one value when all its digits are of one system. */
  private static Set<Integer> zeros(String text) {
    return text.chars().filter(Character::isDigit).map(c -> c - Character.digit(c, 10))
        .boxed().collect(Collectors.toSet());
  }

  private static String countdown(ChromeDriver b) {
    return String.valueOf(b.executeScript("var e = document.getElementById('wr-countdown'); return e ? e.textContent : '';"));
  }

  private static void screenshot(ChromeDriver b, String name) throws IOException {
    Path shot = Path.of("target", "live-settings", name + ".png");
    Files.createDirectories(shot.getParent());
    Files.copy(b.getScreenshotAs(OutputType.FILE).toPath(), shot, StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  void thePausedPageKeepsTheVisitorAndGoesOnByItselfWhenTheRoomResumes(@TempDir Path profile) throws Exception {
    TestServer s = site();
    ChromeDriver b = chromium(profile);
    b.get(s.uri("/store").toString());
    assertThat(Chromium.heading(b)).isEqualTo(SHOP); // admitted on arrival
    change("{\"suspended\": true}");

    b.get(s.uri("/store").toString());
    assertThat(Chromium.heading(b)).isEqualTo("The site is paused for maintenance");
    assertThat(body(b)).doesNotContain(SHOP).contains("unknown");
    assertThat(WaitingPageAccessibilityBrowserTest.axe(b, axeSource)).as("paused page").isEmpty();
    screenshot(b, "paused-page");
    // It keeps polling (every second here) and stays while the room is suspended.
    long before = room().metrics().decisions(io.github.waitingroom.Decision.Outcome.WAIT);
    Chromium.waitFor(b, PATIENCE).until(d -> room().metrics().decisions(io.github.waitingroom.Decision.Outcome.WAIT) >= before + 2);
    assertThat(Chromium.heading(b)).isEqualTo("The site is paused for maintenance");

    change("{\"suspended\": false}");
    Chromium.waitFor(b, PATIENCE).until(d -> Chromium.heading(b).equals(SHOP));
  }

  @Test
  void aWaitingPageTurnsIntoTheStaticSoldOutPage(@TempDir Path profile) throws Exception {
    TestServer s = site();
    assertThat(new Visitor(s).get("/").body()).startsWith("app:"); // someone else holds the only slot
    ChromeDriver b = chromium(profile);
    b.get(s.uri("/store").toString());
    assertThat(Chromium.heading(b)).isEqualTo("You are in line");

    change("{\"queueingMethod\": \"reject\"}");
    Chromium.waitFor(b, PATIENCE).until(d -> Chromium.heading(b).equals("Sold out"));
    assertThat(b.executeScript("return document.scripts.length;")).isEqualTo(0L);
    assertThat(b.executeScript("return document.querySelectorAll('meta[http-equiv]').length;")).isEqualTo(0L);
    assertThat(body(b)).contains("the line is closed").doesNotContain("People ahead");
    assertThat(WaitingPageAccessibilityBrowserTest.axe(b, axeSource)).as("sold-out page").isEmpty();
    b.get(s.uri("/store").toString());
    screenshot(b, "sold-out-page");
    b.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Accept-Language", "de")));
    b.get(s.uri("/store").toString());
    assertThat(Chromium.heading(b)).isEqualTo("Ausverkauft");
    assertThat(WaitingPageAccessibilityBrowserTest.axe(b, axeSource)).as("sold-out page, de").isEmpty();
  }

  @Test
  void underQueueAllTheLineOpensSoon(@TempDir Path profile) throws Exception {
    TestServer s = site();
    change("{\"queueAll\": true}");
    ChromeDriver b = chromium(profile);
    b.get(s.uri("/store").toString());
    assertThat(Chromium.heading(b)).as("nobody goes in, even with the room empty").isEqualTo("The line opens soon");
    assertThat(body(b)).contains("unknown");
    assertThat(WaitingPageAccessibilityBrowserTest.axe(b, axeSource)).as("queueAll page").isEmpty();
    screenshot(b, "queue-all-page");
    // The line opens: the page goes on by itself (the room is empty, so the visitor is let in).
    change("{\"queueAll\": false}");
    // Time moves on as the page polls, so that the room's plans call the line.
    Chromium.waitFor(b, PATIENCE).until(d -> {
      clock.advance(Duration.ofMillis(250));
      room().sync();
      return Chromium.heading(b).equals(SHOP);
    });
  }

  @Test
  void theCountdownPageTicksAndLetsTheVisitorInWhenTheSaleOpens(@TempDir Path profile) throws Exception {
    TestServer s = site();
    Instant now = Instant.ofEpochSecond(room().nowSecond());
    Instant start = now.plusSeconds(45 * 60);
    change("{\"events\": [{\"name\": \"drop\", \"prequeueStart\": \"" + now + "\", \"start\": \"" + start
        + "\", \"end\": \"" + start.plusSeconds(7200) + "\", \"shuffleAtEventStart\": true}]}");
    ChromeDriver b = chromium(profile);
    b.get(s.uri("/store").toString());
    assertThat(Chromium.heading(b)).as("nobody goes in, even with the room empty").isEqualTo("The sale opens in");
    assertThat(body(b)).contains("drawn by lottery").doesNotContain(SHOP, "People ahead");
    String first = countdown(b);
    assertThat(first).matches("4[45]:[0-5][0-9]");
    Chromium.waitFor(b, PATIENCE).until(d -> !countdown(b).equals(first));
    assertThat(WaitingPageAccessibilityBrowserTest.axe(b, axeSource)).as("countdown page").isEmpty();
    screenshot(b, "countdown-page");

    b.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Accept-Language", "de")));
    b.get(s.uri("/store").toString());
    assertThat(Chromium.heading(b)).isEqualTo("Der Verkauf beginnt in");
    assertThat(WaitingPageAccessibilityBrowserTest.axe(b, axeSource)).as("countdown page, de").isEmpty();
    // In Arabic the countdown ticks in the digits of the page's other numbers, those of the server's
    // locale data (Arabic-Indic on Java 17), not the browser's (Chromium writes Latin digits for "ar").
    b.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Accept-Language", "ar")));
    b.get(s.uri("/store").toString());
    String arabic = countdown(b);
    Chromium.waitFor(b, PATIENCE).until(d -> !countdown(b).equals(arabic));
    int zero = DecimalFormatSymbols.getInstance(Locale.forLanguageTag("ar")).getZeroDigit();
    assertThat(zeros(arabic)).as("the digits of %s", arabic).containsExactly(zero);
    assertThat(zeros(countdown(b))).as("the digits of %s", countdown(b)).containsExactly(zero);
    b.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Accept-Language", "en")));
    b.get(s.uri("/store").toString());

    // The sale opens: the room's clock reaches the start; the page polls and goes on by itself.
    while (room().eventPrequeueing()) {
      clock.advance(Duration.ofSeconds(5));
      room().sync();
    }
    Chromium.waitFor(b, PATIENCE).until(d -> {
      clock.advance(Duration.ofMillis(250));
      room().sync();
      return Chromium.heading(b).equals(SHOP);
    });
  }

  @Test
  void aRandomQueueTellsHowManyWaitAndThatEachHasTheSameChance(@TempDir Path profile) throws Exception {
    TestServer s = site();
    change("{\"queueingMethod\": \"random\"}");
    assertThat(new Visitor(s).get("/").body()).startsWith("app:"); // someone else holds the only slot
    List<Visitor> others = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Visitor v = new Visitor(s);
      assertThat(v.get("/store").body()).contains("You are in line");
      others.add(v);
    }
    for (int i = 0; i < 8; i++) {
      clock.advance(Duration.ofMillis(250));
      room().sync();
    }
    ChromeDriver b = chromium(profile);
    b.get(s.uri("/store").toString());
    assertThat(Chromium.heading(b)).isEqualTo("You are in line");
    assertThat(body(b)).contains("waiting; everyone waiting has the same chance whenever a place frees", "Typical wait",
        "drawn at random").doesNotContain("ahead of you");
    assertThat(WaitingPageAccessibilityBrowserTest.axe(b, axeSource)).as("random page").isEmpty();
    for (int i = 0; i < 8; i++) { // the plans count everyone who polls
      clock.advance(Duration.ofMillis(250));
      room().sync();
      for (Visitor v : others) {
        v.getJson("/store?waitingRoomStatus=1");
      }
    }
    b.get(s.uri("/store").toString());
    assertThat(body(b)).containsPattern("[0-9]+ (people are|person is) waiting");
    screenshot(b, "random-page");
    // The method changes back: the page shows the line by itself.
    change("{\"queueingMethod\": \"fifo\"}");
    Chromium.waitFor(b, PATIENCE).until(d -> body(b).contains("ahead of you"));
  }
}
