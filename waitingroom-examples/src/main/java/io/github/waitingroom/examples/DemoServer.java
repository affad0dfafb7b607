package io.github.waitingroom.examples;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.micrometer.WaitingRoomMetrics;
import io.github.waitingroom.servlet.WaitingRoomDashboard;
import io.github.waitingroom.servlet.WaitingRoomFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.concurrent.Callable;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The demo: a small ticket shop on embedded Jetty 12 behind a {@link WaitingRoomFilter} with small
 * limits, so that a third browser visitor already waits in line.
 *
 * <pre>
 * mvn -q install -DskipTests &amp;&amp; mvn -q -pl waitingroom-examples exec:java
 * mvn -q -pl waitingroom-examples exec:java -Dexec.args="--port 8081 --node web-2 --keyset room.json"
 * </pre>
 *
 * <p>Every setting is a flag (see {@link Cli} or {@code --help}), so several copies can run as
 * several nodes of one room. Nodes of one room must share a ticket keyset: pass the same {@code
 * --keyset} file to each (the first one creates it).
 */
public final class DemoServer implements AutoCloseable {
  /**
   * The demo's command line: every setting is an option with its default ({@code --help} lists
   * them). Adding a flag is one field here, then read where it is used.
   */
  @Command(
      name = "DemoServer",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      showDefaultValues = true,
      description = "A small ticket shop on embedded Jetty behind the waiting room, with small limits.")
  static final class Cli implements Callable<Integer> {
    @Option(names = "--port", paramLabel = "PORT", description = "HTTP port; 0 picks a free one")
    int port = 8080;

    @Option(names = "--host", paramLabel = "HOST", description = "interface to listen on; 0.0.0.0 for all")
    String host = "127.0.0.1";

    @Option(names = "--room", paramLabel = "ID", description = "room id (nodes with the same id share one limit)")
    String room = "ticket-shop";

    @Option(names = "--total", paramLabel = "N", description = "total active users")
    int total = 2;

    @Option(names = "--per-minute", paramLabel = "N", description = "new users admitted per minute")
    int perMinute = 2;

    @Option(names = "--session", paramLabel = "SECONDS", description = "session duration in seconds after a user's last request")
    int session = 30;

    @Option(names = "--refresh", paramLabel = "SECONDS", description = "seconds between two checks of the waiting page")
    int refresh = 5;

    @Option(names = "--bucket", paramLabel = "SECONDS", description = "bucket width in seconds: arrivals within one share a place")
    int bucket = 60;

    @Option(names = "--waiting-status", paramLabel = "STATUS", description = "HTTP status of waiting responses: 200, 202 or 429")
    int waitingStatus = 200;

    @Option(names = "--node", paramLabel = "ID", description = "this node's id, unique within its data center")
    String node = "node-1";

    @Option(names = "--dc", paramLabel = "ID", description = "this node's data center")
    String dc = "local";

    @Option(names = "--redis", paramLabel = "URI", description = "Redis URI shared by the room's nodes (redis://host:6379,"
        + " redis-sentinel://..., redis-cluster://h1:p1,h2:p2)")
    @Nullable String redis;

    @Option(names = "--keyset", paramLabel = "FILE", description = "Tink JSON keyset file shared by the room's nodes; created if missing")
    @Nullable String keyset;

    @Option(names = "--metrics", paramLabel = "PATH", description = "a path (e.g. /metrics) that serves the room's metrics for"
        + " Prometheus; off if not given")
    @Nullable String metrics;

    @Option(names = "--proof-of-work", paramLabel = "BITS", description = "bits of proof of work a newcomer solves before it gets"
        + " a place while people wait (0: off; 16-18 is a second or two on a phone)")
    int proofOfWork;

    @Option(names = "--dashboard-token", paramLabel = "TOKEN", description = "serve the operator dashboard at"
        + " /waitingroom/dashboard/, protected by this bearer token (16+ characters); off if not given")
    @Nullable String dashboardToken;

    @Option(names = "--live-settings", arity = "1", paramLabel = "true|false", description = "true: the dashboard's PUT"
        + " /waitingroom/dashboard/settings changes the room's settings on every node (needs --dashboard-token)")
    boolean liveSettings;

    @Option(names = "--reject-status", paramLabel = "STATUS", description = "HTTP status of the sold-out page (queueing"
        + " method reject): 200, 403, 410, 429 or 503")
    int rejectStatus = 403;

    @Option(names = "--event-in", paramLabel = "SECONDS", description = "schedule a sale whose pre-queue opens now and that"
        + " starts in this many seconds (visitors get the countdown page until then); off if not given")
    @Nullable Integer eventIn;

    @Option(names = "--event-length", paramLabel = "SECONDS", description = "how many seconds the sale of --event-in runs")
    int eventLength = 600;

    @Option(names = "--lottery", arity = "1", paramLabel = "true|false", description = "true: the pre-queue of --event-in is a"
        + " lottery (places drawn at random at the start)")
    boolean lottery;

    @Option(names = "--revoke", arity = "1", paramLabel = "true|false", description = "true: buying a ticket ends the visitor's"
        + " session (the shop's checkout answers with X-WaitingRoom-Revoke), so the next in line gets the place within seconds")
    boolean revoke;

    /**
     * Parses a command line without running it.
     *
     * @throws ParameterException for an unknown option or a bad value (the message names it)
     */
    static Cli parse(String... args) {
      Cli cli = new Cli();
      new CommandLine(cli).parseArgs(args);
      return cli;
    }

    /** Runs the demo until the process is stopped. */
    @Override
    public Integer call() throws Exception {
      DemoServer demo;
      try {
        demo = start(this, System.out);
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw new ParameterException(new CommandLine(this), String.valueOf(e.getMessage()), e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(demo::close, "demo-shutdown"));
      demo.jetty.join();
      return 0;
    }
  }

  /** Where the demo serves the operator dashboard (with {@code --dashboard-token}); the room does not guard it. */
  static final String DASHBOARD_PATH = "/waitingroom/dashboard";

  private final Server jetty;
  private final WaitingRoom room;
  private final int port;

  private DemoServer(Server jetty, WaitingRoom room, int port) {
    this.jetty = jetty;
    this.room = room;
    this.port = port;
  }

  /** Runs the demo until the process is stopped; {@code --help} lists the options. */
  public static void main(String[] args) {
    int code = new CommandLine(new Cli()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  /**
   * Starts the demo and prints where to find it.
   *
   * @param out where the banner goes
   */
  public static DemoServer start(Cli flags, PrintStream out) throws Exception {
    RoomConfig config =
        RoomConfig.builder(flags.room)
            .totalActiveUsers(flags.total)
            .newUsersPerMinute(flags.perMinute)
            .sessionDuration(Duration.ofSeconds(flags.session))
            .refreshInterval(Duration.ofSeconds(flags.refresh))
            .bucketWidth(Duration.ofSeconds(flags.bucket))
            .build();
    KeysetHandle keys = keyset(flags.keyset, out);
    WaitingRoom.Builder rb =
        WaitingRoom.builder(config, keys).nodeId(flags.node).dataCenter(flags.dc);
    Transport transport = transport(flags);
    if (transport != null) {
      rb.transport(transport);
    }
    WaitingRoom room = rb.build();
    try {
      scheduleEvent(flags, room, out);
      String metrics = flags.metrics;
      if (metrics != null && !metrics.matches("/[A-Za-z0-9._/-]*")) {
        throw new IllegalArgumentException("--metrics is a path such as /metrics, but was '" + metrics + "'");
      }
      WaitingRoomFilter filter =
          WaitingRoomFilter.builder(room)
              .ignorePaths(metrics == null ? new String[] {"/health", "/favicon.ico"} : new String[] {"/health", "/favicon.ico", metrics})
              .waitingStatus(flags.waitingStatus)
              .rejectStatus(flags.rejectStatus)
              .ignorePaths(dashboardPaths(flags))
              .proofOfWork(flags.proofOfWork)
              .revoke(flags.revoke)
              .build();

      Server jetty = new Server();
      ServerConnector connector = new ServerConnector(jetty);
      connector.setHost(flags.host);
      connector.setPort(flags.port);
      jetty.addConnector(connector);
      ServletContextHandler context = new ServletContextHandler("/");
      context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
      context.addServlet(new ServletHolder(new ShopServlet(room, flags.node, flags.dc, flags.revoke)), "/");
      mountDashboard(context, flags, room);
      if (metrics != null) {
        context.addServlet(new ServletHolder(prometheus(room)), metrics);
      }
      jetty.setHandler(context);
      jetty.setStopAtShutdown(false);
      jetty.start();
      DemoServer demo = new DemoServer(jetty, room, connector.getLocalPort());
      demo.banner(out);
      demo.dashboardBanner(flags, out);
      if (metrics != null) {
        out.println("  Metrics for Prometheus: http://localhost:" + demo.port + metrics);
        out.println();
        out.flush();
      }
      return demo;
    } catch (Exception e) {
      room.close();
      throw e;
    }
  }

  /**
   * With {@code --event-in}: schedules the event "sale", whose pre-queue opens now and which
   * starts that many seconds later (a lottery with {@code --lottery true}), on every node of the room.
   */
  static void scheduleEvent(Cli flags, WaitingRoom room, PrintStream out) {
    Integer in = flags.eventIn;
    boolean lottery = flags.lottery;
    if (in == null) {
      if (lottery) {
        throw new IllegalArgumentException("--lottery true needs --event-in: the lottery draws the places of an event's pre-queue");
      }
      return;
    }
    int seconds = in;
    int length = flags.eventLength;
    if (seconds < 1 || length < 1) {
      throw new IllegalArgumentException("--event-in and --event-length are positive numbers of seconds");
    }
    Instant now = Instant.ofEpochSecond(room.nowSecond());
    Instant start = now.plusSeconds(seconds);
    RoomSettings next = RoomSettings.fromJson(
        "{\"events\": [{\"name\": \"sale\", \"prequeueStart\": \"" + now + "\", \"start\": \"" + start
            + "\", \"end\": \"" + start.plusSeconds(length) + "\", \"shuffleAtEventStart\": " + lottery + "}]}",
        room.latestSettings());
    room.updateSettings(next);
    out.println("  Event 'sale': the pre-queue is open, the sale starts at " + start + " (in " + seconds + " s)"
        + (lottery ? "; places are drawn by lottery at the start" : ""));
    out.println();
    out.flush();
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
  private static String[] dashboardPaths(Cli flags) {
    return flags.dashboardToken == null ? new String[0] : new String[] {DASHBOARD_PATH};
  }

  /**
   * Mounts the operator dashboard ({@link WaitingRoomDashboard}) at {@link #DASHBOARD_PATH} when
   * {@code --dashboard-token} is given; the room ignores that path, so operators never wait in
   * line for it.
   *
   * @throws IllegalArgumentException when the token is too short
   */
  private static void mountDashboard(ServletContextHandler context, Cli flags, WaitingRoom room) {
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

  private void dashboardBanner(Cli flags, PrintStream out) {
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
   * The coordinator transport the flags ask for, or {@code null} for the room's own in-memory
   * transport (one JVM). Other transports plug in here, each behind its own flag.
   */
  static @Nullable Transport transport(Cli flags) {
    String redis = flags.redis;
    return redis == null ? null : io.github.waitingroom.redis.RedisTransport.create(redis);
  }

  /** Loads the keyset file, creates it when missing, or (without the flag) generates a throw-away one. */
  static KeysetHandle keyset(@Nullable String file, PrintStream out) throws IOException {
    if (file == null) {
      out.println(
          "WARNING: no --keyset given, so this node uses an EPHEMERAL ticket keyset: tickets die with"
              + " this process and no other node can open them. For several nodes, give them all the"
              + " same --keyset FILE.");
      return TicketKeys.generate();
    }
    Path path = Path.of(file);
    if (Files.exists(path)) {
      return TicketKeys.fromJson(Files.readString(path, StandardCharsets.UTF_8));
    }
    KeysetHandle keys = TicketKeys.generate();
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(path, TicketKeys.toJson(keys), StandardCharsets.UTF_8);
    try {
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: keep the default permissions
    }
    out.println(
        "Wrote a new ticket keyset to " + path + " (a secret: keep it private). Start the room's other"
            + " nodes with --keyset " + path + ".");
    return keys;
  }

  private void banner(PrintStream out) {
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
  }

  /** The port the demo listens on. */
  public int port() {
    return port;
  }

  /** The room behind the demo. */
  public WaitingRoom room() {
    return room;
  }

  /** Stops Jetty and the room. */
  @Override
  public void close() {
    try {
      jetty.stop();
    } catch (Exception e) {
      // stopping anyway
    } finally {
      room.close();
    }
  }
}
