package io.github.waitingroom.http;

import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.WaitingRoom;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a waiting page shows: the page's texts in the visitor's language (with the live settings'
 * texts on top), the room's state and event, and the value of every template variable, rendered
 * with the room's {@link PageTemplate}. Holds the page settings of {@link Gate.Builder}: template,
 * languages, brand.
 */
final class PageModel {
  /** Under {@code Gate}, the logger name these warnings had before the split. */
  private static final Logger LOG = LoggerFactory.getLogger(Gate.class);
  private static final Pattern RETURN_URL = Pattern.compile("/[A-Za-z0-9._~!$&()*+,;=:@/?%-]{0,2000}");
  private static final List<String> COUNTED_TEXTS = List.of("usersAheadSentence", "usersWaitingSentence", "refreshNote");

  private final WaitingRoom room;
  private final String statusParam;
  private final PageTemplate template;
  private final Messages messages;
  private final String defaultLanguage;
  private final @Nullable String language;
  private final String brandName;
  private final String logoUrl;
  private final String brandColor;
  private final String brandTextColor;
  private final @Nullable HumanCheck human;
  /** The page texts of the live settings last seen, by language (see {@link #texts}). */
  private volatile @Nullable Overlay overlay;

  /**
   * Loads the texts and parses the template.
   *
   * @throws IllegalArgumentException naming a language setting the room has no texts for
   * @throws PageTemplateException when the template does not parse
   */
  /** How errors of a custom template name it. */
  static final String TEMPLATE_SOURCE = "custom template";

  PageModel(GateOptions<?> b, String statusParam) {
    this.room = b.room;
    this.statusParam = statusParam;
    this.human = b.get(GateSettings.HUMAN_CHECK);
    String defaultTag = b.get(GateSettings.DEFAULT_LANGUAGE);
    String tag = b.get(GateSettings.LANGUAGE);
    List<String> configured = new ArrayList<>();
    configured.add(defaultTag);
    if (tag != null) {
      configured.add(tag);
    }
    this.messages = Messages.load(b.get(GateSettings.MESSAGES_DIRECTORY), configured);
    this.defaultLanguage = language("defaultLanguage", defaultTag);
    this.language = tag == null ? null : language("language", tag);
    this.brandName = b.get(GateSettings.BRAND_NAME);
    this.brandColor = b.get(GateSettings.BRAND_COLOR);
    this.brandTextColor = textColorOn(brandColor);
    this.logoUrl = b.get(GateSettings.LOGO_URL);
    Set<String> textKeys = textKeys(messages);
    String html = b.get(GateSettings.TEMPLATE);
    this.template =
        html != null
            ? PageTemplate.parse(html, TEMPLATE_SOURCE, textKeys)
            : PageTemplate.builtIn(b.get(GateSettings.PAGE_STYLE), textKeys);
  }

  private String language(String setting, String tag) {
    String found = messages.find(tag);
    if (found == null) {
      throw new IllegalArgumentException(
          setting + " '" + tag + "' has no texts; the waiting page has " + messages.tags()
              + " (add messages_" + tag + ".properties to the messagesDirectory or to waitingroom/ on the class path)");
    }
    return found;
  }

  /** The names a template may use after {@code text.}. */
  static Set<String> textKeys(Messages messages) {
    Set<String> keys = new TreeSet<>(messages.plainKeys());
    keys.removeAll(PageTemplate.PARTS);
    keys.addAll(COUNTED_TEXTS);
    return keys;
  }

  /** White or near-black, whichever reads better on the brand colour (WCAG contrast). */
  static String textColorOn(String hex) {
    String h = hex.substring(1);
    if (h.length() == 3) {
      h = "" + h.charAt(0) + h.charAt(0) + h.charAt(1) + h.charAt(1) + h.charAt(2) + h.charAt(2);
    }
    double l = 0;
    double[] weights = {0.2126, 0.7152, 0.0722};
    for (int i = 0; i < 3; i++) {
      double c = Integer.parseInt(h.substring(2 * i, 2 * i + 2), 16) / 255.0;
      c = c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
      l += weights[i] * c;
    }
    double onWhite = 1.05 / (l + 0.05);
    double onDark = (l + 0.05) / (0.0069 + 0.05); // #111111
    return onWhite >= onDark ? "#ffffff" : "#111111";
  }

  /**
   * The language a request gets: the {@code language} setting if set, else the best of its {@code
   * Accept-Language} that the room has texts for, else {@code defaultLanguage}.
   *
   * @param acceptLanguage the header, or {@code null}
   * @return a language tag the room has texts for ({@code en}, {@code pt}, {@code zh})
   */
  String languageFor(@Nullable String acceptLanguage) {
    return Languages.choose(acceptLanguage, messages.tags(), defaultLanguage, language);
  }

  /** The tag of the built-in texts a request gets, without the live settings' texts. */
  String plainTag(@Nullable String acceptLanguage) {
    return messages.texts(languageFor(acceptLanguage)).tag;
  }

  /**
   * The languages the waiting page has texts for: the shipped ones and those added by the
   * messages directory or the class path.
   *
   * @return the language tags
   */
  Set<String> languages() {
    return messages.tags();
  }

  /** The page for one decision, rendered: the waiting, "sold out" or challenge page. */
  String html(Decision d, Texts t, String nonce, long viewTime, GateRequest request,
      Friction.@Nullable Challenged challenged, RoomSettings settings) {
    return template.render(values(d, t, nonce, viewTime, request, challenged, settings));
  }

  /** The texts of the JSON status ({@link StatusJson#TEXTS}) for one waiting decision. */
  Map<String, String> jsonTexts(Decision d, Texts t, long viewTime, GateRequest request, RoomSettings settings) {
    Map<String, Object> v = values(d, t, "", viewTime, request, null, settings);
    Map<String, String> texts = new LinkedHashMap<>();
    for (String name : StatusJson.TEXTS) {
      if (name.startsWith("text.")) {
        @SuppressWarnings("unchecked")
        Map<String, String> text = (Map<String, String>) Objects.requireNonNull(v.get("text"));
        texts.put(name, text.get(name.substring(5)));
      } else {
        texts.put(name, String.valueOf(v.get(name)));
      }
    }
    return texts;
  }

  /**
   * The room's state as a page shows it: {@code rejected}, {@code suspended}, {@code prequeue}
   * (a scheduled event pre-queues: the countdown page), {@code queueAll} or {@code open}.
   */
  static String pageState(Decision d, RoomSettings settings, boolean prequeueing) {
    if (d.outcome() == Decision.Outcome.REJECT) {
      return "rejected";
    }
    if (settings.suspended()) {
      return "suspended";
    }
    if (prequeueing) {
      return "prequeue";
    }
    return settings.queueAll() ? "queueAll" : "open";
  }

  /**
   * The scheduled event as a page or the JSON status shows it at one second: its name ({@code ""}
   * for none), whether it pre-queues, and the seconds until its start and its end (0 for none).
   */
  record EventNow(String name, boolean active, boolean prequeueing, long untilStart, long untilEnd, boolean shuffle) {
    static final EventNow NONE = new EventNow("", false, false, 0, 0, false);
  }

  /** The event pre-queueing or running on this node now ({@link WaitingRoom#event()}). */
  EventNow eventNow() {
    RoomSettings.Event e = room.event();
    if (e == null) {
      return EventNow.NONE;
    }
    long now = room.nowSecond();
    boolean prequeueing = room.eventPrequeueing();
    return new EventNow(e.name(), true, prequeueing, Math.max(0, e.start().getEpochSecond() - now),
        Math.max(0, e.end().getEpochSecond() - now), e.shuffleAtEventStart());
  }

  /** The page texts of the settings in force on this node, by language: built-in ones with their {@code texts} on top. */
  private record Overlay(RoomSettings settings, Map<String, String> replaced, Map<String, Texts> byTag) {}

  /**
   * The texts of one language under these settings: the built-in (and configured) ones, with the
   * settings' {@link RoomSettings#texts() texts} on top. A key the page does not know is ignored,
   * and logged once per settings version.
   */
  Texts texts(String tag, RoomSettings settings) {
    if (settings.texts().isEmpty()) {
      return messages.texts(tag);
    }
    Overlay o = overlay;
    if (o == null || o.settings() != settings) {
      Map<String, String> replaced = new LinkedHashMap<>();
      List<String> unknown = new ArrayList<>();
      settings.texts().forEach((k, v) -> {
        if (messages.knows(k)) {
          replaced.put(k, v);
        } else {
          unknown.add(k);
        }
      });
      if (!unknown.isEmpty() && (o == null || o.settings().version() != settings.version())) {
        LOG.warn("room '{}': settings version {} replace page texts the page does not have, ignored: {}"
                + " (keys: see messages_en.properties; a counted text takes its plural category, e.g. refreshNote.other)",
            room.config().roomId(), settings.version(), unknown);
      }
      o = new Overlay(settings, Map.copyOf(replaced), new ConcurrentHashMap<>());
      overlay = o;
    }
    Overlay in = o;
    return in.byTag().computeIfAbsent(tag, k -> messages.texts(k).with(in.replaced()));
  }

  /** The values of every template variable ({@link PageTemplate#VARIABLES}) for one waiting decision. */
  private Map<String, Object> values(
      Decision d, Texts t, String nonce, long viewTime, GateRequest request, Friction.@Nullable Challenged challenged,
      RoomSettings settings) {
    boolean known = d.waitKnown();
    EventNow event = eventNow();
    String state = pageState(d, settings, event.prequeueing());
    boolean rejected = state.equals("rejected");
    boolean random = settings.queueingMethod() == RoomSettings.QueueingMethod.RANDOM;
    String back = returnUrl(request);
    // In a random queue the figure is everyone waiting, the visitor among them (at least 1, also
    // before a plan has counted a newcomer).
    long ahead = random && !rejected ? Math.max(1, d.usersAhead()) : d.usersAhead();
    long refresh = Math.max(1, d.refreshSeconds());
    Instant updated = Instant.ofEpochSecond(viewTime);
    String unknown = t.text("waitUnknown");
    Map<String, Object> v = new HashMap<>(64);
    v.put("roomId", room.config().roomId());
    v.put("locale", t.tag);
    v.put("dir", t.rightToLeft ? "rtl" : "ltr");
    v.put("usersAhead", ahead);
    v.put("usersAheadFormatted", t.number(ahead));
    v.put("waitTimeKnown", known);
    v.put("waitTime", known ? (Object) d.waitMinutes() : "");
    v.put("waitTimeSeconds", known ? (Object) d.waitSeconds() : "");
    v.put("waitTimeFormatted", t.waitText(known ? d.waitSeconds() : -1));
    v.put("waitTimeLow", known ? (Object) (d.waitLowSeconds() / 60) : "");
    v.put("waitTimeHigh", known ? (Object) ((d.waitHighSeconds() + 59) / 60) : "");
    v.put("waitTimeLowFormatted", known ? t.duration(d.waitLowSeconds()) : unknown);
    v.put("waitTimeHighFormatted", known ? t.duration(d.waitHighSeconds()) : unknown);
    v.put("waitTimeRangeFormatted", known ? t.range(d.waitLowSeconds(), d.waitHighSeconds()) : unknown);
    v.put("refreshIntervalSeconds", refresh);
    v.put("lastUpdated", updated.toString());
    String time = t.time(updated);
    v.put("lastUpdatedFormatted", time);
    v.put("statusParam", statusParam);
    v.put("cspNonce", nonce);
    // The "sold out" page is static: it neither polls nor refreshes.
    v.put("refreshMeta", rejected ? "" : "<noscript><meta http-equiv=\"refresh\" content=\"" + refresh
        + (back.isEmpty() ? "" : ";url=" + back.replace("&", "&amp;")) + "\"></noscript>");
    v.put("formNotSent", request.sendsContent());
    v.put("returnUrl", back);
    v.put("challenge", challenged != null);
    String widget = challenged == null || human == null ? "" : PageScripts.widget(nonce, Objects.requireNonNull(human).widget());
    v.put("humanCheckWidget", widget);
    v.put("rejected", rejected);
    v.put("suspended", state.equals("suspended"));
    v.put("queueAll", state.equals("queueAll"));
    v.put("queueingMethod", settings.queueingMethod().jsonName());
    v.put("settingsVersion", settings.version());
    v.put("isRandom", random);
    v.put("isEventActive", event.active());
    v.put("isEventPrequeueing", event.prequeueing());
    v.put("eventName", event.name());
    v.put("shuffleAtEventStart", event.shuffle());
    v.put("timeUntilEventStart", event.untilStart());
    v.put("timeUntilEventStartFormatted", event.active() ? t.duration(event.untilStart()) : unknown);
    v.put("timeUntilEventEnd", event.untilEnd());
    v.put("timeUntilEventEndFormatted", event.active() ? t.duration(event.untilEnd()) : unknown);
    v.put("eventCountdown", t.clock(event.untilStart()));
    if (rejected) {
      v.put("refreshScript", "");
    } else if (challenged == null) {
      v.put("refreshScript", PageScripts.refresh(nonce, refresh, back, pollState(state, random), event, statusParam, t.zeroDigit()));
    } else {
      String script = PageScripts.challenge(nonce, challenged, back, statusParam);
      v.put("refreshScript", template.usesWidget() ? script : widget + "\n" + script);
    }
    v.put("brandName", brandName);
    v.put("logoUrl", logoUrl);
    v.put("brandColor", brandColor);
    v.put("brandTextColor", brandTextColor);
    Map<String, String> text = new HashMap<>(64);
    for (String key : messages.plainKeys()) {
      if (!PageTemplate.PARTS.contains(key)) {
        text.put(key, t.text(key, "time", time));
      }
    }
    text.put("usersAheadSentence", t.counted("usersAheadSentence", ahead));
    text.put("usersWaitingSentence", t.counted("usersWaitingSentence", ahead));
    text.put("refreshNote", t.counted("refreshNote", refresh));
    if (random) {
      // Nobody is ahead of anyone in a random queue: the page tells how many wait, that each has
      // the same chance, and the estimate as a typical wait.
      text.put("usersAheadLabel", t.text("usersWaitingLabel"));
      text.put("usersAheadSentence", text.get("usersWaitingSentence"));
      text.put("waitLabel", t.text("typicalWaitLabel"));
      text.put("intro", t.text("randomIntro"));
    }
    if (!state.equals("open")) {
      // The page's heading and introduction say what state the room is in (also in a template of
      // one's own, which shows text.heading and text.intro).
      String key = state.equals("suspended") ? "paused" : state;
      String heading = t.text(key + "Heading");
      text.put("title", heading);
      text.put("heading", heading);
      text.put("intro", t.text(key + "Intro"));
    }
    v.put("text", text);
    v.put("waitKnown", known);
    v.put("waitMinutes", known ? Long.toString(d.waitMinutes()) : "unknown");
    v.put("refreshSeconds", refresh);
    return v;
  }

  /** The state the poll script compares with the JSON status's: the page state, {@code +random} for a random queue. */
  static String pollState(String state, boolean random) {
    return random ? state + "+random" : state;
  }

  /**
   * Where a waiting page that answered a sent form takes the visitor once they may go in: the path
   * and query of its {@code Referer} when that names this request's host, else {@code ""} (the page
   * then loads its own address, as for any other request). Only a path (always this origin) and
   * only the characters a URI allows unescaped, other than quotes: the value is written into the
   * page's script and its refresh meta.
   */
  static String returnUrl(GateRequest request) {
    String referer = request.referer();
    String host = request.host();
    if (!request.sendsContent() || referer == null || host == null) {
      return "";
    }
    URI from;
    try {
      from = new URI(referer);
    } catch (URISyntaxException e) {
      return "";
    }
    String path = from.getRawPath();
    if (!host.equalsIgnoreCase(from.getRawAuthority()) || path == null || !path.startsWith("/") || path.startsWith("//")) {
      return "";
    }
    String url = from.getRawQuery() == null ? path : path + "?" + from.getRawQuery();
    return RETURN_URL.matcher(url).matches() ? url : "";
  }
}
