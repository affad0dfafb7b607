package io.github.waitingroom.servlet;

import io.github.waitingroom.http.ResponseHeaders;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

/**
 * An application response that carries the room's ticket cookie: it stays {@code Cache-Control:
 * private, no-store} whatever the application sets later, and keeps the cookie through {@code
 * reset()} and an application's {@code setHeader("Set-Cookie", ..)}.
 */
final class TicketResponse extends HttpServletResponseWrapper {
  private final String setCookie;

  TicketResponse(HttpServletResponse response, String setCookie) {
    super(response);
    this.setCookie = setCookie;
    super.setHeader("Cache-Control", ResponseHeaders.NO_STORE);
  }

  private static boolean cachingHeader(String name) {
    return ResponseHeaders.isCachingHeader(name);
  }

  @Override
  public void setHeader(String name, @Nullable String value) {
    if (cachingHeader(name)) {
      return;
    }
    super.setHeader(name, value);
    if ("set-cookie".equalsIgnoreCase(name)) {
      super.addHeader("Set-Cookie", setCookie);
    }
  }

  @Override
  public void addHeader(String name, @Nullable String value) {
    if (!cachingHeader(name)) {
      super.addHeader(name, value);
    }
  }

  @Override
  public void setDateHeader(String name, long date) {
    if (!cachingHeader(name)) {
      super.setDateHeader(name, date);
    }
  }

  @Override
  public void addDateHeader(String name, long date) {
    if (!cachingHeader(name)) {
      super.addDateHeader(name, date);
    }
  }

  @Override
  public void setIntHeader(String name, int value) {
    if (!cachingHeader(name)) {
      super.setIntHeader(name, value);
    }
  }

  @Override
  public void addIntHeader(String name, int value) {
    if (!cachingHeader(name)) {
      super.addIntHeader(name, value);
    }
  }

  @Override
  public void reset() {
    super.reset();
    super.addHeader("Set-Cookie", setCookie);
    super.setHeader("Cache-Control", ResponseHeaders.NO_STORE);
  }
}
