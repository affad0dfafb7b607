package io.github.waitingroom.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.WaitingRoom;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import io.github.waitingroom.testsupport.LocalRedis;
import io.github.waitingroom.testsupport.Chromium;

/**
 * The sample shop as shipped ({@code application.yml}: 2 active users, 2 new users per minute,
 * its store in the real Redis at 127.0.0.1:6379), on a random port, walked through by a small
 * crowd of headless Chromium browsers, each with its own profile and so its own cookies. Only the
 * room's id (unique per run, so runs never share a room in Redis) and its timings (10 s sessions,
 * a 2 s waiting page) are changed.
 *
 * <p>A run takes a little over a minute, and cannot take less: a room admits at most {@code
 * new-users-per-minute} users in any 60 s, which may not exceed {@code total-active-users}, so the
 * queued browser can only get in once the first admission is a minute old, whatever the session
 * length. The test polls for it with a timeout and never asserts on how fast it happens. So it is
 * tagged {@code slow} and runs with {@code -P full} (CI runs it); {@link ShopSampleTest} is its short
 * form in the everyday build, over plain HTTP.
 */
@Tag("slow")
@SpringBootTest(
    classes = ShopApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "waitingroom.session-duration=10s",
      "waitingroom.slice-width=2s",
      "waitingroom.refresh-interval=2s"
    })
class ShopCrowdBrowserTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String ROOM = "shop-test-" + UUID.randomUUID();
  private static final String SHOP = "Welcome to the tea shop";
  private static final String QUEUED = "You are in line";
  /** For a page to load, or the room to plan: seconds normally. */
  private static final Duration PATIENCE = Duration.ofSeconds(30);
  /** For the queued browser: the minute of the admission rate limit, plus sessions and plans. */
  private static final Duration ADMISSION_PATIENCE = Duration.ofSeconds(150);
  @DynamicPropertySource
  static void room(DynamicPropertyRegistry registry) {
    registry.add("waitingroom.room-id", () -> ROOM);
  }

  @BeforeAll
  static void services() {
    LocalRedis.require();
    Chromium.assumeInstalled();
  }

  @LocalServerPort int port;
  @Autowired WaitingRoom room;

  private final List<ChromeDriver> browsers = new ArrayList<>();

  @AfterEach
  void quitBrowsers() {
    for (ChromeDriver b : browsers) {
      b.quit();
    }
  }

  @Test
  void aCrowdWalksThroughTheShop(@TempDir Path profiles) throws Exception {
    assertThat(room.config().roomId()).isEqualTo(ROOM);
    assertThat(room.config().totalActiveUsers()).isEqualTo(2);
    assertThat(room.transportFailing()).as("the Redis store answers").isFalse();

    // 1. Static assets never count as arrivals: a browser without a cookie fetches the shop's
    // stylesheet, script and image (and, by itself, the favicon), and gets them with no ticket.
    ChromeDriver assets = browser(profiles, "assets");
    for (String path : List.of("/css/shop.css", "/js/shop.js", "/img/teapot.svg")) {
      assets.get(url(path));
      assertThat(assets.getPageSource()).as(path).doesNotContain(QUEUED);
      assertThat(assets.manage().getCookies()).as("cookies after " + path).isEmpty();
    }
    assertThat(assets.getPageSource()).contains("<title>Teapot</title>");
    assets.quit();
    browsers.remove(assets);

    // The room's plans: a node that joins admits nobody for two to three seconds, until it
    // applies the plan of the epoch after it joined. Wait for that plan and one more.
    long firstPlan = until("the room's first plan", s -> s.planEpoch() != Long.MIN_VALUE).planEpoch();
    RoomStatus ready = until("the room's second plan", s -> s.planEpoch() > firstPlan);
    assertThat(ready.activeUsers()).isZero();
    assertThat(ready.waitingUsers()).as("nobody waits: the asset fetches were not arrivals").isZero();

    // 2. So both slots are left for the first two real visitors. Their pages load the assets and
    // call the JSON API four times each, with the ticket cookie: every call is let through.
    ChromeDriver ada = browser(profiles, "ada");
    ChromeDriver bob = browser(profiles, "bob");
    for (ChromeDriver b : List.of(ada, bob)) {
      b.get(url("/"));
      assertShopLoaded(b);
      assertThat(b.manage().getCookieNamed("wr_" + ROOM)).as("the ticket cookie").isNotNull();
    }
    // ...and each visitor counts once: the plan made after those calls shows two active users.
    long loaded = room.status().now();
    RoomStatus afterLoad = until("a plan made after the pages loaded", s -> planSecond(s) >= loaded);
    assertThat(afterLoad.activeUsers()).as("active users").isEqualTo(2);
    assertThat(afterLoad.waitingUsers()).as("waiting users").isZero();
    assertThat(afterLoad.localActiveUsers()).as("active users counted by this node").isEqualTo(2);
    JsonNode endpoint = actuator();
    assertThat(endpoint.get("roomId").asText()).isEqualTo(ROOM);
    assertThat(endpoint.get("activeUsers").asLong()).isEqualTo(2);
    assertThat(endpoint.get("storeFailing").asBoolean()).isFalse();

    // 3. The checkout: a POST form, with the ticket, to the confirmation page and its API call.
    new Select(ada.findElement(By.id("product"))).selectByValue("cups");
    ada.findElement(By.id("quantity")).clear();
    ada.findElement(By.id("quantity")).sendKeys("2");
    ada.findElement(By.id("name")).sendKeys("Ada");
    ada.findElement(By.id("buy")).click();
    waitFor(ada, PATIENCE).until(d -> "true".equals(loadedState(ada)));
    assertThat(heading(ada)).isEqualTo("Thank you for your order");
    assertThat(ada.findElement(By.id("order")).getText())
        .isEqualTo("Order for Ada: 2 × Two porcelain cups, 36.00 €.");

    // 4. A third visitor waits in line while both slots are taken.
    ChromeDriver cleo = browser(profiles, "cleo");
    cleo.get(url("/"));
    assertThat(heading(cleo)).isEqualTo(QUEUED);

    // Ada leaves (her session ends 10 s after her last request); Bob keeps shopping. Cleo's
    // waiting page takes her in by itself, without a click, once Ada's slot is free and the
    // minute of the admission rate has passed.
    ada.quit();
    browsers.remove(ada);
    Instant deadline = Instant.now().plus(ADMISSION_PATIENCE);
    while (!isShop(cleo)) {
      assertThat(Instant.now()).as("Cleo is still in line at the deadline").isBefore(deadline);
      bob.navigate().refresh();
      assertShopLoaded(bob);
      Thread.sleep(2_000);
    }
    assertThat(cleo.getCurrentUrl()).isEqualTo(url("/"));
    assertShopLoaded(cleo);

    // The room never held more than its limit: now Bob and Cleo.
    long cleoIn = room.status().now();
    RoomStatus afterCleo = until("a plan made after Cleo got in", s -> planSecond(s) >= cleoIn);
    assertThat(afterCleo.activeUsers()).as("active users").isEqualTo(2);
  }

  private String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }

  /** The epoch second a plan was made from: epochs are the default 1 s sync interval. */
  private static long planSecond(RoomStatus s) {
    return s.planEpoch();
  }

  private RoomStatus until(String what, Predicate<RoomStatus> condition) throws InterruptedException {
    Instant deadline = Instant.now().plus(PATIENCE);
    RoomStatus s = room.status();
    while (!condition.test(s)) {
      assertThat(Instant.now()).as("waiting for " + what + "; last status " + s).isBefore(deadline);
      Thread.sleep(100);
      s = room.status();
    }
    return s;
  }

  private JsonNode actuator() throws Exception {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url("/actuator/waitingroom"))).header("Accept", "application/json").build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return new ObjectMapper().readTree(r.body());
  }

  /** The shop page with its stylesheet, image and every API answer in place. */
  private static void assertShopLoaded(ChromeDriver b) {
    waitFor(b, PATIENCE)
        .withMessage(() -> "the shop page with every API call answered; the page now shows: " + heading(b))
        .until(d -> isShop(b) && loadedState(b) != null);
    assertThat(loadedState(b)).as("the page's API calls").isEqualTo("true");
    assertThat(b.executeScript("return document.body.dataset.apiCalls")).isEqualTo("4");
    assertThat(b.findElements(By.cssSelector("#products li"))).hasSize(3);
    assertThat(b.findElement(By.id("api-status")).getText()).isEqualTo("3 products");
    assertThat(b.executeScript("return getComputedStyle(document.body).backgroundColor"))
        .as("shop.css applied")
        .isEqualTo("rgb(250, 246, 238)");
    assertThat(b.executeScript("return document.getElementById('logo').naturalWidth"))
        .as("teapot.svg shown")
        .isEqualTo(48L);
  }

  private static boolean isShop(ChromeDriver b) {
    return SHOP.equals(heading(b));
  }

  private static String heading(ChromeDriver b) {
    List<org.openqa.selenium.WebElement> h1 = b.findElements(By.tagName("h1"));
    return h1.isEmpty() ? "" : h1.get(0).getText();
  }

  private static @org.jspecify.annotations.Nullable Object loadedState(ChromeDriver b) {
    return b.executeScript("return document.body ? document.body.dataset.loaded : null");
  }

  private static WebDriverWait waitFor(ChromeDriver b, Duration patience) {
    WebDriverWait wait = new WebDriverWait(b, patience);
    wait.ignoring(StaleElementReferenceException.class);
    return wait;
  }

  private ChromeDriver browser(Path profiles, String name) {
    ChromeOptions options = Chromium.options(profiles.resolve(name), "1024,768");
    options.setExperimentalOption("prefs", Map.of("credentials_enable_service", false));
    ChromeDriver b = Chromium.start(options);
    browsers.add(b);
    return b;
  }
}
