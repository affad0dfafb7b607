package io.github.waitingroom.http;

import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.WaitingRoom;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The settings of a gate as a builder sets them: one method per {@linkplain GateSettings declared
 * setting}, each checked by its declaration when it is called, whose error ({@link
 * SettingException}) names the setting. {@link Gate.Builder} is one; the servlet filter's and the
 * WebFlux filter's builders are the others, so the three offer the same methods with the same
 * defaults and checks. The checks that span settings (a {@code __Host-} cookie needs the path
 * prefix {@code /}) run when the gate is built.
 *
 * @param <B> the builder's own type
 */
public abstract class GateOptions<B extends GateOptions<B>> {
  final WaitingRoom room;
  private final Map<Setting<?>, @Nullable Object> values = new HashMap<>();

  /**
   * A builder with every setting at its default.
   *
   * @param room the room; its id names the cookie unless {@link #cookieName} says otherwise
   */
  protected GateOptions(WaitingRoom room) {
    this.room = Objects.requireNonNull(room, "room");
  }

  /**
   * Sets a setting by its declaration, for code that binds settings from another source: checks
   * the value, and keeps it.
   *
   * @param setting the setting
   * @param value the value
   * @param <T> its type
   * @return this builder
   * @throws SettingException naming the setting when the value is refused
   */
  public final <T extends @Nullable Object> B set(Setting<T> setting, T value) {
    values.put(setting, setting.check(value));
    return self();
  }

  /**
   * A setting's value as set, or its default.
   *
   * @param setting the setting
   * @param <T> its type
   * @return the value
   */
  @SuppressWarnings("unchecked")
  public final <T extends @Nullable Object> T get(Setting<T> setting) {
    return values.containsKey(setting) ? (T) values.get(setting) : setting.defaultValue();
  }

  /**
   * Builds the gate from these settings, checking those that depend on each other: for a filter's
   * {@code build()}.
   *
   * @return the gate
   * @throws SettingException naming the first bad setting
   */
  protected final Gate buildGate() {
    return Gate.build(this);
  }

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  /**
   * The path (within the application) the room guards, with everything below it. Default:
   * {@code /}, the whole application. The ticket cookie is scoped to it.
   *
   * @param prefix a path starting with {@code /}
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B pathPrefix(String prefix) {
    return set(GateSettings.PATH_PREFIX, Objects.requireNonNull(prefix, "pathPrefix"));
  }

  /**
   * Paths that pass through without a ticket. Adds to earlier calls. An entry is
   *
   * <ul>
   *   <li>a path ({@code /static/}, {@code /health}): it and everything below it, segment by
   *       segment ({@code /health} does not cover {@code /healthz});
   *   <li>an extension under a path ({@code /static/*.css}): a last segment that ends in {@code
   *       .css}, anywhere below {@code /static}. A bare extension ({@code *.css}) is refused: it
   *       would also cover the application's own routes ({@code /admin/x.css}).
   * </ul>
   *
   * <p>An ignore applies only to {@code GET} and {@code HEAD} requests whose path is canonical:
   * the path as sent (after the context path) holds only {@code A-Z a-z 0-9 - . _ ~ /}, has no
   * empty, {@code .} or {@code ..} segment, and equals the path the server decoded. A
   * percent-escape ({@code /buy%3B.css}, {@code /buy%20.css}), a path parameter ({@code
   * /buy;x.css}), a dot segment or any other method ({@code POST /static/x.css}) is decided by
   * the room like any other request. Static assets whose URLs need escapes are therefore not
   * exempt: an admitted visitor still gets them.
   *
   * @param paths the entries
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B ignorePaths(String... paths) {
    List<String> all = new ArrayList<>(get(GateSettings.IGNORE_PATHS));
    all.addAll(Arrays.asList(paths));
    return set(GateSettings.IGNORE_PATHS, all);
  }

  /**
   * The session cookie's name; the place cookie is named after it, with {@code _q} appended (see
   * {@link Gate#placeCookieName()}). Default: {@code wr_<roomId>}. A name starting with {@code __Host-} (in any
   * case) makes the cookie {@code Secure} with {@code Path=/} and no {@code Domain}, as browsers
   * require; it needs {@link #pathPrefix} {@code /}, and {@code build()} refuses it with {@link
   * CookieSecure#NEVER} or another prefix. {@code __Secure-} makes it {@code Secure} and is
   * refused with {@link CookieSecure#NEVER}. The cookie is {@code Secure} for such names even over
   * plain HTTP, where browsers then drop it.
   *
   * @param name 1 to 64 characters out of {@code A-Z a-z 0-9 . _ -}
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B cookieName(String name) {
    return set(GateSettings.COOKIE_NAME, Objects.requireNonNull(name, "cookieName"));
  }

  /**
   * When the cookie is {@code Secure}. Default: {@link CookieSecure#AUTO}, which follows the
   * server: behind a TLS-terminating proxy, configure its forwarded-header handling (see {@link
   * CookieSecure#AUTO}) or choose {@link CookieSecure#ALWAYS}.
   *
   * @param secure the setting
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B cookieSecure(CookieSecure secure) {
    return set(GateSettings.COOKIE_SECURE, Objects.requireNonNull(secure, "cookieSecure"));
  }

  /**
   * The cookie's {@code SameSite}. Default: {@link SameSite#LAX}.
   *
   * @param sameSite the setting
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B cookieSameSite(SameSite sameSite) {
    return set(GateSettings.COOKIE_SAME_SITE, Objects.requireNonNull(sameSite, "cookieSameSite"));
  }

  /**
   * The HTTP status of waiting responses: 200 (default), 202 or 429 (with {@code Retry-After}).
   *
   * @param status 200, 202 or 429
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B waitingStatus(int status) {
    return set(GateSettings.WAITING_STATUS, status);
  }

  /**
   * The HTTP status of the "sold out" page, and of its JSON status, while the room takes no new
   * users ({@link RoomSettings.QueueingMethod#REJECT}): 403 (default; Cloudflare documents no
   * status of its own for its reject page), 200, 410, 429 or 503.
   *
   * @param status 200, 403, 410, 429 or 503
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B rejectStatus(int status) {
    return set(GateSettings.REJECT_STATUS, status);
  }

  /**
   * Lets the application end a visitor's session (after a checkout, a logout), so that the next
   * person in line gets the place: by setting the response header {@value Gate#REVOKE_HEADER}
   * (any value, {@code 1} say), which the filter removes, or by calling {@link
   * WaitingRoomSession#revoke()} on the request attribute {@value WaitingRoomSession#ATTRIBUTE}.
   * Either way the room revokes the session ({@link WaitingRoom#revoke}: the slot frees within
   * two to three sync intervals, and every node refuses the ticket from then on; a copy of the
   * cookie sent to another node in that window may still pass there) and the filter deletes
   * the session cookie, which it can only do while the response is not committed: set the
   * header, or call {@code revoke()}, before writing the body. Default: off, the header passes
   * through untouched and no attribute is set.
   *
   * @param enabled whether the application may revoke sessions
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B revoke(boolean enabled) {
    return set(GateSettings.REVOKE, enabled);
  }

  /**
   * Lets CORS preflights ({@code OPTIONS} with {@code Origin} and {@code
   * Access-Control-Request-Method}) on the room's paths go on to the application, untouched and
   * uncounted, for an application that answers them itself (Spring's CORS support does, without
   * calling a handler). Default: off, the gate answers every preflight itself ({@link
   * Gate#preflight}: {@code 204}, no {@code Access-Control-Allow-*} header, which refuses the
   * cross-origin request), so that no preflight ever reaches application code that might act
   * on it. Turn it on only when everything behind the room answers an {@code OPTIONS} without
   * side effects.
   *
   * @param enabled whether preflights pass on to the application
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B corsPassThrough(boolean enabled) {
    return set(GateSettings.CORS_PASS_THROUGH, enabled);
  }

  /**
   * The query flag that asks for the JSON status only. Default: {@value GateSettings#DEFAULT_STATUS_PARAM}.
   *
   * @param name 1 to 64 characters out of {@code A-Z a-z 0-9 . _ -}
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B statusParam(String name) {
    return set(GateSettings.STATUS_PARAM, Objects.requireNonNull(name, "statusParam"));
  }

  /**
   * Replaces the waiting page with your own HTML: a logic-less Mustache template (JMustache),
   * HTML-escaped by default ({@code {{name}}}; {@code {{{name}}}} writes a value as it is). The
   * variables are listed in the README ("Your own waiting page"): among them {@code usersAhead},
   * {@code waitTimeKnown}, {@code waitTime}, {@code waitTimeFormatted}, {@code
   * waitTimeRangeFormatted}, {@code refreshIntervalSeconds}, {@code lastUpdated}, {@code locale},
   * {@code dir}, {@code cspNonce}, {@code text.<key>} for the page's texts in the visitor's
   * language, and the names of the first syntax ({@code waitKnown}, {@code waitMinutes}, {@code
   * refreshSeconds}). A template without {@code {{{refreshScript}}}} gets the page's poll script
   * added before {@code </body>}, and one without {@code {{{refreshMeta}}}} (or a meta refresh of
   * its own) a {@code <noscript>} meta refresh before {@code </head>}, so that it always lets the
   * visitor in.
   *
   * @param html the template
   * @return this builder
   * @throws SettingException (its cause a {@link PageTemplateException}) when the template does not parse or names an unknown
   *     variable, with the line and column
   */
  public final B template(String html) {
    return set(GateSettings.TEMPLATE, Objects.requireNonNull(html, "template"));
  }

  /**
   * Which built-in page to show when there is no {@link #template}. Default: {@link PageStyle#PLAIN}.
   *
   * @param style the page
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B pageStyle(PageStyle style) {
    return set(GateSettings.PAGE_STYLE, Objects.requireNonNull(style, "pageStyle"));
  }

  /**
   * The language of visitors whose {@code Accept-Language} names none the room has texts for
   * (and of those who send none). Default: {@code en}. Checked by {@code build()}: the room needs
   * texts for it.
   *
   * @param tag a language tag ({@code de}, {@code pt}, {@code zh})
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B defaultLanguage(String tag) {
    return set(GateSettings.DEFAULT_LANGUAGE, Objects.requireNonNull(tag, "defaultLanguage"));
  }

  /**
   * One language for every visitor, whatever their {@code Accept-Language} says. Default: none
   * (follow the header). Checked by {@code build()}: the room needs texts for it.
   *
   * @param tag a language tag, or {@code null} to follow the header
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B language(@Nullable String tag) {
    return set(GateSettings.LANGUAGE, tag);
  }

  /**
   * A directory of {@code messages_<tag>.properties} files (UTF-8) whose texts replace the
   * shipped ones key by key, or add languages. A key missing from a new language is taken from
   * its parent tag, then from English (logged at start-up). Default: none. Texts can also come from
   * {@code waitingroom/messages_<tag>.properties} on the class path.
   *
   * @param directory the directory
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B messagesDirectory(@Nullable Path directory) {
    return set(GateSettings.MESSAGES_DIRECTORY, directory);
  }

  /**
   * The name of the site, shown by the {@link PageStyle#BRANDED} page (and the logo's {@code
   * alt} text); {@code {{brandName}}} in a template. Default: none.
   *
   * @param name up to 100 characters
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B brandName(String name) {
    return set(GateSettings.BRAND_NAME, Objects.requireNonNull(name, "brandName"));
  }

  /**
   * The logo of the {@link PageStyle#BRANDED} page; {@code {{logoUrl}}} in a template. A path on
   * this site ({@code /static/logo.svg}: ignore it, see {@link #ignorePaths}) or an {@code
   * https://} URL, whose origin the page's Content-Security-Policy then allows for images.
   * Default: none.
   *
   * @param url the URL
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B logoUrl(String url) {
    return set(GateSettings.LOGO_URL, Objects.requireNonNull(url, "logoUrl"));
  }

  /**
   * The brand colour of the {@link PageStyle#BRANDED} page (its band and progress bar); the
   * text on it is white or black, whichever has more contrast. {@code {{brandColor}}} in a
   * template. Default: {@code #2f6fdf}.
   *
   * @param color {@code #rgb} or {@code #rrggbb}
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B brandColor(String color) {
    return set(GateSettings.BRAND_COLOR, Objects.requireNonNull(color, "brandColor"));
  }

  /**
   * Asks newcomers for a proof of work while people wait: a newcomer the room would put in line
   * gets a challenge page first, whose script solves a {@link ProofOfWork} challenge in a Web
   * Worker (about 2<sup>bits</sup> SHA-256 hashes) and gets its place when the gate has checked
   * the solution (one AEAD decryption and one hash). Nothing changes while the room has slots
   * for new arrivals, nor for admitted or waiting visitors. A solution counts only for the
   * challenge in the solving client's own challenge cookie, and once per node: every place costs
   * one solution. A challenge counts only from the client address it was issued to (an IPv6
   * address by its /64): behind a proxy, let the container read the client's address from it. A
   * visitor without JavaScript, or whose browser fails, gets a place only within
   * the {@linkplain #noScriptPlaces no-script budget} (none by default), once the {@linkplain
   * #challengePenalty penalty} is over. The costs measured on a desktop and an emulated phone are
   * in the README ("Bots and floods"). Default: 0, off.
   *
   * @param bits the leading zero bits of a solution, 0 (off) to {@value ProofOfWork#MAX_DIFFICULTY}
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B proofOfWork(int bits) {
    return set(GateSettings.PROOF_OF_WORK, bits);
  }

  /**
   * How long a newcomer who solves no challenge (no JavaScript, a failed worker, no human check
   * passed) waits on the challenge page before it may get a place within the {@linkplain
   * #noScriptPlaces no-script budget}: counted from its first challenge, which its challenge
   * cookie keeps; also how often the challenge page reloads. Without a budget (the default),
   * waiting gets no place: only a solution or a passed human check does. Default: 30 seconds.
   *
   * @param penalty 1 s to 5 min
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B challengePenalty(Duration penalty) {
    return set(GateSettings.CHALLENGE_PENALTY, Objects.requireNonNull(penalty, "challengePenalty"));
  }

  /**
   * How many newcomers per minute this node lets queue for only waiting out the {@linkplain
   * #challengePenalty penalty} on the challenge page, without a solution or a passed human
   * check: the path of a browser without JavaScript. The budget is the node's, shared by every
   * such client, and one client address (an IPv6 address by its /64) gets at most one place of
   * it a minute, from a challenge issued to that address: a bot that fetches (harvests) any
   * number of challenges and waits gets one place a minute per address it holds, and never more
   * than the budget. A bot with as many addresses as the budget can still take all of it, so
   * grant only what you would give away. Default: 0, none: with friction on,
   * every place in line costs a solved proof of work or a passed human check (a failed or never
   * answered check stays failed however long the client waits).
   *
   * @param perMinute 0 (none) to 10,000
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B noScriptPlaces(int perMinute) {
    return set(GateSettings.NO_SCRIPT_PLACES, perMinute);
  }

  /**
   * A CAPTCHA service that newcomers may pass instead of the proof of work (or with none: then
   * the widget, or the penalty within the {@linkplain #noScriptPlaces no-script budget}), such as {@link SiteVerify#turnstile}, {@link SiteVerify#hcaptcha}
   * or {@link SiteVerify#recaptcha}. Asked once per newcomer the room would put in line; a
   * client it {@linkplain HumanCheck.Verdict#FLAGGED flags} goes to the infinite queue. The
   * challenge page's Content-Security-Policy allows the widget's sources. Default: none.
   *
   * @param check the service, or {@code null} for none
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B humanCheck(@Nullable HumanCheck check) {
    return set(GateSettings.HUMAN_CHECK, check);
  }
}
