package io.github.waitingroom.http;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What {@link Gate#handle} needs to know of a request that the room decides, read by an adapter
 * from its own request type. The room's two cookies are read separately: the session cookie
 * ({@link Gate#cookieName()}) into {@code ticket}, the place cookie ({@link Gate#placeCookieName()})
 * into {@code place}.
 *
 * @param contextPath the application's context path ({@code ""} for the root), which scopes the
 *     ticket cookies
 * @param secure whether the server says the request came over HTTPS (see {@link CookieSecure#AUTO})
 * @param ticket the value of the room's session cookie ({@link Gate#cookieName()}), or {@code null}
 *     when the request has none
 * @param query the raw query string, or {@code null} when there is none
 * @param accept the {@code Accept} header, or {@code null}
 * @param place the value of the room's place cookie ({@link Gate#placeCookieName()}), or {@code
 *     null} when the request has none; then a waiting ticket in the session cookie (from a version
 *     with one cookie) keeps its place
 * @param acceptLanguage the {@code Accept-Language} header, or {@code null}: chooses the language
 *     of the waiting page and of the JSON status's texts (see {@link Gate.Builder#defaultLanguage})
 * @param method the HTTP method: a waiting page for anything but {@code GET} or {@code HEAD} (a form
 *     that was submitted) says the form was not sent and, once the visitor may go in, takes them
 *     back to the page they sent it from
 * @param referer the {@code Referer} header, or {@code null}: the page a form was sent from
 * @param host the {@code Host} header (the request's authority), or {@code null}: a {@code Referer}
 *     of another host is not returned to
 * @param friction the value of the room's challenge cookie ({@link Gate#frictionCookieName()}),
 *     or {@code null}: read it only when {@link Gate#frictionOn()} (it holds a newcomer's
 *     proof-of-work challenge or the infinite queue's marker)
 * @param remoteAddress the client's address as the server sees it, or {@code null}: a newcomer's
 *     challenge is bound to it and the no-script budget counted by it, and the {@linkplain
 *     Gate.Builder#humanCheck human check} passes it on ({@link Gate#read}
 *     keeps it only with friction on)
 * @param rawPath the path as the client sent it (not decoded), the context path included, or
 *     {@code null}: with {@code query}, where the answer that {@linkplain
 *     GateOptions#confirmNewcomers confirms a newcomer} sends it back to
 */
public record GateRequest(
    String contextPath,
    boolean secure,
    @Nullable String ticket,
    @Nullable String query,
    @Nullable String accept,
    @Nullable String place,
    @Nullable String acceptLanguage,
    String method,
    @Nullable String referer,
    @Nullable String host,
    @Nullable String friction,
    @Nullable String remoteAddress,
    @Nullable String rawPath) {

  /** Checks that the context path and the method are given. */
  public GateRequest {
    Objects.requireNonNull(contextPath, "contextPath");
    Objects.requireNonNull(method, "method");
  }

  /**
   * A {@code GET} request, as callers before the method was read built it.
   *
   * @param contextPath the application's context path ({@code ""} for the root)
   * @param secure whether the server says the request came over HTTPS
   * @param ticket the value of the room's session cookie, or {@code null}
   * @param query the raw query string, or {@code null}
   * @param accept the {@code Accept} header, or {@code null}
   * @param place the value of the room's place cookie, or {@code null}
   * @param acceptLanguage the {@code Accept-Language} header, or {@code null}
   * @deprecated name the values instead: {@link #builder(String, String)}
   */
  @Deprecated
  public GateRequest(
      String contextPath,
      boolean secure,
      @Nullable String ticket,
      @Nullable String query,
      @Nullable String accept,
      @Nullable String place,
      @Nullable String acceptLanguage) {
    this(contextPath, secure, ticket, query, accept, place, acceptLanguage, "GET", null, null, null, null, null);
  }

  /**
   * A request of a room without friction (no challenge cookie, no client address).
   *
   * @param contextPath the application's context path ({@code ""} for the root)
   * @param secure whether the server says the request came over HTTPS
   * @param ticket the value of the room's session cookie, or {@code null}
   * @param query the raw query string, or {@code null}
   * @param accept the {@code Accept} header, or {@code null}
   * @param place the value of the room's place cookie, or {@code null}
   * @param acceptLanguage the {@code Accept-Language} header, or {@code null}
   * @param method the HTTP method
   * @param referer the {@code Referer} header, or {@code null}
   * @param host the {@code Host} header, or {@code null}
   * @deprecated name the values instead: {@link #builder(String, String)}
   */
  @Deprecated
  public GateRequest(
      String contextPath,
      boolean secure,
      @Nullable String ticket,
      @Nullable String query,
      @Nullable String accept,
      @Nullable String place,
      @Nullable String acceptLanguage,
      String method,
      @Nullable String referer,
      @Nullable String host) {
    this(contextPath, secure, ticket, query, accept, place, acceptLanguage, method, referer, host, null, null, null);
  }

  /**
   * A request without its raw path, as callers before the path was read built it.
   *
   * @param contextPath the application's context path ({@code ""} for the root)
   * @param secure whether the server says the request came over HTTPS
   * @param ticket the value of the room's session cookie, or {@code null}
   * @param query the raw query string, or {@code null}
   * @param accept the {@code Accept} header, or {@code null}
   * @param place the value of the room's place cookie, or {@code null}
   * @param acceptLanguage the {@code Accept-Language} header, or {@code null}
   * @param method the HTTP method
   * @param referer the {@code Referer} header, or {@code null}
   * @param host the {@code Host} header, or {@code null}
   * @param friction the value of the room's challenge cookie, or {@code null}
   * @param remoteAddress the client's address, or {@code null}
   * @deprecated name the values instead: {@link #builder(String, String)}
   */
  @Deprecated
  public GateRequest(
      String contextPath,
      boolean secure,
      @Nullable String ticket,
      @Nullable String query,
      @Nullable String accept,
      @Nullable String place,
      @Nullable String acceptLanguage,
      String method,
      @Nullable String referer,
      @Nullable String host,
      @Nullable String friction,
      @Nullable String remoteAddress) {
    this(contextPath, secure, ticket, query, accept, place, acceptLanguage, method, referer, host, friction,
        remoteAddress, null);
  }

  /** Whether the request sent something (a form): any method but {@code GET} and {@code HEAD}. */
  boolean sendsContent() {
    return !method.equals("GET") && !method.equals("HEAD");
  }

  /**
   * A request without an {@code Accept-Language} header: the page takes the room's default language.
   *
   * @param contextPath the application's context path ({@code ""} for the root)
   * @param secure whether the server says the request came over HTTPS
   * @param ticket the value of the room's session cookie, or {@code null}
   * @param query the raw query string, or {@code null}
   * @param accept the {@code Accept} header, or {@code null}
   * @param place the value of the room's place cookie, or {@code null}
   * @deprecated name the values instead: {@link #builder(String, String)}
   */
  @Deprecated
  public GateRequest(
      String contextPath,
      boolean secure,
      @Nullable String ticket,
      @Nullable String query,
      @Nullable String accept,
      @Nullable String place) {
    this(contextPath, secure, ticket, query, accept, place, null, "GET", null, null, null, null, null);
  }

  /**
   * A request without a place cookie, as callers of the one-cookie version built it.
   *
   * @param contextPath the application's context path ({@code ""} for the root)
   * @param secure whether the server says the request came over HTTPS
   * @param ticket the value of the room's session cookie, or {@code null}
   * @param query the raw query string, or {@code null}
   * @param accept the {@code Accept} header, or {@code null}
   * @deprecated name the values instead: {@link #builder(String, String)}
   */
  @Deprecated
  public GateRequest(
      String contextPath, boolean secure, @Nullable String ticket, @Nullable String query, @Nullable String accept) {
    this(contextPath, secure, ticket, query, accept, null, null, "GET", null, null, null, null, null);
  }

  /**
   * Starts a request by name rather than by position: what an adapter reads, one call per value.
   *
   * <pre>{@code
   * GateRequest r = GateRequest.builder(contextPath, method)
   *     .secure(secure).ticket(sessionCookie).place(placeCookie).query(rawQuery)
   *     .accept(accept).acceptLanguage(acceptLanguage).build();
   * }</pre>
   *
   * @param contextPath the application's context path ({@code ""} for the root)
   * @param method the HTTP method
   * @return a builder with every other value absent ({@code null}, or {@code false} for {@code secure})
   */
  public static Builder builder(String contextPath, String method) {
    return new Builder(contextPath, method);
  }

  /** Builds a {@link GateRequest} one named value at a time; each setter stands for the component of that name. */
  public static final class Builder {
    private final String contextPath;
    private final String method;
    private boolean secure;
    private @Nullable String ticket;
    private @Nullable String query;
    private @Nullable String accept;
    private @Nullable String place;
    private @Nullable String acceptLanguage;
    private @Nullable String referer;
    private @Nullable String host;
    private @Nullable String friction;
    private @Nullable String remoteAddress;
    private @Nullable String rawPath;

    private Builder(String contextPath, String method) {
      this.contextPath = Objects.requireNonNull(contextPath, "contextPath");
      this.method = Objects.requireNonNull(method, "method");
    }

    /**
     * @param secure whether the server says the request came over HTTPS
     * @return this builder
     */
    public Builder secure(boolean secure) {
      this.secure = secure;
      return this;
    }

    /**
     * @param ticket the value of the session cookie, or {@code null}
     * @return this builder
     */
    public Builder ticket(@Nullable String ticket) {
      this.ticket = ticket;
      return this;
    }

    /**
     * @param place the value of the place cookie, or {@code null}
     * @return this builder
     */
    public Builder place(@Nullable String place) {
      this.place = place;
      return this;
    }

    /**
     * @param friction the value of the challenge cookie, or {@code null}
     * @return this builder
     */
    public Builder friction(@Nullable String friction) {
      this.friction = friction;
      return this;
    }

    /**
     * @param query the raw query string, or {@code null}
     * @return this builder
     */
    public Builder query(@Nullable String query) {
      this.query = query;
      return this;
    }

    /**
     * @param accept the {@code Accept} header, or {@code null}
     * @return this builder
     */
    public Builder accept(@Nullable String accept) {
      this.accept = accept;
      return this;
    }

    /**
     * @param acceptLanguage the {@code Accept-Language} header, or {@code null}
     * @return this builder
     */
    public Builder acceptLanguage(@Nullable String acceptLanguage) {
      this.acceptLanguage = acceptLanguage;
      return this;
    }

    /**
     * @param referer the {@code Referer} header, or {@code null}
     * @return this builder
     */
    public Builder referer(@Nullable String referer) {
      this.referer = referer;
      return this;
    }

    /**
     * @param host the {@code Host} header, or {@code null}
     * @return this builder
     */
    public Builder host(@Nullable String host) {
      this.host = host;
      return this;
    }

    /**
     * Sets the host the client addressed, as {@code host[:port]}: the port only when not the
     * scheme's default, an IPv6 address in brackets, no host without a name. Give what the server
     * resolved: behind a proxy, its forwarded headers, where {@code Host} names the upstream.
     *
     * @param scheme the request's scheme, or {@code null}
     * @param host the host name or address, or {@code null}
     * @param port the port, or 0 or less when none was given
     * @return this builder
     */
    public Builder host(@Nullable String scheme, @Nullable String host, int port) {
      if (host == null || host.isEmpty()) {
        return host(null);
      }
      String h = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
      boolean defaultPort =
          port <= 0 || ("https".equalsIgnoreCase(scheme) && port == 443) || ("http".equalsIgnoreCase(scheme) && port == 80);
      return host(defaultPort ? h : h + ":" + port);
    }

    /**
     * @param remoteAddress the client's address, or {@code null}
     * @return this builder
     */
    public Builder remoteAddress(@Nullable String remoteAddress) {
      this.remoteAddress = remoteAddress;
      return this;
    }

    /**
     * @param rawPath the path as the client sent it (not decoded), the context path included, or {@code null}
     * @return this builder
     */
    public Builder rawPath(@Nullable String rawPath) {
      this.rawPath = rawPath;
      return this;
    }

    /**
     * The request.
     *
     * @return the request with the values given
     */
    public GateRequest build() {
      return new GateRequest(contextPath, secure, ticket, query, accept, place, acceptLanguage, method, referer, host,
          friction, remoteAddress, rawPath);
    }
  }
}
