package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The page scripts read from resource files render byte for byte what the Java-string scripts of
 * the earlier {@code Gate} did: the digests below are those of the earlier scripts for the same
 * values. Values are put in once, never scanned for markers again.
 */
class PageScriptsTest {
  private static String sha256(String s) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void theChallengeScriptIsTheOneTheGateWroteBefore() throws Exception {
    String script = PageScripts.challenge("NONCE", new Friction.Challenged("tok.en-1", 17, 29), "/a?b=1&c={{state}}",
        "waitingRoomStatus");
    assertThat(sha256(script)).isEqualTo("a5312a20aae445e4bdbc33a3b7ab345c5a87bd5435d542535cc60007460ce542");
    assertThat(script).startsWith("<script nonce=\"NONCE\">\n").endsWith("})();\n</script>")
        .contains("back = \"/a?b=1&c={{state}}\"");
  }

  @Test
  void thePollScriptIsTheOneTheGateWroteBefore() throws Exception {
    String script = PageScripts.refresh("N2", 7, "/x@y", "prequeue+random",
        new PageModel.EventNow("x", true, true, 42, 99, false), "waitingRoomStatus", '\u0660');
    assertThat(sha256(script)).isEqualTo("b70c90694f4aea47d612bbe0b193c0714854dff53fd95897bd60e811d8536bb1");
    assertThat(script).contains("var untilStart = 42;").contains("var state = \"prequeue+random\";")
        .contains("zero = 1632;");
  }

  @Test
  void aTemplateIsSplitOnceIntoTextAndMarkers() {
    PageScripts.Template t = PageScripts.Template.parse("a{{x}}b{{y}}c");
    assertThat(t.literals()).containsExactly("a", "b", "c");
    assertThat(t.names()).containsExactly("x", "y");
    assertThat(t.render(java.util.Map.of("x", "{{y}}", "y", "2"))).isEqualTo("a{{y}}b2c");
  }
}
