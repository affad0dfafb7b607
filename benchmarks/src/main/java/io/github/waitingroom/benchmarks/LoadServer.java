package io.github.waitingroom.benchmarks;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.redis.RedisTransport;
import io.github.waitingroom.servlet.WaitingRoomFilter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
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

/**
 * The server of the end-to-end load runs: one embedded Jetty serving the same trivial page under
 * several paths, so that every variant runs in the same JVM with the same settings.
 *
 * <ul>
 *   <li>{@code /plain/hello}: no filter, the ceiling;
 *   <li>{@code /room/hello}: behind {@link WaitingRoomFilter}, room on the in-memory transport;
 *   <li>{@code /room-redis/hello}: behind {@link WaitingRoomFilter}, room on the {@link
 *       RedisTransport} (with {@code --redis});
 *   <li>{@code /baseline/hello}: behind {@link RedisCounterFilter}, one Redis round trip per
 *       request (with {@code --redis}).
 * </ul>
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.waitingroom.benchmarks.LoadServer \
 *     [--port 8080] [--redis redis://127.0.0.1:6379] [--node node-1] [--dc dc-1] [--keyset FILE]
 * </pre>
 *
 * The rooms allow 1,000,000 active users, so a load run measures the admitted path, not the queue.
 * Several servers started with the same {@code --keyset} file (made by the first if missing) and
 * {@code --redis} act as nodes of one room. Prints {@code ready <port>} when it serves.
 */
public final class LoadServer {
  private LoadServer() {}

  /** A page of a few bytes, as cheap as a servlet gets. */
  static final class HelloServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final byte[] BODY = "hello, world\n".getBytes(StandardCharsets.UTF_8);

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      res.setContentType("text/plain");
      res.setContentLength(BODY.length);
      res.getOutputStream().write(BODY);
    }
  }

  /** Starts the server; stops on SIGTERM / Ctrl-C. {@code --help} lists the options. */
  public static void main(String[] args) {
    int code = new CommandLine(new Cli()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** The command line of {@link #main}. */
  @Command(
      name = "LoadServer",
      mixinStandardHelpOptions = true,
      sortOptions = false,
      showDefaultValues = true,
      description = "One Jetty serving a trivial page under /plain, /room, /room-redis and /baseline for load runs.")
  static final class Cli implements Callable<Integer> {
    @Option(names = "--port", paramLabel = "PORT", description = "HTTP port on 127.0.0.1; 0 picks a free one")
    int port = 8080;

    @Option(names = "--redis", paramLabel = "URI", description = "Redis URI: adds /room-redis and /baseline")
    @Nullable String redis;

    @Option(names = "--node", paramLabel = "ID", description = "this node's id")
    String node = "node-1";

    @Option(names = "--dc", paramLabel = "ID", description = "this node's data center")
    String dc = "dc-1";

    @Option(names = "--keyset", paramLabel = "FILE", description = "ticket keyset shared by the nodes; the first"
        + " node makes it if missing (default: a new one)")
    @Nullable String keyset;

    @Override
    public Integer call() throws Exception {
      serve(port, redis, node, dc, keyset);
      return 0;
    }
  }

  private static void serve(int port, @Nullable String redisUri, String node, String dc, @Nullable String keysetFile)
      throws Exception {
    com.google.crypto.tink.KeysetHandle keys;
    if (keysetFile == null) {
      keys = TicketKeys.generate();
    } else if (Files.exists(Path.of(keysetFile))) {
      keys = TicketKeys.fromJson(Files.readString(Path.of(keysetFile)));
    } else {
      // The first node of a multi-node run makes the keyset; the others read it.
      keys = TicketKeys.generate();
      Files.writeString(Path.of(keysetFile), TicketKeys.toJson(keys));
    }
    RoomConfig config =
        RoomConfig.builder("load")
            .totalActiveUsers(1_000_000)
            .newUsersPerMinute(1_000_000)
            .sessionDuration(Duration.ofMinutes(5))
            .build();
    List<AutoCloseable> closeables = new ArrayList<>();
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    context.addServlet(new ServletHolder(new HelloServlet()), "/*");

    WaitingRoom local = WaitingRoom.builder(config, keys).dataCenter(dc).nodeId(node).build();
    closeables.add(local);
    addFilter(context, "/room", WaitingRoomFilter.builder(local).pathPrefix("/room").build());

    if (redisUri != null) {
      RedisTransport transport = RedisTransport.create(redisUri);
      closeables.add(transport);
      WaitingRoom shared =
          WaitingRoom.builder(config.toBuilder().build(), keys)
              .transport(transport)
              .dataCenter(dc)
              .nodeId(node)
              .build();
      closeables.add(shared);
      addFilter(context, "/room-redis", WaitingRoomFilter.builder(shared).pathPrefix("/room-redis").build());

      RedisClient client = RedisClient.create(redisUri);
      StatefulRedisConnection<String, String> connection = client.connect();
      closeables.add(client::shutdown);
      closeables.add(connection);
      addFilter(
          context,
          "/baseline",
          new RedisCounterFilter(connection.sync(), "baseline:sessions", 1_000_000, 300_000));
    }

    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    server.addConnector(connector);
    server.setHandler(context);
    server.start();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    server.stop();
                  } catch (Exception e) {
                    // stopping anyway
                  }
                  for (int i = closeables.size() - 1; i >= 0; i--) {
                    try {
                      closeables.get(i).close();
                    } catch (Exception e) {
                      // stopping anyway
                    }
                  }
                }));
    System.out.println("ready " + connector.getLocalPort());
    server.join();
  }

  private static void addFilter(ServletContextHandler context, String prefix, Filter filter) {
    context.addFilter(new FilterHolder(filter), prefix + "/*", EnumSet.of(DispatcherType.REQUEST));
  }
}
