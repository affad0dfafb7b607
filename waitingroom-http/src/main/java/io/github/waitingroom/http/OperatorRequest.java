package io.github.waitingroom.http;

import java.io.IOException;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A request to the {@link OperatorApi}, as an adapter reads it from its stack's request: the servlet
 * dashboard from an {@code HttpServletRequest}, the WebFlux one from a {@code ServerWebExchange}.
 * Both build it with {@link #of}, from what only they can read.
 */
public interface OperatorRequest {
  /**
   * A request from the parts an adapter reads from its own request type.
   *
   * @param method the HTTP method, upper case
   * @param path the path below the operator API's own mapping ({@link #path()})
   * @param requestUri the request's URI path as the client sent it ({@link #requestUri()})
   * @param remoteAddress the client's address, or {@code null} when unknown
   * @param parameters a query parameter's first value by name
   * @param headers a request header's first value by name, in any case
   * @param roles whether the application's own security authenticated the user in a role
   * @param body reads the body, asked only for a {@code PUT} that passed the checks ({@link #body()})
   * @return the request
   */
  static OperatorRequest of(
      String method, String path, String requestUri, @Nullable String remoteAddress, Gate.Lookup parameters,
      Gate.Lookup headers, Predicate<String> roles, Body body) {
    return new ReadOperatorRequest(method, path, requestUri, remoteAddress, parameters, headers, roles, body);
  }

  /** How an adapter reads the body of a {@code PUT}: {@link OperatorRequest#body()}. */
  @FunctionalInterface
  interface Body {
    /**
     * Reads the body as UTF-8, at most {@link OperatorApi#MAX_BODY_BYTES} bytes ({@link OperatorBody#read}).
     *
     * @return the body, or {@code null} when it is longer
     * @throws IOException when it cannot be read
     */
    @Nullable String read() throws IOException;
  }

  /**
   * The HTTP method.
   *
   * @return the method, upper case
   */
  String method();

  /**
   * The path below the operator API's own mapping: empty for the mapping itself, {@code /} for
   * the page, {@code /data}, {@code /status}, {@code /settings}.
   *
   * @return the path
   */
  String path();

  /**
   * The request's URI path as the client sent it, for the redirect of the bare mapping to the page.
   *
   * @return the URI path
   */
  String requestUri();

  /**
   * A query parameter ({@code room}).
   *
   * @param name the parameter's name
   * @return its first value, or {@code null}
   */
  @Nullable String parameter(String name);

  /**
   * A request header.
   *
   * @param name the header's name, in any case
   * @return its first value, or {@code null}
   */
  @Nullable String header(String name);

  /**
   * The client's address, which counts wrong bearer tokens.
   *
   * @return the address, or {@code null} when unknown
   */
  @Nullable String remoteAddress();

  /**
   * Whether the application's own security authenticated the user in this role, for an API built
   * with {@link OperatorApi.Builder#requireRole}.
   *
   * @param role the role
   * @return whether the user is in it
   */
  boolean userInRole(String role);

  /**
   * The body as UTF-8, read only for a {@code PUT} that passed the checks: at most {@link
   * OperatorApi#MAX_BODY_BYTES} bytes.
   *
   * @return the body, or {@code null} when it is longer
   * @throws IOException when it cannot be read
   */
  @Nullable String body() throws IOException;
}
