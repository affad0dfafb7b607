package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import org.junit.jupiter.api.Tag;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;
import io.github.waitingroom.testsupport.Chromium;
import io.github.waitingroom.testsupport.JsonTree;

/**
 * The dashboard in a real headless Chromium (Debian {@code chromium} + {@code chromium-driver},
 * driven by Selenium, started and skipped as {@link WaitingPageBrowserTest} does) during a small
 * load: a thread sends arrivals, polls and browsing through the filter over HTTP. The room runs on
 * a {@link ManualClock} that the load thread moves one second per step (with the dashboard
 * stamping its readings by the same clock), so that the room stands still once the load stops and
 * the figures on the page can be compared with the data as they are then.
 *
 * <p>The screenshot is kept as a build artifact: {@code target/dashboard.png}.
 */
@Tag("slow")
class DashboardBrowserTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final String TOKEN = "operator-token-for-the-browser-test";
  private static final int STEPS = 240;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));
  private final List<AutoCloseable> open = new ArrayList<>();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicReference<@Nullable Throwable> loadFailure = new AtomicReference<>();
  private @Nullable ChromeDriver browser;
  private @Nullable Thread load;

  @BeforeEach
  void needsChromium() {
    Chromium.assumeInstalled();
  }

  @AfterEach
  void stop() throws Exception {
    stop.set(true);
    Thread t = load;
    if (t != null) {
      t.join(30_000);
    }
    ChromeDriver b = browser;
    if (b != null) {
      b.quit();
    }
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private WaitingRoom room(String id, int total, int perMinute) {
    RoomConfig config =
        RoomConfig.builder(id)
            .totalActiveUsers(total)
            .newUsersPerMinute(perMinute)
            .sessionDuration(Duration.ofSeconds(20))
            .sliceWidth(Duration.ofSeconds(10))
            .refreshInterval(Duration.ofSeconds(5))
            .waitingTimeout(Duration.ofMinutes(10))
            .build();
    WaitingRoom r = WaitingRoom.builder(config, KEYS).clock(clock).backgroundSync(false).nodeId("web-1").dataCenter("eu").build();
    open.add(r);
    return r;
  }

  private ChromeDriver chromium(Path profile) {
    ChromeOptions options = Chromium.options(profile, "1280,1400");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    logs.enable(LogType.PERFORMANCE, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriver b = Chromium.start(options);
    browser = b;
    return b;
  }

  private static WebDriverWait waitFor(ChromeDriver b) {
    WebDriverWait wait = new WebDriverWait(b, PATIENCE);
    wait.ignoring(StaleElementReferenceException.class);
    return wait;
  }

  /**
   * The load, one step per second of the room's clock: an arrival every other second for the first
   * two minutes; waiting visitors poll the JSON status every 4 s (they are told 5 or less, and
   * within the front of the line every 2 s, so some miss a poll); admitted ones browse every second
   * for 10 s and leave. Both rooms sync twice a second. Bounded: {@value #STEPS} steps.
   */
  private void startLoad(DashboardServer s, WaitingRoom shop, WaitingRoom drop) {
    Thread t =
        new Thread(
            () -> {
              List<DashboardServer.Client> waiting = new ArrayList<>();
              Map<DashboardServer.Client, Integer> browsing = new HashMap<>();
              try {
                for (int step = 0; step < STEPS && !stop.get(); step++) {
                  if (step < 120 && step % 2 == 0) {
                    DashboardServer.Client v = s.client();
                    if (v.get("/shop/").body().startsWith("app:")) {
                      browsing.put(v, 10);
                    } else {
                      waiting.add(v);
                    }
                  }
                  if (step % 30 == 0) {
                    s.client().get("/drop/item");
                  }
                  for (int i = 0; i < waiting.size(); i++) {
                    if ((step + i) % 4 == 0) {
                      DashboardServer.Client v = waiting.get(i);
                      if (v.get("/shop/?waitingRoomStatus=1").body().contains("\"inWaitingRoom\":false")) {
                        waiting.remove(i--);
                        browsing.put(v, 10);
                      }
                    }
                  }
                  for (Iterator<Map.Entry<DashboardServer.Client, Integer>> it = browsing.entrySet().iterator(); it.hasNext(); ) {
                    Map.Entry<DashboardServer.Client, Integer> e = it.next();
                    e.getKey().get("/shop/page");
                    if (e.getValue() <= 1) {
                      it.remove();
                    } else {
                      e.setValue(e.getValue() - 1);
                    }
                  }
                  for (int half = 0; half < 2; half++) {
                    clock.advance(Duration.ofMillis(500));
                    shop.sync();
                    drop.sync();
                  }
                  Thread.sleep(40);
                }
              } catch (Throwable e) {
                loadFailure.set(e);
              }
            },
            "dashboard-load");
    t.setDaemon(true);
    load = t;
    t.start();
  }

  /**
   * What the page shows, read in one script so that no redraw (every poll) falls in between: per
   * room ({@code data-room}) its figures by {@code data-k}, and per chart ({@code data-c}) its
   * role, title, text alternative, all its text, the number of points of each line by class, and
   * its bars ({@code rect.a}, the legend's included).
   */
  private static final String SNAPSHOT =
      """
      var out = {};
      document.querySelectorAll('section.room').forEach(function (sec) {
        var r = { figs: {}, charts: {} };
        sec.querySelectorAll('[data-k]').forEach(function (e) { r.figs[e.getAttribute('data-k')] = e.textContent; });
        sec.querySelectorAll('svg[data-c]').forEach(function (svg) {
          var t = svg.querySelector('title'), d = svg.querySelector('desc');
          var c = { role: svg.getAttribute('role'), title: t ? t.textContent : '', desc: d ? d.textContent : '',
            text: svg.textContent, lines: {}, bars: svg.querySelectorAll('rect.a').length };
          svg.querySelectorAll('path.ln').forEach(function (p) {
            c.lines[p.getAttribute('class').split(' ')[1]] = (p.getAttribute('d').match(/[ML]/g) || []).length;
          });
          r.charts[svg.getAttribute('data-c')] = c;
        });
        out[sec.getAttribute('data-room')] = r;
      });
      return out;
      """;

  @SuppressWarnings("unchecked")
  private static Map<String, Object> snapshot(ChromeDriver b) {
    return (Map<String, Object>) Objects.requireNonNull(b.executeScript(SNAPSHOT));
  }

  /** The points of a chart's line in a snapshot, 0 when the room, chart or line is not there (yet). */
  private static long points(Map<String, Object> page, String room, String chart, String line) {
    Object n = page.containsKey(room) ? JsonTree.at(page, room, "charts", chart, "lines") : null;
    return n instanceof Map<?, ?> m && m.get(line) instanceof Long l ? l : 0;
  }

  private static String text(Object page, Object... path) {
    return (String) JsonTree.node(page, path);
  }

  private static long number(Object json, Object... path) {
    return (Long) JsonTree.node(json, path);
  }

  @Test
  void afterTheTokenTheChartsShowTheRoomsLiveFromTheirOwnOriginAndMatchTheData(@TempDir Path profile) throws Exception {
    WaitingRoom shop = room("shop", 10, 10);
    WaitingRoom drop = room("drop", 5, 5);
    WaitingRoomDashboard dashboard = WaitingRoomDashboard.builder(shop, drop).bearerToken(TOKEN).clock(clock).build();
    DashboardServer s =
        DashboardServer.start(
            dashboard,
            List.of(
                WaitingRoomFilter.builder(shop).pathPrefix("/shop").build(),
                WaitingRoomFilter.builder(drop).pathPrefix("/drop").build()),
            false);
    open.add(0, s);
    ChromeDriver b = chromium(profile);

    // The page alone shows no data and asks for the token. (What the browser loaded before, its
    // own start page, is drained from the log first.)
    b.manage().logs().get(LogType.PERFORMANCE);
    b.get(s.uri(DashboardServer.PATH + "/").toString());
    assertThat(b.getTitle()).isEqualTo("Waiting room dashboard");
    assertThat(b.findElement(By.tagName("html")).getAttribute("lang")).isEqualTo("en");
    waitFor(b).until(d -> b.findElement(By.id("login")).isDisplayed());
    assertThat(b.findElement(By.cssSelector("label[for='token']")).getText()).isEqualTo("Access token");
    assertThat(b.findElement(By.id("state")).getAttribute("aria-live")).isEqualTo("polite");
    assertThat(b.findElements(By.cssSelector("section.room"))).isEmpty();
    assertThat(s.dataRequests()).isZero();

    startLoad(s, shop, drop);
    b.findElement(By.id("token")).sendKeys(TOKEN);
    b.findElement(By.cssSelector("#login button[type='submit']")).click();

    // The page polls while the load runs and keeps its history: lines of several points, and the
    // time in line once people have been let in from the line.
    waitFor(b).until(d -> points(snapshot(b), "shop", "users", "a") >= 3 && points(snapshot(b), "shop", "wait", "a") >= 2);
    assertThat(b.findElement(By.id("login")).isDisplayed()).isFalse();
    assertThat(b.executeScript("return sessionStorage.getItem('waitingroomDashboardToken')")).isEqualTo(TOKEN);

    // Once the load is over the room stands still (its clock with it); two more polls, and the
    // page shows the data as they now are.
    Thread t = Objects.requireNonNull(load);
    t.join(PATIENCE.toMillis());
    assertThat(t.isAlive()).as("the load ends by itself").isFalse();
    assertThat(loadFailure.get()).isNull();
    int polled = s.dataRequests();
    waitFor(b).until(d -> s.dataRequests() >= polled + 2);
    Path shot = Path.of("target", "dashboard.png");
    Files.createDirectories(shot.getParent());
    File png = b.getScreenshotAs(OutputType.FILE);
    Files.copy(png.toPath(), shot, StandardCopyOption.REPLACE_EXISTING);

    Map<String, Object> json =
        JsonTree.object(s.client().get(DashboardServer.PATH + "/data", Map.of("Authorization", "Bearer " + TOKEN)).body());
    assertThat(number(json, "rooms", 0, "metrics", "admittedFromLine")).as("the load let people in from the line").isPositive();
    assertThat(number(json, "rooms", 0, "status", "waitingUsers")).as("and some still wait").isPositive();
    Map<String, Object> page = snapshot(b);
    assertThat(page).containsOnlyKeys("shop", "drop");
    for (int i = 0; i < 2; i++) {
      Object room = JsonTree.node(json, "rooms", i);
      String id = (String) JsonTree.node(room, "roomId");
      Object figs = JsonTree.node(page, id, "figs");
      long active = number(room, "status", "activeUsers");
      long limit = number(room, "limits", "totalActiveUsers");
      long waiting = number(room, "status", "waitingUsers");
      long perMinute = number(room, "limits", "newUsersPerMinute");
      assertThat(text(figs, "active")).isEqualTo(active + " of " + limit);
      assertThat(text(figs, "waiting")).isEqualTo(String.valueOf(waiting));
      assertThat(text(figs, "roomRate")).isEqualTo(number(room, "status", "admissionsPerMinute") + " of " + perMinute);
      assertThat(text(figs, "totals"))
          .isEqualTo(number(room, "metrics", "arrivals") + " / "
              + (number(room, "metrics", "admittedFromLine") + number(room, "metrics", "admittedOnArrival")));
      assertThat(text(figs, "store")).isEqualTo("reachable");
      assertThat(text(figs, "syncFailures"))
          .isEqualTo(number(room, "metrics", "syncFailures") + " of " + number(room, "metrics", "syncs") + " / "
              + number(room, "metrics", "storeOutages"));
      assertThat(text(figs, "topology"))
          .isEqualTo(((List<?>) JsonTree.node(room, "status", "dataCenters")).size() + " / " + number(room, "status", "roomNodes"));
      assertThat(text(figs, "settings"))
          .isEqualTo("v" + number(room, "settingsVersion") + ", " + JsonTree.at(room, "status", "queueingStatus"));
      double age = number(room, "status", "viewAgeMillis") / 1000.0;
      assertThat(text(figs, "viewAge"))
          .isEqualTo(age == Math.rint(age) ? (long) age + " s" : String.format(java.util.Locale.ROOT, "%.1f s", age));
      assertThat(text(figs, "rate")).matches("[0-9]+(\\.[0-9])? of " + perMinute);

      // Every chart is an image with a title and a text alternative.
      for (String c : List.of("users", "rate", "wait", "health", "dcs", "nodes")) {
        assertThat(text(page, id, "charts", c, "role")).isEqualTo("img");
        assertThat(text(page, id, "charts", c, "title")).as(c).isNotBlank();
        assertThat(text(page, id, "charts", c, "desc")).as(c).isNotBlank();
      }
      assertThat(text(page, id, "charts", "users", "desc"))
          .isEqualTo("Now " + active + " active of " + limit + ", " + waiting + " waiting.");
      assertThat(points(page, id, "users", "a")).as("the active users' line").isGreaterThanOrEqualTo(3);
      assertThat(points(page, id, "users", "l")).as("the limit line").isGreaterThanOrEqualTo(3);
      assertThat(points(page, id, "users", "w")).as("the waiting users' line").isGreaterThanOrEqualTo(3);
      assertThat(points(page, id, "health", "a")).as("the view age's line").isGreaterThanOrEqualTo(3);
      List<?> nodes = (List<?>) JsonTree.node(room, "status", "nodeShares");
      List<?> dcs = (List<?>) JsonTree.node(room, "status", "dataCenterShares");
      assertThat(nodes).isNotEmpty();
      assertThat(number(JsonTree.node(page, id, "charts", "nodes", "bars"))).isEqualTo(nodes.size() + 1); // + legend
      assertThat(number(JsonTree.node(page, id, "charts", "dcs", "bars"))).isEqualTo(dcs.size() + 1);
      for (Object n : nodes) {
        Object share = Objects.requireNonNull(n);
        assertThat(text(page, id, "charts", "nodes", "text"))
            .contains((String) JsonTree.node(share, "name"))
            .contains(number(share, "activeUsers") + " / " + number(share, "waitingUsers"));
      }
    }
    assertThat(points(page, "shop", "rate", "a")).as("admissions per minute from counter differences").isGreaterThanOrEqualTo(2);
    assertThat(points(page, "shop", "wait", "p")).as("time in line, p90").isGreaterThanOrEqualTo(2);
    assertThat(points(page, "shop", "wait", "s")).as("wait shown, p50").isGreaterThanOrEqualTo(2);
    assertThat(text(page, "shop", "figs", "inLine")).matches("[0-9.]+ (s|min) / [0-9.]+ (s|min)");
    assertThat(text(page, "shop", "figs", "estimate")).matches("[0-9.]+ (s|min) shown, [0-9.]+ (s|min) real");

    // Nothing went wrong in the page, and nothing was asked of any other origin.
    List<String> errors = new ArrayList<>();
    for (LogEntry e : b.manage().logs().get(LogType.BROWSER)) {
      if (e.getLevel().intValue() >= Level.WARNING.intValue()) {
        errors.add(e.getLevel() + " " + e.getMessage());
      }
    }
    assertThat(errors).isEmpty();
    List<String> urls = new ArrayList<>();
    for (LogEntry e : b.manage().logs().get(LogType.PERFORMANCE)) {
      Map<String, Object> m = JsonTree.object(e.getMessage());
      // Requests of the browser's own start page (documentURL chrome://...) are not the dashboard's.
      if ("Network.requestWillBeSent".equals(JsonTree.at(m, "message", "method"))
          && !String.valueOf(JsonTree.at(m, "message", "params", "documentURL")).startsWith("chrome:")) {
        urls.add((String) JsonTree.node(m, "message", "params", "request", "url"));
      }
    }
    assertThat(urls).contains(s.origin() + DashboardServer.PATH + "/", s.origin() + DashboardServer.PATH + "/data");
    assertThat(urls).allMatch(u -> u.startsWith(s.origin() + "/"), "every request goes to " + s.origin());
  }
}
