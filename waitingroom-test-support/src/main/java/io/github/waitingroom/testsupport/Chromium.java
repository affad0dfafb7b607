package io.github.waitingroom.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.time.Duration;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The real headless Chromium of the browser tests: Debian's {@code chromium} and {@code
 * chromium-driver} (the system properties {@code waitingroom.chromium} and {@code
 * waitingroom.chromedriver} point at another build), driven by Selenium, each test with its own
 * empty profile and without the background connections this machine's closed network refuses.
 */
public final class Chromium {
  /** The browser: {@code -Dwaitingroom.chromium}, by default Debian's {@code /usr/bin/chromium}. */
  public static final Path BINARY = Path.of(System.getProperty("waitingroom.chromium", "/usr/bin/chromium"));
  /** Its driver: {@code -Dwaitingroom.chromedriver}, by default {@code /usr/bin/chromedriver}. */
  public static final Path DRIVER = Path.of(System.getProperty("waitingroom.chromedriver", "/usr/bin/chromedriver"));
  // The tests drive WebDriver and a few CDP commands, not Selenium's versioned CDP bindings: its
  // notice that it has none for this Chromium is noise. Held here so the setting is not collected.
  private static final java.util.logging.Logger CDP_LOG = quiet("org.openqa.selenium.devtools");

  private Chromium() {}

  private static java.util.logging.Logger quiet(String name) {
    java.util.logging.Logger log = java.util.logging.Logger.getLogger(name);
    log.setLevel(java.util.logging.Level.SEVERE);
    return log;
  }

  /** Skips the test (or fails it, where services are required) without Chromium and its driver. */
  public static void assumeInstalled() {
    Services.assume(
        Files.isExecutable(BINARY) && Files.isExecutable(DRIVER),
        "headless Chromium needs " + BINARY + " and " + DRIVER
            + " (Debian: apt-get install -y chromium chromium-driver)");
  }

  /**
   * The options every browser test starts from.
   *
   * @param profile an empty directory for the browser's profile
   * @param windowSize {@code width,height} in CSS pixels
   * @param extraArguments more command-line switches
   */
  public static ChromeOptions options(Path profile, String windowSize, String... extraArguments) {
    ChromeOptions options = new ChromeOptions();
    options.setBinary(BINARY.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=" + windowSize,
        "--user-data-dir=" + profile.toAbsolutePath());
    options.addArguments(extraArguments);
    return options;
  }

  /** Turns JavaScript off in {@code options}: the page must work by its meta refresh alone. */
  public static ChromeOptions withoutJavaScript(ChromeOptions options) {
    options.setExperimentalOption("prefs", Map.of("profile.managed_default_content_settings.javascript", 2));
    return options;
  }

  /** Starts the browser, with a driver on any free port. */
  public static ChromeDriver start(ChromeOptions options) {
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).usingAnyFreePort().build();
    return new ChromeDriver(service, options);
  }

  /**
   * The page's {@code <h1>} as shown ({@code ""} without one), read in one script so that a page
   * replacing itself in between (the waiting page going on by itself) cannot leave a stale element.
   */
  public static String heading(ChromeDriver b) {
    return String.valueOf(b.executeScript("var h = document.querySelector('h1'); return h ? h.innerText : '';"));
  }

  /**
   * A wait for a page that may navigate by itself: what fails while the page is being replaced
   * (a script whose document is gone, an element of the old page) is tried again.
   */
  public static WebDriverWait waitFor(ChromeDriver b, Duration patience) {
    WebDriverWait wait = new WebDriverWait(b, patience);
    wait.ignoring(WebDriverException.class);
    return wait;
  }
}
