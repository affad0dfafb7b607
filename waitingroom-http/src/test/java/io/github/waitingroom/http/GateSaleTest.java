package io.github.waitingroom.http;

import static io.github.waitingroom.http.GateCalls.body;
import static io.github.waitingroom.http.GateCalls.html;
import static io.github.waitingroom.http.GateCalls.ticket;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.testsupport.ManualRooms;
import io.github.waitingroom.ManualClock;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * What a gate answers for a sale: the countdown page and the event fields of the JSON status and
 * the template while a scheduled event pre-queues (with and without the lottery) and once it runs,
 * the page of a random queue, and the session an application may revoke. The room runs on a
 * {@link ManualClock} without background sync.
 */
class GateSaleTest {
  private static final Instant T0 = ManualRooms.START;
  @RegisterExtension final ManualRooms rooms = new ManualRooms(T0);
  private final ManualClock clock = rooms.clock;
  private final WaitingRoom room = rooms.room(ManualRooms.oneSlot("shop", Duration.ofMinutes(1)));

  private void change(String json) {
    rooms.putInForce(room, json);
  }

  /** An event whose pre-queue opens at T0 and which starts at T0 + 10 min, ends at T0 + 1 h. */
  private void scheduleEvent(boolean lottery) {
    change("{\"events\": [{\"name\": \"drop\", \"prequeueStart\": \"" + T0 + "\", \"start\": \"" + T0.plusSeconds(600)
        + "\", \"end\": \"" + T0.plusSeconds(3600) + "\", \"shuffleAtEventStart\": " + lottery + "}]}");
  }

  private static GateRequest json(@Nullable String session) {
    return GateRequest.builder("", "GET").ticket(session).query("waitingRoomStatus=1").build();
  }

  @Test
  void withoutAnEventTheStatusSaysSoInCloudflaresFields() {
    Gate g = Gate.builder(room).build();
    assertThat(body(g.handle(json(null))))
        .contains("\"isEventActive\":false", "\"isEventPrequeueing\":false", "\"eventName\":\"\"",
            "\"timeUntilEventStart\":0", "\"timeUntilEventStartFormatted\":\"unavailable\"", "\"timeUntilEventEnd\":0",
            "\"timeUntilEventEndFormatted\":\"unavailable\"", "\"shuffleAtEventStart\":false", "\"isRandom\":false",
            "\"isFIFO\":true");
  }

  @Test
  void aPrequeueAnswersTheCountdownPageWithTheLotteryNoteAndNobodyGoesIn() {
    Gate g = Gate.builder(room).build();
    scheduleEvent(true);
    assertThat(room.eventPrequeueing()).isTrue();
    long left = T0.getEpochSecond() + 600 - room.nowSecond();

    GateResponse page = g.handle(html(null, "en"));
    assertThat(page.passes()).as("nobody goes in before the start, the room empty as it is").isFalse();
    String html = body(page);
    assertThat(html)
        .contains("<title>The sale opens in</title>", "<h1>The sale opens in</h1>", "role=\"timer\"",
            "data-wr-countdown=\"" + left + "\"", ">" + (left / 60) + ":" + String.format("%02d", left % 60) + "<",
            "places in line are drawn by lottery", "var untilStart = " + left + ";",
            "<noscript><meta http-equiv=\"refresh\"")
        .doesNotContain("People ahead of you");
    assertThat(body(g.handle(html(null, "de")))).contains("<h1>Der Verkauf beginnt in</h1>", "ausgelost");
    assertThat(body(g.handle(html(null, "ja")))).contains("<h1>販売開始まで</h1>", "抽選");

    String status = body(g.handle(json(ticket(page))));
    assertThat(status)
        .contains("\"inWaitingRoom\":true", "\"waitTimeKnown\":false", "\"isEventActive\":true",
            "\"isEventPrequeueing\":true", "\"eventName\":\"drop\"", "\"timeUntilEventStart\":" + left,
            "\"timeUntilEventStartFormatted\":\"10 minutes\"", "\"shuffleAtEventStart\":true",
            "\"timeUntilEventEndFormatted\":\"60 minutes\"");
  }

  @Test
  void withoutTheLotteryThePrequeuePageSaysNothingOfADraw() {
    Gate g = Gate.builder(room).build();
    scheduleEvent(false);
    String html = body(g.handle(html(null, "en")));
    assertThat(html).contains("<h1>The sale opens in</h1>").doesNotContain("lottery");
    assertThat(body(g.handle(json(null)))).contains("\"shuffleAtEventStart\":false", "\"isEventPrequeueing\":true");
  }

  @Test
  void onceTheEventStartsThePageIsTheWaitingPageAndTheFieldsCountToItsEnd() {
    Gate g = Gate.builder(room).build();
    scheduleEvent(true);
    clock.advance(Duration.ofSeconds(600));
    room.sync();
    assertThat(room.eventPrequeueing()).isFalse();
    assertThat(room.event()).isNotNull();
    long toEnd = T0.getEpochSecond() + 3600 - room.nowSecond();
    String status = body(g.handle(json(null)));
    assertThat(status).contains("\"isEventActive\":true", "\"isEventPrequeueing\":false", "\"timeUntilEventStart\":0",
        "\"timeUntilEventStartFormatted\":\"0 minutes\"", "\"timeUntilEventEnd\":" + toEnd, "\"eventName\":\"drop\"");
  }

  @Test
  void aCustomTemplateGetsTheEventVariables() {
    Gate g = Gate.builder(room)
        .template("<html><head></head><body>{{#isEventPrequeueing}}opens in {{timeUntilEventStartFormatted}}"
            + " ({{eventCountdown}}, {{timeUntilEventStart}} s) for {{eventName}}{{#shuffleAtEventStart}} by lottery"
            + "{{/shuffleAtEventStart}}{{/isEventPrequeueing}} active={{isEventActive}} ends in"
            + " {{timeUntilEventEndFormatted}} ({{timeUntilEventEnd}}) random={{isRandom}}</body></html>")
        .build();
    assertThat(g.handle(html(null, "en")).passes()).as("the one slot").isTrue();
    assertThat(body(g.handle(html(null, "en")))).contains("active=false", "random=false").doesNotContain("opens in");
    scheduleEvent(true);
    long left = T0.getEpochSecond() + 600 - room.nowSecond();
    assertThat(body(g.handle(html(null, "en"))))
        .contains("opens in 10 minutes", "(" + left / 60 + ":", left + " s) for drop by lottery", "active=true",
            "ends in 60 minutes");
  }

  @Test
  void aRandomQueueTellsHowManyWaitAndThatEachHasTheSameChance() {
    Gate g = Gate.builder(room).build();
    change("{\"queueingMethod\": \"random\"}");
    GateResponse first = g.handle(html(null, "en"));
    assertThat(first.passes()).isTrue();
    GateResponse queued = g.handle(html(null, "en"));
    assertThat(queued.passes()).isFalse();
    String page = body(queued);
    assertThat(page)
        .contains("People waiting", "Typical wait", "everyone waiting has the same chance whenever a place frees",
            "drawn at random", "var state = \"open+random\";")
        .doesNotContain("People ahead of you", "ahead of you.");
    assertThat(body(Gate.builder(room).pageStyle(PageStyle.BRANDED).build().handle(html(ticket(queued), "en"))))
        .contains("waiting; everyone waiting has the same chance", "Typical wait");
    assertThat(body(g.handle(html(ticket(queued), "de")))).contains("Wartende Personen", "die gleiche Chance");
    assertThat(body(g.handle(json(ticket(queued))))).contains("\"isRandom\":true", "\"queueingMethod\":\"random\"",
        "\"isFIFO\":false", "same chance whenever a place frees");
  }

  @Test
  void revokeIsOffByDefault() {
    Gate g = Gate.builder(room).build();
    GateResponse in = g.handle(html(null, "en"));
    assertThat(in.passes()).isTrue();
    assertThat(g.revokeOn()).isFalse();
    assertThat(g.session(html(null, "en"), in, c -> {})).isNull();
  }

  @Test
  void aRevokedSessionDeletesItsCookieOnceAndFreesTheTicket() {
    Gate g = Gate.builder(room).revoke(true).pathPrefix("/shop").build();
    GateRequest r = GateRequest.builder("/app", "GET").secure(true).accept("text/html").acceptLanguage("en").build();
    GateResponse in = g.handle(r);
    assertThat(in.passes()).isTrue();
    String session = ticket(in);
    assertThat(in.session()).isEqualTo(session);
    List<String> deleted = new ArrayList<>();
    WaitingRoomSession s = java.util.Objects.requireNonNull(g.session(r, in, deleted::add));
    assertThat(s.roomId()).isEqualTo("shop");
    assertThat(s.revoked()).isFalse();
    assertThat(s.revoke()).isTrue();
    assertThat(s.revoked()).isTrue();
    assertThat(s.revoke()).as("once per request").isFalse();
    assertThat(deleted).containsExactly("wr_shop=; Path=/app/shop; Max-Age=0; HttpOnly; Secure; SameSite=Lax");
    assertThat(g.deleteCookie(r)).isEqualTo(deleted.get(0));

    // The old ticket is never let through again: it arrives anew, and the slot frees only at a
    // later plan, so the replay is a newcomer in a room that is still full.
    GateResponse replay = g.handle(GateRequest.builder("/app", "GET").secure(true).ticket(session).accept("text/html").acceptLanguage("en").build());
    assertThat(replay.passes()).isFalse();
    assertThat(ResponseHeaders.isRevokeHeader("x-waitingroom-revoke")).isTrue();
    assertThat(ResponseHeaders.isRevokeHeader("X-WaitingRoom")).isFalse();
  }
}
