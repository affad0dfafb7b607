package io.github.waitingroom.servlet;

import io.github.waitingroom.http.Gate;
import io.github.waitingroom.http.GateRequest;
import io.github.waitingroom.http.GateResponse;
import io.github.waitingroom.http.WaitingRoomSession;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servlet side of the translation, in one place for the filter and the dashboard: how a
 * servlet request's paths, cookies and host are read for the {@link Gate}, how the gate's answer
 * reaches the filter chain, and how a {@link GateResponse} is written. No rule of the room lives
 * here.
 */
final class ServletExchange {
  private static final Logger log = LoggerFactory.getLogger(WaitingRoomFilter.class);

  /** How long an asynchronous answer (the human check's) may take before the container ends the request. */
  private static final long ASYNC_TIMEOUT_MILLIS = 60_000;

  private ServletExchange() {}

  /**
   * Answers a request of the gate's room, or passes it on: a CORS preflight gets the gate's answer
   * ({@link Gate#screen}), a request the room decides is read, decided and answered or passed on
   * with its ticket. The one answer that waits for I/O, a newcomer's human check ({@link
   * Gate#mayBlock}), is written asynchronously where the filter chain supports it.
   */
  static void answer(Gate gate, HttpServletRequest req, HttpServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    GateResponse early = gate.screen(req.getMethod(), rawPath(req), path(req), req::getHeader);
    if (early != null) {
      if (early.passes()) {
        chain.doFilter(req, res);
      } else {
        // A CORS preflight never reaches the application, unless it opted in (corsPassThrough).
        closeIfBodyUnread(req, res);
        write(res, early);
      }
      return;
    }
    GateRequest gr = read(gate, req);
    if (gate.mayBlock(gr) && gate.alwaysAnswers(gr) && req.isAsyncSupported()) {
      // A newcomer's human check asks a service: its answer is written when the service answers,
      // and no request thread waits for it meanwhile.
      writeLater(req.startAsync(req, res), gate.handleAsync(gr));
      return;
    }
    // Without async support, the human check waits for the service on this thread (Gate.mayBlock).
    GateResponse g = gate.handle(gr);
    if (!g.passes()) {
      closeIfBodyUnread(req, res);
      write(res, g);
      return;
    }
    timed(gate, chain, req, res, passOn(gate, gr, g, req, res));
  }

  /**
   * Hands a request the gate passed to the application and times the application's answer for
   * the room ({@link Gate#answered}): the time from here to the response, failed when its status
   * is 500 or more or the application throws. A request the application left asynchronous
   * ({@code request.isAsyncStarted()} once the chain returned) is timed to its end by an {@link
   * AsyncTiming} listener, failed when it times out or errs; that listener is the only object
   * timing allocates, and only for such a request.
   */
  static void timed(Gate gate, FilterChain chain, HttpServletRequest req, HttpServletResponse res,
      HttpServletResponse out) throws IOException, ServletException {
    long start = System.nanoTime();
    try {
      chain.doFilter(req, out);
    } catch (Throwable e) {
      gate.failedToAnswer(start);
      throw e;
    }
    if (!req.isAsyncStarted() || !AsyncTiming.listen(req, res, gate, start)) {
      gate.answered(start, res.getStatus());
    }
  }

  /** Whether the gate decides the request: {@link Gate#decides}, given the request's paths and headers. */
  static boolean decides(Gate gate, HttpServletRequest req) {
    return gate.decides(req.getMethod(), rawPath(req), path(req), req.getHeader("Origin"),
        req.getHeader("Access-Control-Request-Method"));
  }

  /** Reads a request the gate decides ({@link Gate#read}). */
  static GateRequest read(Gate gate, HttpServletRequest req) {
    String context = req.getContextPath();
    return gate.read(
        GateRequest.builder(context == null ? "" : context, req.getMethod()).secure(req.isSecure())
            .host(req.getScheme(), req.getServerName(), req.getServerPort()).rawPath(req.getRequestURI()),
        req.getQueryString(), req.getRemoteAddr(), name -> cookie(req, name), req::getHeader);
  }

  /** The path as the client sent it (not decoded), after the context path. */
  static String rawPath(HttpServletRequest req) {
    String uri = req.getRequestURI();
    String context = req.getContextPath();
    if (uri == null) {
      return "";
    }
    return context != null && !context.isEmpty() && uri.startsWith(context) ? uri.substring(context.length()) : uri;
  }

  /** The path within the application as the container decoded it: servlet path and path info. */
  static String path(HttpServletRequest req) {
    String servletPath = req.getServletPath();
    String pathInfo = req.getPathInfo();
    String path = (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
    return path.isEmpty() ? "/" : path;
  }

  private static @Nullable String cookie(HttpServletRequest req, String name) {
    Cookie[] cookies = req.getCookies();
    if (cookies == null) {
      return null;
    }
    for (Cookie c : cookies) {
      if (name.equals(c.getName())) {
        return unquoted(c.getValue());
      }
    }
    return null;
  }

  /**
   * A cookie value without the double quotes a client may put around it (RFC 6265's {@code DQUOTE
   * *cookie-octet DQUOTE}). The JDK's {@code CookieManager} quotes every value of a cookie set with
   * {@code Max-Age}, as ours are; Tomcat 10 removed the quotes, Tomcat 11 (Servlet 6.1) hands them
   * on, and a ticket with them would not open: such a client would lose its place at every poll.
   * A ticket never contains a quote, so removing one enclosing pair changes no real ticket.
   */
  static @Nullable String unquoted(@Nullable String value) {
    if (value != null && value.length() >= 2 && value.charAt(0) == '"' && value.charAt(value.length() - 1) == '"') {
      return value.substring(1, value.length() - 1);
    }
    return value;
  }

  /**
   * The response the application writes to, for a request the gate {@linkplain GateResponse#passes()
   * passes}: with the new ticket's cookie, kept {@code Cache-Control: private, no-store} whatever the
   * application sets ({@link TicketResponse}), as a response that sets a ticket must never be cached
   * and replayed to someone else; and, with revoke on, the session the application may end ({@link
   * WaitingRoomSession#ATTRIBUTE}, {@link RevokeResponse}).
   */
  static HttpServletResponse passOn(Gate gate, GateRequest gr, GateResponse g, HttpServletRequest req,
      HttpServletResponse res) {
    String setCookie = g.setCookie();
    HttpServletResponse out = res;
    if (setCookie != null) {
      res.addHeader("Set-Cookie", setCookie);
      out = new TicketResponse(res, setCookie);
    }
    if (!gate.revokeOn()) {
      return out;
    }
    HttpServletResponse committed = out;
    WaitingRoomSession session = gate.session(gr, g, deletion -> {
      if (!committed.isCommitted()) {
        committed.addHeader("Set-Cookie", deletion);
      }
    });
    if (session == null) {
      return out;
    }
    req.setAttribute(WaitingRoomSession.ATTRIBUTE, session);
    return new RevokeResponse(out, session);
  }

  /**
   * Writes an answer that completes later (the human check's) on a container thread, and ends the
   * asynchronous request; one that never completes is ended by the container after {@value
   * #ASYNC_TIMEOUT_MILLIS} ms (the check itself gives up after at most 30 s).
   */
  static void writeLater(AsyncContext async, CompletionStage<GateResponse> answer) {
    async.setTimeout(ASYNC_TIMEOUT_MILLIS);
    answer.whenComplete((g, failure) -> {
      try {
        async.start(() -> {
          try {
            HttpServletResponse res = (HttpServletResponse) async.getResponse();
            if (g != null) {
              closeIfBodyUnread((HttpServletRequest) async.getRequest(), res);
              ServletExchange.write(res, g);
            } else {
              res.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
            }
          } catch (IOException | RuntimeException e) {
            log.debug("the human check's answer could not be written", e);
          } finally {
            async.complete();
          }
        });
      } catch (IllegalStateException e) {
        log.debug("the human check answered after the request ended", e); // timed out, or the client left
      }
    });
  }

  /**
   * Says {@code Connection: close} in an answer to a request whose body is left unread (the gate
   * answers on its own, the operator API refused the request before reading it). The container
   * closes such a connection after the answer, which it can no longer say once the answer is
   * written; a client told nothing sends its next request on that connection now and then, and
   * gets "header parser received no bytes" or a reset instead of an answer. Over HTTP/1 only: an
   * HTTP/2 stream's unread body costs its connection nothing, and HTTP/2 forbids the header, which
   * Tomcat sends all the same (clients then refuse the answer as a protocol error).
   */
  static void closeIfBodyUnread(HttpServletRequest req, HttpServletResponse res) {
    if (req.getProtocol().startsWith("HTTP/1.")
        && (req.getContentLengthLong() > 0 || req.getHeader("Transfer-Encoding") != null)) {
      res.setHeader("Connection", "close");
    }
  }

  /** Writes an answer (of the gate, or of the operator API): its cookie, status, headers and body. */
  static void write(HttpServletResponse res, GateResponse g) throws IOException {
    String setCookie = g.setCookie();
    if (setCookie != null) {
      res.addHeader("Set-Cookie", setCookie);
    }
    byte[] body = g.body();
    res.setStatus(g.status());
    for (Map.Entry<String, String> h : g.headers().entrySet()) {
      res.setHeader(h.getKey(), h.getValue());
    }
    if (!g.contentType().isEmpty()) {
      res.setContentType(g.contentType());
    }
    res.setContentLength(body.length);
    if (body.length > 0) {
      res.getOutputStream().write(body);
    }
  }
}
