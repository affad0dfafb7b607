package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The waiting page and JSON status of a gate, per language, and the page settings. */
class GatePageTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  private final WaitingRoom room =
      WaitingRoom.builder(
              RoomConfig.builder("shop").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(1)).build(),
              KEYS)
          .backgroundSync(false)
          .build();

  @AfterEach
  void close() {
    room.close();
  }

  private Gate gate(UnaryOperator<Gate.Builder> settings) {
    Gate g = settings.apply(Gate.builder(room)).build();
    g.handle(GateRequest.builder("", "GET").accept("text/html").build()); // takes the only slot
    return g;
  }

  private static Page page(Gate g, @Nullable String acceptLanguage) {
    return new Page(g.handle(GateRequest.builder("", "GET").accept("text/html").acceptLanguage(acceptLanguage).build()));
  }

  private record Page(String body, java.util.Map<String, String> headers) {
    Page(GateResponse r) {
      this(new String(r.body(), StandardCharsets.UTF_8), r.headers());
    }
  }

  @Test
  void thePageSpeaksTheVisitorsLanguage() {
    Gate g = gate(b -> b);
    Page de = page(g, "de-DE,de;q=0.9,en;q=0.8");
    assertThat(de.body()).contains("<html lang=\"de\" dir=\"ltr\">", "<h1>Sie sind in der Warteschlange</h1>", "unbekannt");
    assertThat(de.headers()).containsEntry("Content-Language", "de");
    Page ar = page(g, "ar");
    assertThat(ar.body()).contains("<html lang=\"ar\" dir=\"rtl\">", "<h1>أنت في قائمة الانتظار</h1>");
    assertThat(page(g, "he").body()).contains("dir=\"rtl\"");
    assertThat(page(g, "sv").body()).contains("<html lang=\"en\" dir=\"ltr\">", "<h1>You are in line</h1>");
    assertThat(page(g, null).body()).contains("<h1>You are in line</h1>");
  }

  @Test
  void theDefaultAndTheOverrideAreSettings() {
    Gate byDefault = gate(b -> b.defaultLanguage("fr"));
    assertThat(page(byDefault, "sv").body()).contains("lang=\"fr\"");
    assertThat(page(byDefault, "de").body()).contains("lang=\"de\"");
    Gate fixed = gate(b -> b.language("pl"));
    assertThat(page(fixed, "de").body()).contains("lang=\"pl\"", "Jesteś w kolejce");
    assertThat(fixed.languageFor("ja")).isEqualTo("pl");
  }

  @Test
  void theJsonStatusKeepsItsFieldsAndAddsTheTexts() {
    Gate g = gate(b -> b);
    GateResponse json = g.handle(GateRequest.builder("", "GET").query("waitingRoomStatus=1").accept("application/json").acceptLanguage("pl").build());
    String body = new String(json.body(), StandardCharsets.UTF_8);
    // The fields as before, English waitTimeFormatted included, then the additive ones.
    assertThat(body).startsWith("{\"waitingRoom\":{\"roomId\":\"shop\",\"inWaitingRoom\":true,\"status\":\"queued\",\"usersAhead\":0,"
        + "\"waitTimeKnown\":false,\"waitTime\":null,\"waitTimeSeconds\":null,\"waitTimeRangeSeconds\":null,"
        + "\"waitTimeFormatted\":\"unknown\",\"refreshIntervalSeconds\":");
    assertThat(body).contains("\"locale\":\"pl\",\"texts\":{\"usersAheadFormatted\":\"0\",\"waitTimeFormatted\":\"nieznany\"");
    assertThat(body).contains("\"text.usersAheadSentence\":\"Przed Tobą jest 0 osób.\"");
  }

  @Test
  void theBrandedPageShowsTheLogoAndColourAndAllowsTheLogosOrigin() {
    Gate g = gate(b -> b.pageStyle(PageStyle.BRANDED).brandName("Ticket Shop").brandColor("#FFD400")
        .logoUrl("https://cdn.example.com/logo.svg?v=2&x=1"));
    Page r = page(g, "en");
    assertThat(r.body()).contains("--brand: #ffd400; --on-brand: #111111;")
        .contains("<img src=\"https://cdn.example.com/logo.svg?v&#x3D;2&amp;x&#x3D;1\" alt=\"Ticket Shop\">")
        .contains("<title>You are in line · Ticket Shop</title>");
    assertThat(r.headers().get("Content-Security-Policy")).contains("img-src 'self' https://cdn.example.com;");
    Gate dark = gate(b -> b.pageStyle(PageStyle.BRANDED).brandColor("#123"));
    assertThat(page(dark, "en").body()).contains("--on-brand: #ffffff;").doesNotContain("<img");
    assertThat(page(dark, "en").headers().get("Content-Security-Policy")).contains("img-src 'self';");
  }

  @Test
  void badSettingsAreNamed(@TempDir Path dir) throws Exception {
    assertThatIllegalArgumentException().isThrownBy(() -> Gate.builder(room).brandColor("red"))
        .withMessageContaining("brandColor").withMessageContaining("'red'");
    assertThatIllegalArgumentException().isThrownBy(() -> Gate.builder(room).logoUrl("http://x/logo.png"))
        .withMessageContaining("logoUrl");
    assertThatIllegalArgumentException().isThrownBy(() -> Gate.builder(room).logoUrl("//evil/logo.png"))
        .withMessageContaining("logoUrl");
    assertThatIllegalArgumentException().isThrownBy(() -> Gate.builder(room).logoUrl("/a\" onerror=\"x"))
        .withMessageContaining("logoUrl");
    assertThatIllegalArgumentException().isThrownBy(() -> Gate.builder(room).language("xx").build())
        .withMessageContaining("language 'xx' has no texts");
    assertThatIllegalArgumentException().isThrownBy(() -> Gate.builder(room).defaultLanguage("not a tag"))
        .withMessageContaining("defaultLanguage");
    // A template naming a text that only a user bundle has is checked against the bundles.
    Files.writeString(dir.resolve("messages_en.properties"), "promo=Doors open at 10\n", StandardCharsets.UTF_8);
    String html = "<p>{{text.promo}}</p>";
    assertThatIllegalArgumentException().isThrownBy(() -> Gate.builder(room).template(html).build())
        .withMessageContaining("line 1, column 4").withMessageContaining("text.promo");
    Gate g = gate(b -> b.messagesDirectory(dir).template(html));
    assertThat(page(g, "de").body()).startsWith("<p>Doors open at 10</p>");
    Files.writeString(dir.resolve("messages_sv.properties"), "heading=Du står i kö\n", StandardCharsets.UTF_8);
    assertThat(page(gate(b -> b.messagesDirectory(dir)), "sv").body()).contains("<h1>Du står i kö</h1>");
  }

  private static String returnUrl(String method, @Nullable String referer, @Nullable String host) {
    return PageModel.returnUrl(GateRequest.builder("", method).accept("text/html").referer(referer).host(host).build());
  }

  @Test
  void aSentFormReturnsOnlyToAPathOfItsOwnHost() {
    assertThat(returnUrl("POST", "http://shop.example/owners/new?x=1&y=%20", "shop.example")).isEqualTo("/owners/new?x=1&y=%20");
    assertThat(returnUrl("PUT", "https://Shop.Example:8443/a", "shop.example:8443")).isEqualTo("/a");
    // Not a sent form, no host to compare, another host, no path, not a URI, characters the page must not hold.
    assertThat(returnUrl("GET", "http://shop.example/a", "shop.example")).isEmpty();
    assertThat(returnUrl("HEAD", "http://shop.example/a", "shop.example")).isEmpty();
    assertThat(returnUrl("POST", "http://shop.example/a", null)).isEmpty();
    assertThat(returnUrl("POST", null, "shop.example")).isEmpty();
    assertThat(returnUrl("POST", "http://evil.example/a", "shop.example")).isEmpty();
    assertThat(returnUrl("POST", "http://shop.example.evil.example/a", "shop.example")).isEmpty();
    assertThat(returnUrl("POST", "http://shop.example", "shop.example")).isEmpty();
    assertThat(returnUrl("POST", "javascript:alert(1)", "shop.example")).isEmpty();
    assertThat(returnUrl("POST", "/relative/path", "shop.example")).isEmpty();
    assertThat(returnUrl("POST", "http://shop.example//evil.example/a", "shop.example")).isEmpty();
    assertThat(returnUrl("POST", "http://shop.example/a b", "shop.example")).isEmpty();
    assertThat(returnUrl("POST", "http://shop.example/a?q=%22'", "shop.example")).isEmpty();
  }

  @Test
  void aSentFormIsToldInEveryLanguageOnBothPages() throws java.io.IOException {
    java.util.Properties en = ChallengePageTest.bundle("en");
    for (PageStyle style : PageStyle.values()) {
      Gate g = gate(b -> b.pageStyle(style));
      for (String tag : ChallengePageTest.LANGUAGES) {
        String said = ChallengePageTest.bundle(tag).getProperty("formNotSent");
        GateRequest sent = GateRequest.builder("", "POST").accept("text/html").acceptLanguage(tag).referer("http://shop.example/a").host("shop.example").build();
        String page = new String(g.handle(sent).body(), StandardCharsets.UTF_8);
        assertThat(said).as(tag).isNotBlank();
        assertThat(page).as("%s %s", style, tag).contains("<p id=\"wr-form\" class=\"form-note\">" + said.replace("'", "&#39;") + "</p>");
        if (!tag.equals("en")) {
          assertThat(said).as("%s in English", tag).isNotEqualTo(en.getProperty("formNotSent"));
        }
      }
    }
  }
}
