package io.github.waitingroom;

import org.jspecify.annotations.Nullable;

/**
 * What {@link WaitingRoom#decide} answers for one request: whether it goes to the application,
 * the ticket to set, and what a waiting page shows.
 *
 * @param outcome pass, admit, queue, keep waiting, or (only when the caller asked for it) challenge
 * @param ticket the sealed ticket to set (as a cookie), or {@code null} when the request's own
 *     ticket is still right and nothing needs to be written
 * @param ticketMaxAgeSeconds how long the ticket to set should be kept: for active users the
 *     session duration plus one slice (a ticket is re-issued at most once per slice, so the cookie
 *     outlives the last request by at least the session), for waiting ones the waiting timeout;
 *     0 when {@code ticket} is null
 * @param usersAhead for a waiting user, the estimated number of users ahead of them; 0 otherwise
 * @param waitSeconds for a waiting user, the estimated wait in seconds, or {@code -1} when it is
 *     unknown (nobody has been admitted recently, or the user arrived in a surge that no plan has
 *     counted yet: known a few seconds later); 0 otherwise
 * @param waitLowSeconds the low end (25th percentile) of the estimate's range, -1 when unknown
 * @param waitHighSeconds the high end (75th percentile) of the estimate's range, -1 when unknown
 * @param refreshSeconds after how many seconds a waiting page should ask again: the room's
 *     refresh interval, less when the holder's turn is near
 * @param viewTime when (epoch second) the counts behind the estimate were gathered
 */
public record Decision(
    Outcome outcome,
    @Nullable String ticket,
    long ticketMaxAgeSeconds,
    long usersAhead,
    long waitSeconds,
    long waitLowSeconds,
    long waitHighSeconds,
    long refreshSeconds,
    long viewTime) {

  /** What happens to the request. */
  public enum Outcome {
    /** An active user: the request goes to the application. */
    PASS,
    /** Admitted by this very request (from the line or on arrival): it goes to the application. */
    ADMIT,
    /** A new arrival put in line: answer with the waiting page. */
    QUEUE,
    /** A waiting user whose turn has not come: answer with the waiting page. */
    WAIT,
    /**
     * A newcomer who would be put in line but whom the caller did not let queue yet ({@link
     * WaitingRoom#decide(String, String, boolean)} with {@code mayQueue} false): nothing was
     * counted but the decision, no place given, no ticket to set. Answer with a challenge (a proof
     * of work, a human check) and decide again once it is met.
     */
    CHALLENGE,
    /**
     * The room takes no new users ({@link RoomSettings.QueueingMethod#REJECT}): a newcomer or a
     * waiting user, answered with a static "sold out" page; no ticket to set.
     */
    REJECT
  }

  /** The answer while the room takes no new users; shared, allocation-free. */
  static final Decision REJECTED = new Decision(Outcome.REJECT, null, 0, 0, 0, 0, 0, 0, 0);

  /** The answer to a newcomer not let into the line yet; shared, allocation-free. */
  static final Decision CHALLENGE = new Decision(Outcome.CHALLENGE, null, 0, 0, 0, 0, 0, 0, 0);

  /** An active user's request whose ticket needs no change; shared, allocation-free. */
  static final Decision PASS_UNCHANGED = new Decision(Outcome.PASS, null, 0, 0, 0, 0, 0, 0, 0);

  /**
   * A challenge that the caller answers without asking the room (the HTTP layer's proof of work or
   * human check): no ticket, nobody ahead, the wait unknown.
   *
   * @param refreshSeconds after how many seconds the challenge page asks again
   * @param viewTime when (epoch second) the decision was made
   * @return the decision
   */
  public static Decision challenge(long refreshSeconds, long viewTime) {
    return new Decision(Outcome.CHALLENGE, null, 0, 0, -1, -1, -1, refreshSeconds, viewTime);
  }

  /**
   * A waiting answer that the caller makes up without asking the room (the HTTP layer's infinite
   * queue for a flagged client): no ticket, the wait unknown.
   *
   * @param usersAhead how many users the page says are ahead
   * @param refreshSeconds after how many seconds the waiting page asks again
   * @param viewTime when (epoch second) the counts were gathered
   * @return the decision
   */
  public static Decision waitingWithoutEstimate(long usersAhead, long refreshSeconds, long viewTime) {
    return new Decision(Outcome.WAIT, null, 0, usersAhead, -1, -1, -1, refreshSeconds, viewTime);
  }

  /** Whether the request goes on to the application. */
  public boolean letsThrough() {
    return outcome == Outcome.PASS || outcome == Outcome.ADMIT;
  }

  /** Whether {@link #waitSeconds()} holds an estimate. */
  public boolean waitKnown() {
    return waitSeconds >= 0;
  }

  /** The estimated wait in whole minutes, rounded up, or {@code -1} when unknown. */
  public long waitMinutes() {
    return waitSeconds < 0 ? -1 : (waitSeconds + 59) / 60;
  }
}
