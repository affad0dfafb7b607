package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Tag;

import io.github.waitingroom.ManualClock;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.PageStyle;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import io.github.waitingroom.testsupport.Chromium;

/**
 * Every shipped language of both built-in pages in a real headless Chromium, chosen by the
 * browser's {@code Accept-Language}: the page is in that language (its {@code lang}, and {@code
 * dir="rtl"} for Arabic and Hebrew), shows every text of the page from that language's bundle,
 * shows no English (but for words the language shares), no raw key, placeholder or Mustache tag;
 * and after the page has polled the JSON status, the texts it put in are still in that language.
 *
 * <p>Screenshots of each page are kept in {@code target/waiting-pages/}; those in the README
 * ({@code docs/images/waiting-page-*.png}) are copies of some.
 */
@Tag("slow")
class WaitingPageLanguagesBrowserTest {
  private static final List<String> LANGUAGES =
      List.of("en", "de", "fr", "es", "it", "pt", "nl", "pl", "ja", "zh", "ar", "he");
  /** The texts each built-in page shows as they are (the others hold numbers). */
  private static final List<String> SHOWN =
      List.of("title", "heading", "intro", "keepOpen", "waitLabel", "rangeLabel", "waitUnknown");
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{[A-Za-z.]+}");
  private static final Pattern ARG = Pattern.compile("\\{[a-z]+}");
  @RegisterExtension final RoomFixture fixture = new RoomFixture();
  private final ManualClock clock = fixture.clock;

  @BeforeEach
  void start() {
    Chromium.assumeInstalled();
  }

  /** A full room (someone else holds its only slot) behind a filter with the given page. */
  private TestServer fullRoom(PageStyle style) throws Exception {
    TestServer s = room(style);
    assertThat(new Visitor(s).get("/").body()).startsWith("app:");
    return s;
  }

  /**
   * Lets 25 visitors into each room, one at a time, who send nothing more, until every one of their
   * sessions has ended: a room learns from its users how long users stay, and tells a wait that
   * needs someone to leave only once 25 have (see the core's {@code Turnover}).
   */
  private void turnOver(WaitingRoom... rooms) {
    for (int visitor = 0; visitor < 25; visitor++) {
      for (WaitingRoom r : rooms) {
        assertThat(r.decide(null).outcome()).as("visitor %d", visitor).isEqualTo(io.github.waitingroom.Decision.Outcome.ADMIT);
      }
      // The session (60 s) and the minute's one admission pass; the room syncs four times a second.
      for (int quarter = 0; quarter < 4 * 62; quarter++) {
        clock.advance(Duration.ofMillis(250));
        for (WaitingRoom r : rooms) {
          r.sync();
        }
      }
    }
  }

  private TestServer room(PageStyle style) throws Exception {
    return fixture.serve(RoomFixture.branded(fixture.room(RoomFixture.polledEverySecond()), style));
  }

  private ChromeDriver chromium(Path profile) {
    ChromeOptions options = Chromium.options(profile, "1000,760", "--hide-scrollbars");
    ChromeDriver b = fixture.chromium(options);
    b.executeCdpCommand("Network.enable", Map.of());
    return b;
  }

  /** What the browser sends as Accept-Language from now on, the page's polls included. */
  private static void acceptLanguage(ChromeDriver b, String header) {
    b.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Accept-Language", header)));
  }

  private static Properties bundle(String tag) throws IOException {
    Properties p = new Properties();
    try (InputStream in =
        WaitingPageLanguagesBrowserTest.class.getResourceAsStream(
            "/io/github/waitingroom/http/i18n/messages_" + tag + ".properties")) {
      p.load(new InputStreamReader(Objects.requireNonNull(in, tag), StandardCharsets.UTF_8));
    }
    return p;
  }

  private static String visibleText(ChromeDriver b) {
    return b.getTitle() + "\n" + b.executeScript("return document.body.innerText;");
  }

  /** English passages (the English texts cut at their arguments) that a page in {@code tag} must not show. */
  private static List<String> english(Properties en, Properties own) {
    List<String> passages = new ArrayList<>();
    for (String key : en.stringPropertyNames()) {
      for (String part : ARG.split(en.getProperty(key))) {
        String p = part.strip();
        if (p.codePoints().filter(Character::isLetter).count() < 3) {
          continue;
        }
        // A passage the language has itself ("minutes" in French) is not English there.
        if (own.values().stream().anyMatch(v -> v.toString().contains(p))) {
          continue;
        }
        passages.add(p);
      }
    }
    return passages;
  }

  private static void checkLanguage(ChromeDriver b, String tag, Properties own, Properties en) {
    String html = b.findElement(By.tagName("html")).getAttribute("lang");
    assertThat(html).as("lang").isEqualTo(tag);
    String dir = b.findElement(By.tagName("html")).getAttribute("dir");
    assertThat(dir).as(tag + ": dir").isEqualTo(tag.equals("ar") || tag.equals("he") ? "rtl" : "ltr");
    assertThat(b.executeScript("return getComputedStyle(document.body).direction;")).as(tag + ": layout").isEqualTo(dir);
    String text = visibleText(b);
    for (String key : SHOWN) {
      assertThat(text).as(tag + ": " + key).contains(own.getProperty(key));
    }
    assertThat(text).as(tag + ": raw tags or arguments").doesNotContain("{{").doesNotContain("}}");
    assertThat(PLACEHOLDER.matcher(text).find()).as(tag + ": an unfilled argument in " + text).isFalse();
    for (String key : en.stringPropertyNames()) {
      assertThat(text).as(tag + ": raw key").doesNotContain(key);
    }
    if (!tag.equals("en")) {
      for (String passage : english(en, own)) {
        assertThat(text).as(tag + ": English left on the page").doesNotContain(passage);
      }
    }
  }

  private static void screenshot(ChromeDriver b, String name) throws IOException {
    Path shot = Path.of("target", "waiting-pages", name + ".png");
    Files.createDirectories(shot.getParent());
    Files.copy(b.getScreenshotAs(OutputType.FILE).toPath(), shot, StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  void thePlainPageInEveryLanguageAlsoAfterAPoll(@TempDir Path profile) throws Exception {
    TestServer s = fullRoom(PageStyle.PLAIN);
    ChromeDriver b = chromium(profile);
    Properties en = bundle("en");
    for (String tag : LANGUAGES) {
      Properties own = bundle(tag);
      acceptLanguage(b, tag + "-XX, " + tag + ";q=0.9, en;q=0.1");
      b.get(s.uri("/store").toString());
      checkLanguage(b, tag, own, en);
      assertThat(b.findElement(By.id("wr-wait")).getText()).isEqualTo(own.getProperty("waitUnknown"));
      screenshot(b, "plain-" + tag);
      // The page polls the JSON status (every second here) and puts its texts into the page; mark
      // the figure first, to see it replaced by the poll's text.
      b.executeScript("document.getElementById('wr-wait').textContent = 'x';");
      WebDriverWait wait = new WebDriverWait(b, Duration.ofSeconds(20));
      wait.ignoring(StaleElementReferenceException.class);
      wait.until(d -> !b.findElement(By.id("wr-wait")).getText().equals("x"));
      assertThat(b.findElement(By.id("wr-wait")).getText()).as(tag + " after a poll").isEqualTo(own.getProperty("waitUnknown"));
      checkLanguage(b, tag, own, en);
    }
  }

  @Test
  void theBrandedPageInEveryLanguage(@TempDir Path profile) throws Exception {
    TestServer s = fullRoom(PageStyle.BRANDED);
    ChromeDriver b = chromium(profile);
    Properties en = bundle("en");
    for (String tag : LANGUAGES) {
      Properties own = bundle(tag);
      acceptLanguage(b, tag);
      b.get(s.uri("/store").toString());
      checkLanguage(b, tag, own, en);
      // The logo loaded (same origin, allowed by the page's Content-Security-Policy).
      assertThat(b.executeScript("var i = document.querySelector('header img'); return i.complete && i.naturalWidth;"))
          .isEqualTo(180L);
      screenshot(b, "branded-" + tag);
    }
  }

  /**
   * The README's screenshots: a line with a known wait (someone has been let in from the line, so
   * the room knows its pace), on a desktop and a phone.
   */
  @Test
  void screenshotsOfALineWithAKnownWait(@TempDir Path profile) throws Exception {
    TestServer s = room(PageStyle.PLAIN);
    TestServer branded = room(PageStyle.BRANDED);
    WaitingRoom plainRoom = fixture.rooms.get(0);
    WaitingRoom brandedRoom = fixture.rooms.get(1);
    turnOver(plainRoom, brandedRoom);
    assertThat(new Visitor(s).get("/").body()).startsWith("app:");
    assertThat(new Visitor(branded).get("/").body()).startsWith("app:");
    List<Visitor> line = new ArrayList<>();
    List<Visitor> brandedLine = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Visitor v = new Visitor(s);
      v.get("/");
      line.add(v);
      Visitor w = new Visitor(branded);
      w.get("/");
      brandedLine.add(w);
    }
    // The first session ends; the first in line is let in.
    clock.advance(Duration.ofSeconds(80));
    plainRoom.sync();
    brandedRoom.sync();
    assertThat(line.get(0).get("/").body()).startsWith("app:");
    assertThat(brandedLine.get(0).get("/").body()).startsWith("app:");
    // The others keep polling, as their pages do, and keep their places.
    for (int second = 0; second < 3; second++) {
      clock.advance(Duration.ofSeconds(1));
      for (int i = 1; i < line.size(); i++) {
        line.get(i).get("/");
        brandedLine.get(i).get("/");
      }
      plainRoom.sync();
      brandedRoom.sync();
    }
    ChromeDriver b = chromium(profile);
    for (String tag : List.of("en", "de", "ar", "ja")) {
      acceptLanguage(b, tag);
      b.get(s.uri("/store").toString());
      screenshot(b, "known-plain-" + tag);
      b.get(branded.uri("/store").toString());
      screenshot(b, "known-branded-" + tag);
    }
    b.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
    acceptLanguage(b, "en");
    b.get(branded.uri("/store").toString());
    screenshot(b, "known-branded-phone-en");
    assertThat(b.findElement(By.id("wr-wait")).getText()).as("the wait is known").matches("about .*minutes?");
  }
}
