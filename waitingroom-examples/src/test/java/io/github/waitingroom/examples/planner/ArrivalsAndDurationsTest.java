package io.github.waitingroom.examples.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArrivalsAndDurationsTest {
  @Test
  void readsAndWritesDurations() {
    assertThat(Durations.parse("90s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(Durations.parse("10m")).isEqualTo(Duration.ofMinutes(10));
    assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Durations.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Durations.parse("2m30s")).isEqualTo(Duration.ofSeconds(150));
    for (String bad : new String[] {"", "10", "5x", "-1m", "m", "1.5m", "10 m"}) {
      assertThatThrownBy(() -> Durations.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + bad + "'");
    }
    assertThat(Durations.formatSeconds(0)).isEqualTo("0s");
    assertThat(Durations.formatSeconds(250.4)).isEqualTo("4m10s");
    assertThat(Durations.formatSeconds(3900)).isEqualTo("1h5m");
    assertThat(Durations.formatSeconds(3600)).isEqualTo("1h");
  }

  @Test
  void shapesGiveTheirTotalsSortedWithinTheirPeriod() {
    long[] step = Arrivals.shaped(Arrivals.Shape.STEP, 100, 0, Duration.ofMinutes(10)).times(1);
    Arrivals odd = Arrivals.shaped(Arrivals.Shape.STEP, 15, 0, Duration.ofSeconds(150));
    assertThat(odd.expectedTotal()).isCloseTo(37.5, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(odd.times(3)).hasSize(odd.count()).hasSize(37);
    assertThat(step).hasSize(1000).isSorted();
    assertThat(step[step.length - 1]).isLessThan(600_000);
    assertThat(Arrivals.shaped(Arrivals.Shape.RAMP, 100, 0, Duration.ofMinutes(10)).times(1)).hasSize(500);
    long[] ramp = Arrivals.shaped(Arrivals.Shape.RAMP, 100, 0, Duration.ofMinutes(10)).times(1);
    assertThat(ramp[250]).isGreaterThan(300_000); // the second half of the time has three quarters of the people
    long[] flash = Arrivals.shaped(Arrivals.Shape.FLASH, 3000, 10, Duration.ofMinutes(30)).times(1);
    assertThat(flash).hasSize(3300);
    assertThat(flash[2999]).isLessThan(60_000);
    assertThat(Arrivals.shaped(Arrivals.Shape.STEP, 100, 0, Duration.ofMinutes(10)).times(2)).isNotEqualTo(step);
    assertThat(Arrivals.shaped(Arrivals.Shape.STEP, 100, 0, Duration.ofMinutes(10)).times(1)).isEqualTo(step);
  }

  @Test
  void readsACsvPerMinuteOrPerSecond(@TempDir Path dir) throws Exception {
    Path csv = dir.resolve("a.csv");
    Files.writeString(csv, "# the sale\nminute,arrivals\n0,10\n1,0\n\n2,30.5\n");
    Arrivals perMinute = Arrivals.fromCsv(csv, Duration.ofMinutes(1));
    assertThat(perMinute.seconds()).isEqualTo(180);
    long[] t = perMinute.times(1);
    assertThat(t).hasSize(40);
    assertThat(t[9]).isLessThan(60_000);
    assertThat(t[10]).isGreaterThanOrEqualTo(120_000);
    Files.writeString(csv, "5\n0\n7\n");
    Arrivals perSecond = Arrivals.fromCsv(csv, Duration.ofSeconds(1));
    assertThat(perSecond.seconds()).isEqualTo(3);
    assertThat(perSecond.times(1)).hasSize(12);
    assertThatThrownBy(() -> Arrivals.fromCsv(dir.resolve("none.csv"), Duration.ofMinutes(1)))
        .isInstanceOf(NoSuchFileException.class);
  }
}
