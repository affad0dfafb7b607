package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.waitingroom.WaitingRoom;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A form sent by a visitor whose session ran out while they filled it in (found on Spring
 * PetClinic: the owner was never created and the visitor landed on an empty form), over real HTTP
 * on Jetty: it reaches the application when the room has a free slot; otherwise the waiting page
 * says the form was not sent and, once the visitor may go in, goes back to the page it was sent
 * from (the browser's side is {@link SentFormBrowserTest}).
 */
class SentFormTest {
  @RegisterExtension final RoomFixture fixture = new RoomFixture("2026-12-01T10:00:00Z");
  private WaitingRoom room;
  private TestServer server;

  @BeforeEach
  void start() throws Exception {
    room = fixture.room(
        RoomFixture.oneSlot(Duration.ofSeconds(60)).sliceWidth(Duration.ofSeconds(10)).refreshInterval(Duration.ofSeconds(5)));
    server = fixture.serve(WaitingRoomFilter.builder(room));
  }

  @Test
  void aFormFromASessionThatRanOutReachesTheApplicationWhenASlotIsFree() throws Exception {
    Visitor v = new Visitor(server);
    assertThat(v.get("/store/owners/new").body()).contains("<h1>New owner</h1>");
    fixture.sessionRunsOut(room);

    HttpResponse<String> sent =
        v.postForm("/store/owners", "name=Jean+Coleman", server.uri("/store/owners/new").toString());

    assertThat(sent.body()).contains("<h1>Owner added</h1>");
    assertThat(server.owners).containsExactly("Jean Coleman");
  }

  @Test
  void aFormSentWhileTheRoomIsFullIsNotSentAndThePageGoesBackToWhereItWasSentFrom() throws Exception {
    Visitor v = new Visitor(server);
    assertThat(v.get("/store/owners/new").body()).contains("<h1>New owner</h1>");
    fixture.sessionRunsOut(room);
    // Someone else takes the room's only slot while the visitor fills in the form.
    assertThat(new Visitor(server).get("/store").body()).contains("Welcome to the shop");

    HttpResponse<String> sent =
        v.postForm("/store/owners", "name=Jean+Coleman", server.uri("/store/owners/new?from=list&x=1").toString());

    assertThat(server.owners).isEmpty();
    assertThat(sent.body())
        .contains("<p id=\"wr-form\" class=\"form-note\">The site is busy, so your form was not sent.")
        // Without JavaScript the refresh goes there; with it, the poll goes back once admitted.
        .contains("<meta http-equiv=\"refresh\" content=\"5;url=/store/owners/new?from=list&amp;x=1\">")
        .contains("var back = \"/store/owners/new?from=list&x=1\";");
    // A page reached by GET says nothing about a form, and reloads itself.
    HttpResponse<String> page = new Visitor(server).get("/store/owners/new");
    assertThat(page.body()).doesNotContain("wr-form").contains("var back = \"\";")
        .contains("<meta http-equiv=\"refresh\" content=\"5\">");
  }

  @Test
  void aRefererOfAnotherHostOrWithQuotesIsNotReturnedTo() throws Exception {
    assertThat(new Visitor(server).get("/store").body()).contains("Welcome to the shop");

    HttpResponse<String> foreign =
        new Visitor(server).postForm("/store/owners", "name=x", "https://evil.example/store/owners/new");
    HttpResponse<String> quoted =
        new Visitor(server).postForm("/store/owners", "name=x", server.uri("/store/owners/new").toString() + "?q=%22%27\\\"");

    for (HttpResponse<String> r : java.util.List.of(foreign, quoted)) {
      assertThat(r.body()).contains("id=\"wr-form\"").contains("var back = \"\";")
          .contains("<meta http-equiv=\"refresh\" content=\"5\">");
    }
    assertThat(server.owners).isEmpty();
  }
}
