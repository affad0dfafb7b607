package io.github.waitingroom.redis;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.Ticket;
import io.github.waitingroom.allocation.Tally;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.StoreCoordinator;
import io.github.waitingroom.coordinator.Report;
import io.github.waitingroom.coordinator.ReportSeal;
import io.github.waitingroom.coordinator.ReportCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import io.github.waitingroom.testsupport.LocalRedis;

/**
 * Measures one node's sync round trip to Redis (report encoding, the script call, decoding and
 * summing the answer: {@link Coordinator#exchange}) with N nodes publishing to the same room,
 * spread over data centers. Every node's report is full-sized: {@value Report#EPOCHS_KEPT}
 * tallies, each with a line of people waiting in every second of the waiting timeout and the
 * places it admitted from the line within it (a room admitting 2,000 a minute, spread over the
 * nodes).
 *
 * <pre>
 * mvn -q -o -pl waitingroom-redis test-compile
 * mvn -q -pl waitingroom-redis org.codehaus.mojo:exec-maven-plugin:3.5.0:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.github.waitingroom.redis.SyncRoundTripMain -Dexec.args="10 2"
 * </pre>
 *
 * Arguments: nodes, data centers, [rounds, default 30], [threads, default 4]. Prints median, p99
 * and max of one exchange, with every node syncing once per round from a pool of threads, and
 * the size of one node's report and of one data center's sum.
 */
public final class SyncRoundTripMain {
  private SyncRoundTripMain() {}

  public static void main(String[] args) throws Exception {
    int nodes = Integer.parseInt(args[0]);
    int dcs = Integer.parseInt(args[1]);
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
    int threads = args.length > 3 ? Integer.parseInt(args[3]) : 4;
    String uri = System.getProperty("waitingroom.redisUri", LocalRedis.URI_STRING);
    String prefix = LocalRedis.uniquePrefix("rtt");
    RoomConfig config =
        RoomConfig.builder("rtt-" + UUID.randomUUID().toString().substring(0, 8))
            .totalActiveUsers(10_000)
            .newUsersPerMinute(2_000)
            .sessionDuration(Duration.ofMinutes(5))
            .build();
    Duration epoch = Duration.ofSeconds(1);
    long firstEpoch = 1_800_000_000L;
    Random random = new Random(1);
    List<Coordinator> coordinators = new ArrayList<>();
    List<RedisTransport> transports = new ArrayList<>();
    List<Tally> tallies = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      RedisTransport t = RedisTransport.builder(uri).keyPrefix(prefix).build();
      transports.add(t);
      String publisher = "node-" + i + "#" + UUID.randomUUID().toString().substring(0, 8);
      coordinators.add(new StoreCoordinator(config, t, new ReportSeal(MultiNodeSimulation.KEYS, config.roomId()), "dc-" + (i % dcs), publisher, epoch));
      tallies.add(tally(config, nodes, firstEpoch, random));
    }
    int reportBytes = ReportCodec.encode(new Report("node-0", 1, firstEpoch - 10, window(tallies.get(0), firstEpoch + 2))).length;
    int sumBytes =
        ReportCodec.encode(new Report("dc-0", nodes / dcs, firstEpoch - 10, window(Tally.sum(tallies.subList(0, nodes / dcs)), firstEpoch + 2)))
            .length;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Long> nanos = new ArrayList<>();
    int settled = 0;
    try {
      for (int r = -3; r < rounds; r++) {
        long at = firstEpoch + r + 3;
        List<Future<Long>> done = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
          Coordinator c = coordinators.get(i);
          NavigableMap<Long, Tally> mine = window(tallies.get(i), at);
          done.add(
              pool.submit(
                  () -> {
                    long start = System.nanoTime();
                    c.exchange(firstEpoch - 10, mine, at);
                    return System.nanoTime() - start;
                  }));
        }
        for (Future<Long> f : done) {
          long n = f.get();
          if (r >= 0) {
            nanos.add(n);
          }
        }
        if (r >= 0 && coordinators.get(0).settled(at - 2) != null) {
          settled++;
        }
      }
    } finally {
      pool.shutdownNow();
      for (RedisTransport t : transports) {
        t.close();
      }
      io.lettuce.core.RedisClient admin = LocalRedis.adminClient(uri);
      try (var c = admin.connect()) {
        RedisSupport.deleteKeys(c.sync(), prefix);
      } finally {
        admin.shutdown();
      }
    }
    long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
    System.out.printf(
        "%d nodes in %d DCs, %d threads, node report %d bytes, DC sum %d bytes: sync round trip median %.2f ms,"
            + " p99 %.2f ms, max %.2f ms (%d exchanges; node 0 saw %d of %d rounds settled)%n",
        nodes, dcs, threads, reportBytes, sumBytes, ms(sorted, 0.5), ms(sorted, 0.99), sorted[sorted.length - 1] / 1e6,
        sorted.length, settled, rounds);
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
    return new Tally(active, 5, recent, 50, line, places);
  }
}
