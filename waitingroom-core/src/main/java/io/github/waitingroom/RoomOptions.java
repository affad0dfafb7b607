package io.github.waitingroom;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.allocation.SlotAllocator;
import io.github.waitingroom.coordinator.Coordinator;
import io.github.waitingroom.coordinator.InMemoryTransport;
import io.github.waitingroom.coordinator.Transport;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link WaitingRoom.Builder} has been told: every setting of a room on one node, with its
 * default, and the checks of those that have bounds (the builder's setters document each). Read
 * once by {@link RoomParts} when the room is built.
 */
final class RoomOptions {
  final RoomConfig config;
  final KeysetHandle keys;
  InstantSource clock = InstantSource.system();
  @Nullable Transport transport;
  String dataCenter = "local";
  String nodeId = "node";
  Duration syncInterval = Duration.ofSeconds(1);
  long storeBudget = WaitingRoom.Builder.DEFAULT_STORE_BUDGET;
  FailurePolicy failurePolicy = FailurePolicy.FAIL_CLOSED;
  boolean backgroundSync = true;
  int maxRequestsPerTicket = 50;
  /**
   * Each draw from the calling thread's own {@link ThreadLocalRandom}. Not {@code
   * ThreadLocalRandom.current()} itself: that instance draws from whichever thread calls it, and a
   * thread that never called {@code current()} (a request thread, the sync thread) draws a sequence
   * fixed by its thread id, the same in every JVM, so two nodes gave the same places to their
   * first newcomers and took them for one ticket.
   */
  static final RandomGenerator THREAD_LOCAL = () -> ThreadLocalRandom.current().nextLong();

  RandomGenerator random = THREAD_LOCAL;
  SlotAllocator allocator = SlotAllocator.PLAN;
  Coordinator.Factory coordinators = Coordinator.STORE;

  RoomOptions(RoomConfig config, KeysetHandle keys) {
    this.config = Objects.requireNonNull(config, "config");
    this.keys = Objects.requireNonNull(keys, "keys");
  }

  /** The transport the room was given, or a private in-memory one on the room's clock. */
  Transport transport() {
    Transport t = transport;
    return t != null ? t : new InMemoryTransport(clock);
  }

  /** See {@link WaitingRoom.Builder#syncInterval}: 40 ms to 1 minute. */
  static Duration checkSyncInterval(Duration interval) {
    Objects.requireNonNull(interval, "syncInterval");
    if (interval.compareTo(Duration.ofMillis(40)) < 0 || interval.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException(
          "syncInterval must be between 40 ms and 1 minute but was " + interval);
    }
    return interval;
  }

  /** See {@link WaitingRoom.Builder#storeBudget}: at least 1. */
  static long checkStoreBudget(long reportsPerSecond) {
    if (reportsPerSecond < 1) {
      throw new IllegalArgumentException("storeBudget must be at least 1 report a second but was " + reportsPerSecond);
    }
    return reportsPerSecond;
  }

  /** See {@link WaitingRoom.Builder#maxRequestsPerTicket}: not negative. */
  static int checkMaxRequestsPerTicket(int perSecond) {
    if (perSecond < 0) {
      throw new IllegalArgumentException("maxRequestsPerTicket must not be negative but was " + perSecond);
    }
    return perSecond;
  }
}
