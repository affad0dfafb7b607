package io.github.waitingroom.http;

import static io.github.waitingroom.testsupport.JsonTree.at;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.AdaptiveLimit;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.testsupport.JsonTree;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The operator data's {@code limits} ({@link OperatorJson}): the limits in force, and under an
 * adaptive limit its settings, whether it scales new users a minute among them, and the new users
 * a minute it leaves in force (at most the limit, or scaled with it).
 */
class OperatorJsonTest {
  private static final KeysetHandle KEYS = TicketKeys.generate();

  @Test
  void aFixedLimitShowsTheSettingsAndNoAdaptiveObject() throws Exception {
    Map<String, Object> limits = limits(config(10, 4, null));
    assertThat(limits).doesNotContainKey("adaptive");
    assertThat(limits).containsEntry("totalActiveUsers", 10L).containsEntry("newUsersPerMinute", 4L);
  }

  @Test
  void anAdaptiveLimitThatScalesNewUsersAMinuteSaysSoAndShowsThemScaled() throws Exception {
    // 100 active users and 30 a minute, clamped to the max of 30 from the start: 30 x 30 / 100 = 9 a minute.
    Map<String, Object> limits =
        limits(config(100, 30, AdaptiveLimit.between(10, 30, Duration.ofMillis(500)).withScaleNewUsersPerMinute(true)));
    assertThat(limits).containsEntry("totalActiveUsers", 30L).containsEntry("newUsersPerMinute", 9L);
    assertThat(at(limits, "adaptive", "scaleNewUsersPerMinute")).isEqualTo(true);
    assertThat(at(limits, "adaptive", "min")).isEqualTo(10L);
    assertThat(at(limits, "adaptive", "max")).isEqualTo(30L);
    assertThat(at(limits, "adaptive", "latencyMillis")).isEqualTo(500L);
    assertThat(at(limits, "adaptive", "startedAt")).isEqualTo(100L);
  }

  @Test
  void anAdaptiveLimitThatDoesNotScaleThemSaysSoAndShowsThemAtMostTheLimit() throws Exception {
    // 5 active users and 20 a minute, clamped to the min of 10 from the start: 20 a minute cut to 10.
    Map<String, Object> limits = limits(config(5, 20, AdaptiveLimit.between(10, 50, Duration.ofSeconds(1))));
    assertThat(limits).containsEntry("totalActiveUsers", 10L).containsEntry("newUsersPerMinute", 10L);
    assertThat(at(limits, "adaptive", "scaleNewUsersPerMinute")).isEqualTo(false);
    // Where the limit has not moved from the settings', their new users a minute are in force.
    limits = limits(config(100, 30, AdaptiveLimit.between(10, 200, Duration.ofSeconds(1))));
    assertThat(limits).containsEntry("totalActiveUsers", 100L).containsEntry("newUsersPerMinute", 30L);
  }

  private static RoomConfig config(int total, int perMinute, @Nullable AdaptiveLimit adaptive) {
    RoomConfig.Builder b =
        RoomConfig.builder("shop").totalActiveUsers(total).newUsersPerMinute(perMinute).sessionDuration(Duration.ofMinutes(1));
    if (adaptive != null) {
      b.adaptiveLimit(adaptive);
    }
    return b.build();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> limits(RoomConfig config) throws Exception {
    try (WaitingRoom room = WaitingRoom.builder(config, KEYS).backgroundSync(false).build()) {
      String json = new String(OperatorJson.write(List.of(room), 0), StandardCharsets.UTF_8);
      return (Map<String, Object>) JsonTree.node(JsonTree.object(json), "rooms", 0, "limits");
    }
  }
}
