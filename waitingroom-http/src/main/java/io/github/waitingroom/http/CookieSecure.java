package io.github.waitingroom.http;

/** When the ticket cookies (session and place) carry the {@code Secure} attribute. */
public enum CookieSecure {
  /**
   * When the server says the request came over HTTPS (the servlet container's {@code isSecure()},
   * the {@code https} scheme of a WebFlux request). The default. Behind a TLS-terminating proxy or
   * load balancer, the server must be told to trust its forwarded headers (Jetty: {@code
   * ForwardedRequestCustomizer}; Tomcat: {@code RemoteIpValve}; WebFlux: a {@code
   * ForwardedHeaderTransformer}; Spring Boot: {@code server.forward-headers-strategy=native} or
   * {@code framework}), or every cookie goes out without {@code Secure}. The gate never reads
   * {@code X-Forwarded-Proto} itself: only the server knows which proxies to trust. When in doubt,
   * use {@link #ALWAYS}.
   */
  AUTO,
  /** Always. */
  ALWAYS,
  /** Never (only for plain-HTTP development setups). */
  NEVER
}
