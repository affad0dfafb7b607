package io.github.waitingroom.servlet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.ForwardedRequestCustomizer;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jspecify.annotations.Nullable;

/**
 * A real Jetty 12 (ee10) on a free port: the filter in front of an app that names the path it served.
 *
 * <p>The app can be told, through query parameters, to do what real applications do to a response
 * after the filter ran: {@code appReset=1} calls {@code reset()}, each {@code appSetHeader=Name:Value}
 * calls {@code setHeader}, each {@code appAddHeader=Name:Value} calls {@code addHeader}.
 *
 * <p>Every filter and the app support asynchronous requests, as under Spring Boot (whose
 * registrations do by default), unless started {@linkplain #startWithoutAsync without}.
 */
final class TestServer implements AutoCloseable {
  final Server server;
  final AtomicInteger appHits = new AtomicInteger();
  /** Every request's query string as it arrived, before the waiting room saw it ("" for none). */
  final Queue<String> queries = new ConcurrentLinkedQueue<>();
  /** The {@code name} of every form the app received at {@code POST /store/owners}, in order. */
  final Queue<String> owners = new ConcurrentLinkedQueue<>();
  /**
   * For every request, once the filters have returned its thread: whether the request went on
   * asynchronously (its answer still to come), as the human check's does.
   */
  final java.util.concurrent.BlockingQueue<Boolean> threadsReturned = new java.util.concurrent.LinkedBlockingQueue<>();
  private final int port;

  private TestServer(Server server, int port) {
    this.server = server;
    this.port = port;
  }

  /** Starts Jetty with the given filter instances (programmatic registration), each on {@code /*}, in order. */
  static TestServer start(Filter... filters) throws Exception {
    return start(Arrays.stream(filters).map(FilterHolder::new).toList(), false, true);
  }

  /** Starts Jetty with the given filter, none of the chain supporting asynchronous requests (a web.xml's default). */
  static TestServer startWithoutAsync(Filter filter) throws Exception {
    return start(List.of(new FilterHolder(filter)), false, false);
  }

  /**
   * Starts Jetty as it runs behind a TLS-terminating proxy: its connector has Jetty's {@link
   * ForwardedRequestCustomizer}, so {@code X-Forwarded-Proto: https} makes {@code isSecure()} true.
   */
  static TestServer startBehindProxy(Filter filter) throws Exception {
    return start(List.of(new FilterHolder(filter)), true, true);
  }

  /** Starts Jetty with a container-created filter configured by init-params (as web.xml does). */
  static TestServer startWithInitParams(Map<String, String> initParams) throws Exception {
    return startWithInitParams(List.of(initParams));
  }

  /** Starts Jetty with one container-created filter per map of init-params, each on {@code /*}, in order (web.xml). */
  static TestServer startWithInitParams(List<Map<String, String>> filters) throws Exception {
    List<FilterHolder> holders = new ArrayList<>();
    for (Map<String, String> initParams : filters) {
      FilterHolder holder = new FilterHolder(WaitingRoomFilter.class);
      holder.setInitParameters(initParams);
      holders.add(holder);
    }
    return start(holders, false, true);
  }

  private static TestServer start(List<FilterHolder> holders, boolean behindProxy, boolean async) throws Exception {
    Server server = new Server();
    HttpConfiguration http = new HttpConfiguration();
    if (behindProxy) {
      http.addCustomizer(new ForwardedRequestCustomizer());
    }
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    TestServer[] self = new TestServer[1];
    FilterHolder first = new FilterHolder(
        (Filter)
            (req, res, chain) -> {
              String q = ((HttpServletRequest) req).getQueryString();
              self[0].queries.add(q == null ? "" : q);
              chain.doFilter(req, res);
              self[0].threadsReturned.add(req.isAsyncStarted());
            });
    first.setAsyncSupported(async);
    context.addFilter(first, "/*", EnumSet.of(DispatcherType.REQUEST));
    ServletHolder app =
        new ServletHolder(
            new HttpServlet() {
              @Override
              protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
                self[0].appHits.incrementAndGet();
                if (req.getParameter("appReset") != null) {
                  res.reset();
                }
                for (String[] h : headers(req.getParameterValues("appSetHeader"))) {
                  res.setHeader(h[0], h[1]);
                }
                for (String[] h : headers(req.getParameterValues("appAddHeader"))) {
                  res.addHeader(h[0], h[1]);
                }
                if (req.getParameter("appRevoke") != null) {
                  // A checkout that ends the visitor's session through the request attribute (RevokeTest).
                  Object session = req.getAttribute(io.github.waitingroom.http.WaitingRoomSession.ATTRIBUTE);
                  res.setContentType("text/plain;charset=UTF-8");
                  res.getWriter().write("revoked:" + (session instanceof io.github.waitingroom.http.WaitingRoomSession w
                      ? String.valueOf(w.revoke()) : "no session"));
                  return;
                }
                if (req.getRequestURI().equals("/static/logo.svg")) {
                  // A logo for the branded waiting page (WaitingPageLanguagesBrowserTest).
                  res.setContentType("image/svg+xml");
                  res.getWriter().write("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"180\" height=\"40\" viewBox=\"0 0 180 40\">"
                      + "<rect x=\"2\" y=\"6\" width=\"28\" height=\"28\" rx=\"7\" fill=\"#ffffff\"/>"
                      + "<path d=\"M9 20h14M16 13v14\" stroke=\"#0a7d4f\" stroke-width=\"4\" stroke-linecap=\"round\"/>"
                      + "<text x=\"40\" y=\"27\" font-family=\"sans-serif\" font-size=\"19\" font-weight=\"700\" fill=\"#ffffff\">Ticket Shop</text></svg>");
                  return;
                }
                if (req.getRequestURI().equals("/store/owners/new")) {
                  // A form, as in Spring PetClinic (FormBrowserTest).
                  res.setContentType("text/html;charset=UTF-8");
                  res.getWriter().write("<!DOCTYPE html><html lang=\"en\"><head><title>New owner</title></head>"
                      + "<body><h1>New owner</h1><form method=\"post\" action=\"/store/owners\">"
                      + "<label>Name <input id=\"name\" name=\"name\"></label>"
                      + "<button id=\"add\" type=\"submit\">Add owner</button></form></body></html>");
                  return;
                }
                if (req.getRequestURI().equals("/store/owners") && req.getMethod().equals("POST")) {
                  String name = String.valueOf(req.getParameter("name"));
                  self[0].owners.add(name);
                  res.setContentType("text/html;charset=UTF-8");
                  res.getWriter().write("<!DOCTYPE html><html lang=\"en\"><head><title>Owner</title></head>"
                      + "<body><h1>Owner added</h1></body></html>");
                  return;
                }
                if (req.getRequestURI().startsWith("/store")) {
                  res.setContentType("text/html;charset=UTF-8");
                  res.getWriter().write("<!DOCTYPE html><html lang=\"en\"><head><title>Shop</title></head>"
                      + "<body><h1>Welcome to the shop</h1></body></html>");
                  return;
                }
                res.setContentType("text/plain;charset=UTF-8");
                res.getWriter().write("app:" + req.getRequestURI());
              }
            });
    app.setAsyncSupported(async);
    context.addServlet(app, "/");
    for (FilterHolder holder : holders) {
      holder.setAsyncSupported(async);
      context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
    }
    server.setHandler(context);
    server.start();
    self[0] = new TestServer(server, connector.getLocalPort());
    return self[0];
  }

  private static List<String[]> headers(String @Nullable [] values) {
    List<String[]> out = new ArrayList<>();
    if (values != null) {
      for (String v : values) {
        int colon = v.indexOf(':');
        out.add(new String[] {v.substring(0, colon), v.substring(colon + 1)});
      }
    }
    return out;
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://localhost:" + port + pathAndQuery);
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
