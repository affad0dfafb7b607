package io.github.waitingroom.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.waitingroom.AdaptiveLimit;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.http.SettingException;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Configuration from web.xml init-params: what works, and what fails at start-up with a clear message. */
class InitParamsTest {
  static Map<String, String> minimal() {
    Map<String, String> p = new HashMap<>();
    p.put("roomId", "shop");
    p.put("totalActiveUsers", "100");
    p.put("newUsersPerMinute", "50");
    p.put("sessionDuration", "5m");
    p.put("generateEphemeralKeyset", "true");
    return p;
  }

  private static FilterSettings read(Map<String, String> params, Map<String, String> env) {
    return InitParams.read(params::get, Collections.enumeration(params.keySet()), env::get);
  }

  private static String failure(Map<String, String> params) {
    try {
      FilterSettings s = read(params, Map.of());
      s.room().close();
      throw new AssertionError("expected a configuration error for " + params);
    } catch (IllegalArgumentException | IllegalStateException e) {
      return String.valueOf(e.getMessage());
    }
  }

  @Test
  void buildsARoomAndFilterSettingsFromInitParams(@TempDir Path dir) throws Exception {
    Path keyset = dir.resolve("keyset.json");
    Files.writeString(keyset, TicketKeys.toJson(TicketKeys.generate()));
    Map<String, String> p = minimal();
    p.remove("generateEphemeralKeyset");
    p.put("keysetFile", keyset.toString());
    p.put("refreshInterval", "PT15S");
    p.put("pathPrefix", "/shop/");
    p.put("ignorePaths", "/shop/static/, /shop/health /shop/css/*.css");
    p.put("cookieName", "line");
    p.put("cookieSecure", "always");
    p.put("cookieSameSite", "strict");
    p.put("waitingStatus", "202");
    p.put("statusParam", "queue");
    p.put("nodeId", "web-1");
    p.put("dataCenter", "eu-west");
    FilterSettings s = read(p, Map.of());
    try {
      assertThat(s.room().config().sessionDuration()).isEqualTo(Duration.ofMinutes(5));
      assertThat(s.room().config().refreshInterval()).isEqualTo(Duration.ofSeconds(15));
      assertThat(s.ownsRoom()).isTrue();
      assertThat(s.gate().paths().prefix()).isEqualTo("/shop");
      assertThat(s.gate().paths().guards("/shop/cart")).isTrue();
      assertThat(s.gate().paths().guards("/shop/static/a.js")).isFalse();
      assertThat(s.gate().paths().guards("/shop/health")).isFalse();
      assertThat(s.gate().paths().guards("/shop/css/site.css")).isFalse();
      assertThat(s.gate().paths().guards("/elsewhere")).isFalse();
      assertThat(s.gate().cookieName()).isEqualTo("line");
      assertThat(s.gate().cookieSecure()).isEqualTo(io.github.waitingroom.http.CookieSecure.ALWAYS);
      assertThat(s.gate().cookieSameSite()).isEqualTo(io.github.waitingroom.http.SameSite.STRICT);
      assertThat(s.gate().waitingStatus()).isEqualTo(202);
      assertThat(s.gate().statusParam()).isEqualTo("queue");
    } finally {
      s.room().close();
    }
  }

  @Test
  void readsTheKeysetFromAnEnvironmentVariable() {
    Map<String, String> p = minimal();
    p.remove("generateEphemeralKeyset");
    p.put("keysetEnv", "SHOP_KEYSET");
    FilterSettings s = read(p, Map.of("SHOP_KEYSET", TicketKeys.toJson(TicketKeys.generate())));
    s.room().close();
    assertThat(s.gate().cookieName()).isEqualTo("wr_shop");
  }

  @Test
  void refusesToStartWithoutAKeysetUnlessToldToGenerateOne() {
    Map<String, String> p = minimal();
    p.remove("generateEphemeralKeyset");
    assertThat(failure(p)).contains("no ticket keyset", "keysetFile", "keysetEnv", "generateEphemeralKeyset=true");
    p.put("keysetEnv", "MISSING_KEYSET");
    assertThat(failure(p)).contains("keysetEnv", "'MISSING_KEYSET'", "not set");
    p.put("keysetFile", "/nonexistent/keyset.json");
    assertThat(failure(p)).contains("not both");
    p.remove("keysetEnv");
    assertThat(failure(p)).contains("keysetFile", "/nonexistent/keyset.json");
  }

  /** Every message of the error and its causes, as a log line of the stack trace would show them. */
  private static String allMessages(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      out.append(t).append('\n');
      for (Throwable s : t.getSuppressed()) {
        out.append(allMessages(s));
      }
    }
    return out.toString();
  }

  private static String failureChain(Map<String, String> params, Map<String, String> env) {
    try {
      read(params, env).room().close();
      throw new AssertionError("expected a configuration error for " + params.keySet());
    } catch (IllegalArgumentException | IllegalStateException e) {
      return allMessages(e);
    }
  }

  /** The base64 key material of a Tink JSON keyset: what must never reach a log. */
  private static String keyMaterial(String json) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"value\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
    assertThat(m.find()).as(json).isTrue();
    return m.group(1);
  }

  private static void assertNoKeyMaterial(String message, String json) {
    String material = keyMaterial(json);
    assertThat(message)
        .doesNotContain(material)
        .doesNotContain(material.substring(0, 12))
        .doesNotContain(material.substring(material.length() - 12))
        .doesNotContain("{")
        .doesNotContain("keyData")
        .doesNotContain("primaryKeyId");
  }

  @Test
  void aKeysetGivenWhereANameWasExpectedIsNeverEchoed() throws Exception {
    String json = TicketKeys.toJson(TicketKeys.generate());
    Map<String, String> p = minimal();
    p.remove("generateEphemeralKeyset");

    p.put("keysetEnv", json);
    String env = failureChain(p, Map.of());
    assertNoKeyMaterial(env, json);
    assertThat(env).contains("keysetEnv", "not shown");

    p.remove("keysetEnv");
    p.put("keysetFile", json);
    String file = failureChain(p, Map.of());
    assertNoKeyMaterial(file, json);
    assertThat(file).contains("keysetFile", "not shown");

    p.put("keysetEnv", json);
    String both = failureChain(p, Map.of());
    assertNoKeyMaterial(both, json);
    assertThat(both).contains("not both");

    // A keyset pasted on one line, without braces around it, or base64 of the binary form.
    p.remove("keysetEnv");
    String inner = json.substring(json.indexOf('{') + 1, json.lastIndexOf('}'));
    p.put("keysetFile", inner);
    assertThat(failureChain(p, Map.of())).doesNotContain(keyMaterial(json)).contains("keysetFile");
    p.remove("keysetFile");
    p.put("keysetEnv", keyMaterial(json));
    assertThat(failureChain(p, Map.of())).doesNotContain(keyMaterial(json)).contains("keysetEnv");

    // Through the container, the ServletException and its causes say nothing either.
    p.remove("keysetFile");
    p.put("keysetEnv", json);
    try {
      new WaitingRoomFilter().init(config("shopRoom", p));
      throw new AssertionError("expected init to fail");
    } catch (ServletException e) {
      assertNoKeyMaterial(allMessages(e), json);
    }
  }

  @Test
  void aBrokenKeysetInTheNamedVariableOrFileIsNotQuotedEither(@TempDir Path dir) throws Exception {
    String json = TicketKeys.toJson(TicketKeys.generate());
    String material = keyMaterial(json);
    // Broken in ways that parsers like to quote: a cut-off document, a bad number, a bad enum.
    List<String> broken = List.of(
        json.substring(0, json.indexOf(material) + material.length() + 2),
        json.replaceFirst("\"primaryKeyId\"\\s*:\\s*(\\d+)", "\"primaryKeyId\": \"" + material + "\""),
        json.replace("\"ENABLED\"", "\"" + material + "\""));
    Map<String, String> p = minimal();
    p.remove("generateEphemeralKeyset");
    for (String text : broken) {
      p.put("keysetEnv", "SHOP_KEYSET");
      String env = failureChain(p, Map.of("SHOP_KEYSET", text));
      assertThat(env).contains("'SHOP_KEYSET'").doesNotContain(material).doesNotContain(material.substring(0, 12));
      p.remove("keysetEnv");
      Path file = dir.resolve("keyset.json");
      Files.writeString(file, text);
      p.put("keysetFile", file.toString());
      String fromFile = failureChain(p, Map.of());
      assertThat(fromFile).contains(file.toString()).doesNotContain(material).doesNotContain(material.substring(0, 12));
      p.remove("keysetFile");
    }
  }

  @Test
  void badSettingsFailNamingTheSettingAndTheValue() {
    Map<String, String> p = minimal();
    p.put("sesionDuration", "5m");
    assertThat(failure(p)).contains("unknown init-param 'sesionDuration'", "sessionDuration");

    p = minimal();
    p.remove("roomId");
    assertThat(failure(p)).contains("roomId is required");

    p = minimal();
    p.put("sessionDuration", "five minutes");
    assertThat(failure(p)).contains("sessionDuration", "'five minutes'");

    p = minimal();
    p.put("totalActiveUsers", "lots");
    assertThat(failure(p)).contains("totalActiveUsers", "'lots'");

    p = minimal();
    p.put("waitingStatus", "503");
    assertThat(failure(p)).contains("waitingStatus", "503");

    p = minimal();
    p.put("cookieSameSite", "sometimes");
    assertThat(failure(p)).contains("cookieSameSite", "'sometimes'", "LAX");

    p = minimal();
    p.put("cookieSameSite", "none");
    p.put("cookieSecure", "never");
    assertThat(failure(p)).contains("cookieSameSite NONE", "NEVER");

    p = minimal();
    p.put("pathPrefix", "shop");
    assertThat(failure(p)).contains("pathPrefix", "'shop'");

    p = minimal();
    p.put("generateEphemeralKeyset", "yes");
    assertThat(failure(p)).contains("generateEphemeralKeyset", "'yes'");
  }

  @Test
  void aCustomTemplateWithAnUnknownVariableFailsAtStartUp(@TempDir Path dir) throws Exception {
    Path template = dir.resolve("page.html");
    Files.writeString(template, "<p>{{usersAhead}} ahead, {{positon}}</p>");
    Map<String, String> p = minimal();
    p.put("templateFile", template.toString());
    assertThat(failure(p)).contains("templateFile", "{{positon}}", "{{usersAhead}}");
  }

  @Test
  void initWrapsErrorsInAServletExceptionNamingTheFilter() {
    Map<String, String> p = minimal();
    p.put("newUsersPerMinute", "500");
    assertThatThrownBy(() -> new WaitingRoomFilter().init(config("shopRoom", p)))
        .isInstanceOf(ServletException.class)
        .hasMessageContaining("WaitingRoomFilter 'shopRoom'")
        .hasMessageContaining("newUsersPerMinute");
  }

  @Test
  void aContainerCreatedFilterServesRealRequests(@TempDir Path dir) throws Exception {
    Path keyset = dir.resolve("keyset.json");
    Files.writeString(keyset, TicketKeys.toJson(TicketKeys.generate()));
    Map<String, String> p = new HashMap<>();
    p.put("roomId", "web");
    p.put("totalActiveUsers", "1");
    p.put("newUsersPerMinute", "1");
    p.put("sessionDuration", "300");
    p.put("keysetFile", keyset.toString());
    p.put("ignorePaths", "/health");
    try (TestServer server = TestServer.startWithInitParams(p)) {
      Visitor first = new Visitor(server);
      HttpResponse<String> admitted = first.get("/");
      assertThat(admitted.body()).isEqualTo("app:/");
      assertThat(admitted.headers().firstValue("Set-Cookie")).hasValueSatisfying(c -> assertThat(c).startsWith("wr_web="));
      HttpResponse<String> queued = new Visitor(server).get("/");
      assertThat(queued.body()).contains("<h1>You are in line</h1>");
      assertThat(new Visitor(server).get("/health").body()).isEqualTo("app:/health");
    }
  }

  private static FilterConfig config(String name, Map<String, String> params) {
    return new FilterConfig() {
      @Override
      public String getFilterName() {
        return name;
      }

      @Override
      public ServletContext getServletContext() {
        throw new UnsupportedOperationException();
      }

      @Override
      public @Nullable String getInitParameter(String key) {
        return params.get(key);
      }

      @Override
      public Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(params.keySet());
      }
    };
  }

  @Test
  void frictionFromInitParamsWithTheCaptchaSecretFromTheEnvironment() {
    Map<String, String> p = minimal();
    p.put("proofOfWork", "16");
    p.put("challengePenalty", "45s");
    p.put("humanCheck", "turnstile");
    p.put("humanCheckSiteKey", "site-key");
    p.put("humanCheckSecretEnv", "TURNSTILE_SECRET");
    p.put("humanCheckFlagBelow", "0.3");
    FilterSettings s = read(p, Map.of("TURNSTILE_SECRET", "s3cret"));
    try {
      assertThat(s.gate().frictionOn()).isTrue();
    } finally {
      s.room().close();
    }
    Map<String, String> off = minimal();
    FilterSettings plain = read(off, Map.of());
    try {
      assertThat(plain.gate().frictionOn()).isFalse();
    } finally {
      plain.room().close();
    }

    Map<String, String> bad = minimal();
    bad.put("proofOfWork", "40");
    assertThat(failure(bad)).contains("proofOfWork must be 0 (off) to 32 bits but was 40");
    bad = minimal();
    bad.put("challengePenalty", "10m");
    assertThat(failure(bad)).contains("challengePenalty must be 1 s to 5 min");
    bad = minimal();
    bad.put("humanCheck", "turnstile");
    bad.put("humanCheckSiteKey", "site-key");
    bad.put("humanCheckSecretEnv", "UNSET_SECRET");
    assertThat(failure(bad)).contains("humanCheckSecretEnv names the environment variable 'UNSET_SECRET', which is not set");
    bad.put("humanCheck", "mycaptcha");
    assertThat(failure(bad)).contains("humanCheck must be turnstile, hcaptcha or recaptcha but was 'mycaptcha'");
    bad = minimal();
    bad.put("humanCheckSiteKey", "site-key");
    assertThat(failure(bad)).contains("humanCheckSiteKey needs init-param humanCheck");
  }

  /** Issue 42's two new init-params: CORS pass-through and the no-script budget. */
  @Test
  void corsPassThroughAndNoScriptPlacesFromInitParams() {
    Map<String, String> p = minimal();
    p.put("corsPassThrough", "true");
    p.put("proofOfWork", "16");
    p.put("noScriptPlaces", "5");
    FilterSettings s = read(p, Map.of());
    try {
      assertThat(s.gate().corsPassThrough()).isTrue();
    } finally {
      s.room().close();
    }
    FilterSettings plain = read(minimal(), Map.of());
    try {
      assertThat(plain.gate().corsPassThrough()).as("off by default").isFalse();
    } finally {
      plain.room().close();
    }
    Map<String, String> bad = minimal();
    bad.put("corsPassThrough", "yes");
    assertThat(failure(bad)).contains("init-param corsPassThrough: corsPassThrough must be true or false but was 'yes'");
    bad = minimal();
    bad.put("noScriptPlaces", "-1");
    assertThat(failure(bad)).contains("noScriptPlaces must be 0 to 10000 a minute but was -1");
    bad.put("noScriptPlaces", "many");
    assertThat(failure(bad)).contains("init-param noScriptPlaces: noScriptPlaces must be a whole number but was 'many'");
  }

  @Test
  void everyBadValueIsOneTypedErrorNamingTheSettingAndTheInitParam() {
    Map<String, String> bad = minimal();
    bad.put("waitingStatus", "503");
    SettingException e = settingFailure(bad);
    assertThat(e.setting()).isEqualTo("waitingStatus");
    assertThat(e.source()).isEqualTo(SettingException.Source.INIT_PARAM);
    assertThat(e.key()).isEqualTo("waitingStatus");
    assertThat(e.value()).isEqualTo("503");
    assertThat(e.reason()).isEqualTo("waitingStatus must be 200, 202 or 429 but was 503");
    // A check that spans settings, made when the gate is built, names the init-param too.
    bad = minimal();
    bad.put("cookieSameSite", "none");
    bad.put("cookieSecure", "never");
    e = settingFailure(bad);
    assertThat(e.source()).isEqualTo(SettingException.Source.INIT_PARAM);
    assertThat(e.key()).isEqualTo("cookieSameSite");
    // The template's key is its init-param, not the setting's name.
    bad = minimal();
    bad.put("templateFile", "/nonexistent/page.html");
    e = settingFailure(bad);
    assertThat(e.setting()).isEqualTo("template");
    assertThat(e.key()).isEqualTo("templateFile");
    // And a room setting, which the core checks.
    bad = minimal();
    bad.put("totalActiveUsers", "0");
    e = settingFailure(bad);
    assertThat(e.key()).isEqualTo("totalActiveUsers");
    assertThat(e.getMessage()).startsWith("init-param totalActiveUsers: ");
  }

  @Test
  void minMaxAndLatencyTurnTheAdaptiveLimitOn() {
    Map<String, String> p = minimal();
    FilterSettings off = read(p, Map.of());
    try {
      assertThat(off.room().config().adaptiveLimit()).as("off unless given").isNull();
    } finally {
      off.room().close();
    }
    p.put("adaptiveLimit.min", "20");
    p.put("adaptiveLimit.max", "400");
    p.put("adaptiveLimit.latency", "500ms");
    FilterSettings s = read(p, Map.of());
    try {
      assertThat(s.room().config().adaptiveLimit())
          .isEqualTo(AdaptiveLimit.between(20, 400, Duration.ofMillis(500)));
      assertThat(s.room().settings().adaptiveLimit()).as("in force from the start").isNotNull();
    } finally {
      s.room().close();
    }
    p.put("adaptiveLimit.step", "0.2");
    p.put("adaptiveLimit.failureShare", "0.05");
    p.put("adaptiveLimit.latency", "PT1S");
    s = read(p, Map.of());
    try {
      assertThat(s.room().config().adaptiveLimit())
          .isEqualTo(new AdaptiveLimit(20, 400, Duration.ofSeconds(1), 0.2, 0.05));
    } finally {
      s.room().close();
    }
  }

  @Test
  void theInitParamScaleNewUsersPerMinuteScalesThemWithTheAdaptiveLimit() {
    Map<String, String> p = minimal();
    p.put("adaptiveLimit.min", "20");
    p.put("adaptiveLimit.max", "400");
    p.put("adaptiveLimit.latency", "500ms");
    FilterSettings off = read(p, Map.of());
    try {
      assertThat(Objects.requireNonNull(off.room().config().adaptiveLimit()).scaleNewUsersPerMinute())
          .as("off unless given").isFalse();
    } finally {
      off.room().close();
    }
    p.put("adaptiveLimit.scaleNewUsersPerMinute", "true");
    FilterSettings s = read(p, Map.of());
    try {
      assertThat(s.room().config().adaptiveLimit())
          .isEqualTo(AdaptiveLimit.between(20, 400, Duration.ofMillis(500)).withScaleNewUsersPerMinute(true));
      assertThat(s.room().settings().adaptiveLimit()).as("in force from the start")
          .isEqualTo(s.room().config().adaptiveLimit());
    } finally {
      s.room().close();
    }

    p.put("adaptiveLimit.scaleNewUsersPerMinute", "yes please");
    SettingException e = settingFailure(p);
    assertThat(e.key()).isEqualTo("adaptiveLimit.scaleNewUsersPerMinute");
    assertThat(e.getMessage()).isEqualTo("init-param adaptiveLimit.scaleNewUsersPerMinute:"
        + " adaptiveLimit.scaleNewUsersPerMinute must be true or false but was 'yes please'");

    Map<String, String> alone = minimal();
    alone.put("adaptiveLimit.scaleNewUsersPerMinute", "true");
    assertThat(settingFailure(alone).getMessage()).startsWith("init-param adaptiveLimit.min: adaptiveLimit.min,"
        + " adaptiveLimit.max and adaptiveLimit.latency are missing: ")
        .endsWith("and adaptiveLimit.scaleNewUsersPerMinute is given");
  }

  @Test
  void anAdaptiveLimitGivenInPartFailsNamingWhatIsMissing() {
    Map<String, String> p = minimal();
    p.put("adaptiveLimit.min", "20");
    SettingException e = settingFailure(p);
    assertThat(e.source()).isEqualTo(SettingException.Source.INIT_PARAM);
    assertThat(e.key()).isEqualTo("adaptiveLimit.max");
    assertThat(e.getMessage()).isEqualTo("init-param adaptiveLimit.max: adaptiveLimit.max and adaptiveLimit.latency are"
        + " missing: adaptiveLimit.min, adaptiveLimit.max and adaptiveLimit.latency turn the adaptive limit on together,"
        + " and adaptiveLimit.min is given");

    p = minimal();
    p.put("adaptiveLimit.max", "400");
    p.put("adaptiveLimit.latency", "1s");
    assertThat(settingFailure(p).getMessage()).startsWith("init-param adaptiveLimit.min: adaptiveLimit.min is missing: ");

    p = minimal();
    p.put("adaptiveLimit.step", "0.2");
    assertThat(settingFailure(p).getMessage()).startsWith("init-param adaptiveLimit.min: adaptiveLimit.min,"
        + " adaptiveLimit.max and adaptiveLimit.latency are missing: ").endsWith("and adaptiveLimit.step is given");
  }

  @Test
  void aBadAdaptiveLimitFailsNamingTheInitParam() {
    Map<String, String> p = minimal();
    p.put("adaptiveLimit.min", "20");
    p.put("adaptiveLimit.max", "10");
    p.put("adaptiveLimit.latency", "1s");
    SettingException e = settingFailure(p);
    assertThat(e.key()).isEqualTo("adaptiveLimit.max");
    assertThat(e.value()).isEqualTo("10");
    assertThat(e.getMessage()).isEqualTo(
        "init-param adaptiveLimit.max: adaptiveLimit.max (10) must not be below adaptiveLimit.min (20)");

    p.put("adaptiveLimit.max", "100");
    p.put("adaptiveLimit.step", "0.9");
    e = settingFailure(p);
    assertThat(e.key()).isEqualTo("adaptiveLimit.step");
    assertThat(e.getMessage()).startsWith("init-param adaptiveLimit.step: adaptiveLimit.step must be above 0 and at most 0.5");

    p.remove("adaptiveLimit.step");
    p.put("adaptiveLimit.latency", "soon");
    e = settingFailure(p);
    assertThat(e.key()).isEqualTo("adaptiveLimit.latency");
    assertThat(e.getMessage()).contains("'soon'");

    p.put("adaptiveLimit.latency", "1s");
    p.put("adaptiveLimit.failureShare", "a few");
    assertThat(settingFailure(p).getMessage())
        .isEqualTo("init-param adaptiveLimit.failureShare: adaptiveLimit.failureShare must be a number such as 0.1 but"
            + " was 'a few'");

    p.remove("adaptiveLimit.failureShare");
    p.put("adaptiveLimit.minimum", "20");
    assertThat(failure(p)).contains("unknown init-param 'adaptiveLimit.minimum'");
  }

  private static SettingException settingFailure(Map<String, String> params) {
    try {
      read(params, Map.of()).room().close();
    } catch (SettingException e) {
      return e;
    }
    throw new AssertionError("expected a SettingException for " + params);
  }
}
