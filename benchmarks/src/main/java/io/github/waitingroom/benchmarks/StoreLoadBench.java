package io.github.waitingroom.benchmarks;

import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.postgres.PostgresTransport;
import io.github.waitingroom.redis.RedisTransport;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import java.io.File;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * The store's load from rooms of many nodes, on a real store: {@code --rooms} rooms of {@code
 * --nodes} nodes each in {@code --dcs} data centers, every node a transport in this JVM exchanging
 * four times a second as a node does with epochs of 1 s, at times spread at random over the quarter
 * second, on {@code --threads} threads. Over PostgreSQL each node has its own {@link
 * PostgresTransport}, all on one pool of {@code --pool} connections as a JVM's nodes would share one;
 * over Redis (or Redis Cluster) the nodes share {@code --connections} {@link RedisTransport}s, each
 * one connection, made over one Lettuce client as an application's rooms share its client. Each
 * exchange is what a node in a settled room sends: its report in its data center's scope and its
 * data center's sum in the global scope (which every node of that data center writes), of {@code
 * --report-bytes} each (the simulator's {@code load100} room has reports of 1.5 KB); it reads back
 * the reports of its data center and the sum of every data center. The transports run the
 * exchanges, not the core, so the figures are the store's, not the nodes' decoding. Timed after a
 * warm-up of {@code --warm-up} seconds.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.waitingroom.benchmarks.StoreLoadBench \
 *     --store=postgres|redis --nodes=100 --dcs=10 [--rooms=1] [--seconds=60] [--warm-up=10]
 *     [--report-bytes=1500] [--threads=16] [--pool=16] [--connections=4]
 *     [--url=jdbc:postgresql://127.0.0.1:5432/test?user=postgres]
 *     [--redis=redis://127.0.0.1:6379 | redis-cluster://127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103]
 * </pre>
 *
 * Prints exchanges a second against those asked (and how many started or took over a quarter
 * second late), the p50, p90, p99 and max of one exchange, MB a second up (values written) and down
 * (values read), and this JVM's CPU. For Redis, from each server's {@code INFO} over the timed
 * window (of the whole server: run it alone): script calls and commands a second (a script's own
 * commands included), network bytes in and out, and CPU as a percentage of one core; then where the
 * run's keys were (per server, and whether any room spans two), before it deletes them. For
 * PostgreSQL, of the whole server: transactions a second in the database, the write-ahead log
 * written a second, and, for a server on this Linux machine, the CPU of its processes.
 */
public final class StoreLoadBench {
  private static final long QUARTER = 250_000_000L;

  private StoreLoadBench() {}

  public static void main(String[] args) throws Exception {
    String store = arg(args, "--store", "postgres");
    int rooms = Integer.parseInt(arg(args, "--rooms", "1"));
    int nodes = Integer.parseInt(arg(args, "--nodes", "10"));
    int dcs = Integer.parseInt(arg(args, "--dcs", "2"));
    int seconds = Integer.parseInt(arg(args, "--seconds", "60"));
    int warmUp = Integer.parseInt(arg(args, "--warm-up", "10"));
    int reportBytes = Integer.parseInt(arg(args, "--report-bytes", "1500"));
    int threads = Integer.parseInt(arg(args, "--threads", "16"));
    int poolSize = Integer.parseInt(arg(args, "--pool", "16"));
    int connections = Integer.parseInt(arg(args, "--connections", "4"));
    String url = arg(args, "--url", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
    String redisUri = arg(args, "--redis", "redis://127.0.0.1:6379");
    for (String a : args) {
      if (!a.matches("--(store|rooms|nodes|dcs|seconds|warm-up|report-bytes|threads|pool|connections|url|redis)=.+")) {
        throw new IllegalArgumentException("unknown argument " + a + " (see the class comment)");
      }
    }
    boolean postgres = switch (store) {
      case "postgres" -> true;
      case "redis" -> false;
      default -> throw new IllegalArgumentException("--store must be postgres or redis but was " + store);
    };

    String run = UUID.randomUUID().toString().substring(0, 8);
    String keyPrefix = "store-load:" + run + ":";
    Duration retention = Duration.ofMinutes(5);
    Timed timed = new Timed();
    Pool pool = postgres ? new Pool(url, poolSize) : null;
    String table = "store_load_" + run;
    AbstractRedisClient client = postgres ? null : redisClient(redisUri);
    List<RedisTransport> shared = new ArrayList<>();
    RedisSide redis = null;
    ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(threads);
    try {
      for (int i = 0; client != null && i < connections; i++) {
        shared.add(RedisTransport.builder(client).keyPrefix(keyPrefix).build());
      }
      Random random = new Random(1);
      List<Runnable> syncs = new ArrayList<>();
      for (int r = 0; r < rooms; r++) {
        String roomId = "store-load-" + run + "-" + r;
        for (int i = 0; i < nodes; i++) {
          Transport t = pool != null
              ? PostgresTransport.builder(pool).table(table).queryTimeout(Duration.ofSeconds(5)).build()
              : shared.get(syncs.size() % connections);
          Transport node = timed.wrap(t);
          byte[] report = new byte[reportBytes];
          byte[] sum = new byte[reportBytes];
          random.nextBytes(report);
          random.nextBytes(sum);
          String dc = "dc-" + (i % dcs);
          List<Transport.Publication> out = List.of(
              new Transport.Publication("dc:" + dc, "node-" + i, report),
              new Transport.Publication("global", dc, sum));
          node.exchange(roomId, out, retention); // connects, writes the room's first values
          syncs.add(() -> {
            try {
              node.exchange(roomId, out, retention);
            } catch (IOException e) {
              // counted by Timed
            }
          });
        }
      }
      redis = client != null ? new RedisSide(client, redisUri) : null;
      for (Runnable sync : syncs) {
        long offset = random.nextInt(250_000);
        long[] due = {System.nanoTime() + offset * 1000};
        scheduler.scheduleAtFixedRate(() -> {
          timed.started(System.nanoTime() - due[0]);
          due[0] += QUARTER;
          sync.run();
        }, offset, 250_000, TimeUnit.MICROSECONDS);
      }
      Thread.sleep(warmUp * 1000L);
      timed.reset();
      long[] pgStart = pool != null ? postgresCounters(pool) : null;
      double pgCpuStart = pool != null ? postgresCpuSeconds() : 0;
      List<RedisSide.Counters> before = redis != null ? redis.counters() : List.of();
      long cpuStart = jvmCpuNanos();
      long measureFrom = System.nanoTime();
      Thread.sleep(seconds * 1000L);
      double elapsed = (System.nanoTime() - measureFrom) / 1e9;
      double jvmCpu = (jvmCpuNanos() - cpuStart) / 1e9 / elapsed;
      List<RedisSide.Counters> after = redis != null ? redis.counters() : List.of();
      long[] pgEnd = pool != null ? postgresCounters(pool) : null;
      double pgCpu = pool != null ? (postgresCpuSeconds() - pgCpuStart) / elapsed : 0;
      long[] sorted = timed.sorted();
      System.out.printf(
          "%s, %d room%s of %d nodes in %d DCs (%d nodes), values of %d bytes, %d threads%s:%n"
              + "  %.0f exchanges/s of %d asked (%d started over 250 ms late, %d took over 250 ms, %d failed);"
              + " exchange p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms;"
              + " %.2f MB/s up, %.2f MB/s down; this JVM %.0f %% CPU%s (%.0f s)%n",
          store, rooms, rooms == 1 ? "" : "s", nodes, dcs, rooms * nodes, reportBytes, threads,
          pool != null ? ", pool of " + poolSize : ", " + connections + " connections over one client",
          sorted.length / elapsed, 4 * rooms * nodes, timed.late.get(),
          Arrays.stream(sorted).filter(n -> n > QUARTER).count(), timed.failed.get(),
          ms(sorted, 0.5), ms(sorted, 0.9), ms(sorted, 0.99), sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1e6,
          timed.up.get() / elapsed / 1e6, timed.down.get() / elapsed / 1e6, 100 * jvmCpu,
          pgStart != null && pgEnd != null
              ? String.format("; PostgreSQL: %.0f transactions/s, WAL %.2f MB/s, CPU %.0f %% of a core",
                  (pgEnd[1] - pgStart[1]) / elapsed, (pgEnd[0] - pgStart[0]) / elapsed / 1e6, 100 * pgCpu)
              : "",
          elapsed);
      if (redis != null) {
        RedisSide.Counters total = new RedisSide.Counters(0, 0, 0, 0, 0);
        for (int i = 0; i < after.size(); i++) {
          RedisSide.Counters d = after.get(i).minus(before.get(i));
          total = total.plus(d);
          if (after.size() > 1) {
            System.out.printf("  server :%d: %s%n", redis.port(i), perSecond(d, elapsed));
          }
        }
        System.out.printf("  Redis%s: %s%n", after.size() > 1 ? ", " + after.size() + " servers summed" : "",
            perSecond(total, elapsed));
        System.out.printf("  keys: %s%n", redis.spread(keyPrefix));
      }
    } finally {
      scheduler.shutdownNow();
      scheduler.awaitTermination(10, TimeUnit.SECONDS);
      for (RedisTransport t : shared) {
        t.close();
      }
      if (redis != null) {
        redis.delete(keyPrefix);
        redis.close();
      }
      if (client != null) {
        client.shutdown();
      }
      if (pool != null) {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
          s.execute("DROP TABLE IF EXISTS " + table);
        }
        pool.close();
      }
    }
  }

  /** The application's client: a cluster client for {@code redis-cluster://}, else a standalone one. */
  private static AbstractRedisClient redisClient(String uri) {
    if (uri.startsWith("redis-cluster://")) {
      return RedisClusterClient.create("redis://" + uri.substring("redis-cluster://".length()));
    }
    return RedisClient.create(uri);
  }

  private static String perSecond(RedisSide.Counters d, double elapsed) {
    return String.format("%.0f script calls/s, %.0f commands/s, %.2f MB/s in, %.2f MB/s out, CPU %.0f %% of a core",
        d.scriptCalls() / elapsed, d.commands() / elapsed, d.bytesIn() / elapsed / 1e6, d.bytesOut() / elapsed / 1e6,
        100 * d.cpuSeconds() / elapsed);
  }

  /** The CPU time this JVM has used, all threads. */
  private static long jvmCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static String arg(String[] args, String name, String fallback) {
    for (String a : args) {
      if (a.startsWith(name + "=")) {
        return a.substring(name.length() + 1);
      }
    }
    return fallback;
  }

  private static double ms(long[] sorted, double q) {
    return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
  }

  /**
   * The server's write-ahead log position in bytes, and the transactions its database has
   * committed and rolled back (one per exchange, plus this query).
   */
  private static long[] postgresCounters(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT CAST(pg_current_wal_lsn() - CAST('0/0' AS pg_lsn) AS bigint),"
            + " xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()")) {
      r.next();
      return new long[] {r.getLong(1), r.getLong(2)};
    }
  }

  /**
   * The CPU seconds (user and system) of this machine's processes named {@code postgres}: a local
   * server's, on Linux; 0 elsewhere. Ticks of 1/100 s, Linux's {@code USER_HZ}.
   */
  private static double postgresCpuSeconds() {
    long ticks = 0;
    File[] procs = new File("/proc").listFiles((dir, name) -> name.chars().allMatch(Character::isDigit));
    for (File p : procs == null ? new File[0] : procs) {
      try {
        String stat = Files.readString(p.toPath().resolve("stat"));
        int close = stat.lastIndexOf(')');
        if (stat.substring(stat.indexOf('(') + 1, close).equals("postgres")) {
          String[] f = stat.substring(close + 2).split(" ");
          ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime: fields 14 and 15
        }
      } catch (IOException | RuntimeException e) {
        // the process ended, or is not ours to read
      }
    }
    return ticks / 100.0;
  }

  /** Times every exchange of every node and counts the bytes of the values written and read. */
  static final class Timed {
    private final List<Long> nanos = new ArrayList<>();
    final AtomicLong up = new AtomicLong();
    final AtomicLong down = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong late = new AtomicLong();

    /** Notes how long after its due time an exchange started. */
    void started(long lateNanos) {
      if (lateNanos > QUARTER) {
        late.incrementAndGet();
      }
    }

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
      late.set(0);
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
