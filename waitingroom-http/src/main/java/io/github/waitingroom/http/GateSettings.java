package io.github.waitingroom.http;

import static io.github.waitingroom.http.SettingChecks.oneOf;
import static io.github.waitingroom.http.SettingChecks.tag;
import static io.github.waitingroom.http.SettingChecks.token;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Every setting of a {@link Gate}, declared once: name, type, default, validation and description.
 * The builders ({@link Gate.Builder}, and the servlet and WebFlux filters' builders, all {@link
 * GateOptions}), the servlet filter's web.xml init-params, the Spring Boot properties and the
 * settings reference in the docs all bind through these declarations, so they cannot drift: a test
 * checks the Spring Boot IDE metadata and the docs against {@link #all()}.
 */
public final class GateSettings {
  private GateSettings() {}

  /** The default of {@link #REJECT_STATUS}. */
  public static final int DEFAULT_REJECT_STATUS = 403;

  /** The default of {@link #STATUS_PARAM}. */
  public static final String DEFAULT_STATUS_PARAM = "waitingRoomStatus";

  /** The default of {@link #CHALLENGE_PENALTY}. */
  public static final Duration DEFAULT_CHALLENGE_PENALTY = Duration.ofSeconds(30);

  /** The path the room guards. */
  public static final Setting<String> PATH_PREFIX =
      Setting.<String>of("pathPrefix", String.class, "/")
          .description("The path (within the application) the room guards, with everything below it; the cookies' Path.")
          .parser(s -> s)
          .check(v -> Objects.requireNonNull(v, "pathPrefix"))
          .build();

  /** Paths that pass without a ticket. */
  public static final Setting<List<String>> IGNORE_PATHS =
      Setting.<List<String>>of("ignorePaths", List.class, List.of())
          .defaultText("none")
          .description(
              "Paths that pass without a ticket, GET and HEAD of canonical paths only: a path (/static/) covers itself"
                  + " and everything below it, /dir/*.ext an extension below a path, *.ext one anywhere.")
          .parser(s -> Arrays.stream(s.split("[,\\s]+")).filter(p -> !p.isEmpty()).toList())
          .check(List::copyOf)
          .build();

  /** The session cookie's name. */
  public static final Setting<@Nullable String> COOKIE_NAME =
      Setting.<@Nullable String>of("cookieName", String.class, null)
          .defaultText("wr_<roomId>")
          .property("cookie.name")
          .description(
              "The session cookie's name; the place cookie gets _q appended. A __Host- or __Secure- prefix makes the"
                  + " cookies Secure.")
          .parser(s -> s)
          .check(v -> v == null ? null : token("cookieName", v))
          .build();

  /** When the cookies are {@code Secure}. */
  public static final Setting<CookieSecure> COOKIE_SECURE =
      Setting.<CookieSecure>of("cookieSecure", CookieSecure.class, CookieSecure.AUTO)
          .property("cookie.secure")
          .description(
              "When the cookies are Secure: AUTO (when the request came over HTTPS, as the server sees it behind a"
                  + " proxy), ALWAYS or NEVER.")
          .parser(s -> Setting.constant("cookieSecure", CookieSecure.class, s))
          .check(v -> Objects.requireNonNull(v, "cookieSecure"))
          .build();

  /** The cookies' {@code SameSite}. */
  public static final Setting<SameSite> COOKIE_SAME_SITE =
      Setting.<SameSite>of("cookieSameSite", SameSite.class, SameSite.LAX)
          .property("cookie.same-site")
          .description("The cookies' SameSite attribute: LAX, STRICT or NONE (NONE needs Secure cookies).")
          .parser(s -> Setting.constant("cookieSameSite", SameSite.class, s))
          .check(v -> Objects.requireNonNull(v, "cookieSameSite"))
          .build();

  /** The status of waiting answers. */
  public static final Setting<Integer> WAITING_STATUS =
      Setting.<Integer>of("waitingStatus", Integer.class, 200)
          .description("The HTTP status of waiting answers: 200, 202 or 429 (429 with a Retry-After header).")
          .parser(s -> Setting.wholeNumber("waitingStatus", s))
          .check(v -> oneOf("waitingStatus", v, 200, 202, 429))
          .build();

  /** The status of the "sold out" page. */
  public static final Setting<Integer> REJECT_STATUS =
      Setting.<Integer>of("rejectStatus", Integer.class, DEFAULT_REJECT_STATUS)
          .description(
              "The HTTP status of the sold-out page (and its JSON status) while the room takes no new users (live"
                  + " settings' queueing method reject): 200, 403, 410, 429 or 503.")
          .parser(s -> Setting.wholeNumber("rejectStatus", s))
          .check(v -> oneOf("rejectStatus", v, 200, 403, 410, 429, 503))
          .build();

  /** Whether the application may end a visitor's session. */
  public static final Setting<Boolean> REVOKE =
      Setting.<Boolean>of("revoke", Boolean.class, false)
          .description(
              "Whether the application may end a visitor's session (after a checkout): by the response header"
                  + " X-WaitingRoom-Revoke, which the filter removes, or by WaitingRoomSession.revoke() on the request"
                  + " attribute io.github.waitingroom.session.")
          .parser(s -> Setting.bool("revoke", s))
          .build();

  /** Whether CORS preflights pass on to the application. */
  public static final Setting<Boolean> CORS_PASS_THROUGH =
      Setting.<Boolean>of("corsPassThrough", Boolean.class, false)
          .description(
              "Whether CORS preflights on the room's paths go on to the application, untouched and uncounted; off, the"
                  + " filter answers them itself (204, no Access-Control-Allow-* header).")
          .parser(s -> Setting.bool("corsPassThrough", s))
          .build();

  /** Whether a newcomer is counted only once it comes back with the cookie of its first answer. */
  public static final Setting<Boolean> CONFIRM_NEWCOMERS =
      Setting.<Boolean>of("confirmNewcomers", Boolean.class, false)
          .description(
              "Whether a newcomer is let in, or given a place, only when it comes back with the cookie of its first"
                  + " answer (a 307 to the same address): requests that never come back (a flood) take no slot and count"
                  + " as no user. Costs every newcomer one round trip; clients that keep no cookies never get in.")
          .parser(s -> Setting.bool("confirmNewcomers", s))
          .build();

  /** The query flag that asks for the JSON status only. */
  public static final Setting<String> STATUS_PARAM =
      Setting.<String>of("statusParam", String.class, DEFAULT_STATUS_PARAM)
          .description("The query flag that asks for the JSON status only (what the waiting page polls).")
          .parser(s -> s)
          .check(v -> token("statusParam", Objects.requireNonNull(v, "statusParam")))
          .build();

  /** Your own waiting page, a Mustache template. */
  public static final Setting<@Nullable String> TEMPLATE =
      Setting.<@Nullable String>of("template", String.class, null)
          .defaultText("none")
          .initParam("templateFile")
          .property("page-template")
          .description(
              "Your own waiting page: a Mustache template (HTML-escaped {{variables}}, {{text.key}} for the page's"
                  + " texts); web.xml gives a file, Spring Boot a resource. Unset: the built-in page of pageStyle.")
          .parser(SettingChecks::readTemplate)
          .check(v -> {
            if (v != null) {
              PageTemplate.check(v, PageModel.TEMPLATE_SOURCE, null);
            }
            return v;
          })
          .build();

  /** Which built-in page to show. */
  public static final Setting<PageStyle> PAGE_STYLE =
      Setting.<PageStyle>of("pageStyle", PageStyle.class, PageStyle.PLAIN)
          .description("The built-in waiting page when there is no template: PLAIN or BRANDED.")
          .parser(s -> Setting.constant("pageStyle", PageStyle.class, s))
          .check(v -> Objects.requireNonNull(v, "pageStyle"))
          .build();

  /** The language of visitors the room has no texts for. */
  public static final Setting<String> DEFAULT_LANGUAGE =
      Setting.<String>of("defaultLanguage", String.class, "en")
          .description("The page's language for visitors whose Accept-Language the room has no texts for (en, de, fr, ...).")
          .parser(s -> s)
          .check(v -> tag("defaultLanguage", Objects.requireNonNull(v, "defaultLanguage")))
          .build();

  /** One language for every visitor. */
  public static final Setting<@Nullable String> LANGUAGE =
      Setting.<@Nullable String>of("language", String.class, null)
          .defaultText("none")
          .description("One language for every visitor, whatever their Accept-Language says; unset: follow the header.")
          .parser(s -> s)
          .check(v -> v == null || v.isBlank() ? null : tag("language", v))
          .build();

  /** A directory of texts that replace or add languages. */
  public static final Setting<@Nullable Path> MESSAGES_DIRECTORY =
      Setting.<@Nullable Path>of("messagesDirectory", Path.class, null)
          .defaultText("none")
          .description(
              "A directory of messages_LANGUAGE.properties files (UTF-8, for example messages_de.properties) that"
                  + " override the page's texts or add languages.")
          .parser(Path::of)
          .build();

  /** The site's name on the branded page. */
  public static final Setting<String> BRAND_NAME =
      Setting.<String>of("brandName", String.class, "")
          .defaultText("none")
          .description("The site's name, on the branded page and as its logo's alt text (at most 100 characters).")
          .parser(s -> s)
          .check(v -> {
            Objects.requireNonNull(v, "brandName");
            if (v.length() > 100) {
              throw new IllegalArgumentException("brandName must be at most 100 characters but was " + v.length());
            }
            return v.strip();
          })
          .build();

  /** The branded page's logo. */
  public static final Setting<String> LOGO_URL =
      Setting.<String>of("logoUrl", String.class, "")
          .defaultText("none")
          .description("The branded page's logo: a path on this site (/static/logo.svg) or an https:// URL.")
          .parser(s -> s)
          .check(SettingChecks::logo)
          .build();

  /** The branded page's colour. */
  public static final Setting<String> BRAND_COLOR =
      Setting.<String>of("brandColor", String.class, "#2f6fdf")
          .description("The branded page's colour, #rgb or #rrggbb.")
          .parser(s -> s)
          .check(v -> {
            String c = Objects.requireNonNull(v, "brandColor").strip();
            if (!c.matches("#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})")) {
              throw new IllegalArgumentException("brandColor must be a colour written #rgb or #rrggbb but was '" + v + "'");
            }
            return c.toLowerCase(Locale.ROOT);
          })
          .build();

  /** The proof of work newcomers solve while people wait. */
  public static final Setting<Integer> PROOF_OF_WORK =
      Setting.<Integer>of("proofOfWork", Integer.class, 0)
          .defaultText("0 (off)")
          .description(
              "A proof of work newcomers solve before they get a place while people wait: the leading zero bits of a"
                  + " solution, 0 (off) to 32 (16 to 18 suit phones).")
          .parser(s -> Setting.wholeNumber("proofOfWork", s))
          .check(v -> {
            if (v < 0 || v > ProofOfWork.MAX_DIFFICULTY) {
              throw new IllegalArgumentException(
                  "proofOfWork must be 0 (off) to " + ProofOfWork.MAX_DIFFICULTY + " bits but was " + v);
            }
            return v;
          })
          .build();

  /** How long a newcomer who solves no challenge waits. */
  public static final Setting<Duration> CHALLENGE_PENALTY =
      Setting.<Duration>of("challengePenalty", Duration.class, DEFAULT_CHALLENGE_PENALTY)
          .defaultText("30s")
          .description(
              "How long a newcomer who solves no challenge (no JavaScript) waits on the challenge page before it may get"
                  + " a place within the no-script budget; also how often that page reloads (1s to 5m).")
          .parser(s -> Setting.duration("challengePenalty", s))
          .check(v -> {
            Objects.requireNonNull(v, "challengePenalty");
            if (v.compareTo(Duration.ofSeconds(1)) < 0 || v.compareTo(Duration.ofMinutes(5)) > 0) {
              throw new IllegalArgumentException("challengePenalty must be 1 s to 5 min but was " + v);
            }
            return v;
          })
          .build();

  /** How many newcomers a minute may queue without a solution. */
  public static final Setting<Integer> NO_SCRIPT_PLACES =
      Setting.<Integer>of("noScriptPlaces", Integer.class, 0)
          .defaultText("0 (none)")
          .description(
              "How many newcomers per minute this node lets queue for only waiting out the challenge penalty, without"
                  + " a solved proof of work or a passed human check (browsers without JavaScript), at most one a minute"
                  + " per client address, 0 to 10000.")
          .parser(s -> Setting.wholeNumber("noScriptPlaces", s))
          .check(v -> {
            if (v < 0 || v > 10_000) {
              throw new IllegalArgumentException("noScriptPlaces must be 0 to 10000 a minute but was " + v);
            }
            return v;
          })
          .build();

  /** A CAPTCHA service newcomers may pass. */
  public static final Setting<@Nullable HumanCheck> HUMAN_CHECK =
      Setting.<@Nullable HumanCheck>of("humanCheck", HumanCheck.class, null)
          .defaultText("none")
          .composite(
              "init-params humanCheck (turnstile, hcaptcha, recaptcha), humanCheckSiteKey, humanCheckSecretEnv,"
                  + " humanCheckFlagBelow; properties human-check.provider, .site-key, .secret-key, .verify-url,"
                  + " .flag-below, .timeout")
          .description(
              "A CAPTCHA service newcomers may pass instead of the proof of work: Turnstile, hCaptcha or reCAPTCHA"
                  + " (SiteVerify).")
          .build();

  private static final List<Setting<?>> ALL =
      List.of(
          PATH_PREFIX, IGNORE_PATHS, COOKIE_NAME, COOKIE_SECURE, COOKIE_SAME_SITE, WAITING_STATUS, REJECT_STATUS,
          REVOKE, CORS_PASS_THROUGH, CONFIRM_NEWCOMERS, STATUS_PARAM, TEMPLATE, PAGE_STYLE, DEFAULT_LANGUAGE, LANGUAGE,
          MESSAGES_DIRECTORY, BRAND_NAME, LOGO_URL, BRAND_COLOR, PROOF_OF_WORK, CHALLENGE_PENALTY, NO_SCRIPT_PLACES,
          HUMAN_CHECK);

  /**
   * Every setting of a gate, in the order of the docs.
   *
   * @return the settings
   */
  public static List<Setting<?>> all() {
    return ALL;
  }

  /**
   * The setting of a name.
   *
   * @param name a setting's {@linkplain Setting#name() name}
   * @return the setting, or {@code null} when there is none of that name
   */
  public static @Nullable Setting<?> named(String name) {
    for (Setting<?> s : ALL) {
      if (s.name().equals(name)) {
        return s;
      }
    }
    return null;
  }

  /**
   * Binds the settings that a source gives as text, each under its name in that source: its
   * {@linkplain Setting#initParam() init-param} (the servlet filter's web.xml), its {@linkplain
   * Setting#environmentVariable() environment variable}, its relative {@linkplain Setting#property()
   * property} or its {@linkplain Setting#name() name} in code. Each setting that has a name there
   * and a value is read ({@link Setting#parse}) and set.
   *
   * @param options the builder to set them on
   * @param source where the values come from, which names them
   * @param texts a value by its name in the source, or {@code null} when it is not given
   * @throws SettingException naming the setting, the source and the name, for the first value refused
   */
  public static void bind(GateOptions<?> options, SettingException.Source source, Gate.Lookup texts) {
    for (Setting<?> s : ALL) {
      String key = switch (source) {
        case INIT_PARAM -> s.initParam();
        case ENVIRONMENT -> s.environmentVariable();
        case PROPERTY -> s.property();
        case CODE -> s.name();
      };
      String text = key == null ? null : texts.get(key);
      if (key != null && text != null) {
        parse(options, s, text, source, key);
      }
    }
  }

  private static <T extends @Nullable Object> void parse(
      GateOptions<?> options, Setting<T> s, String text, SettingException.Source source, String key) {
    options.set(s, s.parse(text, source, key));
  }

  /** The setting an error of the build names first: its message starts with it. */
  static Setting<?> blamed(String message) {
    if (message.startsWith("waiting page template")) {
      return TEMPLATE;
    }
    if (message.startsWith("Waiting page texts")) {
      return MESSAGES_DIRECTORY;
    }
    Setting<?> best = COOKIE_NAME;
    int length = 0;
    for (Setting<?> s : all()) {
      if (message.startsWith(s.name()) && s.name().length() > length) {
        best = s;
        length = s.name().length();
      }
    }
    return best;
  }
}
