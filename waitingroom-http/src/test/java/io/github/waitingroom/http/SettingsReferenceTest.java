package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The settings reference in {@code docs/configuration.md} is generated from the declarations
 * ({@link GateSettings}): the table between its markers must be what {@link #table()} renders, so
 * the docs cannot drift from the code. Run with {@code -Dwaitingroom.writeDocs=true} to rewrite it.
 */
class SettingsReferenceTest {
  private static final Path DOCS = Path.of("../docs/configuration.md");
  private static final String START = "<!-- gate-settings: generated from GateSettings by SettingsReferenceTest -->\n";
  private static final String END = "<!-- /gate-settings -->\n";

  @Test
  void theDocsTableIsTheDeclarations() throws Exception {
    String docs = Files.readString(DOCS, StandardCharsets.UTF_8);
    int start = docs.indexOf(START);
    int end = docs.indexOf(END);
    assertThat(start).as("the start marker in " + DOCS).isNotNegative();
    assertThat(end).as("the end marker in " + DOCS).isGreaterThan(start);
    String generated = START + table() + END;
    String found = docs.substring(start, end + END.length());
    if (Boolean.getBoolean("waitingroom.writeDocs")) {
      Files.writeString(DOCS, docs.replace(found, generated), StandardCharsets.UTF_8);
      found = generated;
    }
    assertThat(found).as("the generated table in " + DOCS + " (-Dwaitingroom.writeDocs=true rewrites it)").isEqualTo(generated);
  }

  @Test
  void everySettingHasADescriptionAndAnInitParamOrAComposite() {
    for (Setting<?> s : GateSettings.all()) {
      assertThat(s.description()).as(s.name()).isNotBlank().endsWith(".").doesNotContain("|", "{@");
      assertThat(s.initParam() != null || s.boundFrom() != null).as(s.name()).isTrue();
      assertThat(s.property() != null || s.boundFrom() != null).as(s.name()).isTrue();
    }
  }

  /** Plain text as Markdown: the characters that would start emphasis escaped. */
  private static String markdown(String text) {
    return text.replace("*", "\\*").replace("_", "\\_");
  }

  private static String composite(Setting<?> s) {
    return String.valueOf(s.boundFrom());
  }

  static String table() {
    StringBuilder t = new StringBuilder();
    t.append("| setting (builder method) | web.xml init-param | Spring Boot property (`waitingroom.`) | default | meaning |\n");
    t.append("| --- | --- | --- | --- | --- |\n");
    for (Setting<?> s : GateSettings.all()) {
      String composite = s.boundFrom();
      t.append("| `").append(s.name()).append("` | ")
          .append(composite != null ? "see below" : "`" + s.initParam() + "`").append(" | ")
          .append(composite != null ? "see below" : "`" + s.property() + "`").append(" | ")
          .append(s.defaultText().contains("<") ? "`" + s.defaultText() + "`" : s.defaultText()).append(" | ")
          .append(markdown(s.description())).append(" |\n");
    }
    for (Setting<?> s : GateSettings.all()) {
      if (s.boundFrom() != null) {
        t.append("\n`").append(s.name()).append("` is bound from ").append(markdown(composite(s))).append(".\n");
      }
    }
    return t.toString();
  }
}
