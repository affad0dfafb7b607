package io.github.waitingroom.benchmarks;

import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.postgres.PostgresTransport;
import io.github.waitingroom.redis.RedisTransport;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The store's load from one room of many nodes, on a real store: N transports in one JVM (each
 * node's own, over PostgreSQL with {@link PostgresTransport}, all on one pool of {@code --pool}
 * connections as a JVM's nodes would share one, or over Redis with {@link RedisTransport}, a
 * connection each), each exchanging four times a second as a node does with epochs of 1 s, at
 * times spread at random over the quarter second. Each exchange is what a node in a settled room
 * sends: its report in its data center's scope and its data center's sum in the global scope
 * (which every node of that data center writes), of {@code --report-bytes} each (the simulator's
 * {@code load100} room has reports of 1.5 KB); it reads back the reports of its data center and
 * the sum of every data center. The transports run the exchanges, not the core, so the figures are
 * the store's, not the nodes' decoding. Timed after a warm-up of {@code --warm-up} seconds.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.waitingroom.benchmarks.StoreLoadBench \
 *     --store=postgres|redis --nodes=100 --dcs=10 [--seconds=60] [--warm-up=10] [--report-bytes=1500]
 *     [--threads=16] [--pool=16] [--url=jdbc:postgresql://127.0.0.1:5432/test?user=postgres]
 *     [--redis=redis://127.0.0.1:6379]
 * </pre>
 *
 * Prints exchanges a second (and how many ran late, their quarter second over), the median, p99
 * and max of one exchange, MB a second up (values written) and down (values read), and for
 * PostgreSQL the write-ahead log written a second (of the whole server: run it alone).
 */
public final class StoreLoadBench {
  private StoreLoadBench() {}

  public static void main(String[] args) throws Exception {
    String store = arg(args, "store", "postgres");
    int nodes = Integer.parseInt(arg(args, "nodes", "10"));
    int dcs = Integer.parseInt(arg(args, "dcs", "2"));
    int seconds = Integer.parseInt(arg(args, "seconds", "60"));
    int warmUp = Integer.parseInt(arg(args, "warm-up", "10"));
    int reportBytes = Integer.parseInt(arg(args, "report-bytes", "1500"));
    int threads = Integer.parseInt(arg(args, "threads", "16"));
    int poolSize = Integer.parseInt(arg(args, "pool", "16"));
    String url = arg(args, "url", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
    String redisUri = arg(args, "redis", "redis://127.0.0.1:6379");
    boolean postgres = switch (store) {
      case "postgres" -> true;
      case "redis" -> false;
      default -> throw new IllegalArgumentException("--store must be postgres or redis but was " + store);
    };

    String run = UUID.randomUUID().toString().substring(0, 8);
    String roomId = "store-load-" + run;
    Duration retention = Duration.ofMinutes(5);
    Timed timed = new Timed();
    Pool pool = postgres ? new Pool(url, poolSize) : null;
    String table = "store_load_" + run;
    List<AutoCloseable> toClose = new ArrayList<>();
    ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(threads);
    try {
      Random random = new Random(1);
      List<Runnable> syncs = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        Transport t;
        if (pool != null) {
          t = PostgresTransport.builder(pool).table(table).queryTimeout(Duration.ofSeconds(5)).build();
        } else {
          RedisTransport r = RedisTransport.builder(redisUri).keyPrefix("store-load:" + run + ":").build();
          toClose.add(r);
          t = r;
        }
        Transport node = timed.wrap(t);
        byte[] report = new byte[reportBytes];
        byte[] sum = new byte[reportBytes];
        random.nextBytes(report);
        random.nextBytes(sum);
        String dc = "dc-" + (i % dcs);
        List<Transport.Publication> out = List.of(
            new Transport.Publication("dc:" + dc, "node-" + i, report),
            new Transport.Publication("global", dc, sum));
        node.exchange(roomId, out, retention); // connects
        syncs.add(() -> {
          try {
            node.exchange(roomId, out, retention);
          } catch (IOException e) {
            // counted by Timed
          }
        });
      }
      for (Runnable sync : syncs) {
        scheduler.scheduleAtFixedRate(sync, random.nextInt(250_000), 250_000, TimeUnit.MICROSECONDS);
      }
      Thread.sleep(warmUp * 1000L);
      timed.reset();
      long walStart = pool != null ? wal(pool) : 0;
      long measureFrom = System.nanoTime();
      Thread.sleep(seconds * 1000L);
      double elapsed = (System.nanoTime() - measureFrom) / 1e9;
      long wal = pool != null ? wal(pool) - walStart : 0;
      long[] sorted = timed.sorted();
      System.out.printf(
          "%s, %d nodes in %d DCs, values of %d bytes: %.0f exchanges/s (of %d; %d over 250 ms, %d failed),"
              + " exchange median %.2f ms, p99 %.2f ms, max %.2f ms; %.2f MB/s up, %.2f MB/s down%s (%.0f s)%n",
          store, nodes, dcs, reportBytes, sorted.length / elapsed, 4 * nodes,
          Arrays.stream(sorted).filter(n -> n > 250_000_000L).count(), timed.failed.get(),
          ms(sorted, 0.5), ms(sorted, 0.99), sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6,
          timed.up.get() / elapsed / 1e6, timed.down.get() / elapsed / 1e6,
          pool != null ? String.format(", WAL %.2f MB/s", wal / elapsed / 1e6) : "", elapsed);
    } finally {
      scheduler.shutdownNow();
      scheduler.awaitTermination(10, TimeUnit.SECONDS);
      for (AutoCloseable c : toClose) {
        c.close();
      }
      if (pool != null) {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
          s.execute("DROP TABLE IF EXISTS " + table);
        }
        pool.close();
      }
    }
  }

  private static String arg(String[] args, String name, String fallback) {
    for (String a : args) {
      if (a.startsWith("--" + name + "=")) {
        return a.substring(name.length() + 3);
      }
    }
    return fallback;
  }

  private static double ms(long[] sorted, double q) {
    return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
  }

  /** The server's write-ahead log position, in bytes. */
  private static long wal(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT CAST(pg_current_wal_lsn() - CAST('0/0' AS pg_lsn) AS bigint)")) {
      r.next();
      return r.getLong(1);
    }
  }

  /** Times every exchange of every node and counts the bytes of the values written and read. */
  static final class Timed {
    private final List<Long> nanos = new ArrayList<>();
    final AtomicLong up = new AtomicLong();
    final AtomicLong down = new AtomicLong();
    final AtomicLong failed = new AtomicLong();

    Transport wrap(Transport t) {
      return (roomId, publications, retention) -> {
        long start = System.nanoTime();
        Map<String, Map<String, byte[]>> answer;
        try {
          answer = t.exchange(roomId, publications, retention);
        } catch (IOException | RuntimeException e) {
          failed.incrementAndGet();
          throw e;
        }
        long took = System.nanoTime() - start;
        synchronized (this) {
          nanos.add(took);
        }
        for (Transport.Publication p : publications) {
          up.addAndGet(p.payload().length);
        }
        for (Map.Entry<String, Map<String, byte[]>> scope : answer.entrySet()) {
          if (!scope.getKey().equals(Transport.CLOCK_SCOPE)) {
            for (byte[] v : scope.getValue().values()) {
              down.addAndGet(v.length);
            }
          }
        }
        return answer;
      };
    }

    synchronized void reset() {
      nanos.clear();
      up.set(0);
      down.set(0);
      failed.set(0);
    }

    synchronized long[] sorted() {
      return nanos.stream().mapToLong(Long::longValue).sorted().toArray();
    }
  }

  /**
   * The smallest connection pool that keeps a node's exchange from opening a connection each time:
   * at most {@code size} connections, handed out again when given back, as an application's pool
   * would.
   */
  static final class Pool implements DataSource, AutoCloseable {
    private final String url;
    private final Semaphore permits;
    private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();

    Pool(String url, int size) {
      this.url = url;
      this.permits = new Semaphore(size);
    }

    @Override
    public Connection getConnection() throws SQLException {
      try {
        permits.acquire();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted", e);
      }
      Connection c;
      try {
        c = idle.pollFirst();
        if (c == null || c.isClosed()) {
          c = DriverManager.getConnection(url);
        }
      } catch (SQLException | RuntimeException e) {
        permits.release();
        throw e;
      }
      Connection real = c;
      AtomicBoolean returned = new AtomicBoolean();
      return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
          (proxy, method, a) -> {
            if (method.getName().equals("close")) {
              if (returned.compareAndSet(false, true)) {
                if (!real.isClosed() && real.getAutoCommit()) {
                  idle.addFirst(real);
                } else {
                  real.close();
                }
                permits.release();
              }
              return null;
            }
            if (method.getName().equals("isClosed")) {
              return returned.get() || real.isClosed();
            }
            try {
              return method.invoke(real, a);
            } catch (InvocationTargetException e) {
              throw e.getCause();
            }
          });
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
      throw new SQLFeatureNotSupportedException();
    }

    @Override
    public void close() {
      for (Connection c; (c = idle.pollFirst()) != null; ) {
        try {
          c.close();
        } catch (SQLException e) {
          // closing anyway
        }
      }
    }

    @Override
    public PrintWriter getLogWriter() {
      return new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
      return false;
    }
  }
}
