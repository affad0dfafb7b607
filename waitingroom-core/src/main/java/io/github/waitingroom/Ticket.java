package io.github.waitingroom;

/**
 * What a visitor carries between requests: their place in line or their admitted session.
 * Immutable. On the wire it is sealed by a {@link TicketCodec}, which binds it to one room.
 *
 * <p>All times are epoch seconds, as seen by the node that last wrote the ticket.
 *
 * @param state whether the holder is still waiting or has been admitted
 * @param bucketId the start (epoch second) of the bucket the holder first arrived in; it fixes
 *     their place in line and never changes
 * @param acceptedAt when the holder was admitted, or 0 while waiting
 * @param lastCheckIn when the holder was last counted: the last request of an active user, the
 *     last poll of a waiting one (rounded to the counter slice in which it was counted)
 * @param lastPoll when a waiting holder was last checked against the budgets; at most once per
 *     refresh interval
 */
public record Ticket(State state, long bucketId, long acceptedAt, long lastCheckIn, long lastPoll) {

  /** The format version written by this release; see {@link TicketCodec}. */
  public static final int FORMAT_VERSION = 1;

  /** Where the holder of a ticket stands. */
  public enum State {
    /** In line, not yet admitted. */
    WAITING,
    /** Admitted: requests pass to the application until the session expires. */
    ACTIVE
  }

  /** A new waiting ticket for a user who arrived at {@code now} into the given bucket. */
  public static Ticket waiting(long bucketId, long now) {
    return new Ticket(State.WAITING, bucketId, 0, now, now);
  }

  /** This ticket admitted at {@code now}. */
  public Ticket admit(long now) {
    return new Ticket(State.ACTIVE, bucketId, now, now, lastPoll);
  }

  /** This ticket with its last check-in moved to {@code now}. */
  public Ticket checkIn(long now) {
    return new Ticket(state, bucketId, acceptedAt, now, lastPoll);
  }

  /** This waiting ticket checked against the budgets (and so also checked in) at {@code now}. */
  public Ticket poll(long now) {
    return new Ticket(state, bucketId, acceptedAt, now, now);
  }

  /** Whether the holder has been admitted. */
  public boolean isActive() {
    return state == State.ACTIVE;
  }
}
