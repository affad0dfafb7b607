package io.github.waitingroom.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How a schedule of eras numbers time, and which eras it takes. */
class EpochsTest {
  private final Epochs base = Epochs.of(Duration.ofSeconds(1));

  private static Epochs fits(Epochs schedule, Epochs.Era era) {
    Epochs next = schedule.with(era);
    assertThat(next).as("%s fits %s", era, schedule).isNotNull();
    return java.util.Objects.requireNonNull(next);
  }

  @Test
  void withoutAnEraEpochsAreTheSyncInterval() {
    assertThat(base.at(0)).isZero();
    assertThat(base.at(999)).isZero();
    assertThat(base.at(1000)).isEqualTo(1);
    assertThat(base.at(-1)).isEqualTo(-1);
    assertThat(base.start(1_796_000_000L)).isEqualTo(1_796_000_000_000L);
    assertThat(base.length(5)).isEqualTo(1000);
  }

  @Test
  void anEraNumbersItsEpochsOnWithoutAGap() {
    Epochs e = fits(base, new Epochs.Era(100, 100_000, 4000));
    assertThat(e.at(99_999)).isEqualTo(99);
    assertThat(e.at(100_000)).isEqualTo(100);
    assertThat(e.at(103_999)).isEqualTo(100);
    assertThat(e.at(104_000)).isEqualTo(101);
    assertThat(e.start(99)).isEqualTo(99_000);
    assertThat(e.start(101)).isEqualTo(104_000);
    assertThat(e.length(99)).isEqualTo(1000);
    assertThat(e.length(100)).isEqualTo(4000);
    // Back to the sync interval: epoch 110 starts 10 epochs of 4 s after epoch 100.
    Epochs back = fits(e, new Epochs.Era(110, 140_000, 1000));
    assertThat(back.at(140_500)).isEqualTo(110);
    assertThat(back.at(139_999)).isEqualTo(109);
    assertThat(back.start(112)).isEqualTo(142_000);
    for (long t = 90_000; t < 150_000; t += 250) {
      long epoch = back.at(t);
      assertThat(back.start(epoch)).isLessThanOrEqualTo(t);
      assertThat(back.start(epoch + 1)).isGreaterThan(t).isEqualTo(back.start(epoch) + back.length(epoch));
    }
  }

  @Test
  void anEraThatDoesNotFitIsRefused() {
    assertThat(base.with(new Epochs.Era(100, 100_500, 2000))).as("not at an epoch's start").isNull();
    assertThat(base.with(new Epochs.Era(100, 100_000, 3000))).as("not a power of two").isNull();
    assertThat(base.with(new Epochs.Era(100, 100_000, 1500))).as("not a multiple").isNull();
    assertThat(base.with(new Epochs.Era(100, 100_000, 128_000))).as("over 64x").isNull();
    assertThat(base.with(new Epochs.Era(100, 100_000, 1000))).as("the same length").isNull();
    Epochs e = fits(base, new Epochs.Era(100, 100_000, 2000));
    assertThat(e.with(new Epochs.Era(100, 100_000, 4000))).as("not after the latest").isNull();
    assertThat(e.with(new Epochs.Era(90, 90_000, 4000))).as("before the latest").isNull();
  }

  @Test
  void aScheduleKeepsItsLatestEras() {
    Epochs e = base;
    long first = 100;
    for (int i = 0; i < 5; i++) {
      e = fits(e, new Epochs.Era(first, e.start(first), i % 2 == 0 ? 2000 : 1000));
      first += 10;
    }
    assertThat(e.toString()).contains("first=140").contains("first=130").contains("first=120").doesNotContain("first=110");
    assertThat(e.at(e.start(145))).isEqualTo(145);
  }

  @Test
  void anEraDocumentReadsBackAndNothingElseDoes() {
    Epochs.Era era = new Epochs.Era(1_796_032_816L, 1_796_032_816_000L, 2000);
    assertThat(Epochs.decode(Epochs.encode(era))).isEqualTo(era);
    assertThat(Epochs.documentName(era)).isEqualTo("~epochs.1796032816");
    assertThat(Epochs.decode("waitingroom-epochs 2 1 2 3".getBytes(java.nio.charset.StandardCharsets.US_ASCII))).isNull();
    assertThat(Epochs.decode("waitingroom-epochs 1 1 2".getBytes(java.nio.charset.StandardCharsets.US_ASCII))).isNull();
    assertThat(Epochs.decode("waitingroom-epochs 1 1 2 x".getBytes(java.nio.charset.StandardCharsets.US_ASCII))).isNull();
    assertThat(Epochs.decode("waitingroom-epochs 1 1 2 0".getBytes(java.nio.charset.StandardCharsets.US_ASCII))).isNull();
  }
}
