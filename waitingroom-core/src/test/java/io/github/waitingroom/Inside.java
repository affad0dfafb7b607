package io.github.waitingroom;

import java.util.Objects;

/** What tests look up inside a room on one node: its grant, the places it remembers, a ticket's place. */
final class Inside {
  private Inside() {}

  /** Whether the node holds a slot now (tests pick a node that admits with it). */
  static boolean holdsSlot(WaitingRoom room) {
    return room.parts().state.grant().hasSlots();
  }

  /** Whether a waiting ticket with this place is at or below the node's cutoff now. */
  static boolean eligible(WaitingRoom room, long place) {
    return room.parts().state.grant().eligible(place);
  }

  /** How many places the node remembers (see NodeState#prune). */
  static int remembered(WaitingRoom room) {
    return room.parts().state.remembered();
  }

  /** The place of a ticket the room sealed, at {@code now}. */
  static long placeOf(WaitingRoom room, String ticket, long now) {
    return Objects.requireNonNull(room.parts().codec.openState(ticket, now)).place();
  }
}
