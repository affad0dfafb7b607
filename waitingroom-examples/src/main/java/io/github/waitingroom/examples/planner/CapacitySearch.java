package io.github.waitingroom.examples.planner;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Searches the smallest limits whose run keeps the 90th percentile wait ({@link
 * PlanResult#searchWaitP90()}) at or under a target: a bisection over {@code totalActiveUsers}
 * (sped up by interpolation), one run per probe, all of one seed.
 *
 * <p>{@code newUsersPerMinute} follows the rule of {@link Vary}: scaled with {@code
 * totalActiveUsers} in the ratio of the starting limits (rounded, at least 1), or kept as given
 * (but never above {@code totalActiveUsers}, which the room does not allow).
 *
 * <p>The search starts at the given limits: if they meet the target it halves {@code
 * totalActiveUsers} until a run misses it, otherwise it doubles until one meets it (up to a
 * ceiling); then it narrows the gap between the two, at the point where a straight line between
 * their waits crosses the target, or halfway when that point keeps landing on one side. It ends
 * with two neighbours, {@code T} that meets the
 * target and {@code T - 1} that misses it, both actually run. It assumes that waits do not grow
 * with the limits; where they are not monotonic (small rooms, discrete effects), the boundary it
 * finds is a real one but there may be a smaller {@code T} that meets the target too.
 */
public final class CapacitySearch {
  /** What the search varies besides {@code totalActiveUsers}. */
  public enum Vary {
    /** {@code newUsersPerMinute} scales with {@code totalActiveUsers}, in the ratio of the starting limits. */
    BOTH,
    /** {@code newUsersPerMinute} stays as given (capped at {@code totalActiveUsers}). */
    TOTAL
  }

  /**
   * What the search found.
   *
   * @param chosen the run at the smallest limits found that meet the target
   * @param below the run one step below ({@code totalActiveUsers - 1}), which misses it; {@code
   *     null} when the chosen limits are already the smallest possible (1)
   * @param runs every run of the search, in the order they ran
   */
  public record Outcome(PlanResult chosen, @Nullable PlanResult below, List<PlanResult> runs) {}

  /** The target cannot be met within the ceiling. */
  public static final class Unreachable extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient PlanResult last;

    Unreachable(String message, PlanResult last) {
      super(message);
      this.last = last;
    }

    /** The run at the ceiling. */
    public PlanResult last() {
      return last;
    }
  }

  private final PlanSettings settings;
  private final Limits start;
  private final Vary vary;
  private final double targetSeconds;
  private final int maxTotal;
  private final Consumer<PlanResult> progress;
  private final Map<Integer, PlanResult> done = new TreeMap<>();
  private final List<PlanResult> runs = new ArrayList<>();

  private CapacitySearch(
      PlanSettings settings, Limits start, Vary vary, Duration target, int maxTotal, Consumer<PlanResult> progress) {
    this.settings = settings;
    this.start = start;
    this.vary = vary;
    this.targetSeconds = target.getSeconds();
    this.maxTotal = maxTotal;
    this.progress = progress;
  }

  /**
   * Runs the search.
   *
   * @param settings the crowd and the room's other settings
   * @param start the limits to start from; with {@link Vary#BOTH} their ratio is kept
   * @param vary what varies with {@code totalActiveUsers}
   * @param target the 90th percentile wait to stay at or under
   * @param maxTotal the largest {@code totalActiveUsers} to try
   * @param progress told of every run as it ends
   * @throws Unreachable when even {@code maxTotal} misses the target
   */
  public static Outcome search(
      PlanSettings settings, Limits start, Vary vary, Duration target, int maxTotal, Consumer<PlanResult> progress) {
    return new CapacitySearch(settings, start, vary, target, maxTotal, progress).search();
  }

  /** The limits the search runs for a given {@code totalActiveUsers}. */
  public static Limits limitsFor(int total, Limits start, Vary vary) {
    int perMinute =
        switch (vary) {
          case BOTH -> (int) Math.max(1, Math.round((double) total * start.newUsersPerMinute() / start.totalActiveUsers()));
          case TOTAL -> start.newUsersPerMinute();
        };
    return new Limits(total, Math.min(perMinute, total));
  }

  /** Whether a run meets a target of {@code targetSeconds}. */
  public static boolean meets(PlanResult r, Duration target) {
    return r.searchWaitP90() <= target.getSeconds();
  }

  private PlanResult at(int total) {
    PlanResult r = done.get(total);
    if (r == null) {
      r = Simulation.run(settings, limitsFor(total, start, vary));
      done.put(total, r);
      runs.add(r);
      progress.accept(r);
    }
    return r;
  }

  private boolean meets(int total) {
    return at(total).searchWaitP90() <= targetSeconds;
  }

  private Outcome search() {
    int hi = Math.min(start.totalActiveUsers(), maxTotal);
    int lo; // misses the target (0: nothing known to miss it yet)
    if (meets(hi)) {
      lo = 0;
      int t = hi / 2;
      while (t >= 1) {
        if (meets(t)) {
          hi = t;
          t /= 2;
        } else {
          lo = t;
          break;
        }
      }
      if (lo == 0) {
        return new Outcome(at(hi), null, List.copyOf(runs)); // hi == 1
      }
    } else {
      lo = hi;
      while (true) {
        if (hi >= maxTotal) {
          throw new Unreachable("even totalActiveUsers " + hi + " (--max-total) gives a p90 wait of "
              + Durations.formatSeconds(at(hi).searchWaitP90()), at(hi));
        }
        hi = (int) Math.min((long) hi * 2, maxTotal);
        if (meets(hi)) {
          break;
        }
        lo = hi;
      }
    }
    // Between a total that misses (lo) and one that meets (hi): interpolate where the p90 wait
    // crosses the target, but bisect whenever the same end held twice (a curve that bends).
    int keptLo = 0;
    int keptHi = 0;
    while (hi - lo > 1) {
      int mid;
      if (lo >= 1 && keptLo < 2 && keptHi < 2) {
        double waitLo = at(lo).searchWaitP90();
        double waitHi = at(hi).searchWaitP90();
        double x = lo + (waitLo - targetSeconds) / (waitLo - waitHi) * (hi - lo);
        mid = (int) Math.max(lo + 1, Math.min(hi - 1, Math.round(x)));
      } else {
        mid = lo + (hi - lo) / 2;
        keptLo = 0;
        keptHi = 0;
      }
      if (meets(mid)) {
        hi = mid;
        keptLo++;
        keptHi = 0;
      } else {
        lo = mid;
        keptHi++;
        keptLo = 0;
      }
    }
    return new Outcome(at(hi), at(lo), List.copyOf(runs));
  }
}
