package io.github.waitingroom.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.allocation.Tally;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** How many sessions may have moved into a silent publisher: what the others lost since its last tally. */
class ActiveHistoryTest {
  private static Tally active(long n) {
    return new Tally(n, 0, 0, 0, new TreeMap<>(), new long[0]);
  }

  @Test
  void countsWhatEachOtherPublisherLostSinceTheSilentOnesLastEpoch() {
    ActiveHistory h = new ActiveHistory();
    h.note(100, "a", active(40));
    h.note(100, "b", active(10));
    h.note(100, "c", active(5));
    // a lost 10, b gained 3 (its own admissions do not offset a's losses), c is the silent one.
    Map<String, Tally> now = Map.of("a", active(30), "b", active(13), "c", active(0));
    assertThat(h.movedInto("c", 100, 104, now)).isEqualTo(10);
  }

  @Test
  void countsNothingItCannotKnowOrAfterTheHeldEpochs() {
    ActiveHistory h = new ActiveHistory();
    h.note(100, "a", active(40));
    Map<String, Tally> now = Map.of("a", active(30), "d", active(0));
    assertThat(h.movedInto("c", 99, 104, now)).as("an epoch this node did not note").isZero();
    assertThat(h.movedInto("c", 100, 100 + ActiveHistory.HELD_EPOCHS, now)).isEqualTo(10);
    assertThat(h.movedInto("c", 100, 101 + ActiveHistory.HELD_EPOCHS, now)).as("silent for longer").isZero();
    assertThat(h.movedInto("c", 100, 104, Map.of("d", active(0)))).as("a publisher that joined since").isZero();
  }

  @Test
  void forgetsEpochsNoHeldSilenceCanHaveBegunAfter() {
    ActiveHistory h = new ActiveHistory();
    h.note(100, "a", active(40));
    h.note(100 + ActiveHistory.HELD_EPOCHS + 1, "a", active(30));
    assertThat(h.movedInto("c", 100, 104, Map.of("a", active(30)))).isZero();
  }
}
