package io.github.waitingroom.servlet;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.Gate;

/**
 * A {@link WaitingRoomFilter}'s fixed settings: its gate, and whether the filter owns (and closes)
 * the gate's room, which it does when it built the room from init-params ({@link InitParams}).
 */
record FilterSettings(Gate gate, boolean ownsRoom) {
  /** The room behind the gate. */
  WaitingRoom room() {
    return gate.room();
  }
}
