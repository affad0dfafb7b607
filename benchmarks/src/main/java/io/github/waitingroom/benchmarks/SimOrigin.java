package io.github.waitingroom.benchmarks;

import io.github.waitingroom.AdaptiveLimit;
import io.github.waitingroom.WaitingRoom;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * The application behind a simulated room, for adaptive limits: {@code servers} servers that each
 * take {@code service} per request on average. Every request the room lets through is answered
 * after a latency drawn from the load of the second before: with {@code lambda} requests in that
 * second, the utilisation is {@code rho = lambda * service / servers}, and the latency is
 * exponential with mean {@code service / (1 - rho)} (an M/M/1 queue per server: its 90th
 * percentile is {@code service * ln 10 / (1 - rho)}, so it climbs steeply past a knee). A request
 * fails when its latency reaches {@code timeout} (it is then answered at the timeout), and, past
 * full load ({@code rho >= 1}, the queue overflows), with probability {@code 1 - 1 / rho}. Servers
 * die and come back at the {@link Change}s. The node that let a request through is told how the
 * application answered ({@link WaitingRoom#originAnswered}), as the HTTP adapters do.
 *
 * <p>Deterministic: its draws come from a generator of its own, split from the run's seed, so the
 * traffic of a run is the same with or without an origin.
 *
 * @param servers how many servers at the start
 * @param service the mean service time of one request on an idle server
 * @param timeout the longest a request waits; it fails then
 * @param changes the servers from given instants of the run on (from the traffic's start)
 * @param adaptive the room's adaptive limit, or {@code null} for the fixed limit of the scenario
 */
record SimOrigin(int servers, Duration service, Duration timeout, List<Change> changes, @Nullable AdaptiveLimit adaptive) {

  /**
   * From {@code at} on, {@code servers} servers.
   *
   * @param at from the start of the traffic
   * @param servers how many
   */
  record Change(Duration at, int servers) {}

  SimOrigin {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(timeout, "timeout");
    changes = List.copyOf(changes);
    if (servers < 1) {
      throw new IllegalArgumentException("servers must be at least 1");
    }
  }

  /** This origin in front of a room with a fixed limit (no adaptive limit). */
  SimOrigin fixed() {
    return new SimOrigin(servers, service, timeout, changes, null);
  }

  /** The servers at {@code second} of the run. */
  int serversAt(long second) {
    int n = servers;
    for (Change c : changes) {
      if (second >= c.at().getSeconds()) {
        n = c.servers();
      }
    }
    return n;
  }

  /**
   * The active users at which the 90th percentile latency reaches {@code target} with this many
   * servers, if every active user sent requests {@code thinkMillis} apart: the model's own answer,
   * before sessions that have stopped browsing but still count.
   */
  double requestingUsersAt(int servers, Duration target, double thinkMillis) {
    double s = service.toNanos() / 1e6;
    double rho = 1 - s * Math.log(10) / (target.toNanos() / 1e6);
    return rho * servers / s * thinkMillis;
  }

  /** The running origin of one simulation: what it answered, second by second. */
  static final class Run {
    private final SimOrigin model;
    private final SplittableRandom random;
    private final long warm;
    /** Requests let through, by second of the run. */
    private final int[] requests;
    private final int[] failures;
    /** Latencies (microseconds) of each second, for its percentiles. */
    private final long[][] latencies;
    private final int[] counts;

    Run(SimOrigin model, long seed, int seconds, long warm) {
      this.model = model;
      this.random = new SplittableRandom(seed ^ 0x0121_6A17L);
      this.warm = warm;
      this.requests = new int[seconds + 1];
      this.failures = new int[seconds + 1];
      this.latencies = new long[seconds + 1][];
      this.counts = new int[seconds + 1];
    }

    /** A request that {@code node} let through at internal time {@code at}: answers it and tells the node. */
    void answer(WaitingRoom node, long at) {
      long second = Math.floorDiv(at - warm, 1000L);
      if (second < 0 || second >= requests.length) {
        return;
      }
      int s = (int) second;
      double serviceMs = model.service.toNanos() / 1e6;
      double lambda = s > 0 ? requests[s - 1] : 0;
      double rho = lambda * serviceMs / 1000.0 / model.serversAt(second);
      double timeoutMs = model.timeout.toNanos() / 1e6;
      double ms;
      boolean failed;
      if (rho >= 1 && random.nextDouble() < 1 - 1 / rho) {
        ms = timeoutMs;
        failed = true;
      } else {
        double mean = serviceMs / (1 - Math.min(rho, 0.99));
        ms = Math.min(timeoutMs, -mean * Math.log(1 - random.nextDouble()));
        failed = ms >= timeoutMs;
      }
      requests[s]++;
      failures[s] += failed ? 1 : 0;
      long micros = Math.round(ms * 1000);
      if (latencies[s] == null) {
        latencies[s] = new long[64];
      } else if (counts[s] == latencies[s].length) {
        latencies[s] = Arrays.copyOf(latencies[s], 2 * counts[s]);
      }
      latencies[s][counts[s]++] = micros;
      node.originAnswered(micros * 1000, failed);
    }

    /** Requests answered from second {@code from} to {@code to} (exclusive). */
    long requests(int from, int to) {
      long n = 0;
      for (int s = Math.max(0, from); s < Math.min(to, requests.length); s++) {
        n += requests[s];
      }
      return n;
    }

    /** Failures from second {@code from} to {@code to} (exclusive). */
    long failures(int from, int to) {
      long n = 0;
      for (int s = Math.max(0, from); s < Math.min(to, failures.length); s++) {
        n += failures[s];
      }
      return n;
    }

    /** The {@code q} quantile of the latencies (ms) from second {@code from} to {@code to} (exclusive), or 0. */
    double quantileMillis(int from, int to, double q) {
      int n = 0;
      for (int s = Math.max(0, from); s < Math.min(to, counts.length); s++) {
        n += counts[s];
      }
      if (n == 0) {
        return 0;
      }
      long[] all = new long[n];
      int i = 0;
      for (int s = Math.max(0, from); s < Math.min(to, counts.length); s++) {
        if (counts[s] > 0) {
          System.arraycopy(latencies[s], 0, all, i, counts[s]);
          i += counts[s];
        }
      }
      Arrays.sort(all);
      return all[(int) Math.min(n - 1, Math.ceil(q * n) - 1)] / 1000.0;
    }
  }
}
