package io.github.waitingroom.benchmarks;

import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.Report;
import io.github.waitingroom.coordinator.ReportCodec;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A store that goes wrong on a schedule ({@link Adversity.Fault}): it fails (every exchange
 * throws), is flushed (loses everything), answers with about half of the other publishers missing,
 * answers with an extra publisher whose report has a newer format version (a rolling upgrade), or
 * loses the answer of every tenth exchange after running it (a timeout). Wraps a {@link
 * LaggedTransport}. Not thread-safe, like the simulator.
 */
final class FaultyTransport implements Transport {
  private final LaggedTransport store;
  private final InstantSource clock;
  private final long startMillis;
  private final List<Adversity.Fault> faults;
  private final boolean[] flushed;
  private final byte[] newerReport;
  /** Exchanges that failed. */
  long failures;
  /** Exchanges run while answers may be lost, to lose every tenth. */
  private long lossCandidates;

  FaultyTransport(LaggedTransport store, InstantSource clock, long startMillis, List<Adversity.Fault> faults) {
    this.store = store;
    this.clock = clock;
    this.startMillis = startMillis;
    this.faults = faults;
    this.flushed = new boolean[faults.size()];
    String v2 = new String(ReportCodec.encode(new Report("future", 1, 0, new TreeMap<>())), StandardCharsets.UTF_8);
    this.newerReport = v2.replace("\"v\":" + Report.FORMAT_VERSION, "\"v\":" + (Report.FORMAT_VERSION + 1))
        .getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public Map<String, Map<String, byte[]>> exchange(
      String roomId, List<Publication> publications, Duration retention) throws IOException {
    long t = clock.millis() - startMillis;
    boolean partial = false;
    boolean newer = false;
    boolean lose = false;
    for (int i = 0; i < faults.size(); i++) {
      Adversity.Fault f = faults.get(i);
      switch (f.kind()) {
        case OUTAGE -> {
          if (f.covers(t)) {
            failures++;
            throw new IOException("simulated store outage");
          }
        }
        case FLUSH -> {
          if (!flushed[i] && t >= f.start().toMillis()) {
            flushed[i] = true;
            store.flush();
          }
        }
        case PARTIAL -> partial |= f.covers(t);
        case NEWER_VERSION -> newer |= f.covers(t);
        case LOST_ANSWERS -> lose |= f.covers(t) && lossCandidates++ % 10 == 9;
      }
    }
    Map<String, Map<String, byte[]>> answer = store.exchange(roomId, publications, retention);
    if (lose) {
      failures++;
      throw new IOException("simulated timeout: the store ran the exchange, its answer was lost");
    }
    if (!partial && !newer) {
      return answer;
    }
    return damage(answer, publications, t, partial, newer);
  }

  private Map<String, Map<String, byte[]>> damage(
      Map<String, Map<String, byte[]>> answer, List<Publication> publications, long t, boolean partial, boolean newer) {
    Map<String, Map<String, byte[]>> out = new HashMap<>();
    answer.forEach((scope, values) -> {
      if (scope.equals(CLOCK_SCOPE)) {
        out.put(scope, values);
        return;
      }
      Map<String, byte[]> kept = new TreeMap<>();
      values.forEach((publisher, payload) -> {
        boolean mine = publications.stream()
            .anyMatch(p -> p.scope().equals(scope) && p.publisher().equals(publisher));
        // Drop about half of the others, a different half every second.
        if (!partial || mine || Math.floorMod((publisher + (t / 1000)).hashCode(), 2) == 0) {
          kept.put(publisher, payload);
        }
      });
      if (newer) {
        kept.put(scope.equals(Coordinator.GLOBAL_SCOPE) ? "dc-future" : "node-future", newerReport);
      }
      out.put(scope, kept);
    });
    return out;
  }
}
