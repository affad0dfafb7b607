package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.http.GateRequest;
import io.github.waitingroom.webflux.WaitingRoomWebFilter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

/** The waiting page's properties: style, brand, languages and texts, and their errors. */
class WaitingPagePropertiesTest {
  private static final String[] VALID = ReactiveRunner.ONE_SLOT;

  private final ReactiveWebApplicationContextRunner runner =
      ReactiveRunner.withTheFilters().withPropertyValues(VALID);

  private static String page(WaitingRoomWebFilter filter, String acceptLanguage) {
    GateRequest request = GateRequest.builder("", "GET").accept("text/html").acceptLanguage(acceptLanguage).build();
    filter.gate().handle(request); // the first takes the only slot
    return new String(filter.gate().handle(request).body(), StandardCharsets.UTF_8);
  }

  @Test
  void theBrandedPageInAFixedLanguage(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("messages_pl.properties"), "heading=Prosimy o cierpliwość\n", StandardCharsets.UTF_8);
    runner
        .withPropertyValues(
            "waitingroom.page-style=branded",
            "waitingroom.brand-name=Ticket Shop",
            "waitingroom.brand-color=#0a7d4f",
            "waitingroom.logo-url=/static/logo.svg",
            "waitingroom.language=pl",
            "waitingroom.messages-directory=" + dir)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              WaitingRoomWebFilter filter = context.getBean(WaitingRoomWebFilter.class);
              assertThat(filter.gate().languageFor("de")).isEqualTo("pl");
              assertThat(page(filter, "de"))
                  .contains("<html lang=\"pl\" dir=\"ltr\">", "<h1>Prosimy o cierpliwość</h1>", "--brand: #0a7d4f;")
                  .contains("<img src=\"/static/logo.svg\" alt=\"Ticket Shop\">");
            });
  }

  @Test
  void theDefaultLanguageServesWhoeverTheRoomHasNoTextsFor() {
    runner
        .withPropertyValues("waitingroom.default-language=de")
        .run(
            context -> {
              WaitingRoomWebFilter filter = context.getBean(WaitingRoomWebFilter.class);
              assertThat(filter.gate().languageFor("sv")).isEqualTo("de");
              assertThat(filter.gate().languageFor("fr-CA, de;q=0.5")).isEqualTo("fr");
            });
  }

  @Test
  void badValuesStopTheStartNamingTheProperty() {
    runner.withPropertyValues("waitingroom.brand-color=green")
        .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining("waitingroom.brand-color").hasMessageContaining("#rgb"));
    runner.withPropertyValues("waitingroom.logo-url=javascript:alert(1)")
        .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining("waitingroom.logo-url"));
    runner.withPropertyValues("waitingroom.language=tlh")
        .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining("waitingroom.language").hasMessageContaining("tlh"));
    runner.withPropertyValues("waitingroom.default-language=1x")
        .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining("waitingroom.default-language"));
    runner.withPropertyValues("waitingroom.messages-directory=/nonexistent/texts")
        .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining("waitingroom.messages-directory"));
    runner.withPropertyValues("waitingroom.page-style=fancy")
        .run(c -> assertThat(c).hasFailed());
  }

  @Test
  void aTemplateThatDoesNotParseStopsTheStartWithItsLineAndColumn(@TempDir Path dir) throws Exception {
    Path page = dir.resolve("page.html");
    Files.writeString(page, "<html>\n<body>\n{{#waitTimeKnown}}{{waitTime}}\n</body>", StandardCharsets.UTF_8);
    runner.withPropertyValues("waitingroom.page-template=file:" + page)
        .run(c -> assertThat(c).getFailure().rootCause()
            .hasMessageContaining("waitingroom.page-template")
            .hasMessageContaining("line 3, column 1")
            .hasMessageContaining("never closed"));
  }
}
