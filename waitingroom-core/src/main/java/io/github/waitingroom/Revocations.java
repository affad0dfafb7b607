package io.github.waitingroom;

import io.github.waitingroom.allocation.Tally;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The places a node must not let pass although their tickets open: sessions the application ended
 * (here, or on a node this one heard of) and places other nodes admitted from the line lately.
 * Read lock-free by request threads (one volatile read and a binary search each), changed by the
 * application's {@code revoke} calls and by the sync thread. Part of {@link NodeState}.
 */
final class Revocations {
  /**
   * Sessions ended by the application, on this node or another: place to the last second its
   * ticket could still pass, after which it is forgotten.
   */
  private final ConcurrentHashMap<Long, Long> revoked = new ConcurrentHashMap<>();
  /**
   * The places of {@link #revoked}, sorted, for the request path: read with one volatile read and
   * a binary search, without boxing; replaced (copy on write) by whoever changes the map.
   */
  private final AtomicReference<long[]> revokedPlaces = new AtomicReference<>(new long[0]);
  /**
   * The sessions this node ended itself: place to the slice the user was counted in, listed in its
   * tallies while that slice counts (see {@link Tally#revokedPlaces()}).
   */
  private final ConcurrentHashMap<Long, Long> revokedHere = new ConcurrentHashMap<>();
  /**
   * Places other nodes admitted from the line lately (see {@link
   * io.github.waitingroom.coordinator.Coordinator#latestAdmitted}), sorted; replaced by the sync
   * thread after every exchange.
   */
  private volatile long[] admittedElsewhere = new long[0];

  /** Whether the application ended the session of this place (here, or on a node this one heard of). */
  boolean revoked(long place) {
    long[] places = Objects.requireNonNull(revokedPlaces.get());
    return places.length > 0 && Arrays.binarySearch(places, place) >= 0;
  }

  /**
   * Ends a session here: its ticket is refused until {@code until}, and this node's tallies list it
   * while {@code slice}, the slice it is counted in, still counts.
   *
   * @return whether this call ended it (false: it was ended before)
   */
  boolean revoke(long place, long slice, long until) {
    if (revoked.putIfAbsent(place, until) != null) {
      return false;
    }
    revokedHere.put(place, slice);
    publish();
    return true;
  }

  /** Learns the sessions other nodes ended, from the tallies of a settled epoch, refused until {@code until}. */
  void learn(List<Tally> tallies, long until) {
    boolean learned = false;
    for (Tally t : tallies) {
      for (long place : t.revokedPlaces()) {
        learned |= revoked.putIfAbsent(place, until) == null;
      }
    }
    if (learned) {
      publish();
    }
  }

  /** The places of the sessions this node ended whose slice still counts from {@code firstActive} on. */
  long[] endedHere(long firstActive) {
    return revokedHere.entrySet().stream().filter(e -> e.getValue() >= firstActive)
        .mapToLong(Map.Entry::getKey).toArray();
  }

  /** Takes the places other nodes list as admitted in their latest tallies. */
  void learnAdmitted(long[] places) {
    admittedElsewhere = places;
  }

  /**
   * Whether another node listed this place as admitted in its latest tally: a waiting ticket with
   * it is a copy of one that got in.
   */
  boolean admittedElsewhere(long place) {
    return Arrays.binarySearch(admittedElsewhere, place) >= 0;
  }

  /** Forgets the sessions whose tickets can no longer pass at {@code now}. */
  void prune(long now) {
    if (revoked.values().removeIf(until -> until < now)) {
      revokedHere.keySet().retainAll(revoked.keySet());
      publish();
    }
  }

  /** Puts the places of {@link #revoked} in {@link #revokedPlaces}, sorted (however many threads change the map). */
  private void publish() {
    long[] now;
    long[] next;
    do {
      now = revokedPlaces.get();
      next = revoked.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
    } while (!revokedPlaces.compareAndSet(now, next));
  }
}
