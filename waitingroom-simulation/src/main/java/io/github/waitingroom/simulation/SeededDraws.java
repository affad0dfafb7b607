package io.github.waitingroom.simulation;

/**
 * Random numbers for a client that do not depend on the order of events: the number for (client,
 * salt, step) is a hash of the seed and the three, so a client draws the same times in every run of
 * one seed, whatever the room's limits do to the order in which clients act. (A shared generator
 * would hand each client different numbers as soon as one request moved.)
 */
public final class SeededDraws {
  private final long seed;

  /** The draws of the run with {@code seed}. */
  public SeededDraws(long seed) {
    this.seed = seed;
  }

  /** A uniform number in [0, 1) for ({@code client}, {@code salt}, {@code step}). */
  public double unit(int client, int salt, int step) {
    long h = mix(seed ^ mix(((long) client << 32) ^ ((long) salt << 24) ^ step));
    return (h >>> 11) * 0x1.0p-53;
  }

  /** An exponential time of mean {@code meanMillis} for ({@code client}, {@code salt}), step 0. */
  public long exponential(long meanMillis, int client, int salt) {
    return (long) (-meanMillis * Math.log(1 - unit(client, salt, 0)));
  }

  /** SplitMix64's finalizer. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
    return z ^ (z >>> 31);
  }
}
