package io.github.waitingroom.benchmarks;

import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.coordinator.Transport;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A simulated coordinator network: every node's publication lands at once in one shared {@link
 * InMemoryTransport} (which also does the expiry), but what a node reads back about <em>other</em>
 * publishers is what they had published {@code lag} earlier. The global scope (data centers'
 * sums) has the propagation lag between data centers; a data center's own scope (its nodes'
 * reports) has the lag within a data center. A node always reads its own publications fresh, as
 * the transport contract says. The store's clock ({@link Transport#CLOCK_SCOPE}) comes back
 * fresh. Answers list publishers in sorted order. It also counts exchanges and bytes, and can be
 * {@link #flush() flushed}. Not thread-safe: the simulator is single-threaded.
 */
final class LaggedTransport implements Transport {
  private record Version(long atMillis, byte[] payload) {}

  private InMemoryTransport store;
  /** Exchanges served. */
  long exchanges;
  /** Payload bytes published (written to the store). */
  long bytesUp;
  /** Payload bytes answered (read from the store). */
  long bytesDown;
  /** Values answered: reports, sums, join markers, documents and empty reader values. */
  long valuesDown;
  /**
   * Reports answered: those of nodes in a data center's scope, and data centers' sums in the global
   * scope (not the join markers, documents and reader values there): what the room's store budget
   * counts.
   */
  long reportsDown;
  /** Values published, and their total size, by scope kind (0: a data center's, 1: global). */
  final long[] published = new long[2];
  final long[] publishedBytes = new long[2];
  private final InstantSource clock;
  private final long globalLagMillis;
  private final long dataCenterLagMillis;
  private final Map<String, Map<String, ArrayDeque<Version>>> history = new HashMap<>();

  LaggedTransport(InstantSource clock, Duration globalLag, Duration dataCenterLag) {
    this.clock = clock;
    this.store = new InMemoryTransport(clock);
    this.globalLagMillis = globalLag.toMillis();
    this.dataCenterLagMillis = dataCenterLag.toMillis();
  }

  @Override
  public Map<String, Map<String, byte[]>> exchange(
      String roomId, List<Publication> publications, Duration retention) {
    long now = clock.millis();
    exchanges++;
    for (Publication p : publications) {
      bytesUp += p.payload().length;
      int kind = p.scope().equals(Coordinator.GLOBAL_SCOPE) ? 1 : 0;
      published[kind]++;
      publishedBytes[kind] += p.payload().length;
      history
          .computeIfAbsent(p.scope(), s -> new HashMap<>())
          .computeIfAbsent(p.publisher(), s -> new ArrayDeque<>())
          .addLast(new Version(now, p.payload().clone()));
    }
    Map<String, Map<String, byte[]>> live = store.exchange(roomId, publications, retention);
    Map<String, Map<String, byte[]>> answer = new HashMap<>();
    live.forEach(
        (scope, values) -> {
          if (scope.equals(CLOCK_SCOPE)) {
            answer.put(scope, values);
            return;
          }
          long cutoff = now - (scope.equals(Coordinator.GLOBAL_SCOPE) ? globalLagMillis : dataCenterLagMillis);
          Map<String, ArrayDeque<Version>> scopeHistory = history.getOrDefault(scope, Map.of());
          // Sorted by publisher: the coordinator's floating-point sums then run in the same order
          // in every run, which keeps runs reproducible (a HashMap's order would depend on the
          // random suffix every WaitingRoom adds to its node id).
          Map<String, byte[]> out = new TreeMap<>();
          values.forEach(
              (publisher, fresh) -> {
                if (publishedNow(publications, scope, publisher)) {
                  out.put(publisher, fresh);
                } else {
                  byte[] seen = visible(scopeHistory.get(publisher), cutoff);
                  if (seen != null) {
                    out.put(publisher, seen);
                  }
                }
              });
          out.values().forEach(b -> bytesDown += b.length);
          valuesDown += out.size();
          boolean global = scope.equals(Coordinator.GLOBAL_SCOPE);
          out.keySet().forEach(who -> reportsDown += !global || !who.isEmpty() && !who.startsWith(Coordinator.DOCUMENT)
              && who.indexOf('#') < 0 ? 1 : 0);
          answer.put(scope, out);
        });
    return answer;
  }

  /** Loses everything the store holds, as a restart without persistence or a fail-over does. */
  void flush() {
    store = new InMemoryTransport(clock);
    history.clear();
  }

  private static boolean publishedNow(List<Publication> publications, String scope, String publisher) {
    for (Publication p : publications) {
      if (p.scope().equals(scope) && p.publisher().equals(publisher)) {
        return true;
      }
    }
    return false;
  }

  /** The newest version published at or before {@code cutoff}; forgets versions older than it. */
  private static byte @Nullable [] visible(@Nullable ArrayDeque<Version> versions, long cutoff) {
    if (versions == null || versions.isEmpty()) {
      return null;
    }
    Version first = versions.removeFirst();
    for (Version next = versions.peekFirst(); next != null && next.atMillis() <= cutoff; next = versions.peekFirst()) {
      first = versions.removeFirst();
    }
    versions.addFirst(first);
    return first.atMillis() <= cutoff ? first.payload() : null;
  }
}
