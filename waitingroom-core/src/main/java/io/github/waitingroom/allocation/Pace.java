package io.github.waitingroom.allocation;

/**
 * How fast the line moves: what {@link Plan#estimate} divides by (see {@link Plan#pace}). Each limit
 * bounds how soon {@code n} more admissions can happen, and the wait is the later of the two bounds:
 *
 * <ul>
 *   <li><b>the per-minute limit</b> lets in {@code byRate} more now; after that, one more each time
 *       an admission of the last minute turns a minute old (the {@code recent} ones, as {@code
 *       ageing} says), and then {@code perMinute} a minute;
 *   <li><b>the total limit</b> lets in {@code byActive} more now, and then one for each user who
 *       leaves ({@code leaving}).
 * </ul>
 *
 * @param giveUps the share of the line's holders who give up per second
 * @param byRate admissions the per-minute limit allows now (negative when the last minute already
 *     let in more than a lowered limit allows)
 * @param recent admissions within the last minute
 * @param perMinute the per-minute limit
 * @param ageing when the {@code recent} admissions turn a minute old: element i (of 61) is the
 *     share of them that have i seconds from now ({@link #evenly} when not known; not copied)
 * @param byActive admissions the total limit allows before anyone leaves (may be negative)
 * @param leaving how users leave: the total limit's pace once {@code byActive} is used
 */
public record Pace(
    double giveUps, long byRate, long recent, long perMinute, double[] ageing, long byActive, Leaving leaving) {
  /** The last minute's admissions taken as spread evenly over it (see {@link #ageing}): a new array. */
  public static double[] evenly() {
    double[] a = new double[61];
    for (int i = 0; i < a.length; i++) {
      a[i] = i / 60.0;
    }
    return a;
  }

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
      double share = (double) waitFor / recent;
      // The first second by which that share has turned a minute old.
      int i = firstAtLeast(ageing, 1, share);
      double step = ageing[i] - ageing[i - 1];
      return i - 1 + (step > 0 ? Math.min(1, (share - ageing[i - 1]) / step) : 1);
    }
    // Once the last minute's admissions are a minute old: the per-minute limit's pace, or, while it
    // binds, the last minute's (holders who come late for their slots leave some of it unused).
    long pace = byRate < byActive && recent > 0 ? Math.min(recent, perMinute) : perMinute;
    return 60 + (waitFor - Math.max(0, recent)) * 60.0 / Math.max(1, pace);
  }

  /**
   * The first index from {@code from} on whose value is at least {@code v} in {@code a}, which never
   * falls (and may stay flat); its last index when none is.
   */
  static int firstAtLeast(double[] a, int from, double v) {
    int lo = from;
    int hi = a.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] >= v) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return hi;
  }

  /**
   * How users leave the room: soon, those who already stopped; later, the others, each one session
   * after its last request, and then those let in in their place, the same way.
   *
   * @param soon users who stopped and whose sessions end within {@code withinSeconds}
   * @param withinSeconds the horizon of {@code soon}
   * @param perSecond how many users a second leave the room when it is full at its limit; 0 or
   *     less while not known
   * @param stepSeconds the step of {@code departed}
   * @param departed how many users will have left after each step: {@code departed[k]} by {@code k}
   *     steps from now ({@code departed[0]} is 0); empty for none, beyond it at {@code perSecond};
   *     not copied
   */
  public record Leaving(long soon, long withinSeconds, double perSecond, double stepSeconds, double[] departed) {
    /** Nobody known to leave, at no known pace. */
    public static final Leaving UNKNOWN = new Leaving(0, 0, 0);

    /** Users who stopped leave evenly within their horizon, the rest at {@code perSecond} after them. */
    public Leaving(long soon, long withinSeconds, double perSecond) {
      this(soon, withinSeconds, perSecond, 1, new double[0]);
    }

    /** How many steps the departures of a full room are followed before its pace is taken. */
    static final int STEPS = 600;

    /**
     * How a room full at {@code full} users empties, as the room learnt its users (see {@code
     * Turnover}): {@code soon} who stopped leave evenly within {@code withinSeconds}, and so do
     * the {@code unseen} who stopped within the rest of the session (a stop shows only once a
     * user has been idle that long, see {@code Turnover}), after them, evenly until a session from
     * now; everyone else browses on for an exponential time of mean {@code browseSeconds}
     * (memoryless: however long they browsed already) and leaves one session after their last
     * request; each user who leaves lets in one from the line, who does the same. Nobody still
     * browsing leaves before a session has run, so the full room's pace ({@code full / (browse +
     * session)}, Little's law) comes only once its users' ages have mixed. The departures are
     * followed for {@link #STEPS} steps of a length that covers a session and four mean browsing
     * times; beyond, the full room's pace.
     */
    public static Leaving of(long full, long soon, long withinSeconds, long sessionSeconds, double browseSeconds, double unseen) {
      double perSecond = full / (browseSeconds + sessionSeconds);
      double step = Math.max(1, (sessionSeconds + 4 * browseSeconds) / STEPS);
      double[] gone = new double[STEPS + 1];
      double[] goneBy = new double[STEPS + 1];
      for (int k = 0; k <= STEPS; k++) {
        double x = k * step - sessionSeconds;
        goneBy[k] = x < 0 ? 0 : browseSeconds > 0 ? -Math.expm1(-x / browseSeconds) : 1;
      }
      double[] in = new double[STEPS + 1];
      long notIdle = Math.max(0, full - soon);
      double stoppedUnseen = Math.max(0, Math.min(notIdle, unseen));
      double browsing = notIdle - stoppedUnseen;
      double unseenWithin = Math.max(1, sessionSeconds - withinSeconds);
      for (int k = 1; k <= STEPS; k++) {
        double t = k * step;
        double left = soon * Math.min(1, t / Math.max(1, withinSeconds)) + browsing * goneBy[k]
            + stoppedUnseen * Math.max(0, Math.min(1, (t - withinSeconds) / unseenWithin));
        for (int j = 1; j < k; j++) {
          left += in[j] * goneBy[k - j];
        }
        gone[k] = left;
        in[k] = gone[k] - gone[k - 1];
      }
      return new Leaving(soon, withinSeconds, perSecond, step, gone);
    }

    /**
     * Seconds until {@code n} users have left: as {@code departed} says, and beyond it at {@code
     * perSecond}; without it, the first {@code soon} spread evenly over {@code withinSeconds} and
     * the rest at {@code perSecond} after them; -1 when not known.
     */
    public double secondsFor(long n) {
      if (departed.length > 1) {
        int last = departed.length - 1;
        if (n > departed[last]) {
          return perSecond > 0 ? last * stepSeconds + (n - departed[last]) / perSecond : -1;
        }
        // The first step by which n have left.
        int k = firstAtLeast(departed, 0, n);
        if (k == 0) {
          return 0;
        }
        double share = (n - departed[k - 1]) / Math.max(1e-9, departed[k] - departed[k - 1]);
        return (k - 1 + share) * stepSeconds;
      }
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
