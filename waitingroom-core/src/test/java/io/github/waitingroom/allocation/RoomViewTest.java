package io.github.waitingroom.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.coordinator.Report;
import java.time.Duration;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RoomViewTest {
  // 10 s slices, 20 s refresh, 70 s waiting timeout: polling window 30 s, stale span 40 s.
  private final RoomConfig config =
      RoomConfig.builder("view").totalActiveUsers(100).newUsersPerMinute(60).sessionDuration(Duration.ofMinutes(5)).build();
  private final long now = 1_800_000_000L; // a slice and bucket boundary

  private RoomView view(long polling, long stale, long admittedLastTwoMinutes) {
    long bucket = now - 120;
    NavigableMap<Long, Long> slices = new TreeMap<>();
    slices.put(now - 10, polling); // polled 10 s ago
    if (stale > 0) {
      slices.put(now - 50, stale); // missed a poll, still holds a place
    }
    NavigableMap<Long, NavigableMap<Long, Long>> waiting = new TreeMap<>(Map.of(bucket, slices));
    NavigableMap<Long, Long> admitted = new TreeMap<>(Map.of(now - 120, admittedLastTwoMinutes));
    Report r = new Report("eu", now, 1, new TreeMap<>(), admitted, new TreeMap<>(), waiting);
    return RoomView.of(config, now, Map.of("eu", r));
  }

  @Test
  void withoutAbandonmentTheWaitIsUsersAheadOverTheRate() {
    RoomView v = view(200, 0, 120); // 60 a minute
    assertThat(v.admissionsPerMinute()).isEqualTo(60.0);
    assertThat(v.usersAhead(now)).isEqualTo(200);
    assertThat(v.estimatedWaitSeconds(now)).isEqualTo(200);
  }

  @Test
  void usersWhoGiveUpShortenTheWaitOfThoseBehind() {
    RoomView v = view(200, 40, 120); // 40 stale over a 40 s span: one gives up a second
    assertThat(v.waitingUsers()).isEqualTo(240);
    assertThat(v.usersAhead(now)).isEqualTo(200);
    // dP/dt = -1 - P/200 from P = 200: t = 200 ln(1 + 200/200) = 138.6 s
    assertThat(v.estimatedWaitSeconds(now)).isEqualTo(139);
    assertThat(v.usersAhead(now - 120)).isEqualTo(100);
  }

  @Test
  void theWaitIsUnknownWithoutRecentAdmissions() {
    assertThat(view(200, 40, 0).estimatedWaitSeconds(now)).isEqualTo(-1);
  }
}
