package io.github.waitingroom;

/**
 * What a visitor's cookie proves, in one room: its place in line, and whether and since when it
 * holds an admitted session. Sealed and opened by a {@link TicketCodec}, which binds it to one room
 * (a ticket of one room never opens in another) and refuses any that was not sealed with the room's
 * keys. The room also writes into the sealed value how it has counted the holder's polls; that
 * never decides whether anyone is admitted, and is not part of this interface.
 *
 * <p>All times are epoch seconds of the room's clock (the store's clock, which every answer of the
 * transport carries: see {@link io.github.waitingroom.coordinator.Transport#CLOCK_SCOPE}).
 */
public interface Ticket {

  /** The format version written by this release; see {@link TicketCodec}. */
  int FORMAT_VERSION = 4;

  /** Where the holder of a ticket stands. */
  enum State {
    /** In line, not yet admitted. */
    WAITING,
    /** Admitted: requests pass to the application until the session expires. */
    ACTIVE
  }

  /** Whether the holder is still waiting or has been admitted. */
  State state();

  /**
   * The holder's place in line, fixed at first arrival and never changed: the arrival second in the
   * high 32 bits and random tie-break bits in the low 32. It orders users inside a second, and it is
   * also the ticket's id: a node counts one place once, however many requests, tabs, retries or
   * replays carry it.
   */
  long place();

  /** When the holder was admitted, or 0 while waiting. */
  long acceptedAt();

  /**
   * When the holder was last counted: the last counted request of an active user, the last poll
   * of a waiting one.
   */
  long lastCheckIn();

  /** The second the holder first arrived. */
  default long arrival() {
    return arrivalOf(place());
  }

  /** Whether the holder has been admitted. */
  default boolean isActive() {
    return state() == State.ACTIVE;
  }

  /**
   * An admitted session as a ticket: for an application that seals one itself ({@link
   * TicketCodec#seal}), say to carry a session from one room's front door to another node.
   */
  static Ticket active(long place, long acceptedAt, long lastCheckIn) {
    return new TicketState(State.ACTIVE, place, acceptedAt, lastCheckIn, acceptedAt);
  }

  /** The place of a user arriving at {@code arrivalSecond} with the given tie-break bits. */
  static long place(long arrivalSecond, int tieBreak) {
    return (arrivalSecond << 32) | (tieBreak & 0xFFFF_FFFFL);
  }

  /**
   * The share of the holders of its arrival second that a place comes after (0 to 1): the line
   * serves a second in place order, and the tie-break bits are drawn uniformly.
   */
  static double shareOfSecondAhead(long place) {
    return (place & 0xFFFF_FFFFL) / 4_294_967_296.0;
  }

  /** The arrival second of a place. */
  static long arrivalOf(long place) {
    return place >>> 32;
  }
}
