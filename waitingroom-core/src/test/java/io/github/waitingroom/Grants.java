package io.github.waitingroom;

import io.github.waitingroom.allocation.Plan;
import io.github.waitingroom.allocation.Tally;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Grants for tests that drive a {@link NodeState} by hand. */
final class Grants {
  private Grants() {}

  /** A plan that served its (empty) line: everyone, newcomers too, is at or below its cutoff. */
  private static final Plan OPEN = Plan.compute(RoomConfig.builder("open").totalActiveUsers(1).newUsersPerMinute(1)
          .sessionDuration(java.time.Duration.ofMinutes(1)).build(),
      0, List.of(Tally.EMPTY), 0, List.of(Tally.EMPTY), 0);

  /** A grant open to everyone, with {@code slots} slots, of a plan whose tally was taken at {@code tallySecond}. */
  static Grant open(long tallySecond, long slots) {
    return of(OPEN, tallySecond, slots);
  }

  /** A grant of {@code plan} with {@code slots} slots. */
  static Grant of(Plan plan, long tallySecond, long slots) {
    return new Grant(plan, tallySecond, new AtomicLong(slots));
  }
}
