package io.github.waitingroom.http;

import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.WaitingRoom;
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
 * <p>This class keeps the values and sets what the gate guards, its cookies and its answers; the
 * waiting page's settings are those of {@link PageOptions}, the friction's those of {@link
 * FrictionOptions}.
 *
 * @param <B> the builder's own type
 */
public abstract class GateOptions<B extends GateOptions<B>> implements PageOptions<B>, FrictionOptions<B> {
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
  @Override
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
    try {
      return Gate.build(this);
    } catch (SettingException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      // A check that spans settings: blame the setting its message starts with.
      Setting<?> blamed = GateSettings.blamed(String.valueOf(e.getMessage()));
      throw new SettingException(blamed.name(), SettingException.Source.CODE, blamed.name(),
          Setting.shown(get(blamed)), String.valueOf(e.getMessage()), e);
    }
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
   * person in line gets the place: by setting the response header {@value ResponseHeaders#REVOKE_HEADER}
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
   * Whether a newcomer is counted only once it comes back: its first request, without a ticket,
   * gets a {@code 307} to the same address with a short-lived cookie (30 s, bound to its address),
   * and only the request that brings the cookie back is let in on a slot for new arrivals, or given
   * a place in line, or a challenge. Requests that never come back (a flood of requests without
   * cookies) then take no slot, count as no user and get no place; the room's status stays true.
   * Costs every newcomer one round trip; a client that keeps no cookies (some API clients) never
   * gets in: leave its paths out of the room. Default: off.
   *
   * @param enabled whether newcomers must come back once before they count
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  public final B confirmNewcomers(boolean enabled) {
    return set(GateSettings.CONFIRM_NEWCOMERS, enabled);
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
}
