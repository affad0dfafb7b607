package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Mustache templates: errors with their line and column, escaping, and the injected refresh. */
class PageTemplateTest {
  private static final Set<String> TEXTS = PageModel.textKeys(Messages.builtIn());

  private static PageTemplateException failure(String html) {
    try {
      PageTemplate.parse(html, "test", TEXTS);
    } catch (PageTemplateException e) {
      return e;
    }
    throw new AssertionError("parsed: " + html);
  }

  private static Map<String, Object> values() {
    Map<String, Object> v = new HashMap<>();
    for (String name : PageTemplate.VARIABLES) {
      v.put(name, name);
    }
    v.put("refreshMeta", "<META>");
    v.put("refreshScript", "<SCRIPT>");
    v.put("text", Map.of("heading", "You are in line"));
    v.put("waitTimeKnown", false);
    return v;
  }

  @Test
  void aTagThatIsNotClosedFailsWithItsLineAndColumn() {
    PageTemplateException e = failure("<html>\n<body>\n  <p>{{usersAhead</p>\n</body>");
    assertThat(e.line()).isEqualTo(3);
    assertThat(e.column()).isEqualTo(6);
    assertThat(e).hasMessageStartingWith("waiting page template (test), line 3, column 6: ")
        .hasMessageContaining("'{{usersAhead</p>' is not closed with '}}'");
    // A second tag opened before the first is closed.
    PageTemplateException twice = failure("<p>\n {{waitTime {{usersAhead}}</p>");
    assertThat(twice.line()).isEqualTo(2);
    assertThat(twice.column()).isEqualTo(2);
  }

  @Test
  void sectionsMustNestAndClose() {
    PageTemplateException open = failure("<p>\n\n   {{#waitTimeKnown}}{{waitTime}}\n</p>");
    assertThat(open.line()).isEqualTo(3);
    assertThat(open.column()).isEqualTo(4);
    assertThat(open).hasMessageContaining("section '{{#waitTimeKnown}}' is never closed");

    PageTemplateException wrong = failure("{{#waitTimeKnown}}\n{{^logoUrl}}x{{/waitTimeKnown}}{{/logoUrl}}");
    assertThat(wrong.line()).isEqualTo(2);
    assertThat(wrong.column()).isEqualTo(14);
    assertThat(wrong).hasMessageContaining("the open one is '{{#logoUrl}}' (line 2, column 1)");

    PageTemplateException stray = failure("ok\nok {{/waitTimeKnown}}");
    assertThat(stray.line()).isEqualTo(2);
    assertThat(stray.column()).isEqualTo(4);
    assertThat(stray).hasMessageContaining("never opened");
  }

  @Test
  void unknownNamesPartialsAndDelimiterChangesFail() {
    PageTemplateException unknown = failure("<p>{{usersAhead}}</p>\n<p>{{ positon }}</p>");
    assertThat(unknown.line()).isEqualTo(2);
    assertThat(unknown.column()).isEqualTo(4);
    assertThat(unknown).hasMessageContaining("unknown name 'positon' in '{{ positon }}'")
        .hasMessageContaining("{{usersAhead}}");
    PageTemplateException text = failure("{{text.nope}}");
    assertThat(text).hasMessageContaining("unknown name 'text.nope'").hasMessageContaining("{{text.heading}}");
    assertThat(failure("a {{> footer}}")).hasMessageContaining("partials").extracting(PageTemplateException::column)
        .isEqualTo(3);
    assertThat(failure("{{=<% %>=}}")).hasMessageContaining("delimiters");
    assertThat(failure("{{ }}")).hasMessageContaining("empty tag");
    // A dot is fine inside a section only.
    assertThat(failure("{{.}}")).hasMessageContaining("unknown name '.'");
    PageTemplate.parse("{{#logoUrl}}<img src=\"{{.}}\">{{/logoUrl}}", "test", TEXTS);
  }

  @Test
  void valuesAreHtmlEscapedUnlessWrittenWithThreeBraces() {
    PageTemplate t =
        PageTemplate.parse(
            "<html><head>{{{refreshMeta}}}</head><body><p title=\"{{roomId}}\">{{brandName}}|{{{brandName}}}</p>{{{refreshScript}}}</body></html>",
            "test",
            TEXTS);
    Map<String, Object> v = values();
    v.put("roomId", "\"><script>alert(1)</script>");
    v.put("brandName", "Tom & Jerry's <b>");
    String html = t.render(v);
    assertThat(html).contains("title=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\"");
    assertThat(html).contains("Tom &amp; Jerry&#39;s &lt;b&gt;|Tom & Jerry's <b>");
    assertThat(html).doesNotContain("<script>alert(1)");
    // The template placed both itself: nothing is injected.
    assertThat(html).isEqualTo(
        "<html><head><META></head><body><p title=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\">"
            + "Tom &amp; Jerry&#39;s &lt;b&gt;|Tom & Jerry's <b></p><SCRIPT></body></html>");
  }

  @Test
  void aTemplateWithoutTheRefreshGetsItInjected() {
    String html =
        PageTemplate.parse("<html><head><title>x</title></head><body><h1>{{text.heading}}</h1></body></HTML>", "test", TEXTS)
            .render(values());
    assertThat(html).isEqualTo(
        "<html><head><title>x</title><META>\n</head><body><h1>You are in line</h1><SCRIPT>\n</body></HTML>");
    // Its own meta refresh is kept, and only the script is added; a fragment gets both at the end.
    assertThat(PageTemplate.parse("<meta http-equiv=refresh content=5><body></body>", "test", TEXTS).render(values()))
        .isEqualTo("<meta http-equiv=refresh content=5><body><SCRIPT>\n</body>");
    assertThat(PageTemplate.parse("<p>{{usersAhead}}</p>", "test", TEXTS).render(values()))
        .isEqualTo("<p>usersAhead</p><SCRIPT>\n<META>\n");
  }

  @Test
  void sectionsShowWhatIsKnown() {
    PageTemplate t =
        PageTemplate.parse("{{#waitTimeKnown}}{{waitTime}} min{{/waitTimeKnown}}{{^waitTimeKnown}}?{{/waitTimeKnown}}{{{refreshMeta}}}{{{refreshScript}}}", "test", TEXTS);
    Map<String, Object> v = values();
    assertThat(t.render(v)).isEqualTo("?<META><SCRIPT>");
    v.put("waitTimeKnown", true);
    v.put("waitTime", 3L);
    assertThat(t.render(v)).isEqualTo("3 min<META><SCRIPT>");
  }

  @Test
  void theBuiltInPagesParse() {
    for (PageStyle style : PageStyle.values()) {
      PageTemplate.builtIn(style, TEXTS);
    }
  }
}
