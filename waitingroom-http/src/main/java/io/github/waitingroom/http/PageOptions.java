package io.github.waitingroom.http;

import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The settings of the waiting page, as a builder sets them ({@link GateOptions} is the one that
 * does): your own template or a built-in style, the languages and their texts, and the branded
 * page's name, logo and colour. Each method checks its value by the setting's {@linkplain
 * GateSettings declaration}, whose error ({@link SettingException}) names the setting.
 *
 * @param <B> the builder's own type
 */
public interface PageOptions<B extends GateOptions<B>> {
  /**
   * Sets a setting by its declaration ({@link GateOptions#set}).
   *
   * @param setting the setting
   * @param value the value
   * @param <T> its type
   * @return this builder
   * @throws SettingException naming the setting when the value is refused
   */
  <T extends @Nullable Object> B set(Setting<T> setting, T value);

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
  default B template(String html) {
    return set(GateSettings.TEMPLATE, Objects.requireNonNull(html, "template"));
  }

  /**
   * Which built-in page to show when there is no {@link #template}. Default: {@link PageStyle#PLAIN}.
   *
   * @param style the page
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  default B pageStyle(PageStyle style) {
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
  default B defaultLanguage(String tag) {
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
  default B language(@Nullable String tag) {
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
  default B messagesDirectory(@Nullable Path directory) {
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
  default B brandName(String name) {
    return set(GateSettings.BRAND_NAME, Objects.requireNonNull(name, "brandName"));
  }

  /**
   * The logo of the {@link PageStyle#BRANDED} page; {@code {{logoUrl}}} in a template. A path on
   * this site ({@code /static/logo.svg}: ignore it, see {@link GateOptions#ignorePaths}) or an {@code
   * https://} URL, whose origin the page's Content-Security-Policy then allows for images.
   * Default: none.
   *
   * @param url the URL
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  default B logoUrl(String url) {
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
  default B brandColor(String color) {
    return set(GateSettings.BRAND_COLOR, Objects.requireNonNull(color, "brandColor"));
  }
}
