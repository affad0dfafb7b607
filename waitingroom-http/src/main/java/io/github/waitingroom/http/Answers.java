package io.github.waitingroom.http;

import io.github.waitingroom.Decision;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.RoomStatus;
import io.github.waitingroom.WaitingRoom;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Turns a room's decision into the gate's answer: the ticket cookie, then a pass, the JSON status
 * or a page, with the response headers every answer carries ({@code Cache-Control: private,
 * no-store}, {@code X-Content-Type-Options: nosniff}, its Content-Security-Policy, {@code
 * Content-Language} for a page, {@code Retry-After} with status 429).
 */
final class Answers {
  /** The answer to a CORS preflight the gate answers itself ({@link Gate#preflight}): 204, no CORS grant. */
  static final GateResponse PREFLIGHT =
      GateResponse.answer(null, 204, "", Map.of("Cache-Control", ResponseHeaders.NO_STORE, "X-Content-Type-Options", "nosniff",
          "Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"), "");

  private final WaitingRoom room;
  private final CookiePolicy cookies;
  private final PageModel pages;
  private final String statusParam;
  private final int waitingStatus;
  private final int rejectStatus;
  private final String imageSources;

  Answers(WaitingRoom room, CookiePolicy cookies, PageModel pages, String statusParam, int waitingStatus,
      int rejectStatus, String imageSources) {
    this.room = room;
    this.cookies = cookies;
    this.pages = pages;
    this.statusParam = statusParam;
    this.waitingStatus = waitingStatus;
    this.rejectStatus = rejectStatus;
    this.imageSources = imageSources;
  }

  int waitingStatus() {
    return waitingStatus;
  }

  /** The answer to a decision, as without friction. */
  GateResponse respond(Decision d, GateRequest request) {
    String ticket = d.ticket();
    String setCookie = ticket == null ? null : cookies.ticket(d.letsThrough(), request, ticket, d.ticketMaxAgeSeconds());
    if (QueryFlags.hasFlag(request.query(), statusParam)) {
      return json(d, setCookie, statusOf(d), request);
    }
    if (d.letsThrough()) {
      return GateResponse.pass(setCookie, ticket != null ? ticket : request.ticket());
    }
    String accept = request.accept();
    if (accept != null && accept.contains("application/json")) {
      return json(d, setCookie, statusOf(d), request);
    }
    return page(d, setCookie, request);
  }

  /** The HTTP status of an answer to a decision: 200 when it lets through, the reject or waiting status otherwise. */
  private int statusOf(Decision d) {
    if (d.letsThrough()) {
      return 200;
    }
    return d.outcome() == Decision.Outcome.REJECT ? rejectStatus : waitingStatus;
  }

  /**
   * The infinite queue: a waiting answer that looks like any other (the people waiting ahead, the
   * wait unknown) and never lets the client in. Nothing is decided or counted by the room.
   */
  GateResponse infiniteQueue(GateRequest request, @Nullable String setCookie) {
    RoomStatus s = room.status();
    Decision d = Decision.waitingWithoutEstimate(Math.max(1, s.waitingUsers()), room.config().refreshSeconds(), s.now());
    if (QueryFlags.wantsJson(request, statusParam)) {
      return json(d, setCookie, waitingStatus, request);
    }
    return page(d, setCookie, request);
  }

  /** The challenge page, or its JSON status, for a newcomer the room would put in line. */
  GateResponse challenge(Friction.Challenged c, @Nullable String setCookie, GateRequest request, long now,
      String widgetSources) {
    Decision d = Decision.challenge(c.remainingSeconds(), now);
    RoomSettings settings = room.settings();
    if (QueryFlags.wantsJson(request, statusParam)) {
      String tag = pages.plainTag(request.acceptLanguage());
      String body = StatusJson.write(room.config().roomId(), d, now, tag, null, c, settings, pages.eventNow());
      return answer(setCookie, waitingStatus, "application/json", Csp.NONE, body, d, null);
    }
    Texts t = pages.texts(pages.languageFor(request.acceptLanguage()), settings);
    String nonce = Csp.nonce();
    String html = pages.html(d, t, nonce, now, request, c, settings);
    return answer(setCookie, waitingStatus, "text/html", Csp.challenge(nonce, imageSources, widgetSources), html, d, t.tag);
  }

  private GateResponse json(Decision d, @Nullable String setCookie, int status, GateRequest request) {
    long viewTime = viewTime(d);
    RoomSettings settings = room.settings();
    Texts t = pages.texts(pages.languageFor(request.acceptLanguage()), settings);
    Map<String, String> texts = null;
    if (!d.letsThrough() && d.outcome() != Decision.Outcome.REJECT) {
      texts = pages.jsonTexts(d, t, viewTime, request, settings);
    }
    String body = StatusJson.write(room.config().roomId(), d, viewTime, t.tag, texts, null, settings, pages.eventNow());
    return answer(setCookie, status, "application/json", Csp.NONE, body, d, null);
  }

  private long viewTime(Decision d) {
    return d.viewTime() > 0 ? d.viewTime() : room.status().now();
  }

  /**
   * The waiting page, or for a {@link Decision.Outcome#REJECT} the "sold out" page: the same
   * template with {@code rejected} true, its own heading and text, and neither poll script nor
   * meta refresh.
   */
  private GateResponse page(Decision d, @Nullable String setCookie, GateRequest request) {
    RoomSettings settings = room.settings();
    Texts t = pages.texts(pages.languageFor(request.acceptLanguage()), settings);
    String nonce = Csp.nonce();
    String html = pages.html(d, t, nonce, viewTime(d), request, null, settings);
    return answer(setCookie, statusOf(d), "text/html", Csp.page(nonce, imageSources), html, d, t.tag);
  }

  /** The proof-of-work worker script: cached an hour by the browser, allowed nothing. */
  static GateResponse workerScript() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Cache-Control", "private, max-age=3600");
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("Content-Security-Policy", Csp.NONE);
    return GateResponse.answer(null, 200, "text/javascript;charset=UTF-8", headers, PageScripts.WORKER_SCRIPT);
  }

  private static GateResponse answer(
      @Nullable String setCookie,
      int status,
      String type,
      String policy,
      String body,
      Decision d,
      @Nullable String contentLanguage) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Cache-Control", ResponseHeaders.NO_STORE);
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("Content-Security-Policy", policy);
    if (contentLanguage != null) {
      headers.put("Content-Language", contentLanguage);
    }
    if (status == 429 && d.refreshSeconds() > 0) {
      headers.put("Retry-After", Long.toString(d.refreshSeconds()));
    }
    return GateResponse.answer(setCookie, status, type + ";charset=UTF-8", headers, body);
  }
}
