package io.github.waitingroom.servlet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.EnumSet;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** A real Jetty 12 (ee10) on a free port: the filter in front of an app that names the path it served. */
final class TestServer implements AutoCloseable {
  final Server server;
  final AtomicInteger appHits = new AtomicInteger();
  /** Every request's query string as it arrived, before the waiting room saw it ("" for none). */
  final Queue<String> queries = new ConcurrentLinkedQueue<>();
  private final int port;

  private TestServer(Server server, int port) {
    this.server = server;
    this.port = port;
  }

  /** Starts Jetty with the given filter instance (programmatic registration). */
  static TestServer start(Filter filter) throws Exception {
    return start(new FilterHolder(filter));
  }

  /** Starts Jetty with a container-created filter configured by init-params (as web.xml does). */
  static TestServer startWithInitParams(Map<String, String> initParams) throws Exception {
    FilterHolder holder = new FilterHolder(WaitingRoomFilter.class);
    holder.setInitParameters(initParams);
    return start(holder);
  }

  private static TestServer start(FilterHolder holder) throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    TestServer[] self = new TestServer[1];
    context.addFilter(
        new FilterHolder(
            (Filter)
                (req, res, chain) -> {
                  String q = ((HttpServletRequest) req).getQueryString();
                  self[0].queries.add(q == null ? "" : q);
                  chain.doFilter(req, res);
                }),
        "/*",
        EnumSet.of(DispatcherType.REQUEST));
    context.addServlet(
        new ServletHolder(
            new HttpServlet() {
              @Override
              protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
                self[0].appHits.incrementAndGet();
                if (req.getRequestURI().startsWith("/store")) {
                  res.setContentType("text/html;charset=UTF-8");
                  res.getWriter().write("<!DOCTYPE html><html lang=\"en\"><head><title>Shop</title></head>"
                      + "<body><h1>Welcome to the shop</h1></body></html>");
                  return;
                }
                res.setContentType("text/plain;charset=UTF-8");
                res.getWriter().write("app:" + req.getRequestURI());
              }
            }),
        "/");
    context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
    server.setHandler(context);
    server.start();
    self[0] = new TestServer(server, connector.getLocalPort());
    return self[0];
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://localhost:" + port + pathAndQuery);
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
