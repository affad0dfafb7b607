package io.github.waitingroom.servlet;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.Principal;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jspecify.annotations.Nullable;

/**
 * A real Jetty 12 on a free port with waiting room filters on {@code /*}, an application at
 * {@code /} that names the path it served, and a {@link WaitingRoomDashboard} at {@value #PATH}.
 * Counts the requests for the dashboard's data. With {@code fakeLogin}, a filter in front plays the
 * application's security: header {@code X-Test-User} names the user, {@code X-Test-Roles} (comma
 * separated) their roles.
 */
final class DashboardServer implements AutoCloseable {
  static final String PATH = "/ops/dashboard";

  private final Server server;
  private final int port;
  private final AtomicInteger dataRequests;

  private DashboardServer(Server server, int port, AtomicInteger dataRequests) {
    this.server = server;
    this.port = port;
    this.dataRequests = dataRequests;
  }

  /** The application on {@code /}: answers {@code app:<path>} in plain text. */
  static HttpServlet app() {
    return new HttpServlet() {
      @Override
      protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        res.setContentType("text/plain;charset=UTF-8");
        res.getWriter().write("app:" + req.getRequestURI());
      }
    };
  }

  static DashboardServer start(WaitingRoomDashboard dashboard, List<? extends Filter> filters, boolean fakeLogin)
      throws Exception {
    return start(dashboard, filters, fakeLogin, false);
  }

  /**
   * With {@code wrapped}, the dashboard is served by a servlet of another class that hands it
   * every request: the filters cannot tell it is the dashboard.
   */
  static DashboardServer start(
      WaitingRoomDashboard dashboard, List<? extends Filter> filters, boolean fakeLogin, boolean wrapped)
      throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    AtomicInteger data = new AtomicInteger();
    context.addFilter(
        new FilterHolder(
            (Filter)
                (req, res, chain) -> {
                  HttpServletRequest http = (HttpServletRequest) req;
                  if (http.getRequestURI().equals(PATH + "/data")) {
                    data.incrementAndGet();
                  }
                  chain.doFilter(fakeLogin ? new LoggedIn(http) : req, res);
                }),
        "/*",
        EnumSet.of(DispatcherType.REQUEST));
    for (Filter f : filters) {
      context.addFilter(new FilterHolder(f), "/*", EnumSet.of(DispatcherType.REQUEST));
    }
    context.addServlet(new ServletHolder(app()), "/");
    HttpServlet served = !wrapped ? dashboard : new HttpServlet() {
      @Override
      protected void service(HttpServletRequest req, HttpServletResponse res) throws jakarta.servlet.ServletException, IOException {
        dashboard.service(req, res);
      }
    };
    context.addServlet(new ServletHolder(served), PATH + "/*");
    server.setHandler(context);
    server.start();
    return new DashboardServer(server, connector.getLocalPort(), data);
  }

  /** Requests for the dashboard's data so far. */
  int dataRequests() {
    return dataRequests.get();
  }

  /** The origin, {@code http://127.0.0.1:port}. */
  String origin() {
    return "http://127.0.0.1:" + port;
  }

  URI uri(String pathAndQuery) {
    return URI.create(origin() + pathAndQuery);
  }

  /** A visitor with its own cookie jar. */
  Client client() {
    return new Client();
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }

  /** One browser-like client: a java.net.http client with its own cookies. */
  final class Client {
    private final CookieManager jar = new CookieManager();
    private final HttpClient http =
        HttpClient.newBuilder().cookieHandler(jar).connectTimeout(Duration.ofSeconds(5)).build();

    /** The value of a cookie in this client's jar, or {@code null}. */
    @Nullable String cookie(String name) {
      return jar.getCookieStore().getCookies().stream().filter(c -> c.getName().equals(name)).map(java.net.HttpCookie::getValue)
          .findFirst().orElse(null);
    }

    /** Sends {@code method} with a body and exactly these headers. */
    HttpResponse<String> send(String method, String path, Map<String, String> headers, String body)
        throws IOException, InterruptedException {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(uri(path)).method(method, HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(10));
      headers.forEach(b::header);
      return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
      return get(path, Map.of());
    }

    HttpResponse<String> get(String path, Map<String, String> headers) throws IOException, InterruptedException {
      return send("GET", path, headers);
    }

    HttpResponse<String> send(String method, String path, Map<String, String> headers)
        throws IOException, InterruptedException {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(uri(path)).method(method, HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10));
      headers.forEach(b::header);
      return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
  }

  /** The application's security, played by two headers. */
  private static final class LoggedIn extends HttpServletRequestWrapper {
    LoggedIn(HttpServletRequest request) {
      super(request);
    }

    @Override
    public @Nullable Principal getUserPrincipal() {
      String user = getHeader("X-Test-User");
      return user == null ? null : () -> user;
    }

    @Override
    public boolean isUserInRole(String role) {
      String roles = getHeader("X-Test-Roles");
      return getUserPrincipal() != null && roles != null && List.of(roles.split(",")).contains(role);
    }
  }
}
