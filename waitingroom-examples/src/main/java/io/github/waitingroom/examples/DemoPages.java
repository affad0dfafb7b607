package io.github.waitingroom.examples;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.micrometer.WaitingRoomMetrics;
import io.github.waitingroom.servlet.WaitingRoomDashboard;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintStream;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;

/**
 * What the demo serves besides the shop ({@link ShopServlet}), each behind its flag: the
 * Prometheus scrape of {@code --metrics} and the operator dashboard of {@code --dashboard-token};
 * and the banner that tells where to find them. {@link DemoServer} wires them into Jetty.
 */
final class DemoPages {
  /** Where the demo serves the operator dashboard (with {@code --dashboard-token}); the room does not guard it. */
  static final String DASHBOARD_PATH = "/waitingroom/dashboard";

  private DemoPages() {}

  /**
   * Prints what the demo is, where to open it and, with their flags, where the dashboard and the
   * metrics are.
   */
  static void banner(DemoServer.Cli flags, WaitingRoom room, int port, PrintStream out) {
    RoomConfig c = room.config();
    String host = "http://localhost:" + port + "/";
    out.println();
    out.println("Waiting room demo: a ticket shop that lets in " + c.totalActiveUsers() + " users at a time ("
        + c.newUsersPerMinute() + " new per minute; a session ends " + c.sessionSeconds()
        + " s after the user's last click).");
    out.println();
    out.println("  Open " + host);
    out.println("  Each of these is a separate visitor (cookies are per host name), so the third one waits in line:");
    out.println("    " + host + "   http://127.0.0.1:" + port + "/   a private window");
    out.println("  The waiting page shows your place and lets you in by itself when a session ends.");
    out.println("  A crowd: mvn -q -pl waitingroom-examples exec:java"
        + " -Dexec.mainClass=io.github.waitingroom.examples.LoadGenerator -Dexec.args=\"--url " + host + "\"");
    out.println("  Stop with Ctrl-C.");
    out.println();
    out.flush();
    dashboardBanner(flags, room, port, out);
    String metrics = flags.metrics;
    if (metrics != null) {
      out.println("  Metrics for Prometheus: http://localhost:" + port + metrics);
      out.println();
      out.flush();
    }
  }

  private static void dashboardBanner(DemoServer.Cli flags, WaitingRoom room, int port, PrintStream out) {
    if (flags.dashboardToken != null) {
      out.println("  Operator dashboard: http://localhost:" + port + DASHBOARD_PATH + "/ (enter the --dashboard-token there)");
      out.println("  Room status:        curl -H 'Authorization: Bearer TOKEN' http://localhost:" + port + DASHBOARD_PATH
          + "/status");
      if (flags.liveSettings) {
        out.println("  Live settings:      curl -X PUT -H 'Authorization: Bearer TOKEN' -H 'Content-Type: application/json'"
            + " -d '{\"suspended\":true}' 'http://localhost:" + port + DASHBOARD_PATH + "/settings?room=" + room.config().roomId() + "'");
      }
      out.println();
      out.flush();
    }
  }

  /**
   * A servlet that answers Prometheus' scrape with the room's meters ({@link WaitingRoomMetrics}).
   * The waiting room does not guard its path (it is among the ignored paths); in production, keep
   * such an endpoint off the public network or behind the application's own security.
   */
  static HttpServlet prometheus(WaitingRoom room) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new WaitingRoomMetrics(room).bindTo(registry);
    return new HttpServlet() {
      private static final long serialVersionUID = 1L;

      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain; version=0.0.4; charset=utf-8");
        resp.setHeader("Cache-Control", "no-store");
        resp.getWriter().write(registry.scrape());
      }
    };
  }

  /** The paths the room leaves alone for the dashboard: none without {@code --dashboard-token}. */
  static String[] dashboardPaths(DemoServer.Cli flags) {
    return flags.dashboardToken == null ? new String[0] : new String[] {DASHBOARD_PATH};
  }

  /**
   * Mounts the operator dashboard ({@link WaitingRoomDashboard}) at {@link #DASHBOARD_PATH} when
   * {@code --dashboard-token} is given; the room ignores that path, so operators never wait in
   * line for it.
   *
   * @throws IllegalArgumentException when the token is too short
   */
  static void mountDashboard(ServletContextHandler context, DemoServer.Cli flags, WaitingRoom room) {
    String token = flags.dashboardToken;
    boolean changes = flags.liveSettings;
    if (changes && token == null) {
      throw new IllegalArgumentException("--live-settings true needs --dashboard-token: the operator endpoints are never unprotected");
    }
    if (token != null) {
      WaitingRoomDashboard dashboard;
      try {
        dashboard = WaitingRoomDashboard.builder(room).bearerToken(token).settingsChanges(changes).build();
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--dashboard-token: " + e.getMessage(), e);
      }
      context.addServlet(new ServletHolder(dashboard), DASHBOARD_PATH + "/*");
    }
  }
}
