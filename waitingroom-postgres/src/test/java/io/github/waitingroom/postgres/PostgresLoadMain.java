package io.github.waitingroom.postgres;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.Ticket;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Report;
import io.github.waitingroom.coordinator.ReportCodec;
import io.github.waitingroom.coordinator.ReportSeal;
import io.github.waitingroom.coordinator.StoreCoordinator;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;

/**
 * Measures the store load of a room on PostgreSQL: N nodes in one JVM, each with its own {@link
 * PostgresTransport} and coordinator (report encoding, the statement, decoding and summing the
 * answer: {@link Coordinator#exchange}), all on one small pool ({@link TestPool}, at most one
 * connection per thread). Every node syncs four times a second, as with the default epoch of 1 s,
 * the syncs of a round spread over a pool of threads; every report is full-sized, as in {@code
 * SyncRoundTripMain} of {@code waitingroom-redis} (by default a room admitting 2,000 a minute,
 * with a line in every second of the waiting timeout).
 *
 * <pre>
 * mvn -q -o -pl waitingroom-postgres -am test-compile
 * mvn -q -o -pl waitingroom-postgres org.codehaus.mojo:exec-maven-plugin:3.5.0:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.github.waitingroom.postgres.PostgresLoadMain -Dexec.args="100 10"
 * </pre>
 *
 * Arguments: nodes, data centers, [seconds, default 30], [threads, default 8], [syncs a second per
 * node, default 4; 0 for back to back, the most the database serves], [admissions a minute,
 * default 2,000: the reports' size grows with it]. Prints exchanges a second,
 * the median, p99 and max of one exchange, the write-ahead log the database wrote a second, and
 * the sizes of one node's report and one data center's sum.
 */
public final class PostgresLoadMain {
  private PostgresLoadMain() {}

  public static void main(String[] args) throws Exception {
    int nodes = Integer.parseInt(args[0]);
    int dcs = Integer.parseInt(args[1]);
    int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
    int threads = args.length > 3 ? Integer.parseInt(args[3]) : 8;
    double rate = args.length > 4 ? Double.parseDouble(args[4]) : 4;
    int perMinute = args.length > 5 ? Integer.parseInt(args[5]) : 2_000;
    KeysetHandle keys = TicketKeys.generate();
    DataSource physical = LocalPostgres.dataSource();
    String schema = LocalPostgres.createSchema(physical, "load");
    RoomConfig config =
        RoomConfig.builder("load-" + UUID.randomUUID().toString().substring(0, 8))
            .totalActiveUsers(5 * perMinute)
            .newUsersPerMinute(perMinute)
            .sessionDuration(Duration.ofMinutes(5))
            .build();
    Duration epoch = Duration.ofSeconds(1);
    long firstEpoch = 1_800_000_000L;
    Random random = new Random(1);
    List<Coordinator> coordinators = new ArrayList<>();
    List<Tally> tallies = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Long> nanos = Collections.synchronizedList(new ArrayList<>());
    try (TestPool connections = new TestPool(physical)) {
      for (int i = 0; i < nodes; i++) {
        PostgresTransport t = PostgresTransport.builder(connections).table(schema + ".waitingroom_values").build();
        String publisher = "node-" + i + "#" + UUID.randomUUID().toString().substring(0, 8);
        coordinators.add(new StoreCoordinator(config, t, new ReportSeal(keys, config.roomId()), "dc-" + (i % dcs), publisher, epoch));
        tallies.add(tally(config, nodes, firstEpoch, random));
      }
      int reportBytes = ReportCodec.encode(new Report("node-0", 1, firstEpoch - 10, window(tallies.get(0), firstEpoch + 2))).length;
      int sumBytes = ReportCodec.encode(
          new Report("dc-0", nodes / dcs, firstEpoch - 10, window(Tally.sum(tallies.subList(0, nodes / dcs)), firstEpoch + 2))).length;
      long roundNanos = rate > 0 ? (long) (1e9 / rate) : 0;
      int warmUp = 3;
      long walStart = 0;
      long measuredFrom = 0;
      int round = 0;
      long end = Long.MAX_VALUE;
      while (System.nanoTime() < end) {
        if (round == warmUp) {
          walStart = wal(connections);
          measuredFrom = System.nanoTime();
          end = measuredFrom + seconds * 1_000_000_000L;
        }
        long roundStart = System.nanoTime();
        long at = firstEpoch + round / Math.max(1, (int) Math.round(rate)) + 3;
        boolean measured = round >= warmUp;
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
          Coordinator c = coordinators.get(i);
          NavigableMap<Long, Tally> mine = window(tallies.get(i), at);
          done.add(pool.submit(() -> {
            long start = System.nanoTime();
            c.exchange(firstEpoch - 10, mine, at);
            if (measured) {
              nanos.add(System.nanoTime() - start);
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get();
        }
        round++;
        long sleep = roundStart + roundNanos - System.nanoTime();
        if (sleep > 0) {
          Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
        }
      }
      double elapsed = (System.nanoTime() - measuredFrom) / 1e9;
      long walBytes = wal(connections) - walStart;
      long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
      System.out.printf(
          "%d nodes in %d DCs, %d threads, %s: %.0f exchanges/s, exchange median %.2f ms, p99 %.2f ms, max %.2f ms;"
              + " WAL %.2f MB/s; node report %d bytes, DC sum %d bytes (%d exchanges in %.1f s)%n",
          nodes, dcs, threads, rate > 0 ? rate + " syncs/s per node" : "back to back",
          sorted.length / elapsed, ms(sorted, 0.5), ms(sorted, 0.99), sorted[sorted.length - 1] / 1e6,
          walBytes / elapsed / 1e6, reportBytes, sumBytes, sorted.length, elapsed);
    } finally {
      pool.shutdownNow();
      LocalPostgres.dropSchema(physical, schema);
    }
  }

  /** The database's write-ahead log position, in bytes. */
  private static long wal(DataSource ds) throws Exception {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT CAST(pg_current_wal_lsn() - CAST('0/0' AS pg_lsn) AS bigint)")) {
      r.next();
      return r.getLong(1);
    }
  }

  private static double ms(long[] sorted, double q) {
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
  }

  /** The same tally for the {@value Report#EPOCHS_KEPT} epochs before {@code epoch}. */
  private static NavigableMap<Long, Tally> window(Tally t, long epoch) {
    TreeMap<Long, Tally> out = new TreeMap<>();
    for (long e = epoch - Report.EPOCHS_KEPT; e < epoch; e++) {
      out.put(e, t);
    }
    return out;
  }

  /** One node's share of a busy room: a line in every second of the waiting timeout. */
  private static Tally tally(RoomConfig config, int nodes, long now, Random random) {
    TreeMap<Long, Long> line = new TreeMap<>();
    for (long s = now - config.waitingTimeoutSeconds(); s < now; s++) {
      line.put(s, 1L + random.nextInt(30));
    }
    int admitted = (int) (config.newUsersPerMinute() * config.waitingTimeoutSeconds() / 60 / nodes) + 1;
    long[] places = new long[admitted];
    for (int i = 0; i < admitted; i++) {
      places[i] = Ticket.place(now - config.waitingTimeoutSeconds() + random.nextInt((int) config.waitingTimeoutSeconds()),
          random.nextInt());
    }
    long active = config.totalActiveUsers() / nodes;
    long recent = config.newUsersPerMinute() / nodes;
    return new Tally(active, 5, 0, 3, line.size() * 10L, recent, 50, line, places);
  }
}
