package io.github.waitingroom.http;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The places a minute that a node grants for waiting out the challenge penalty alone ({@link
 * Gate.Builder#noScriptPlaces}): at most the node's budget a minute in all, and at most {@value
 * #PER_CLIENT} a minute per {@linkplain ClientAddress client address}, so that one client holding
 * any number of harvested challenges takes one place a minute, not the whole budget, and the
 * others who browse without JavaScript still get theirs.
 *
 * <p>Each count is one atomic word, the minute (low 24 bits) above 40 bits of count, moved by
 * compare-and-set: no lock, no allocation. Clients are counted in {@value #SLOTS_PER_PLACE} words
 * per place of the budget (a power of two, at least {@value #MIN_SLOTS}: 16 KiB at 30 a minute, 8
 * MiB at the most, 10,000; made only when the budget is not 0), by a hash of their address key,
 * the minute and a salt of this node. Two addresses may share a word: a client is then wrongly
 * refused when another took that word's place this minute, and at most the budget's places a
 * minute are taken, so the chance is at most 1 in {@value #SLOTS_PER_PLACE}; the next minute the
 * words are drawn anew.
 */
final class NoScriptBudget {
  /** The places a minute one client address may take. */
  static final int PER_CLIENT = 1;

  /** The words that count clients apart, per place a minute of the node's budget. */
  static final int SLOTS_PER_PLACE = 64;

  /** The fewest words that count clients apart. */
  static final int MIN_SLOTS = 1 << 11;

  private static final long COUNT = 0xFF_FFFF_FFFFL;

  private final int perMinute;
  private final AtomicLong node = new AtomicLong();
  private final AtomicLongArray clients;
  private final long salt = Csp.randomLong();

  /** @param perMinute the node's places a minute, 0 for none */
  NoScriptBudget(int perMinute) {
    this.perMinute = perMinute;
    int slots = Math.max(MIN_SLOTS, Integer.highestOneBit(Math.max(1, perMinute * SLOTS_PER_PLACE - 1)) << 1);
    this.clients = new AtomicLongArray(perMinute > 0 ? slots : 0);
  }

  /** Whether any place is ever granted. */
  boolean on() {
    return perMinute > 0;
  }

  /**
   * Takes one place of this minute for a client: first the client's own (at most {@value
   * #PER_CLIENT}), then the node's; when the node has none left the client's is given back.
   *
   * @param client the client's {@linkplain ClientAddress#key address key}
   * @param now the epoch second
   * @return whether the client gets a place
   */
  boolean take(long client, long now) {
    if (perMinute <= 0) {
      return false;
    }
    long minute = Math.floorDiv(now, 60) & 0xFFFFFF;
    int slot = (int) (mix(client ^ salt ^ minute * 0x9E3779B97F4A7C15L) & (clients.length() - 1));
    if (!take(clients, slot, minute, PER_CLIENT)) {
      return false;
    }
    if (take(node, minute, perMinute)) {
      return true;
    }
    giveBack(slot, minute);
    return false;
  }

  private static boolean take(AtomicLong word, long minute, int max) {
    while (true) {
      long state = word.get();
      long used = state >>> 40 == minute ? state & COUNT : 0;
      if (used >= max) {
        return false;
      }
      if (word.compareAndSet(state, minute << 40 | (used + 1))) {
        return true;
      }
    }
  }

  private static boolean take(AtomicLongArray words, int i, long minute, int max) {
    while (true) {
      long state = words.get(i);
      long used = state >>> 40 == minute ? state & COUNT : 0;
      if (used >= max) {
        return false;
      }
      if (words.compareAndSet(i, state, minute << 40 | (used + 1))) {
        return true;
      }
    }
  }

  private void giveBack(int slot, long minute) {
    while (true) {
      long state = clients.get(slot);
      if (state >>> 40 != minute || (state & COUNT) == 0) {
        return;
      }
      if (clients.compareAndSet(slot, state, state - 1)) {
        return;
      }
    }
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
