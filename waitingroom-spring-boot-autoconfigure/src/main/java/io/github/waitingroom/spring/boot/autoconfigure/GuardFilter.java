package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.servlet.WaitingRoomFilter;
import io.github.waitingroom.spring.boot.WaitingRoomBypass;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * The filter the starter registers: lets Spring's static files and the operators' {@link
 * WaitingRoomBypass} rules through, and hands everything else to the {@link WaitingRoomFilter}.
 * It decides nothing about admission itself.
 */
final class GuardFilter implements Filter {
  private final WaitingRoomFilter room;
  private final Set<String> staticFiles;
  private final List<WaitingRoomBypass> bypasses;

  GuardFilter(WaitingRoomFilter room, Set<String> staticFiles, List<WaitingRoomBypass> bypasses) {
    this.room = room;
    this.staticFiles = staticFiles;
    this.bypasses = bypasses;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (request instanceof HttpServletRequest req && (isStaticFile(req) || bypassed(req))) {
      chain.doFilter(request, response);
      return;
    }
    room.doFilter(request, response, chain);
  }

  private boolean isStaticFile(HttpServletRequest req) {
    if (staticFiles.isEmpty()) {
      return false;
    }
    String servletPath = req.getServletPath();
    String pathInfo = req.getPathInfo();
    String path = (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
    return staticFiles.contains(path);
  }

  private boolean bypassed(HttpServletRequest req) {
    for (WaitingRoomBypass b : bypasses) {
      if (b.bypass(req)) {
        return true;
      }
    }
    return false;
  }
}
