package io.github.waitingroom;

import static io.github.waitingroom.Seen.NOT_MOVED;

import io.github.waitingroom.Seen.Polls;
import io.github.waitingroom.Seen.State;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * This node's line of waiting holders: counts each holder's poll once, notes the pace it keeps and
 * the due that gives it ({@link #expect}); the tally counts it until that due (see {@link
 * Seen.Polls}), within the {@link #pollWindowSeconds() poll window}. Lock-free, shared by all
 * request threads. Part of {@link NodeState}; used by its request paths, its tally and its pruning.
 */
final class Line {
  private final ConcurrentHashMap<Long, Seen> seen;
  /** The configuration in force (see {@link NodeState#config}). */
  private final Supplier<RoomConfig> config;
  /** The second the last tally counted the line as of: polls due before it no longer count. */
  private volatile long asOf = Long.MIN_VALUE;
  /** Whether the last settled epoch counted this node alone in the room (see {@link Polls}). */
  private volatile boolean alone;

  /** Over the places of a {@link NodeState}, under the configuration it has in force. */
  Line(ConcurrentHashMap<Long, Seen> seen, Supplier<RoomConfig> config) {
    this.seen = seen;
    this.config = config;
  }

  /** The second the last tally counted the line as of ({@link Long#MIN_VALUE}: none yet). */
  long asOf() {
    return asOf;
  }

  /** Notes whether the last settled epoch counted this node alone in the room. */
  void countedAlone(boolean alone) {
    this.alone = alone;
  }

  /** Notes that a tally counted the line as of second {@code second}. */
  void tallied(long second) {
    asOf = second;
  }

  /**
   * Counts a waiting ticket's poll at {@code now}: it is in this node's line once. Starts from the
   * place's entry as the caller just read it ({@code prev}, {@code null} for none), so that a poll
   * looks its place up once: a request that changed the entry since loses the compare-and-set, as
   * it would a moment after a fresh read. Returns the entry the poll leaves (the one it wrote, or the one it found), or
   * {@code null} if another request removed it meanwhile.
   */
  @Nullable Seen poll(long place, @Nullable Seen prev, long now, long ticketPoll, long ticketDue) {
    if (prev == null) {
      Seen mine = waiting(now, now, new Polls(0, ticketDue, 0, 0));
      Seen other = seen.putIfAbsent(place, mine);
      return other == null ? mine : other;
    } else if (prev.state() == State.WAITING && prev.at() < now) {
      // Only a waiting entry moves: one being admitted by a parallel request stays as it is.
      Seen next = waiting(now, prev.firstSeen(), prev.polls().next(prev, ticketPoll, ticketDue, now, asOf, alone));
      return seen.replace(place, prev, next) ? next : seen.get(place);
    }
    return prev;
  }

  /** A waiting entry for a poll at {@code now}, due by the end of the poll window. */
  Seen waiting(long now, long firstSeen, Polls polls) {
    return new Seen(State.WAITING, now, 0, now + pollWindowSeconds(), firstSeen, NOT_MOVED, polls);
  }

  /**
   * Notes the pace of a waiting holder polling at {@code now}: it stays in the line while it misses
   * no more than one poll, that is until two of the refresh intervals it was told and two seconds
   * (tickets hold whole seconds). A holder that keeps a slower pace of its own ({@code slowPace}: a
   * browser runs a background tab's timers once a minute, an API client polls on its own timer)
   * stays until one of its own intervals, up to {@link #LONGEST_PACE_SECONDS}, and one told
   * interval and two seconds: a slow client keeps its turn and is let in at its next poll, and one
   * that stops polling leaves the line, with any slot held for it, about one of its intervals later.
   * Starts from the place's entry as this request's poll left it ({@code polled}; {@code null}:
   * look it up), which saves the lookup when nothing has changed it since: a request that did
   * loses the compare-and-set and the entry is read again. Returns that second, the holder's due.
   */
  long expect(long place, @Nullable Seen polled, long now, long refreshSeconds, long slowPace) {
    long told = now + Math.max(2 * refreshSeconds, refreshSeconds + Math.min(slowPace, longestPaceSeconds())) + 2;
    for (Seen prev = polled != null ? polled : seen.get(place); prev != null && prev.state() == State.WAITING && prev.at() == now; prev = seen.get(place)) {
      // Parallel requests of this poll may have been told other intervals: the poll counts here
      // until the latest due any of their tickets carries (another node may share it until then).
      long due = prev.due() == now + pollWindowSeconds() ? told : Math.max(told, prev.due());
      if (prev.due() == due || seen.replace(place, prev,
          new Seen(State.WAITING, now, 0, due, prev.firstSeen(), NOT_MOVED, prev.polls()))) {
        return due;
      }
    }
    return told;
  }

  /**
   * The slowest pace the line counts a waiting holder at (see {@link #expect}): once a minute, the
   * pace browsers keep for a tab in the background, or the room's refresh interval if that is
   * longer. A holder that polls slower than this (a frozen tab, a phone that switched apps) leaves
   * the line between polls: it keeps its place (its ticket) and is counted again when it comes
   * back, but no slot waits for it meanwhile.
   */
  static final long LONGEST_PACE_SECONDS = 60;

  private long longestPaceSeconds() {
    return longestPaceSeconds(config.get());
  }

  /** The slowest pace of its own a holder is counted at under {@code config}: see {@link #expect}. */
  static long longestPaceSeconds(RoomConfig config) {
    return Math.max(LONGEST_PACE_SECONDS, config.refreshSeconds());
  }

  /**
   * How recently a waiting user must have polled to count in the line: the slowest pace it is
   * counted at, the room's refresh interval and two seconds (the longest due {@link #expect} gives);
   * its due is the tighter bound. A user who missed one poll keeps its turn; one whose requests go
   * to several nodes counts on the few it polled lately, not on every node it ever saw.
   */
  long pollWindowSeconds() {
    return pollWindowSeconds(config.get());
  }

  /** See {@link #pollWindowSeconds()}, under {@code config}. */
  static long pollWindowSeconds(RoomConfig config) {
    return longestPaceSeconds(config) + config.refreshSeconds() + 2;
  }

}
