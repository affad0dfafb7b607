package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PathRulesTest {
  @Test
  void matchesWholeSegmentsOnly() {
    PathRules rules = new PathRules("/shop", List.of("/shop/static/", "/shop/health", "/shop/*.ico"));
    assertThat(rules.guards("/shop")).isTrue();
    assertThat(rules.guards("/shop/")).isTrue();
    assertThat(rules.guards("/shop/cart/1")).isTrue();
    assertThat(rules.guards("/shopping")).isFalse();
    assertThat(rules.guards("/")).isFalse();
    assertThat(rules.guards("/shop/static")).isFalse();
    assertThat(rules.guards("/shop/static/x.js")).isFalse();
    assertThat(rules.guards("/shop/statics")).isTrue();
    assertThat(rules.guards("/shop/health")).isFalse();
    assertThat(rules.guards("/shop/healthz")).isTrue();
    assertThat(rules.guards("/shop/favicon.ico")).isFalse();
  }

  @Test
  void rootGuardsEverything() {
    PathRules rules = new PathRules("/", List.of());
    assertThat(rules.prefix()).isEqualTo("/");
    assertThat(rules.guards("/")).isTrue();
    assertThat(rules.guards("/anything/at/all")).isTrue();
  }

  @Test
  void ignoresOnlyCanonicalGetAndHeadRequests() {
    PathRules rules = new PathRules("/", List.of("/static/", "/assets/*.js", "/css/*.css"));
    assertThat(rules.guards("GET", "/static/a.png", "/static/a.png")).isFalse();
    assertThat(rules.guards("HEAD", "/assets/x/y.js", "/assets/x/y.js")).isFalse();
    assertThat(rules.guards("GET", "/css/deep/x.css", "/css/deep/x.css")).isFalse();
    assertThat(rules.guards("POST", "/static/a.png", "/static/a.png")).isTrue();
    assertThat(rules.guards("OPTIONS", "/css/x.css", "/css/x.css")).isTrue();
    assertThat(rules.guards("GET", "/buy.js", "/buy.js")).as("scoped to /assets").isTrue();
    assertThat(rules.guards("GET", "/assets.js", "/assets.js")).isTrue();
    assertThat(rules.guards("GET", "/admin/x.css", "/admin/x.css")).as("scoped to /css").isTrue();
    assertThat(rules.guards("GET", "/css/.css", "/css/.css")).as("an extension needs a name before it").isTrue();
    // What the container decoded differs from what was sent, or the path is not plain.
    assertThat(rules.guards("GET", "/css/buy%3B.css", "/css/buy;.css")).isTrue();
    assertThat(rules.guards("GET", "/css/buy;x.css", "/css/buy")).isTrue();
    assertThat(rules.guards("GET", "/static/../buy", "/buy")).isTrue();
    assertThat(rules.guards("GET", "/static/./a.png", "/static/./a.png")).isTrue();
    assertThat(rules.guards("GET", "/static//a.png", "/static//a.png")).isTrue();
    assertThat(rules.guards("GET", "/static/a b.png", "/static/a b.png")).isTrue();
    assertThat(PathRules.canonical("/", "/")).isTrue();
    assertThat(PathRules.canonical("/static/", "/static/")).isTrue();
    assertThat(PathRules.canonical("/a/..", "/a/..")).isFalse();
  }

  @Test
  void extensionPatternsAreChecked() {
    assertThatThrownBy(() -> new PathRules("/", List.of("*.c*s"))).hasMessageContaining("ignorePaths").hasMessageContaining("'*.c*s'");
    assertThatThrownBy(() -> new PathRules("/", List.of("/static/*.")))
        .hasMessageContaining("'/static/*.'");
    assertThatThrownBy(() -> new PathRules("/", List.of("/sta*tic/x"))).hasMessageContaining("'/sta*tic/x'");
  }

  /** Issue 42: an extension for the whole application would reach its own routes (/admin/x.css). */
  @Test
  void refusesExtensionsForTheWholeApplication() {
    for (String bare : List.of("*.css", "/*.css", " *.css ")) {
      assertThatThrownBy(() -> new PathRules("/", List.of(bare)))
          .hasMessageContaining("ignorePaths '" + bare.trim() + "'").hasMessageContaining("/admin/x.css")
          .hasMessageContaining("'/static/*.css'");
    }
  }

  @Test
  void rejectsPathsThatAreNotPaths() {
    assertThatThrownBy(() -> new PathRules("shop", List.of())).hasMessageContaining("pathPrefix").hasMessageContaining("'shop'");
    assertThatThrownBy(() -> new PathRules("/", List.of("static/"))).hasMessageContaining("ignorePaths").hasMessageContaining("'static/'");
  }

  @Test
  void findsTheStatusFlagInTheRawQueryString() {
    assertThat(QueryFlags.hasFlag("waitingRoomStatus=1", "waitingRoomStatus")).isTrue();
    assertThat(QueryFlags.hasFlag("a=1&waitingRoomStatus", "waitingRoomStatus")).isTrue();
    assertThat(QueryFlags.hasFlag("a=waitingRoomStatus", "waitingRoomStatus")).isFalse();
    assertThat(QueryFlags.hasFlag("waitingRoomStatusX=1", "waitingRoomStatus")).isFalse();
    assertThat(QueryFlags.hasFlag("", "waitingRoomStatus")).isFalse();
    assertThat(QueryFlags.hasFlag(null, "waitingRoomStatus")).isFalse();
  }

  @Test
  void formatsWaitsForPeople() {
    assertThat(PageTemplate.formatWait(-1)).isEqualTo("unknown");
    assertThat(PageTemplate.formatWait(0)).isEqualTo("less than a minute");
    assertThat(PageTemplate.formatWait(61)).isEqualTo("about 2 minutes");
    assertThat(PageTemplate.formatWait(3 * 3600 + 60)).isEqualTo("about 3 hours 1 minutes");
  }
}
