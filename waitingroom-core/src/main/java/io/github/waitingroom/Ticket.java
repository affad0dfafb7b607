package io.github.waitingroom;

/**
 * What a visitor carries between requests: their place in line or their admitted session.
 * Immutable. On the wire it is sealed by a {@link TicketCodec}, which binds it to one room.
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
 * @param countedSince for a waiting holder: since when, without a break, some node has counted it
 *     in its line (every poll came before the due the poll before it was given); 0 if unknown
 * @param due for a waiting holder: the second by which it must poll again to stay in the line of
 *     the node it polled last (its poll plus twice the refresh it was told, and two seconds); 0
 *     for none
 */
public record Ticket(
    State state, long place, long acceptedAt, long lastCheckIn, long lastPoll, long aheadShown, long countedSince,
    long due) {

  /** {@link #aheadShown} of a ticket whose holder was never shown a number. */
  public static final long NOT_SHOWN = 0xFFFF_FFFFL;

  /** A ticket whose holder was never shown a number of people ahead and is counted in no line. */
  public Ticket(State state, long place, long acceptedAt, long lastCheckIn, long lastPoll) {
    this(state, place, acceptedAt, lastCheckIn, lastPoll, NOT_SHOWN, 0, 0);
  }

  /** The format version written by this release; see {@link TicketCodec}. */
  public static final int FORMAT_VERSION = 3;

  /** Where the holder of a ticket stands. */
  public enum State {
    /** In line, not yet admitted. */
    WAITING,
    /** Admitted: requests pass to the application until the session expires. */
    ACTIVE
  }

  /** The place of a user arriving at {@code arrivalSecond} with the given tie-break bits. */
  public static long place(long arrivalSecond, int tieBreak) {
    return (arrivalSecond << 32) | (tieBreak & 0xFFFF_FFFFL);
  }

  /**
   * The share of the holders of its arrival second that a place comes after (0 to 1): the line
   * serves a second in place order, and the tie-break bits are drawn uniformly.
   */
  public static double shareOfSecondAhead(long place) {
    return (place & 0xFFFF_FFFFL) / 4_294_967_296.0;
  }

  /** The arrival second of a place. */
  public static long arrivalOf(long place) {
    return place >>> 32;
  }

  /** A new waiting ticket for a user who arrived at {@code now} with the given place. */
  public static Ticket waiting(long place, long now) {
    return new Ticket(State.WAITING, place, 0, now, now);
  }

  /** The second the holder first arrived. */
  public long arrival() {
    return arrivalOf(place);
  }

  /** This ticket admitted at {@code now}. */
  public Ticket admit(long now) {
    long at = Math.max(now, lastCheckIn);
    return new Ticket(State.ACTIVE, place, at, at, lastPoll, aheadShown, 0, 0);
  }

  /**
   * This ticket checked in at {@code now}. Times never move backwards: a node whose clock is
   * behind the one that wrote the ticket keeps the later time, so skew never makes a ticket
   * inconsistent.
   */
  public Ticket checkIn(long now) {
    return new Ticket(state, place, acceptedAt, Math.max(now, lastCheckIn), lastPoll, aheadShown, countedSince, due);
  }

  /** This waiting ticket polled at {@code now} (and so also checked in). */
  public Ticket poll(long now) {
    long at = Math.max(now, lastCheckIn);
    return new Ticket(state, place, acceptedAt, at, at, aheadShown, countedSince, due);
  }

  /** This ticket with the number of people ahead it was shown. */
  public Ticket shown(long ahead) {
    return new Ticket(state, place, acceptedAt, lastCheckIn, lastPoll, Math.min(ahead, NOT_SHOWN), countedSince, due);
  }

  /**
   * This waiting ticket counted in the line of the node it polls at {@code now} until {@code
   * newDue}: the count goes on without a break if it polls by its last due, and starts anew
   * otherwise.
   */
  public Ticket countedUntil(long now, long newDue) {
    long since = countedSince > 0 && now <= due ? countedSince : now;
    return new Ticket(state, place, acceptedAt, lastCheckIn, lastPoll, aheadShown, since, newDue);
  }

  /**
   * Since when some node has counted this waiting holder in its line without a break, as of a poll
   * at {@code now}; {@link Long#MAX_VALUE} if the count broke (it polls after its due) or is
   * unknown. A holder counted since before a tally was in the line of that tally and of every one
   * since.
   */
  public long countedSince(long now) {
    return countedSince > 0 && now <= due ? countedSince : Long.MAX_VALUE;
  }

  /** Whether the holder has been admitted. */
  public boolean isActive() {
    return state == State.ACTIVE;
  }
}
