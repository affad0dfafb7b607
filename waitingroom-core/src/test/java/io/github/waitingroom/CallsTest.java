package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which holders the plans a node applied have called, by arrival and by how long they were counted. */
class CallsTest {
  @Test
  void aPlanCallsOnlyHoldersItsTalliesCounted() {
    // A plan whose tallies counted holders since second 99 or before, with cutoff second 95.
    Calls calls = Calls.NONE.with(95, 99);
    assertThat(calls.called(95, 99)).isTrue();
    assertThat(calls.called(90, 50)).isTrue();
    assertThat(calls.called(96, 50)).as("arrived after the cutoff").isFalse();
    // Arrived in time, but counted only since after the tally (came back after missing polls,
    // or polled first after the epoch ended): the plan made no slot free for it.
    assertThat(calls.called(90, 100)).isFalse();
  }

  @Test
  void aLaterPlanCallsHoldersCountedSinceItsOwnTallyUpToTheGreatestCutoff() {
    Calls calls = Calls.NONE.with(95, 99).with(97, 101);
    assertThat(calls.called(96, 100)).isTrue();
    assertThat(calls.called(90, 100)).as("counted again by the later plan, which reaches it").isTrue();
    assertThat(calls.called(90, 102)).isFalse();
    assertThat(calls.maxCut()).isEqualTo(97);
    // A plan that calls nobody new keeps the cut for holders counted since before its tally.
    Calls same = calls.with(Long.MIN_VALUE, 103);
    assertThat(same.called(97, 101)).isTrue();
    assertThat(same.called(97, 102)).isFalse();
  }

  @Test
  void aPlanWithALowerCutoffDoesNotTakeBackEarlierCalls() {
    Calls calls = Calls.NONE.with(95, 99).with(90, 101);
    assertThat(calls.called(95, 99)).isTrue();
    assertThat(calls.called(95, 100)).as("the later plan does not reach second 95").isFalse();
    assertThat(calls.called(90, 100)).isTrue();
  }

  @Test
  void keepsEveryPlanHoweverOldButOnlyTheEntriesThatDiffer() {
    // A holder counted since second 99, called by the plan counted by 99 (cutoff 95), that has
    // not come an hour later: every node still lets it in, as every node's tallies reserve it.
    Calls calls = Calls.NONE.with(95, 99);
    for (long by = 100; by < 3700; by++) {
      calls = calls.with(by % 7 == 0 ? 90 : Long.MIN_VALUE, by);
    }
    assertThat(calls.called(95, 99)).isTrue();
    assertThat(calls.called(95, 100)).isFalse();
    assertThat(calls.called(90, 3600)).isTrue();
    assertThat(calls.size()).as("the later plans, with lower cuts, merge into one entry").isEqualTo(2);
    // A plan whose cut reaches further absorbs every entry before it.
    Calls moved = calls.with(96, 3700);
    assertThat(moved.size()).isEqualTo(1);
    assertThat(moved.called(96, 99)).isTrue();
    assertThat(moved.called(97, 99)).isFalse();
  }

  @Test
  void keepsAtMostMaxEntriesTheLatestOnes() {
    Calls calls = Calls.NONE;
    // Falling cutoffs, each plan counted one second later: no two entries merge.
    for (int i = 0; i < Calls.MAX_ENTRIES + 10; i++) {
      calls = calls.with(1_000_000 - i, 10 + i);
    }
    assertThat(calls.size()).isEqualTo(Calls.MAX_ENTRIES);
    assertThat(calls.called(1_000_000 - 9, 10)).as("the oldest ten went").isFalse();
    assertThat(calls.called(1_000_000 - 10, 10)).isTrue();
  }
}
