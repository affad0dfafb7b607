package io.github.waitingroom;

import io.github.waitingroom.allocation.Tally;

/**
 * What this node last counted for one place.
 *
 * @param state what the holder was when last counted
 * @param at for an active holder: the slice it is counted in; for a waiting one: its last poll
 * @param admittedAt when this node admitted the holder from the line, or 0
 * @param due for a waiting holder: the second by which it should poll again (its last poll
 *     plus the refresh it was told, and a grace); 0 otherwise. See {@link Line#expect}.
 * @param firstSeen when this node first saw the place: a waiting ticket is let in only by a node
 *     that saw it before the tally its plan was made from (a copy turning up elsewhere is not,
 *     and has a tally to wait for, by which time the admission of the original is known)
 * @param movedFrom for an active holder this node moved into slice {@code at} by a check-in: the
 *     slice it moved it from; {@link #NOT_MOVED} otherwise (admitted here, or the move was taken
 *     back as a duplicate, see {@link NodeState#dropDuplicates})
 */
record Seen(State state, long at, long admittedAt, long due, long firstSeen, long movedFrom, Polls polls) {
  Seen(State state, long at, long admittedAt, long due, long firstSeen, long movedFrom) {
    this(state, at, admittedAt, due, firstSeen, movedFrom, Polls.NONE);
  }

  Seen(State state, long at, long admittedAt, long due, long firstSeen) {
    this(state, at, admittedAt, due, firstSeen, NOT_MOVED);
  }

  /** Until when this node's current poll of a waiting holder counts in the line (see {@link Polls}). */
  long currentDue() {
    return Math.max(due, polls.keepDue);
  }

  /** Until when a poll of this waiting holder counts here in the line. */
  long countsUntil() {
    return Math.max(currentDue(), polls.earlierDue);
  }

  /**
   * How this node counts a waiting holder in the room's line, so that a holder whose polls go to
   * several nodes (no session affinity) counts once in the sum of every node's line, not once per
   * node it polled lately.
   *
   * <p>Each poll counts the holder on the node it reached until the poll's due. A poll whose
   * ticket shows that the poll before reached another node (whose due the ticket carries) is
   * {@link Tally#shared shared} until that due: the other node still counts the holder then.
   * Summed over the nodes, the counts of a chain of polls telescope to one while the last poll is
   * due; parallel requests, replays and copies of a ticket only add polls that count at least zero,
   * so a holder who keeps polling never counts less than once. (If the node of the poll before
   * went silent, its counts are gone: then the room shares nothing, see {@link
   * Tally#sharedUnknown}.)
   *
   * <p>A node keeps two polls per holder: its current one (due at {@link Seen#due} or, when it
   * extends a poll of its own that was due later, at {@code keepDue}; shared until {@code
   * sharedUntil}) and an earlier one that another node's poll came after ({@code earlierDue},
   * {@code earlierShared}). Should a third be due at once, the earlier two merge into one that
   * counts for as long as either and is shared only while both are: never less than they did.
   *
   * <p>{@code keepDue} is for another node that may count the holder as shared until the due of
   * that earlier poll (a parallel request carried its ticket there). A node alone in the room has
   * no such other node: its count ends at the due of the holder's last poll, so a holder near the
   * front who gives up after polling far back in the line (at the room's refresh interval) leaves
   * the line two of its last intervals later, not two of its earlier ones.
   */
  record Polls(long keepDue, long sharedUntil, long earlierDue, long earlierShared) {
    static final Polls NONE = new Polls(0, 0, 0, 0);

    /**
     * The polls of a holder counted here after its poll at {@code now}, with a ticket from the poll
     * before, on a node that is {@code alone} in the room or not.
     */
    Polls next(Seen prev, long ticketPoll, long ticketDue, long now, long deadBefore, boolean alone) {
      long due = prev.currentDue();
      if (prev.at == ticketPoll) {
        // The poll before was this node's own (or one of the same second elsewhere, which then
        // simply counts twice for a while): this one extends it.
        return new Polls(alone ? 0 : due, sharedUntil, earlierDue, earlierShared);
      }
      boolean current = due >= deadBefore;
      boolean earlier = earlierDue >= deadBefore;
      if (current && earlier) {
        return new Polls(0, ticketDue, Math.max(due, earlierDue), Math.min(sharedUntil, earlierShared));
      }
      return current ? new Polls(0, ticketDue, due, sharedUntil)
          : earlier ? new Polls(0, ticketDue, earlierDue, earlierShared)
          : new Polls(0, ticketDue, 0, 0);
    }
  }

  /** {@link Seen#movedFrom} of a holder this node did not move by a check-in. */
  static final long NOT_MOVED = Long.MIN_VALUE;

  /** The state of a place on this node. */
  enum State { WAITING, ADMITTING, ACTIVE }
}
