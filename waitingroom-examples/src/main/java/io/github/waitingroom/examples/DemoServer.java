package io.github.waitingroom.examples;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.AdaptiveLimit;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.http.AdaptiveLimitSettings;
import io.github.waitingroom.http.Setting;
import io.github.waitingroom.http.SettingException;
import io.github.waitingroom.servlet.WaitingRoomFilter;
import jakarta.servlet.DispatcherType;
import java.io.PrintStream;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
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
 *
 * <p>This class reads the flags and wires the room (with the parts of {@link DemoRoomSetup}), the
 * shop ({@link ShopServlet}) and the other pages ({@link DemoPages}) into Jetty.
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

    @Option(names = "--origin-servers", paramLabel = "N", description = "a slow shop: every page is served by one of N servers"
        + " (requests beyond N at once queue), each busy --origin-service-ms per page; 0: pages answer at once")
    int originServers;

    @Option(names = "--origin-service-ms", paramLabel = "MS", description = "with --origin-servers: milliseconds a server"
        + " spends on a page")
    int originServiceMs = 50;

    @Option(names = "--adaptive-min", paramLabel = "N", description = "the lowest the adaptive limit goes; with"
        + " --adaptive-max and --adaptive-latency it turns the adaptive limit on, starting from --total")
    @Nullable Integer adaptiveMin;

    @Option(names = "--adaptive-max", paramLabel = "N", description = "the highest the adaptive limit goes")
    @Nullable Integer adaptiveMax;

    @Option(names = "--adaptive-latency", paramLabel = "DURATION", description = "the 90th percentile latency (300ms, 1s)"
        + " the shop should keep: the adaptive limit rises while it does and falls when it does not")
    @Nullable String adaptiveLatency;

    @Option(names = "--adaptive-step", paramLabel = "SHARE", description = "the largest relative change of one decision of"
        + " the adaptive limit (default 0.1)")
    @Nullable Double adaptiveStep;

    @Option(names = "--adaptive-failure-share", paramLabel = "SHARE", description = "the share of failed pages (status 500"
        + " or more, an error, a timeout) above which the adaptive limit falls, 0 to 1 (default 0.01)")
    @Nullable Double adaptiveFailureShare;

    @Option(names = "--adaptive-scale-new-users", arity = "0..1", paramLabel = "true|false", description = "--per-minute"
        + " moves with the adaptive limit (--per-minute x the limit in force / --total, at least 1); without it"
        + " --per-minute stays, at most the limit in force")
    @Nullable Boolean adaptiveScaleNewUsers;

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
    RoomConfig.Builder cb =
        RoomConfig.builder(flags.room)
            .totalActiveUsers(flags.total)
            .newUsersPerMinute(flags.perMinute)
            .sessionDuration(Duration.ofSeconds(flags.session))
            .refreshInterval(Duration.ofSeconds(flags.refresh))
            .bucketWidth(Duration.ofSeconds(flags.bucket));
    AdaptiveLimit adaptive = adaptiveLimit(flags);
    if (adaptive != null) {
      cb.adaptiveLimit(adaptive);
    }
    RoomConfig config = cb.build();
    SlowOrigin origin = flags.originServers > 0 ? new SlowOrigin(flags.originServers, flags.originServiceMs) : null;
    KeysetHandle keys = DemoRoomSetup.keyset(flags.keyset, out);
    WaitingRoom.Builder rb =
        WaitingRoom.builder(config, keys).nodeId(flags.node).dataCenter(flags.dc);
    Transport transport = DemoRoomSetup.transport(flags);
    if (transport != null) {
      rb.transport(transport);
    }
    WaitingRoom room = rb.build();
    try {
      DemoRoomSetup.scheduleEvent(flags, room, out);
      String metrics = flags.metrics;
      if (metrics != null && !metrics.matches("/[A-Za-z0-9._/-]*")) {
        throw new IllegalArgumentException("--metrics is a path such as /metrics, but was '" + metrics + "'");
      }
      WaitingRoomFilter filter =
          WaitingRoomFilter.builder(room)
              .ignorePaths(metrics == null ? new String[] {"/health", "/favicon.ico"} : new String[] {"/health", "/favicon.ico", metrics})
              .waitingStatus(flags.waitingStatus)
              .rejectStatus(flags.rejectStatus)
              .ignorePaths(DemoPages.dashboardPaths(flags))
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
      context.addServlet(new ServletHolder(new ShopServlet(room, flags.node, flags.dc, flags.revoke, origin)), "/");
      DemoPages.mountDashboard(context, flags, room);
      if (metrics != null) {
        context.addServlet(new ServletHolder(DemoPages.prometheus(room)), metrics);
      }
      jetty.setHandler(context);
      jetty.setStopAtShutdown(false);
      jetty.start();
      DemoServer demo = new DemoServer(jetty, room, connector.getLocalPort());
      DemoPages.banner(flags, room, demo.port, out);
      if (origin != null || adaptive != null) {
        out.println("  " + (origin == null ? "The shop answers at once" : "A slow shop: " + origin.servers()
            + " servers of " + origin.serviceMillis() + " ms per page (requests beyond " + origin.servers()
            + " at once queue)") + "; " + (adaptive == null ? "a fixed limit of " + flags.total + " active users."
            : "an adaptive limit from " + flags.total + " within [" + adaptive.min() + ", " + adaptive.max()
                + "] keeping p90 within " + adaptive.latency().toMillis() + " ms"
                + (adaptive.scaleNewUsersPerMinute() ? ", new users a minute scaled with it." : ".")));
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
   * The adaptive limit of {@code --adaptive-min}, {@code --adaptive-max}, {@code --adaptive-latency},
   * {@code --adaptive-step}, {@code --adaptive-failure-share} and {@code --adaptive-scale-new-users},
   * read by the settings the init-params and Spring properties share ({@link AdaptiveLimitSettings}), so the three turn it on
   * together and a missing one is named; null when none is given.
   */
  static @Nullable AdaptiveLimit adaptiveLimit(Cli flags) {
    String latency = flags.adaptiveLatency;
    Map<Setting<?>, String> names = Map.of(
        AdaptiveLimitSettings.MIN, "--adaptive-min", AdaptiveLimitSettings.MAX, "--adaptive-max",
        AdaptiveLimitSettings.LATENCY, "--adaptive-latency", AdaptiveLimitSettings.STEP, "--adaptive-step",
        AdaptiveLimitSettings.FAILURE_SHARE, "--adaptive-failure-share",
        AdaptiveLimitSettings.SCALE_NEW_USERS_PER_MINUTE, "--adaptive-scale-new-users");
    try {
      return AdaptiveLimitSettings.of(flags.adaptiveMin, flags.adaptiveMax,
          latency == null ? null : Setting.duration("--adaptive-latency", latency), flags.adaptiveStep,
          flags.adaptiveFailureShare,
          flags.adaptiveScaleNewUsers,
          SettingException.Source.CODE, s -> names.getOrDefault(s, s.name()));
    } catch (SettingException e) {
      throw new IllegalArgumentException(e.getMessage(), e); // CODE: the message without the source's label
    }
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
