package io.github.waitingroom.http;

import io.github.waitingroom.Decision;

/**
 * The decisions the gate makes up itself, without asking the room, by name instead of nine
 * positional values: a challenge page and the infinite queue. Neither carries a ticket or a wait.
 */
final class Decisions {
  private static final long NO_WAIT = -1;

  private Decisions() {}

  /** A newcomer's challenge: nobody ahead, no wait known, shown again after {@code refreshSeconds}. */
  static Decision challenge(long refreshSeconds, long viewTime) {
    return new Decision(Decision.Outcome.CHALLENGE, null, 0, 0, NO_WAIT, NO_WAIT, NO_WAIT, refreshSeconds, viewTime);
  }

  /** A waiting answer without a ticket: {@code usersAhead} ahead, the wait unknown. */
  static Decision waiting(long usersAhead, long refreshSeconds, long viewTime) {
    return new Decision(Decision.Outcome.WAIT, null, 0, usersAhead, NO_WAIT, NO_WAIT, NO_WAIT, refreshSeconds, viewTime);
  }
}
