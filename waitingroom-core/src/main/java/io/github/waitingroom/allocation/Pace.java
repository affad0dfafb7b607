package io.github.waitingroom.allocation;

/**
 * How fast the line moves: what {@link Plan#estimate} divides by (see {@link Plan#pace}).
 *
 * @param giveUps the share of the line's holders who give up per second
 * @param perSecond the line's pace: admissions per second
 * @param byActive admissions the total limit allows before anyone leaves (may be negative)
 * @param leaving how users leave: the total limit's pace once {@code byActive} is used
 */
public record Pace(double giveUps, double perSecond, long byActive, Leaving leaving) {
  /**
   * Seconds until {@code n} more admissions: the later of the line's pace and the room to let
   * them in, or -1 when the total limit must wait for users to leave and when they leave is not
   * known yet.
   */
  public double secondsFor(long n) {
    double t = n / perSecond;
    if (n > byActive) {
      double left = leaving.secondsFor(n - Math.max(0, byActive));
      if (left < 0) {
        return -1;
      }
      t = Math.max(t, left);
    }
    return t;
  }

  /**
   * How users leave the room: soon, those who already stopped; later, at the pace of a full room.
   *
   * @param soon users who stopped and whose sessions end within {@code withinSeconds}
   * @param withinSeconds the horizon of {@code soon}
   * @param perSecond how many users a second leave the room when it is full at its limit; 0 or
   *     less while not known
   */
  public record Leaving(long soon, long withinSeconds, double perSecond) {
    /** Nobody known to leave, at no known pace. */
    public static final Leaving UNKNOWN = new Leaving(0, 0, 0);

    /**
     * Seconds until {@code n} users have left: the first {@code soon} spread evenly over {@code
     * withinSeconds}, the rest at {@code perSecond} after them; -1 when not known.
     */
    public double secondsFor(long n) {
      if (n <= soon && soon > 0) {
        return (double) n * withinSeconds / soon;
      }
      if (!(perSecond > 0)) {
        return -1;
      }
      return soon > 0 ? withinSeconds + (n - soon) / perSecond : n / perSecond;
    }
  }
}
