package io.github.waitingroom.redis;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.coordinator.InMemoryTransport;
import java.util.UUID;
import io.github.waitingroom.testsupport.LocalRedis;

/**
 * Measures the overshoot (max active / limit, max admitted in a sliding minute / rate) and the
 * order of service (FIFO inversions) of the multi-node simulation. Arguments: data centers, nodes
 * per data center, {@code redis} or {@code memory}, spike arrivals per second.
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
    String prefix = LocalRedis.uniquePrefix("overshoot");
    RoomConfig config = MultiDataCenterTest.config("overshoot-" + UUID.randomUUID().toString().substring(0, 8));
    // In memory, values expire by the real clock, which barely moves while the simulation runs:
    // the nodes forget silent publishers by epochs anyway.
    InMemoryTransport memory = new InMemoryTransport();
    boolean inMemory = store.equals("memory");
    MultiNodeSimulation sim =
        new MultiNodeSimulation(config, names, shares, perDc, inMemory ? "" : LocalRedis.URI_STRING, prefix,
            uri -> inMemory ? memory : RedisTransport.builder(uri).keyPrefix(prefix).build());
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
    sim.close(); // and deletes its keys
  }
}
