package io.github.waitingroom.examples.planner;

/**
 * The room's two limits, the ones the planner varies.
 *
 * @param totalActiveUsers how many users may be active at once
 * @param newUsersPerMinute how many users may be admitted in any sliding minute (at most {@code
 *     totalActiveUsers}, as the room requires)
 */
public record Limits(int totalActiveUsers, int newUsersPerMinute) {
  /** Checks the limits as {@link io.github.waitingroom.RoomConfig} will. */
  public Limits {
    if (totalActiveUsers < 1 || newUsersPerMinute < 1) {
      throw new IllegalArgumentException(
          "limits must be positive but were " + totalActiveUsers + " and " + newUsersPerMinute);
    }
    if (newUsersPerMinute > totalActiveUsers) {
      throw new IllegalArgumentException(
          "newUsersPerMinute (" + newUsersPerMinute + ") must not exceed totalActiveUsers (" + totalActiveUsers + ")");
    }
  }

  @Override
  public String toString() {
    return "totalActiveUsers " + totalActiveUsers + ", newUsersPerMinute " + newUsersPerMinute;
  }
}
