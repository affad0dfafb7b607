package io.github.waitingroom.simulation;

/**
 * Who is really active, from the ground truth of a run: a client the room let through counts as
 * active for one session from that request on, and stops counting when a session has passed
 * without another request let through. The room's own count (rounded to slices, gathered across
 * nodes) is what a run checks against this one.
 *
 * <p>Clients are numbered {@code 0..clients-1}, as the run numbers them.
 */
public final class ActiveUsers {
  private final long sessionMillis;
  private final long[] expiry;
  private final boolean[] counted;
  private final EventQueue expiries;
  private int count;

  /**
   * Counts up to {@code clients} clients whose sessions last {@code sessionMillis}, at times from
   * {@code origin} on (as {@link EventQueue#EventQueue(long)}).
   */
  public ActiveUsers(int clients, long sessionMillis, long origin) {
    if (clients < 0 || clients > EventQueue.MAX_ID + 1) {
      throw new IllegalArgumentException("clients must be in 0.." + (EventQueue.MAX_ID + 1) + " but was " + clients);
    }
    this.sessionMillis = sessionMillis;
    this.expiry = new long[clients];
    this.counted = new boolean[clients];
    this.expiries = new EventQueue(origin);
  }

  /**
   * Client {@code u} was let through at {@code at}: it counts as active for a session from now.
   * Expires the sessions that ran out up to {@code at} first.
   *
   * @return whether the client was not counted just before (a new or revived session)
   */
  public boolean touch(int u, long at) {
    expireUpTo(at);
    boolean fresh = !counted[u];
    if (fresh) {
      counted[u] = true;
      count++;
    }
    expiry[u] = at + sessionMillis;
    expiries.schedule(expiry[u], u);
    return fresh;
  }

  /** Stops counting the clients whose session ran out at or before {@code at}. */
  public void expireUpTo(long at) {
    while (!expiries.isEmpty() && expiries.peekTime() <= at) {
      int u = expiries.poll();
      if (counted[u] && expiry[u] == expiries.time()) {
        counted[u] = false;
        count--;
      }
    }
  }

  /** The clients counted as active (as of the last {@link #touch} or {@link #expireUpTo}). */
  public int count() {
    return count;
  }

  /** When client {@code u}'s session runs out (0 if it was never let through). */
  public long expiry(int u) {
    return expiry[u];
  }

  /** Whether client {@code u} is counted as active. */
  public boolean isCounted(int u) {
    return counted[u];
  }

  @Override
  public String toString() {
    return "ActiveUsers[count=" + count + ", clients=" + counted.length + ", pending=" + expiries.size()
        + ", sessionMillis=" + sessionMillis + "]";
  }
}
