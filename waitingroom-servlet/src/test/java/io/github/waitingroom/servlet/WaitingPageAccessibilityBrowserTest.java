package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import org.junit.jupiter.api.Tag;

import io.github.waitingroom.http.PageStyle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import io.github.waitingroom.testsupport.Chromium;
import io.github.waitingroom.testsupport.Services;

/**
 * The built-in waiting pages against WCAG 2.2 AA in a real headless Chromium: axe-core (the npm
 * package, read from disk: {@code .ci/run} installs it, see {@link #AXE}) finds no violation in
 * any language, light or dark; the page reflows at 320 px and at 200 % zoom without scrolling
 * sideways; it stops its animation for reduced motion; and the screen reader's live region does
 * not change on every poll.
 */
@Tag("slow")
class WaitingPageAccessibilityBrowserTest {
  /** axe-core's browser build, from {@code npm install --prefix ~/.cache/waitingroom-npm axe-core@4.14.1}. */
  static final Path AXE =
      Path.of(System.getProperty("waitingroom.axe",
          System.getProperty("user.home") + "/.cache/waitingroom-npm/node_modules/axe-core/axe.min.js"));
  private static final List<String> LANGUAGES =
      List.of("en", "de", "fr", "es", "it", "pt", "nl", "pl", "ja", "zh", "ar", "he");
  @RegisterExtension final RoomFixture fixture = new RoomFixture();

  @BeforeEach
  void start() {
    Chromium.assumeInstalled();
    Services.assume(
        Files.isRegularFile(AXE),
        "the accessibility test needs axe-core at " + AXE
            + " (npm install --prefix ~/.cache/waitingroom-npm axe-core@4.14.1, as .ci/run does)");
  }

  private TestServer fullRoom(PageStyle style) throws Exception {
    return fullRoom(style, false);
  }

  /**
   * A full room; with {@code challenge}, newcomers get the challenge page of a human check (whose
   * widget script cannot load here: the page as a visitor sees it before the widget appears, with
   * no worker running during the test) and a penalty longer than the test.
   */
  private TestServer fullRoom(PageStyle style, boolean challenge) throws Exception {
    TestServer s =
        fixture.serve(
            RoomFixture.branded(fixture.room(RoomFixture.polledEverySecond()), style)
                .humanCheck(challenge ? UNREACHABLE_CHECK : null)
                .challengePenalty(Duration.ofMinutes(5)));
    assertThat(new Visitor(s).get("/").body()).startsWith("app:");
    return s;
  }

  private static final io.github.waitingroom.http.HumanCheck UNREACHABLE_CHECK =
      new io.github.waitingroom.http.HumanCheck() {
        @Override
        public Widget widget() {
          return new Widget("https://captcha.invalid/api.js", "captcha", "site-key", List.of("https://captcha.invalid"));
        }

        @Override
        public java.util.concurrent.CompletionStage<Verdict> verify(String token, @Nullable String remoteAddress) {
          return java.util.concurrent.CompletableFuture.completedFuture(Verdict.FAILED);
        }
      };

  private ChromeDriver chromium(Path profile) {
    ChromeOptions options = Chromium.options(profile, "1280,800");
    ChromeDriver b = fixture.chromium(options);
    b.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
    b.executeCdpCommand("Network.enable", Map.of());
    return b;
  }

  private static void acceptLanguage(ChromeDriver b, String tag) {
    b.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Accept-Language", tag)));
  }

  private static void media(ChromeDriver b, String feature, String value) {
    b.executeCdpCommand(
        "Emulation.setEmulatedMedia", Map.of("features", List.of(Map.of("name", feature, "value", value))));
  }

  /** axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules on the page as it is: the violations, one line each. */
  static String axe(ChromeDriver b, String axeSource) {
    b.executeScript(axeSource + "\nreturn true;");
    Object r =
        b.executeAsyncScript(
            "var done = arguments[arguments.length - 1];"
                + "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },"
                + " resultTypes: ['violations'] })"
                + ".then(function (r) { done(r.violations.map(function (v) { return v.id + ' (' + v.impact + '): '"
                + " + v.nodes.map(function (n) { return n.target.join(' ') + ' ' + (n.failureSummary || ''); }).join(' | '); }).join('\\n')); })"
                + ".catch(function (e) { done('axe failed: ' + e); });");
    return String.valueOf(r);
  }

  @Test
  void axeFindsNoViolationInAnyLanguageOrColourScheme(@TempDir Path profile) throws Exception {
    String axeSource = Files.readString(AXE, StandardCharsets.UTF_8);
    TestServer plain = fullRoom(PageStyle.PLAIN);
    TestServer branded = fullRoom(PageStyle.BRANDED);
    ChromeDriver b = chromium(profile);
    for (String scheme : List.of("light", "dark")) {
      media(b, "prefers-color-scheme", scheme);
      for (TestServer s : List.of(plain, branded)) {
        for (String tag : LANGUAGES) {
          acceptLanguage(b, tag);
          b.get(s.uri("/store").toString());
          assertThat(b.findElement(By.tagName("html")).getAttribute("lang")).isEqualTo(tag);
          assertThat(axe(b, axeSource)).as(scheme + " " + (s == plain ? "plain" : "branded") + " " + tag).isEmpty();
        }
      }
    }
  }

  /** The page's note for a browser whose check does not start, in one language, as shipped. */
  private static String noScriptNote(String tag) throws java.io.IOException {
    java.util.Properties p = new java.util.Properties();
    try (java.io.InputStream in = io.github.waitingroom.http.Gate.class.getResourceAsStream("i18n/messages_" + tag + ".properties")) {
      p.load(new java.io.InputStreamReader(java.util.Objects.requireNonNull(in), StandardCharsets.UTF_8));
    }
    return p.getProperty("checkingNoScript");
  }

  @Test
  void theChallengePageHasNoViolationInAnyLanguage(@TempDir Path profile) throws Exception {
    String axeSource = Files.readString(AXE, StandardCharsets.UTF_8);
    TestServer plain = fullRoom(PageStyle.PLAIN, true);
    TestServer branded = fullRoom(PageStyle.BRANDED, true);
    ChromeDriver b = chromium(profile);
    for (String scheme : List.of("light", "dark")) {
      media(b, "prefers-color-scheme", scheme);
      for (TestServer s : List.of(plain, branded)) {
        for (String tag : LANGUAGES) {
          acceptLanguage(b, tag);
          b.get(s.uri("/store").toString());
          assertThat(b.findElement(By.tagName("html")).getAttribute("lang")).isEqualTo(tag);
          assertThat(b.findElement(By.className("captcha")).getAttribute("data-sitekey")).isEqualTo("site-key");
          // Issue 42: the note for when nothing happens promises no place (noScriptPlaces is 0 by default).
          assertThat(b.findElement(By.tagName("body")).getText()).as(tag).contains(noScriptNote(tag));
          assertThat(axe(b, axeSource)).as("challenge " + scheme + " " + (s == plain ? "plain" : "branded") + " " + tag)
              .isEmpty();
        }
      }
    }
  }

  @Test
  void thePageReflowsAt320PixelsAndAt200PercentZoom(@TempDir Path profile) throws Exception {
    TestServer plain = fullRoom(PageStyle.PLAIN);
    TestServer branded = fullRoom(PageStyle.BRANDED);
    ChromeDriver b = chromium(profile);
    for (TestServer s : List.of(plain, branded)) {
      for (String tag : List.of("en", "de", "ar")) {
        acceptLanguage(b, tag);
        // 320 CSS pixels wide (WCAG 1.4.10), then 1280 x 800 at 200 % (640 CSS pixels).
        for (List<Number> metrics : List.of(List.<Number>of(320, 640, 1), List.<Number>of(640, 400, 2))) {
          b.executeCdpCommand(
              "Emulation.setDeviceMetricsOverride",
              Map.of("width", metrics.get(0), "height", metrics.get(1), "deviceScaleFactor", metrics.get(2), "mobile", false));
          b.get(s.uri("/store").toString());
          Object overflow =
              b.executeScript("return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
          assertThat(((Number) java.util.Objects.requireNonNull(overflow)).longValue()).as(tag + " at " + metrics + ": sideways scrolling").isLessThanOrEqualTo(0);
          assertThat(b.findElement(By.tagName("h1")).isDisplayed()).isTrue();
          assertThat(b.findElement(By.id("wr-wait")).isDisplayed()).isTrue();
        }
        b.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
      }
    }
  }

  @Test
  void reducedMotionStopsTheAnimation(@TempDir Path profile) throws Exception {
    TestServer plain = fullRoom(PageStyle.PLAIN);
    TestServer branded = fullRoom(PageStyle.BRANDED);
    ChromeDriver b = chromium(profile);
    String animation = "return getComputedStyle(document.querySelector('.bar span')).animationName;";
    for (TestServer s : List.of(plain, branded)) {
      media(b, "prefers-reduced-motion", "no-preference");
      b.get(s.uri("/store").toString());
      assertThat(b.executeScript(animation)).isEqualTo("slide");
      media(b, "prefers-reduced-motion", "reduce");
      b.get(s.uri("/store").toString());
      assertThat(b.executeScript(animation)).isEqualTo("none");
    }
  }

  @Test
  void theLiveRegionDoesNotChangeOnEveryPoll(@TempDir Path profile) throws Exception {
    TestServer s = fullRoom(PageStyle.PLAIN);
    ChromeDriver b = chromium(profile);
    b.get(s.uri("/store").toString());
    assertThat(b.findElement(By.id("wr-status")).getAttribute("aria-live")).isEqualTo("polite");
    // Mark the visible figure and its twin in the live region; a poll puts the visible one back at
    // once, the announced one only once a minute has passed since the page loaded.
    b.executeScript(
        "document.getElementById('wr-wait').textContent = 'x';"
            + "document.querySelector('#wr-status [data-wr=waitTimeFormatted]').textContent = 'y';");
    WebDriverWait wait = new WebDriverWait(b, Duration.ofSeconds(20));
    wait.ignoring(StaleElementReferenceException.class);
    wait.until(d -> !b.findElement(By.id("wr-wait")).getText().equals("x"));
    assertThat(b.findElement(By.id("wr-wait")).getText()).isEqualTo("unknown");
    assertThat(b.executeScript("return document.querySelector('#wr-status [data-wr=waitTimeFormatted]').textContent;"))
        .isEqualTo("y");
  }
}
