package io.github.waitingroom.http;

import java.io.IOException;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The {@link OperatorRequest} of {@link OperatorRequest#of}: the parts an adapter read from its own
 * request type, each method answering from one of them, so that the servlet and WebFlux dashboards
 * read a request alike.
 */
record ReadOperatorRequest(
    String method, String path, String requestUri, @Nullable String remoteAddress, Gate.Lookup parameters,
    Gate.Lookup headers, Predicate<String> roles, OperatorRequest.Body reader) implements OperatorRequest {
  @Override
  public @Nullable String parameter(String name) {
    return parameters.get(name);
  }

  @Override
  public @Nullable String header(String name) {
    return headers.get(name);
  }

  @Override
  public boolean userInRole(String role) {
    return roles.test(role);
  }

  @Override
  public @Nullable String body() throws IOException {
    return reader.read();
  }
}
