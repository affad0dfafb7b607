package io.github.waitingroom.redis;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Report;
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

/**
 * Measures one node's sync round trip to Redis (report encoding, the script call, decoding and
 * summing the answer: {@link Coordinator#exchange}) with N nodes publishing to the same room,
 * spread over data centers. Every node's report is full-sized: counts in every slice of a
 * 5-minute session window, five waiting buckets.
 *
 * <pre>
 * mvn -q -o -pl waitingroom-redis test-compile
 * mvn -q -pl waitingroom-redis org.codehaus.mojo:exec-maven-plugin:3.5.0:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.github.waitingroom.redis.SyncRoundTripMain -Dexec.args="10 2"
 * </pre>
 *
 * Arguments: nodes, data centers, [rounds, default 30], [threads, default 4]. Prints median, p99
 * and max of one exchange, with every node syncing once per round from a pool of threads.
 */
public final class SyncRoundTripMain {
  private SyncRoundTripMain() {}

  public static void main(String[] args) throws Exception {
    int nodes = Integer.parseInt(args[0]);
    int dcs = Integer.parseInt(args[1]);
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
    int threads = args.length > 3 ? Integer.parseInt(args[3]) : 4;
    String uri = System.getProperty("waitingroom.redisUri", RedisSupport.URI_STRING);
    String prefix = RedisSupport.uniquePrefix("rtt");
    RoomConfig config =
        RoomConfig.builder("rtt-" + UUID.randomUUID().toString().substring(0, 8))
            .totalActiveUsers(10_000)
            .newUsersPerMinute(2_000)
            .sessionDuration(Duration.ofMinutes(5))
            .build();
    long now = 1_800_000_000L;
    Random random = new Random(1);
    List<Coordinator> coordinators = new ArrayList<>();
    List<Report> reports = new ArrayList<>();
    List<RedisTransport> transports = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      RedisTransport t = RedisTransport.builder(uri).keyPrefix(prefix).build();
      transports.add(t);
      String publisher = "node-" + i + "#" + UUID.randomUUID().toString().substring(0, 8);
      coordinators.add(new Coordinator(config, t, "dc-" + (i % dcs), publisher, Duration.ofSeconds(10)));
      reports.add(report(config, publisher, now, random));
    }
    int reportBytes = ReportCodec.encode(reports.get(0)).length;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Long> nanos = new ArrayList<>();
    try {
      for (int r = -3; r < rounds; r++) {
        long at = now + r + 3;
        List<Future<Long>> done = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
          Coordinator c = coordinators.get(i);
          Report mine = reports.get(i);
          done.add(
              pool.submit(
                  () -> {
                    long start = System.nanoTime();
                    c.exchange(mine, at);
                    return System.nanoTime() - start;
                  }));
        }
        for (Future<Long> f : done) {
          long n = f.get();
          if (r >= 0) {
            nanos.add(n);
          }
        }
      }
    } finally {
      pool.shutdownNow();
      for (RedisTransport t : transports) {
        t.close();
      }
      io.lettuce.core.RedisClient admin = RedisSupport.adminClient(uri);
      try (var c = admin.connect()) {
        RedisSupport.deleteKeys(c.sync(), prefix);
      } finally {
        admin.shutdown();
      }
    }
    long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
    System.out.printf(
        "%d nodes in %d DCs, %d threads, report %d bytes: sync round trip median %.2f ms, p99 %.2f ms, max %.2f ms (%d exchanges)%n",
        nodes, dcs, threads, reportBytes, ms(sorted, 0.5), ms(sorted, 0.99), sorted[sorted.length - 1] / 1e6,
        sorted.length);
  }

  private static double ms(long[] sorted, double q) {
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
  }

  private static Report report(RoomConfig config, String publisher, long now, Random random) {
    TreeMap<Long, Long> active = new TreeMap<>();
    TreeMap<Long, Long> admitted = new TreeMap<>();
    TreeMap<Long, Long> traffic = new TreeMap<>();
    TreeMap<Long, NavigableMap<Long, Long>> waiting = new TreeMap<>();
    for (long s = config.firstActiveSlice(now); s <= now; s += config.sliceSeconds()) {
      active.put(s, 1L + random.nextInt(50));
      admitted.put(s, 1L + random.nextInt(20));
      traffic.put(s, 1L + random.nextInt(500));
    }
    for (int b = 0; b < 5; b++) {
      TreeMap<Long, Long> slices = new TreeMap<>();
      for (long s = config.firstWaitingSlice(now); s <= now; s += config.sliceSeconds()) {
        slices.put(s, 1L + random.nextInt(30));
      }
      waiting.put(config.bucketOf(now) - b * config.bucketSeconds(), slices);
    }
    return new Report(publisher, now, 1, active, admitted, traffic, waiting);
  }
}
