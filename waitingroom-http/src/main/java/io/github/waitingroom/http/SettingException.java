package io.github.waitingroom.http;

import org.jspecify.annotations.Nullable;

/**
 * A setting with a bad value, from whichever source it came: code (a builder), a web.xml
 * init-param, a Spring Boot property or an environment variable. Every stack throws this one
 * type, naming the setting, where its value came from, and why it is refused; the value itself
 * only when it is safe to show (never key material).
 *
 * <pre>{@code
 * init-param waitingStatus: waitingStatus must be 200, 202 or 429 but was 503
 * property waitingroom.rooms.drop.cookie.name: cookieName must be 1 to 64 characters ...
 * }</pre>
 *
 * <p>It is an {@link IllegalArgumentException}, as the builders' errors always were.
 */
public final class SettingException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Where a setting's value came from. */
  public enum Source {
    /** A builder method, in code. */
    CODE("setting"),
    /** A web.xml init-param of the servlet filter. */
    INIT_PARAM("init-param"),
    /** A Spring Boot property. */
    PROPERTY("property"),
    /** An environment variable. */
    ENVIRONMENT("environment variable");

    private final String label;

    Source(String label) {
      this.label = label;
    }

    /**
     * How messages name the source: {@code init-param}, {@code property}.
     *
     * @return the label
     */
    public String label() {
      return label;
    }
  }

  private final String setting;
  private final Source source;
  private final String key;
  private final @Nullable String value;
  private final String reason;

  /**
   * A refused value.
   *
   * @param setting the setting's name as declared ({@code waitingStatus}; a room setting's
   *     {@code RoomConfig} name for those)
   * @param source where the value came from
   * @param key the name under which that source gave it ({@code waitingStatus}, {@code
   *     waitingroom.rooms.drop.waiting-status}, {@code WAITINGROOM_WAITING_STATUS})
   * @param value the value as it may be shown, or {@code null} when it must not be (or there was none)
   * @param reason why it is refused, a sentence that starts with the setting's name
   * @param cause what went wrong underneath, or {@code null}; an {@link IllegalArgumentException}
   *     (a check's, whose message the reason repeats) is kept as a suppressed exception instead, so
   *     that this exception, which names the source, stays the root cause of a failure
   */
  public SettingException(
      String setting, Source source, String key, @Nullable String value, String reason, @Nullable Throwable cause) {
    super(source == Source.CODE ? reason : source.label() + " " + key + ": " + reason,
        cause instanceof IllegalArgumentException ? null : cause);
    if (cause instanceof IllegalArgumentException) {
      addSuppressed(cause);
    }
    this.setting = setting;
    this.source = source;
    this.key = key;
    this.value = value;
    this.reason = reason;
  }

  /**
   * The same refusal, for a value that came from another source: a binder that set the value
   * from an init-param or a property says so when the builder refuses it.
   *
   * @param source where the value came from
   * @param key the name under which that source gave it
   * @return the exception to throw, with this one as its cause
   */
  public SettingException from(Source source, String key) {
    return new SettingException(setting, source, key, value, reason, this);
  }

  /**
   * The setting's declared name ({@code waitingStatus}).
   *
   * @return the name
   */
  public String setting() {
    return setting;
  }

  /**
   * Where the value came from.
   *
   * @return the source
   */
  public Source source() {
    return source;
  }

  /**
   * The name under which the source gave the value: the init-param, the full property name, the
   * environment variable; the setting's name for code.
   *
   * @return the key
   */
  public String key() {
    return key;
  }

  /**
   * The refused value, or {@code null} when it must not be shown or there was none (a required
   * setting left out).
   *
   * @return the value
   */
  public @Nullable String value() {
    return value;
  }

  /**
   * Why the value is refused, without the source: a sentence that starts with the setting's name.
   *
   * @return the reason
   */
  public String reason() {
    return reason;
  }
}
