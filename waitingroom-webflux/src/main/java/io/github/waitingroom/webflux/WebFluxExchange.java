package io.github.waitingroom.webflux;

import io.github.waitingroom.http.Gate;
import io.github.waitingroom.http.GateRequest;
import io.github.waitingroom.http.GateResponse;
import io.github.waitingroom.http.ResponseHeaders;
import io.github.waitingroom.http.WaitingRoomSession;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.util.ClassUtils;
import org.springframework.web.ErrorResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The WebFlux side of the translation, in one place for the room's filter and the dashboard's: how
 * an exchange's paths, cookies, host and address are read for the {@link Gate}, and how a {@link
 * GateResponse} is written (the twin of the servlet adapter's {@code ServletExchange}). No rule of
 * the room lives here.
 */
final class WebFluxExchange {
  /** Whether the servlet API is there: WebFlux may then run on a servlet container. */
  private static final boolean SERVLET_API =
      ClassUtils.isPresent("jakarta.servlet.ServletRequest", WebFluxExchange.class.getClassLoader());

  private WebFluxExchange() {}

  /** Reads a request the gate decides ({@link Gate#read}). */
  static GateRequest read(Gate gate, ServerHttpRequest request, String method) {
    URI uri = request.getURI();
    return gate.read(
        GateRequest.builder(request.getPath().contextPath().value(), method)
            .secure("https".equalsIgnoreCase(uri.getScheme()))
            .host(uri.getScheme(), uri.getHost(), uri.getPort()).rawPath(request.getPath().value()),
        uri.getRawQuery(), address(request), name -> cookie(request, name), request.getHeaders()::getFirst);
  }

  private static @Nullable String cookie(ServerHttpRequest request, String name) {
    HttpCookie c = request.getCookies().getFirst(name);
    return c == null ? null : c.getValue();
  }

  /** The client's address, as the server sees it. */
  static @Nullable String address(ServerHttpRequest request) {
    InetSocketAddress remote = request.getRemoteAddress();
    return remote == null || remote.getAddress() == null ? null : remote.getAddress().getHostAddress();
  }

  /**
   * Readies the response of a request the gate {@linkplain GateResponse#passes() passes} for the
   * application: the new ticket's cookie, kept {@code Cache-Control: private, no-store} whatever the
   * application sets (a response that sets a ticket must never be cached and replayed to someone
   * else), and, with revoke on, the session the application may end.
   */
  static void passOn(ServerWebExchange exchange, Gate gate, GateRequest r, GateResponse g) {
    ServerHttpResponse response = exchange.getResponse();
    String setCookie = g.setCookie();
    if (setCookie != null) {
      response.getHeaders().add(HttpHeaders.SET_COOKIE, setCookie);
      response.getHeaders().set(HttpHeaders.CACHE_CONTROL, ResponseHeaders.NO_STORE);
      response.beforeCommit(
          () -> {
            keepTicket(response.getHeaders(), setCookie);
            return Mono.empty();
          });
    }
    if (gate.revokeOn()) {
      revocable(exchange, gate, r, g);
    }
  }

  /**
   * Hands an exchange the gate passed to the application and times the application's answer for
   * the room ({@link Gate#answered}): the time from here to the end of the response, failed when
   * its status is 500 or more or the application fails with an error other than an answer below
   * 500 (an {@link ErrorResponse} such as a 404 {@code ResponseStatusException}, which Spring turns
   * into that answer). An exchange the client gives up on (cancelled) is not timed: it says nothing
   * of how long the application would have taken. Costs one operator and one consumer per exchange.
   */
  static Mono<Void> timed(Gate gate, ServerWebExchange exchange, WebFilterChain chain) {
    long start = System.nanoTime();
    ServerHttpResponse response = exchange.getResponse();
    return chain.filter(exchange).doOnEach(signal -> {
      if (signal.isOnComplete()) {
        gate.answered(start, status(response));
      } else if (signal.isOnError()) {
        if (signal.getThrowable() instanceof ErrorResponse answer) {
          gate.answered(start, answer.getStatusCode().value());
        } else {
          gate.failedToAnswer(start);
        }
      }
    });
  }

  /** The status of a response: 200 when the application set none. */
  private static int status(ServerHttpResponse response) {
    HttpStatusCode status = response.getStatusCode();
    return status == null ? 200 : status.value();
  }

  /**
   * Writes the gate's own answer to a request whose body it never reads, with {@code Connection:
   * close} when the request has one: the server would otherwise keep a connection whose request
   * body is left unread, or close it without saying so, and a client told nothing sends its next
   * request on it now and then and gets no answer. Over HTTP/1 only (see {@link #overHttp1}).
   */
  static Mono<Void> writeUnread(ServerWebExchange exchange, GateResponse g) {
    HttpHeaders in = exchange.getRequest().getHeaders();
    // getFirst, not containsKey: Spring Framework 7's HttpHeaders is no Map (NoSuchMethodError on Boot 4).
    if ((in.getContentLength() > 0 || in.getFirst(HttpHeaders.TRANSFER_ENCODING) != null)
        && overHttp1(exchange.getRequest())) {
      exchange.getResponse().getHeaders().set(HttpHeaders.CONNECTION, "close");
    }
    return write(exchange.getResponse(), g);
  }

  /**
   * Whether a request may have come over HTTP/1, where a connection carries one request after
   * another. An HTTP/2 stream's unread body costs its connection nothing, and HTTP/2 forbids {@code
   * Connection} in a response: Reactor Netty and Jetty leave it out, but Tomcat sends it, and
   * clients refuse the answer as a protocol error. Spring's request does not tell its protocol; a
   * servlet container's does.
   */
  static boolean overHttp1(ServerHttpRequest request) {
    return !SERVLET_API || ServletProtocol.overHttp1(ServerHttpRequestDecorator.getNativeRequest(request));
  }

  /** The protocol of a request that a servlet container serves; loaded only where the servlet API is. */
  private static final class ServletProtocol {
    static boolean overHttp1(Object nativeRequest) {
      return !(nativeRequest instanceof jakarta.servlet.ServletRequest r) || r.getProtocol().startsWith("HTTP/1.");
    }
  }

  /** Writes an answer (of the gate, or of the operator API): its cookie, status, headers and body. */
  static Mono<Void> write(ServerHttpResponse response, GateResponse g) {
    String setCookie = g.setCookie();
    if (setCookie != null) {
      response.getHeaders().add(HttpHeaders.SET_COOKIE, setCookie);
    }
    byte[] body = g.body();
    response.setStatusCode(HttpStatusCode.valueOf(g.status()));
    HttpHeaders out = response.getHeaders();
    for (Map.Entry<String, String> h : g.headers().entrySet()) {
      out.set(h.getKey(), h.getValue());
    }
    if (!g.contentType().isEmpty()) {
      out.set(HttpHeaders.CONTENT_TYPE, g.contentType());
    }
    if (body.length == 0) {
      return response.setComplete();
    }
    out.setContentLength(body.length);
    return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
  }

  /**
   * Lets the application end the session of a passed request: the exchange attribute {@value
   * WaitingRoomSession#ATTRIBUTE}, and the {@linkplain ResponseHeaders#REVOKE_HEADER revoke header}, which
   * never reaches the client. Either deletes the session cookie just before the response commits;
   * a revoke after that ends the session but leaves the cookie to the client.
   */
  private static void revocable(ServerWebExchange exchange, Gate gate, GateRequest r, GateResponse g) {
    ServerHttpResponse response = exchange.getResponse();
    AtomicBoolean delete = new AtomicBoolean();
    AtomicBoolean committing = new AtomicBoolean();
    WaitingRoomSession session = gate.session(r, g, deletion -> {
      if (!committing.get()) {
        delete.set(true);
      }
    });
    if (session == null) {
      return;
    }
    exchange.getAttributes().put(WaitingRoomSession.ATTRIBUTE, session);
    String deletion = gate.deleteCookie(r);
    response.beforeCommit(
        () -> {
          HttpHeaders headers = response.getHeaders();
          boolean asked = headers.headerSet().removeIf(h -> ResponseHeaders.isRevokeHeader(h.getKey()));
          if (asked) {
            session.revoke();
          }
          committing.set(true);
          if (delete.get()) {
            headers.add(HttpHeaders.SET_COOKIE, deletion);
          }
          return Mono.empty();
        });
  }

  /**
   * Drops the caching headers the application set, and puts the ticket back if it was replaced.
   * Only {@link HttpHeaders} methods that Spring Framework 6.2 and 7 both declare alike are used
   * here ({@code headerSet()}, {@code set}, {@code add}): 7 changed {@code get} and {@code remove}
   * in ways a jar built against 6.2 cannot call.
   */
  private static void keepTicket(HttpHeaders headers, String setCookie) {
    headers.headerSet().removeIf(h -> ResponseHeaders.isCachingHeader(h.getKey()));
    headers.set(HttpHeaders.CACHE_CONTROL, ResponseHeaders.NO_STORE);
    boolean present = false;
    for (Map.Entry<String, List<String>> h : headers.headerSet()) {
      if (HttpHeaders.SET_COOKIE.equalsIgnoreCase(h.getKey()) && h.getValue().contains(setCookie)) {
        present = true;
      }
    }
    if (!present) {
      headers.add(HttpHeaders.SET_COOKIE, setCookie);
    }
  }

  /**
   * The path with each segment decoded and its path parameters dropped, as a servlet container's
   * {@code getServletPath() + getPathInfo()} reads it and as WebFlux's handler mappings match it.
   */
  static String decoded(PathContainer path) {
    StringBuilder out = new StringBuilder(path.value().length());
    for (PathContainer.Element e : path.elements()) {
      out.append(e instanceof PathContainer.PathSegment s ? s.valueToMatch() : e.value());
    }
    return out.length() == 0 ? "/" : out.toString();
  }
}
