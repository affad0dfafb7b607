package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RoomConfigTest {
  private RoomConfig.Builder valid() {
    return RoomConfig.builder("shop").totalActiveUsers(100).newUsersPerMinute(50).sessionDuration(Duration.ofMinutes(5));
  }

  @Test
  void fillsDocumentedDefaults() {
    RoomConfig c = valid().build();
    assertThat(c.bucketWidth()).isEqualTo(Duration.ofMinutes(1));
    assertThat(c.sliceWidth()).isEqualTo(Duration.ofSeconds(1));
    assertThat(c.refreshInterval()).isEqualTo(Duration.ofSeconds(20));
    assertThat(c.waitingTimeout()).as("ten minutes: a hidden tab or a phone away keeps its place").isEqualTo(Duration.ofMinutes(10));
    assertThat(valid().refreshInterval(Duration.ofMinutes(5)).build().waitingTimeout())
        .as("at least three refresh intervals and a slice").isEqualTo(Duration.ofSeconds(901));
  }

  @Test
  void toBuilderKeepsEverySettingAndAGivenSliceStays() {
    RoomConfig c = valid().build().toBuilder().build();
    assertThat(c).isEqualTo(valid().build());
    assertThat(valid().build().toBuilder().totalActiveUsers(70).build().totalActiveUsers()).isEqualTo(70);
    RoomConfig wide = valid().sliceWidth(Duration.ofSeconds(10)).build();
    assertThat(wide.toBuilder().build().sliceWidth()).isEqualTo(Duration.ofSeconds(10));
    assertThat(wide.waitingTimeout()).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void rejectsBadValuesNamingTheSettingAndTheValue() {
    assertThatThrownBy(() -> valid().totalActiveUsers(0)).hasMessageContaining("already set");
    assertThatThrownBy(() -> RoomConfig.builder("shop").totalActiveUsers(-3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("totalActiveUsers must be positive but was -3");
    assertThatThrownBy(() -> RoomConfig.builder("shop").newUsersPerMinute(0))
        .hasMessage("newUsersPerMinute must be positive but was 0");
    assertThatThrownBy(() -> RoomConfig.builder("shop").sessionDuration(Duration.ofMillis(1500)))
        .hasMessage("sessionDuration must be a whole number of seconds but was PT1.5S");
    assertThatThrownBy(() -> RoomConfig.builder("shop").sessionDuration(Duration.ofDays(2)))
        .hasMessage("sessionDuration must be at most PT24H but was PT48H");
    assertThatThrownBy(() -> RoomConfig.builder("shop").refreshInterval(Duration.ZERO))
        .hasMessage("refreshInterval must be positive but was PT0S");
    assertThatThrownBy(() -> RoomConfig.builder("bad room!"))
        .hasMessageContaining("roomId")
        .hasMessageContaining("'bad room!'");
    assertThatThrownBy(
            () -> RoomConfig.builder("shop").totalActiveUsers(10).newUsersPerMinute(11).sessionDuration(Duration.ofMinutes(1)).build())
        .hasMessage("newUsersPerMinute (11) must not exceed totalActiveUsers (10)");
    assertThatThrownBy(() -> valid().bucketWidth(Duration.ofSeconds(45)).sliceWidth(Duration.ofSeconds(10)).build())
        .hasMessageContaining("bucketWidth (PT45S) must be a whole multiple of sliceWidth (PT10S)");
    assertThatThrownBy(() -> valid().waitingTimeout(Duration.ofSeconds(21)).build())
        .hasMessageContaining("waitingTimeout (PT21S) must exceed refreshInterval + sliceWidth (PT21S)");
    assertThatThrownBy(() -> valid().sliceWidth(Duration.ofSeconds(10)).waitingTimeout(Duration.ofSeconds(25)).build())
        .hasMessageContaining("waitingTimeout (PT25S) must exceed refreshInterval + sliceWidth (PT30S)");
    assertThatThrownBy(() -> RoomConfig.builder("shop").totalActiveUsers(5).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("newUsersPerMinute is required for room 'shop'");
  }

  @Test
  void aSessionCountsForItsLengthInWholeSecondsByDefault() {
    RoomConfig c = valid().build(); // 1 s slices, 300 s sessions
    // The last request in second 999_705 (any millisecond of it): counted through second
    // 1_000_005, the second its 300 s end in, and not a second longer.
    assertThat(c.firstActiveSlice(1_000_005)).isEqualTo(999_705);
    assertThat(c.firstActiveSlice(1_000_006)).isEqualTo(999_706);
  }

  @Test
  void windowsRoundUpToWholeSlices() {
    RoomConfig c = valid().sliceWidth(Duration.ofSeconds(10)).build(); // 10 s slices, 300 s sessions
    long now = 1_000_005;
    // A check-in at 999_700 (slice 999_700) expires at 1_000_000..1_000_010: still counted at 1_000_005.
    assertThat(c.firstActiveSlice(now)).isEqualTo(999_700);
    assertThat(c.firstActiveSlice(1_000_010)).isEqualTo(999_710);
  }
}
