package io.github.waitingroom.http;

import static io.github.waitingroom.http.GateCalls.body;
import static io.github.waitingroom.http.GateCalls.html;
import static io.github.waitingroom.http.GateCalls.ticket;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.testsupport.ManualRooms;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What a gate answers in each state the live settings put the room in: the "sold out" page of
 * {@code reject} (its own status, static), the paused page of {@code suspended}, the page of
 * {@code queueAll}, the settings' own texts, and the JSON status's settings fields. The room runs
 * on a {@link ManualClock} without background sync; the test syncs it until a change is in force.
 */
class GateRoomStatesTest {
  @RegisterExtension final ManualRooms rooms = new ManualRooms();
  private final WaitingRoom room = rooms.room(ManualRooms.oneSlot("shop", Duration.ofMinutes(1)));

  /** Publishes a change and syncs until it is in force (a bounded number of syncs). */
  private void change(String json) {
    rooms.putInForce(room, json);
  }

  @Test
  void rejectAnswersAStaticSoldOutPageWithItsOwnStatusInEveryForm() {
    Gate g = Gate.builder(room).build();
    assertThat(g.rejectStatus()).isEqualTo(403);
    change("{\"queueingMethod\": \"reject\"}");

    GateResponse page = g.handle(html(null, "en"));
    assertThat(page.passes()).isFalse();
    assertThat(page.status()).isEqualTo(403);
    assertThat(page.setCookie()).isNull();
    assertThat(body(page)).contains("<title>Sold out</title>", "<h1>Sold out</h1>", "the line is closed")
        .doesNotContain("<script", "http-equiv=\"refresh\"", "You are in line", "People ahead of you");
    assertThat(page.headers()).containsEntry("Cache-Control", "private, no-store").doesNotContainKey("Retry-After");
    assertThat(body(g.handle(html(null, "de")))).contains("<h1>Ausverkauft</h1>");
    assertThat(body(g.handle(html(null, "ja")))).contains("<h1>完売しました</h1>");

    String json = body(g.handle(GateRequest.builder("", "GET").accept("application/json").build()));
    assertThat(json).contains("\"status\":\"rejected\"", "\"waitTimeKnown\":false", "\"refreshIntervalSeconds\":0",
        "\"queueingMethod\":\"reject\"", "\"isFIFO\":false", "\"isPassthrough\":false", "\"isReject\":true",
        "\"queueAll\":false", "\"suspended\":false", "\"settingsVersion\":1");
    GateResponse polled = g.handle(GateRequest.builder("", "GET").query("waitingRoomStatus=1").accept("text/html").build());
    assertThat(polled.status()).isEqualTo(403);
    assertThat(body(polled)).contains("\"status\":\"rejected\"");

    Gate gone = Gate.builder(room).rejectStatus(410).build();
    assertThat(gone.handle(html(null, null)).status()).isEqualTo(410);
    assertThat(gone.handle(GateRequest.builder("", "GET").query("waitingRoomStatus=1").build()).status()).isEqualTo(410);
    assertThatIllegalArgumentException().isThrownBy(() -> Gate.builder(room).rejectStatus(302))
        .withMessageContaining("rejectStatus").withMessageContaining("302");
  }

  @Test
  void anActiveUserGoesOnWhileTheRoomRejectsNewcomers() {
    Gate g = Gate.builder(room).build();
    GateResponse in = g.handle(html(null, null));
    assertThat(in.passes()).isTrue();
    String session = ticket(in);
    change("{\"queueingMethod\": \"reject\"}");
    assertThat(g.handle(html(session, null)).passes()).isTrue();
    assertThat(g.handle(html(null, null)).status()).isEqualTo(403);
  }

  @Test
  void suspendedShowsThePausedPageThatKeepsPollingAndKeepsTheSession() {
    Gate g = Gate.builder(room).build();
    GateResponse in = g.handle(html(null, null));
    String session = ticket(in);
    change("{\"suspended\": true}");

    GateResponse paused = g.handle(html(session, "en"));
    assertThat(paused.passes()).isFalse();
    assertThat(paused.status()).isEqualTo(200);
    assertThat(paused.setCookie()).as("the session cookie is left alone").isNull();
    assertThat(body(paused)).contains("<h1>The site is paused for maintenance</h1>", "<script", "var state = \"suspended\";",
        "http-equiv=\"refresh\"").doesNotContain("<h1>You are in line</h1>");
    assertThat(body(paused)).contains("data-wr=\"waitTimeFormatted\">unknown<");
    String json = body(g.handle(GateRequest.builder("", "GET").ticket(session).query("waitingRoomStatus=1").build()));
    assertThat(json).contains("\"status\":\"waiting\"", "\"waitTimeKnown\":false", "\"suspended\":true", "\"isFIFO\":true");
    assertThat(body(g.handle(html(null, "fr")))).contains("<h1>Le site est en pause pour maintenance</h1>");

    change("{\"suspended\": false}");
    assertThat(g.handle(html(session, null)).passes()).as("the same session goes on").isTrue();
  }

  @Test
  void queueAllSaysTheLineOpensSoonWithoutAnEstimate() {
    Gate g = Gate.builder(room).pageStyle(PageStyle.BRANDED).build();
    change("{\"queueAll\": true}");
    GateResponse r = g.handle(html(null, "en"));
    assertThat(r.passes()).as("nobody is let in, even with a free slot").isFalse();
    assertThat(body(r)).contains("<h1>The line opens soon</h1>", "var state = \"queueAll\";", ">unknown<")
        .doesNotContain(">about ", ">less than a minute<");
    String json = body(g.handle(GateRequest.builder("", "GET").query("waitingRoomStatus=1").build()));
    assertThat(json).contains("\"waitTimeKnown\":false", "\"queueAll\":true");
  }

  @Test
  void theSettingsTextsReplaceTheBuiltInOnesInEveryLanguageEscaped() {
    Gate g = Gate.builder(room).build();
    g.handle(html(null, null)); // takes the only slot
    change("{\"texts\": {\"heading\": \"The <b>spring</b> sale\", \"refreshNote.other\": \"Every {count} s.\","
        + " \"noSuchKey\": \"x\"}}");
    for (String tag : Messages.SHIPPED) {
      String page = body(g.handle(html(null, tag)));
      assertThat(page).as(tag).contains("<h1>The &lt;b&gt;spring&lt;/b&gt; sale</h1>").doesNotContain("<b>spring");
      assertThat(page).as(tag).doesNotContain("noSuchKey");
    }
    assertThat(body(g.handle(html(null, "de")))).containsPattern("Every [0-9]+ s\\.");
    // A state's own heading wins over the plain one.
    change("{\"suspended\": true}");
    assertThat(body(g.handle(html(null, "en")))).contains("<h1>The site is paused for maintenance</h1>");
    change("{\"texts\": {\"pausedHeading\": \"Back at 10:00\"}}");
    assertThat(body(g.handle(html(null, "pl")))).contains("<h1>Back at 10:00</h1>");
  }

  @Test
  void passthroughLetsNewcomersInWithTheRoomFull() {
    Gate g = Gate.builder(room).build();
    assertThat(g.handle(html(null, null)).passes()).isTrue();
    assertThat(g.handle(html(null, null)).passes()).as("full").isFalse();
    change("{\"queueingMethod\": \"passthrough\"}");
    for (int i = 0; i < 5; i++) {
      assertThat(g.handle(html(null, null)).passes()).isTrue();
    }
    String json = body(g.handle(GateRequest.builder("", "GET").query("waitingRoomStatus=1").build()));
    assertThat(json).contains("\"status\":\"admitted\"", "\"isPassthrough\":true", "\"settingsVersion\":1");
  }
}
