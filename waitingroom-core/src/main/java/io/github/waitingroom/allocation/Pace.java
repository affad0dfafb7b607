package io.github.waitingroom.allocation;

/**
 * How fast the line moves: what {@link Plan#estimate} divides by (see {@link Plan#pace}). Each limit
 * bounds how soon {@code n} more admissions can happen, and the wait is the later of the two bounds:
 *
 * <ul>
 *   <li><b>the per-minute limit</b> lets in {@code byRate} more now; after that, one more each time
 *       an admission of the last minute turns a minute old (the {@code recent} ones, taken as spread
 *       evenly over that minute), and then {@code perMinute} a minute;
 *   <li><b>the total limit</b> lets in {@code byActive} more now, and then one for each user who
 *       leaves ({@code leaving}).
 * </ul>
 *
 * @param giveUps the share of the line's holders who give up per second
 * @param byRate admissions the per-minute limit allows now (negative when the last minute already
 *     let in more than a lowered limit allows)
 * @param recent admissions within the last minute
 * @param perMinute the per-minute limit
 * @param byActive admissions the total limit allows before anyone leaves (may be negative)
 * @param leaving how users leave: the total limit's pace once {@code byActive} is used
 */
public record Pace(double giveUps, long byRate, long recent, long perMinute, long byActive, Leaving leaving) {
  /**
   * Seconds until {@code n} more admissions: the later of what the per-minute limit and the total
   * limit allow, or -1 when the total limit must wait for users to leave and when they leave is not
   * known yet.
   */
  public double secondsFor(long n) {
    double t = byRate(n);
    if (n > byActive) {
      double left = leaving.secondsFor(n - Math.max(0, byActive));
      if (left < 0) {
        return -1;
      }
      t = Math.max(t, left);
    }
    return t;
  }

  /** Seconds until the per-minute limit allows {@code n} more admissions. */
  private double byRate(long n) {
    long waitFor = n - byRate;
    if (waitFor <= 0) {
      return 0;
    }
    if (waitFor <= recent) {
      return waitFor * 60.0 / recent;
    }
    // Once the last minute's admissions are a minute old: the per-minute limit's pace, or, while it
    // binds, the last minute's (holders who come late for their slots leave some of it unused).
    long pace = byRate < byActive && recent > 0 ? Math.min(recent, perMinute) : perMinute;
    return 60 + (waitFor - Math.max(0, recent)) * 60.0 / Math.max(1, pace);
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
