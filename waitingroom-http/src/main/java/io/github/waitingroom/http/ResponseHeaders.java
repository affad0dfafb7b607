package io.github.waitingroom.http;

import java.util.Locale;

/**
 * The header policy of a response the {@link Gate} passes on to the application: the one role of
 * this class. Both adapters apply it to what the application writes, so that neither holds a rule
 * of its own.
 *
 * <ul>
 *   <li>A passed response that sets a ticket cookie ({@link GateResponse#setCookie()} not {@code
 *       null}) stays {@code Cache-Control: }{@value #NO_STORE}: the adapter drops every {@linkplain
 *       #isCachingHeader caching header} the application sets, since a shared cache that kept the
 *       response would replay the ticket to someone else.
 *   <li>With {@linkplain Gate.Builder#revoke revoke} on, the {@linkplain #REVOKE_HEADER revoke
 *       header} ends the visitor's session ({@link Gate#session}) and never reaches the client.
 * </ul>
 *
 * <p>The gate's own answers carry their headers in {@link GateResponse#headers()}.
 */
public final class ResponseHeaders {
  /** The {@code Cache-Control} of every answer and of every passed response that sets a ticket. */
  public static final String NO_STORE = "private, no-store";

  /**
   * The response header by which an application ends the visitor's session ({@link
   * Gate.Builder#revoke}): the filter removes it from the response, revokes the session and deletes
   * the session cookie.
   */
  public static final String REVOKE_HEADER = "X-WaitingRoom-Revoke";

  private ResponseHeaders() {}

  /**
   * {@return whether a response header is the {@linkplain #REVOKE_HEADER revoke header}, in any case}
   *
   * @param name a header name
   */
  public static boolean isRevokeHeader(String name) {
    return REVOKE_HEADER.equalsIgnoreCase(name);
  }

  /**
   * {@return whether a response header would let a shared cache keep the response}
   * ({@code Cache-Control}, {@code Expires}, {@code Surrogate-Control}, {@code *CDN-Cache-Control}):
   * an adapter drops these from an application response that sets a ticket cookie.
   *
   * @param name a header name, in any case
   */
  public static boolean isCachingHeader(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.equals("cache-control") || n.equals("expires") || n.equals("surrogate-control")
        || n.endsWith("cdn-cache-control");
  }
}
