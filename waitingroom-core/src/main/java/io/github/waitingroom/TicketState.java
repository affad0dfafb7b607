package io.github.waitingroom;

/**
 * A {@link Ticket} as the room keeps it: what the cookie proves, and what the room wrote into it
 * about the holder's polls (the number of people ahead it was shown, and until when a node counts
 * it in its line), which never decides whether anyone is admitted, only how the line
 * counts and what the holder is told. Immutable.
 *
 * <p>All times are epoch seconds of the room's clock (the store's clock, which every answer of the
 * transport carries: see {@link io.github.waitingroom.coordinator.Transport#CLOCK_SCOPE}).
 *
 * @param state whether the holder is still waiting or has been admitted
 * @param place the holder's place in line, fixed at first arrival and never changed: the arrival
 *     second in the high 32 bits and random tie-break bits in the low 32. It orders users inside a
 *     second, and it is also the ticket's id: a node counts one place once, however many requests,
 *     tabs, retries or replays carry it
 * @param acceptedAt when the holder was admitted, or 0 while waiting
 * @param lastCheckIn when the holder was last counted: the last counted request of an active
 *     user, the last poll of a waiting one
 * @param lastPoll when a waiting holder last polled (for an active one: its last poll before
 *     admission)
 * @param aheadShown the number of people ahead the holder was last shown, or {@link #NOT_SHOWN}:
 *     the number shown never grows (people who arrived earlier may reach the room's tallies a
 *     moment after the holder was first told where they stand)
 * @param due for a waiting holder: the second by which it must poll again to stay in the line of
 *     the node it polled last (its poll plus twice the refresh it was told, and two seconds); 0
 *     for none
 */
record TicketState(
    State state, long place, long acceptedAt, long lastCheckIn, long lastPoll, long aheadShown, long due)
    implements Ticket {

  /** {@link #aheadShown} of a ticket whose holder was never shown a number. */
  public static final long NOT_SHOWN = 0xFFFF_FFFFL;

  /** A ticket whose holder was never shown a number of people ahead and is counted in no line. */
  TicketState(State state, long place, long acceptedAt, long lastCheckIn, long lastPoll) {
    this(state, place, acceptedAt, lastCheckIn, lastPoll, NOT_SHOWN, 0);
  }

  /** A new waiting ticket for a user who arrived at {@code now} with the given place. */
  public static TicketState waiting(long place, long now) {
    return new TicketState(State.WAITING, place, 0, now, now);
  }

  /** This ticket admitted at {@code now}. */
  public TicketState admit(long now) {
    long at = Math.max(now, lastCheckIn);
    return new TicketState(State.ACTIVE, place, at, at, lastPoll, aheadShown, 0);
  }

  /**
   * This ticket checked in at {@code now}. Times never move backwards: a node whose clock is
   * behind the one that wrote the ticket keeps the later time, so skew never makes a ticket
   * inconsistent.
   */
  public TicketState checkIn(long now) {
    return new TicketState(state, place, acceptedAt, Math.max(now, lastCheckIn), lastPoll, aheadShown, due);
  }

  /** This waiting ticket polled at {@code now} (and so also checked in). */
  public TicketState poll(long now) {
    long at = Math.max(now, lastCheckIn);
    return new TicketState(state, place, acceptedAt, at, at, aheadShown, due);
  }

  /** This ticket with the number of people ahead it was shown. */
  public TicketState shown(long ahead) {
    return new TicketState(state, place, acceptedAt, lastCheckIn, lastPoll, Math.min(ahead, NOT_SHOWN), due);
  }

  /** This waiting ticket counted in the line of the node it polls until {@code newDue}. */
  public TicketState countedUntil(long newDue) {
    return new TicketState(state, place, acceptedAt, lastCheckIn, lastPoll, aheadShown, newDue);
  }

  /**
   * The pace of a holder polling at {@code now} that keeps a slower one than it was told (a
   * browser runs a background tab's timers once a minute; an API client polls on its own timer):
   * the gap since its poll before, when that gap is more than half the window its last answer
   * gave it (the window is twice the interval it was told and two seconds, or its own slow pace
   * and the interval told); 0 for a holder on the pace it was told. A holder that polled as told
   * is expected to poll as told again, so one that gives up leaves the line after two of the
   * (short) intervals it was last told, not after two of its earlier, longer ones.
   */
  long slowPace(long now) {
    long sincePoll = now - lastPoll;
    return 2 * sincePoll > due - lastPoll ? sincePoll : 0;
  }

  /**
   * The last second a waiting ticket keeps its place: {@code waitingTimeout} after the line stopped
   * counting its holder (its due: two of the intervals it was told and two seconds after its last
   * poll, see {@code Line#expect}), or after its last poll for a ticket that carries no due. A tab
   * frozen right after a poll (or between two) is silent no longer than the room waits for it:
   * its place is kept for the timeout from the moment the room stopped expecting it, not from the
   * poll before, so a silence of the whole timeout keeps it.
   */
  long keptUntil(long waitingTimeout) {
    return Math.max(lastPoll, due) + waitingTimeout - 1;
  }

  /** The ticket as the room keeps it: {@code ticket} itself, or its parts with no poll history. */
  static TicketState of(Ticket ticket) {
    return ticket instanceof TicketState t ? t
        : new TicketState(ticket.state(), ticket.place(), ticket.acceptedAt(), ticket.lastCheckIn(), ticket.lastCheckIn());
  }
}
