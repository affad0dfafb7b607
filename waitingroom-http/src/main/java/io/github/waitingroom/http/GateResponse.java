package io.github.waitingroom.http;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What an adapter does with a request the room decided, as plain values: pass it to the
 * application, or answer it with the waiting page or the JSON status. Either way it first adds
 * {@link #setCookie()} (when not {@code null}) as a {@code Set-Cookie} header. Both adapters write
 * an answer from these values alone, so they send the same status, headers and bytes.
 */
public final class GateResponse {
  private final @Nullable String setCookie;
  private final int status;
  private final String contentType;
  private final Map<String, String> headers;
  private final byte[] body;
  private final @Nullable String session;

  private GateResponse(
      @Nullable String setCookie, int status, String contentType, Map<String, String> headers, byte[] body,
      @Nullable String session) {
    this.session = session;
    this.setCookie = setCookie;
    this.status = status;
    this.contentType = contentType;
    this.headers = headers;
    this.body = body;
  }

  static GateResponse pass(@Nullable String setCookie, @Nullable String session) {
    return new GateResponse(setCookie, 0, "", Map.of(), new byte[0], session);
  }

  static GateResponse answer(
      @Nullable String setCookie, int status, String contentType, Map<String, String> headers, String body) {
    return new GateResponse(setCookie, status, contentType, Map.copyOf(headers), body.getBytes(StandardCharsets.UTF_8), null);
  }

  static GateResponse answer(int status, String contentType, Map<String, String> headers, byte[] body) {
    return new GateResponse(null, status, contentType, Map.copyOf(headers), body, null);
  }

  /**
   * Whether the request goes on to the application. When it does and {@link #setCookie()} is not
   * {@code null}, the adapter keeps the response {@code Cache-Control: }{@value ResponseHeaders#NO_STORE}
   * and the cookie on it whatever the application does (see {@link ResponseHeaders}).
   *
   * @return {@code true} to pass the request on, {@code false} to answer it with this response
   */
  public boolean passes() {
    return status == 0;
  }

  /**
   * The session ticket a passed request goes on with: the new one when the gate sets it, else the
   * one of the request's session cookie; what {@link Gate#session} revokes. {@code null} for an
   * answer.
   *
   * @return the ticket, or {@code null}
   */
  public @Nullable String session() {
    return session;
  }

  /**
   * The full value of the {@code Set-Cookie} header that carries the new ticket, with every
   * attribute; {@code null} when the ticket did not change.
   *
   * @return the header value, or {@code null}
   */
  public @Nullable String setCookie() {
    return setCookie;
  }

  /**
   * The status of an answer: 200 for the JSON status of an admitted user, else the gate's waiting
   * status; 0 when the request {@linkplain #passes() passes}.
   *
   * @return the HTTP status code
   */
  public int status() {
    return status;
  }

  /**
   * The answer's {@code Content-Type}, with its charset ({@code ""} when the request passes).
   *
   * @return the media type
   */
  public String contentType() {
    return contentType;
  }

  /**
   * The answer's other headers, one value each: {@code Cache-Control}, {@code
   * X-Content-Type-Options}, {@code Content-Security-Policy} and, with status 429, {@code
   * Retry-After}. Empty when the request passes.
   *
   * @return an unmodifiable map from header name to value
   */
  public Map<String, String> headers() {
    return headers;
  }

  /**
   * The answer's body in UTF-8: the waiting page or the JSON status (empty when the request passes).
   *
   * @return a fresh copy of the bytes
   */
  public byte[] body() {
    return body.clone();
  }
}
