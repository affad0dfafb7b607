package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.servlet.WaitingRoomFilter;
import io.github.waitingroom.spring.boot.WaitingRoomBypass;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * The filter the starter registers: lets Spring's static files (for GET and HEAD: {@code POST
 * /css/shop.css} is decided like any other request) and the operators' {@link WaitingRoomBypass}
 * rules through, and hands everything else to the rooms' {@link
 * WaitingRoomFilter}s, one after the other. It decides nothing about admission itself: the room
 * filters, initialised through this one, find each other in the servlet context, and the one whose
 * room a request belongs to (the most specific path prefix) decides it, the others let it through.
 */
final class GuardFilter implements Filter {
  private final List<WaitingRoomFilter> rooms;
  private final Set<String> staticFiles;
  private final List<WaitingRoomBypass> bypasses;

  GuardFilter(List<WaitingRoomFilter> rooms, Set<String> staticFiles, List<WaitingRoomBypass> bypasses) {
    this.rooms = List.copyOf(rooms);
    this.staticFiles = staticFiles;
    this.bypasses = bypasses;
  }

  @Override
  public void init(FilterConfig config) throws ServletException {
    for (WaitingRoomFilter room : rooms) {
      room.init(config);
    }
  }

  @Override
  public void destroy() {
    rooms.forEach(WaitingRoomFilter::destroy);
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (request instanceof HttpServletRequest req && (isStaticFile(req) || bypassed(req))) {
      chain.doFilter(request, response);
      return;
    }
    FilterChain next = chain;
    for (int i = rooms.size() - 1; i >= 0; i--) {
      WaitingRoomFilter room = rooms.get(i);
      FilterChain after = next;
      next = (req, res) -> room.doFilter(req, res, after);
    }
    next.doFilter(request, response);
  }

  /** Whether the request reads one of the application's static files: a GET or HEAD of its path. */
  private boolean isStaticFile(HttpServletRequest req) {
    if (staticFiles.isEmpty() || !("GET".equals(req.getMethod()) || "HEAD".equals(req.getMethod()))) {
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
