/**
 * The waiting room's core: the {@link io.github.waitingroom.WaitingRoom} facade, the four
 * interfaces of the design ({@link io.github.waitingroom.Ticket}, {@link
 * io.github.waitingroom.allocation.BucketState}, {@link io.github.waitingroom.allocation.SlotAllocator},
 * {@link io.github.waitingroom.coordinator.Coordinator}) and the {@link
 * io.github.waitingroom.coordinator.Transport} SPI. Exports the three API packages only; {@code
 * io.github.waitingroom.internal} stays inside. Tink is part of the API (a room is built with a
 * {@code KeysetHandle}), so it is required transitively.
 */
module io.github.waitingroom.core {
  requires transitive com.google.crypto.tink;
  requires com.fasterxml.jackson.core;
  requires org.slf4j;
  requires static transitive org.jspecify;

  exports io.github.waitingroom;
  exports io.github.waitingroom.allocation;
  exports io.github.waitingroom.coordinator;
}
