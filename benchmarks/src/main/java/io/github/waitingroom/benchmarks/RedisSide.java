package io.github.waitingroom.benchmarks;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Redis's own side of a {@link StoreLoadBench} run: one plain connection to each server that holds
 * slots (the one server, or each upstream of a cluster), to read its {@code INFO} counters before
 * and after the timed window, to see where a run's keys went, and to delete them afterwards.
 */
final class RedisSide implements AutoCloseable {
  private final List<RedisURI> servers = new ArrayList<>();
  private final List<RedisClient> clients = new ArrayList<>();
  private final List<RedisCommands<String, String>> commands = new ArrayList<>();

  /** Connects to each server that {@code client} (a standalone or cluster client) sends commands to. */
  RedisSide(AbstractRedisClient client, String uri) {
    if (client instanceof RedisClusterClient cluster) {
      for (RedisClusterNode node : cluster.getPartitions()) {
        if (node.getRole().isUpstream() && !node.hasNoSlots()) {
          servers.add(node.getUri());
        }
      }
    } else {
      servers.add(RedisURI.create(uri));
    }
    servers.sort(Comparator.comparing(RedisURI::getHost).thenComparingInt(RedisURI::getPort));
    for (RedisURI server : servers) {
      RedisClient c = RedisClient.create(server);
      StatefulRedisConnection<String, String> conn = c.connect();
      clients.add(c);
      commands.add(conn.sync());
    }
  }

  /** The port of the {@code i}th server, to name it. */
  int port(int i) {
    return servers.get(i).getPort();
  }

  /** Each server's counters now. */
  List<Counters> counters() {
    List<Counters> all = new ArrayList<>();
    for (RedisCommands<String, String> c : commands) {
      Map<String, String> stats = fields(c.info("stats"));
      Map<String, String> cpu = fields(c.info("cpu"));
      long scriptCalls = 0;
      for (Map.Entry<String, String> e : fields(c.info("commandstats")).entrySet()) {
        if (e.getKey().equals("cmdstat_evalsha") || e.getKey().equals("cmdstat_eval")) {
          String calls = e.getValue().split(",")[0];
          scriptCalls += Long.parseLong(calls.substring(calls.indexOf('=') + 1));
        }
      }
      all.add(new Counters(
          Long.parseLong(stats.get("total_commands_processed")),
          scriptCalls,
          Long.parseLong(stats.get("total_net_input_bytes")),
          Long.parseLong(stats.get("total_net_output_bytes")),
          Double.parseDouble(cpu.get("used_cpu_sys")) + Double.parseDouble(cpu.get("used_cpu_user"))));
    }
    return all;
  }

  /**
   * Where the keys starting with {@code prefix} are: keys per server, rooms (hash tags) per server,
   * and the rooms whose keys are on more than one server.
   */
  String spread(String prefix) {
    List<Integer> keysPerServer = new ArrayList<>();
    Map<String, Set<Integer>> serversOfRoom = new HashMap<>();
    for (int i = 0; i < commands.size(); i++) {
      List<String> keys = keys(commands.get(i), prefix);
      keysPerServer.add(keys.size());
      for (String key : keys) {
        serversOfRoom.computeIfAbsent(tag(key), t -> new TreeSet<>()).add(i);
      }
    }
    int[] roomsPerServer = new int[commands.size()];
    int split = 0;
    for (Set<Integer> on : serversOfRoom.values()) {
      if (on.size() > 1) {
        split++;
      }
      for (int i : on) {
        roomsPerServer[i]++;
      }
    }
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < commands.size(); i++) {
      s.append(i == 0 ? "" : ", ").append(servers.get(i).getPort()).append(": ")
          .append(keysPerServer.get(i)).append(" keys (").append(roomsPerServer[i]).append(" rooms)");
    }
    return s + "; " + serversOfRoom.size() + " rooms, " + split + " of them on more than one server";
  }

  /** Deletes the keys starting with {@code prefix}, a room (one hash slot) at a time. */
  void delete(String prefix) {
    for (RedisCommands<String, String> c : commands) {
      Map<String, List<String>> byRoom = new HashMap<>();
      for (String key : keys(c, prefix)) {
        byRoom.computeIfAbsent(tag(key), t -> new ArrayList<>()).add(key);
      }
      for (List<String> keys : byRoom.values()) {
        c.unlink(keys.toArray(new String[0]));
      }
    }
  }

  @Override
  public void close() {
    for (RedisClient c : clients) {
      c.shutdown();
    }
  }

  private static List<String> keys(RedisCommands<String, String> c, String prefix) {
    List<String> keys = new ArrayList<>();
    ScanArgs match = ScanArgs.Builder.matches(prefix + "*").limit(1000);
    KeyScanCursor<String> cursor = c.scan(match);
    keys.addAll(cursor.getKeys());
    while (!cursor.isFinished()) {
      cursor = c.scan(ScanCursor.of(cursor.getCursor()), match);
      keys.addAll(cursor.getKeys());
    }
    return keys;
  }

  /** The key's hash tag, which {@code RedisTransport} makes the room's id. */
  private static String tag(String key) {
    int open = key.indexOf('{');
    return key.substring(open + 1, key.indexOf('}', open));
  }

  private static Map<String, String> fields(String info) {
    Map<String, String> fields = new HashMap<>();
    for (String line : info.split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && !line.startsWith("#")) {
        fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
      }
    }
    return fields;
  }

  /**
   * One server's counters: commands processed (a script's own commands included), script calls
   * (one per exchange), bytes in and out, and CPU seconds (system plus user, all threads).
   */
  record Counters(long commands, long scriptCalls, long bytesIn, long bytesOut, double cpuSeconds) {
    Counters minus(Counters o) {
      return new Counters(commands - o.commands, scriptCalls - o.scriptCalls, bytesIn - o.bytesIn,
          bytesOut - o.bytesOut, cpuSeconds - o.cpuSeconds);
    }

    Counters plus(Counters o) {
      return new Counters(commands + o.commands, scriptCalls + o.scriptCalls, bytesIn + o.bytesIn,
          bytesOut + o.bytesOut, cpuSeconds + o.cpuSeconds);
    }
  }
}
