package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The challenge page of both built-in styles in every shipped language: the language's own texts
 * for the challenge, no English one (but in English), no raw key or Mustache tag; and the parts of
 * the proof of work and its helpers (the query parsing, the leading zero bits, the spent set).
 */
class ChallengePageTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();
  static final List<String> LANGUAGES =
      List.of("en", "de", "fr", "es", "it", "pt", "nl", "pl", "ja", "zh", "ar", "he");
  private static final List<String> KEYS_SHOWN = List.of("checkingHeading", "checkingIntro", "checkingNoScript");
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

  static Properties bundle(String tag) throws IOException {
    Properties p = new Properties();
    try (InputStream in = ChallengePageTest.class.getResourceAsStream("i18n/messages_" + tag + ".properties")) {
      p.load(new InputStreamReader(java.util.Objects.requireNonNull(in), StandardCharsets.UTF_8));
    }
    return p;
  }

  @Test
  void everyLanguageShowsItsOwnChallengeTexts() throws IOException {
    Properties en = bundle("en");
    for (PageStyle style : PageStyle.values()) {
      Gate g = Gate.builder(room).pageStyle(style).proofOfWork(10).build();
      g.handle(GateRequest.builder("", "GET").accept("text/html").build()); // takes the only slot
      for (String tag : LANGUAGES) {
        Properties p = bundle(tag);
        String page = new String(
            g.handle(GateRequest.builder("", "GET").accept("text/html").acceptLanguage(tag).build()).body(), StandardCharsets.UTF_8);
        assertThat(page).as("%s %s", style, tag).contains("<html lang=\"" + tag + "\"")
            .contains("<title>" + p.getProperty("checkingHeading"))
            .doesNotContain("{{", "checkingHeading", "checkingIntro");
        for (String key : KEYS_SHOWN) {
          assertThat(page).as("%s %s %s", style, tag, key).contains(escape(p.getProperty(key)));
          if (!tag.equals("en")) {
            assertThat(page).as("%s %s %s in English", style, tag, key).doesNotContain(en.getProperty(key));
          }
        }
        assertThat(page).as("no human check configured").doesNotContain(escape(p.getProperty("checkingHuman")));
        assertThat(page).as("the waiting figures are not shown").doesNotContain("id=\"wr-ahead\"");
      }
    }
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;").replace("'", "&#39;");
  }

  @Test
  void queryValuesAndLeadingZeroBits() {
    assertThat(QueryFlags.queryValue("a=1&waitingRoomProof=x.y&b", "waitingRoomProof")).isEqualTo("x.y");
    assertThat(QueryFlags.queryValue("waitingRoomProofs=1", "waitingRoomProof")).isNull();
    assertThat(QueryFlags.queryValue("waitingRoomProof", "waitingRoomProof")).isEmpty();
    assertThat(QueryFlags.queryValue(null, "x")).isNull();
    assertThat(QueryFlags.hasValue("a=1&waitingRoomStatus=pow-worker.js", "waitingRoomStatus", "pow-worker.js")).isTrue();
    assertThat(QueryFlags.hasValue("waitingRoomStatus=pow-worker.jsx", "waitingRoomStatus", "pow-worker.js")).isFalse();
    assertThat(QueryFlags.hasValue("waitingRoomStatus=1", "waitingRoomStatus", "pow-worker.js")).isFalse();
    assertThat(QueryFlags.hasValue("xwaitingRoomStatus=pow-worker.js", "waitingRoomStatus", "pow-worker.js")).isFalse();
    assertThat(ProofOfWork.leadingZeroBits(new byte[] {0, 0, 0x10, 1})).isEqualTo(19);
    assertThat(ProofOfWork.leadingZeroBits(new byte[] {(byte) 0x80})).isZero();
    assertThat(ProofOfWork.leadingZeroBits(new byte[] {0, 0})).isEqualTo(16);
  }

  @Test
  void aChallengeIsSpentOncePerNodeAndNoNonceSolvesADifficultyOfZero() {
    ProofOfWork pow = new ProofOfWork(room.seal("pow"), 8, 600);
    long now = room.nowSecond();
    ProofOfWork.Challenge c = java.util.Objects.requireNonNull(pow.open(pow.issue(now), now));
    assertThat(pow.spent(c)).isFalse();
    assertThat(pow.spend(c, now)).isTrue();
    assertThat(pow.spent(c)).isTrue();
    assertThat(pow.spend(c, now)).isFalse();
    // Issued in the next window: the set turns, the old window is still remembered.
    ProofOfWork.Challenge next = java.util.Objects.requireNonNull(pow.open(pow.issue(now + 600), now + 600));
    assertThat(pow.spend(next, now + 600)).isTrue();
    assertThat(pow.spend(c, now + 600)).as("still spent").isFalse();
    assertThat(pow.open(c.token(), now + 600)).as("expired").isNull();
    assertThat(pow.open(c.token(), now - 31)).as("from the future").isNull();
    ProofOfWork off = new ProofOfWork(room.seal("pow"), 0, 600);
    String token = off.issue(now);
    assertThat(off.verify(token, "0", now)).isFalse();
    assertThat(off.verify(token, "a", now)).isFalse();
    assertThat(pow.verify(pow.issue(now), "NOT-BASE36", now)).isFalse();
    assertThat(pow.verify(pow.issue(now), "0123456789abcdefg", now)).as("too long").isFalse();
  }
}
