package io.github.waitingroom.redis;

import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.coordinator.Transport;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Measures the overshoot (max active / limit, max admitted in a sliding minute / rate) of the
 * multi-node simulation. Arguments: data centers, nodes per data center, {@code redis} or
 * {@code memory}, spike arrivals per second.
 *
 * <pre>
 * mvn -q -o -pl waitingroom-redis exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=io.github.waitingroom.redis.OvershootMain -Dexec.args="3 3 redis 6"
 * </pre>
 */
public final class OvershootMain {
  private OvershootMain() {}

  public static void main(String[] args) {
    int dcs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int perDc = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    String store = args.length > 2 ? args[2] : "redis";
    double spike = args.length > 3 ? Double.parseDouble(args[3]) : 6;
    String[] names = new String[dcs];
    double[] shares = new double[dcs];
    double total = 0;
    for (int d = 0; d < dcs; d++) {
      names[d] = "dc-" + d;
      shares[d] = 1.0 / (1 << d);
      total += shares[d];
    }
    for (int d = 0; d < dcs; d++) {
      shares[d] /= total;
    }
    String prefix = RedisSupport.uniquePrefix("overshoot");
    RoomConfig config = MultiDataCenterTest.config("overshoot-" + UUID.randomUUID().toString().substring(0, 8));
    InMemoryTransport[] memory = new InMemoryTransport[1];
    Supplier<Transport> transports =
        store.equals("memory")
            ? () -> memory[0]
            // Virtual time: the manual clock is the room's, so Redis's clock is stripped.
            : () -> new TestTransport(RedisTransport.builder(RedisSupport.URI_STRING).keyPrefix(prefix).build(), false);
    ManualClock clock = new ManualClock(java.time.Instant.parse("2026-11-30T10:00:05Z"));
    memory[0] = new InMemoryTransport(clock);
    MultiNodeSimulation sim = new MultiNodeSimulation(config, names, shares, perDc, transports, clock);
    sim.run(60, 0.5);
    sim.run(240, spike);
    sim.run(240, 1);
    System.out.printf(
        "%d DCs x %d nodes over %s, spike %.1f/s: admissions=%d maxActive=%d/%d (%.3f) slidingMinute=%d/%d (%.3f)"
            + " inversions=%d (cross-DC %d) aheadGrew=%d (max +%d) %s%n",
        dcs, perDc, store, spike, sim.admissions, sim.maxActive, config.totalActiveUsers(),
        sim.maxActive / (double) config.totalActiveUsers(), sim.maxAdmittedInAMinute,
        config.newUsersPerMinute(), sim.maxAdmittedInAMinute / (double) config.newUsersPerMinute(),
        sim.inversions, sim.crossDcInversions, sim.aheadGrew, sim.maxAheadGrowth, sim.firstInversion);
    sim.close();
    if (!store.equals("memory")) {
      io.lettuce.core.RedisClient admin = RedisSupport.adminClient(RedisSupport.URI_STRING);
      try (var c = admin.connect()) {
        RedisSupport.deleteKeys(c.sync(), prefix);
      } finally {
        admin.shutdown();
      }
    }
  }
}
