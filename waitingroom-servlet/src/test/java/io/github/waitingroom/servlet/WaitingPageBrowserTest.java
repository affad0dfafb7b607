package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.WaitingRoom;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.jspecify.annotations.Nullable;
import io.github.waitingroom.testsupport.Chromium;

/**
 * The waiting page in a real headless Chromium (Debian {@code chromium} + {@code chromium-driver},
 * driven by Selenium): a visitor waits on the page, capacity frees (the test moves the room's
 * {@link ManualClock} and syncs), and the page takes them into the application without a click,
 * with JavaScript (the page polls the JSON status) and without it (meta refresh).
 *
 * <p>The screenshot of the waiting page is kept as a build artifact: {@code
 * target/waiting-page.png}.
 */
class WaitingPageBrowserTest {
  private static final Duration PATIENCE = Duration.ofSeconds(20);
  @RegisterExtension final RoomFixture fixture = new RoomFixture();
  private final ManualClock clock = fixture.clock;
  private @Nullable WaitingRoom room;
  private @Nullable TestServer server;

  @BeforeEach
  void start() throws Exception {
    Chromium.assumeInstalled();
    // One active user at a time; the page polls every second of real time.
    WaitingRoom r = fixture.room(RoomFixture.polledEverySecond().sliceWidth(Duration.ofSeconds(10)));
    room = r;
    TestServer s = fixture.serve(WaitingRoomFilter.builder(r));
    server = s;
    // Someone else takes the only slot.
    assertThat(new Visitor(s).get("/").body()).startsWith("app:");
  }

  private static WebDriverWait waitFor(ChromeDriver b) {
    return Chromium.waitFor(b, PATIENCE);
  }

  @Test
  void thePageLetsTheVisitorInWithoutAClickOnceCapacityFrees(@TempDir Path profile) throws Exception {
    TestServer s = java.util.Objects.requireNonNull(server);
    WaitingRoom r = java.util.Objects.requireNonNull(room);
    ChromeDriver b = fixture.chromium(true, profile);

    b.get(s.uri("/store/checkout").toString());
    assertThat(Chromium.heading(b)).isEqualTo("You are in line");
    assertThat(b.findElement(By.tagName("html")).getAttribute("lang")).isEqualTo("en");
    assertThat(b.findElement(By.id("wr-status")).getAttribute("aria-live")).isEqualTo("polite");
    assertThat(b.findElement(By.id("wr-ahead")).getText()).isEqualTo("0");
    assertThat(b.findElement(By.id("wr-wait")).getText()).isEqualTo("unknown");
    Path shot = Path.of("target", "waiting-page.png");
    Files.createDirectories(shot.getParent());
    File png = b.getScreenshotAs(OutputType.FILE);
    Files.copy(png.toPath(), shot, StandardCopyOption.REPLACE_EXISTING);
    assertThat(Files.size(shot)).isPositive();

    // The page keeps asking (the JSON status flag) and keeps waiting while the room is full.
    waitFor(b)
        .until(d -> s.queries.stream().filter(q -> q.contains("waitingRoomStatus")).count() >= 2);
    assertThat(Chromium.heading(b)).isEqualTo("You are in line");
    assertThat(s.appHits.get()).isEqualTo(1);

    // The other user's session expires; the next sync frees the slot for the line.
    clock.advance(Duration.ofSeconds(80));
    r.sync();

    waitFor(b).until(d -> Chromium.heading(b).equals("Welcome to the shop"));
    assertThat(b.getCurrentUrl()).isEqualTo(s.uri("/store/checkout").toString());
  }

  @Test
  void withoutJavaScriptTheMetaRefreshLetsTheVisitorIn(@TempDir Path profile) throws IOException {
    TestServer s = java.util.Objects.requireNonNull(server);
    WaitingRoom r = java.util.Objects.requireNonNull(room);
    ChromeDriver b = fixture.chromium(false, profile);

    b.get(s.uri("/store").toString());
    assertThat(Chromium.heading(b)).isEqualTo("You are in line");
    int before = s.queries.size();
    // The page reloads itself (meta refresh in <noscript>) and stays in line.
    waitFor(b).until(d -> s.queries.size() >= before + 2);
    assertThat(s.queries).noneMatch(q -> q.contains("waitingRoomStatus"));
    assertThat(Chromium.heading(b)).isEqualTo("You are in line");

    clock.advance(Duration.ofSeconds(80));
    r.sync();

    waitFor(b).until(d -> Chromium.heading(b).equals("Welcome to the shop"));
  }
}
