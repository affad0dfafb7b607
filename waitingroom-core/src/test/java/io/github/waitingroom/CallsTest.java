package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which holders the plans a node applied have called, by arrival and by how long they were counted. */
class CallsTest {
  @Test
  void aPlanCallsOnlyHoldersItsTalliesCounted() {
    // A plan whose tallies counted holders since second 99 or before, with cutoff second 95.
    Calls calls = Calls.NONE.with(95, 99, 0);
    assertThat(calls.called(95, 99)).isTrue();
    assertThat(calls.called(90, 50)).isTrue();
    assertThat(calls.called(96, 50)).as("arrived after the cutoff").isFalse();
    // Arrived in time, but counted only since after the tally (came back after missing polls,
    // or polled first after the epoch ended): the plan made no slot free for it.
    assertThat(calls.called(90, 100)).isFalse();
  }

  @Test
  void aLaterPlanCallsHoldersCountedSinceItsOwnTallyUpToTheGreatestCutoff() {
    Calls calls = Calls.NONE.with(95, 99, 0).with(97, 101, 0);
    assertThat(calls.called(96, 100)).isTrue();
    assertThat(calls.called(90, 100)).as("counted again by the later plan, which reaches it").isTrue();
    assertThat(calls.called(90, 102)).isFalse();
    assertThat(calls.maxCut()).isEqualTo(97);
    // A plan that calls nobody new keeps the cut for holders counted since before its tally.
    Calls same = calls.with(Long.MIN_VALUE, 103, 0);
    assertThat(same.called(97, 101)).isTrue();
    assertThat(same.called(97, 102)).isFalse();
  }

  @Test
  void aPlanWithALowerCutoffDoesNotTakeBackEarlierCalls() {
    Calls calls = Calls.NONE.with(95, 99, 0).with(90, 101, 0);
    assertThat(calls.called(95, 99)).isTrue();
    assertThat(calls.called(95, 100)).as("the later plan does not reach second 95").isFalse();
    assertThat(calls.called(90, 100)).isTrue();
  }

  @Test
  void forgetsPlansOlderThanTheWaitingTimeout() {
    Calls kept = Calls.NONE.with(95, 99, 0).with(90, 101, 0);
    assertThat(kept.called(95, 99)).isTrue();
    Calls forgotten = Calls.NONE.with(95, 99, 0).with(90, 101, 100);
    assertThat(forgotten.called(95, 99)).as("the plan counted by 99 is forgotten").isFalse();
    assertThat(forgotten.called(90, 101)).isTrue();
  }
}
