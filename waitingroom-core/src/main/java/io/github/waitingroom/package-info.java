/**
 * A virtual waiting room that a Java application embeds to survive traffic spikes.
 *
 * <p>A {@link io.github.waitingroom.WaitingRoom} admits visitors while the room's limits allow
 * ({@link io.github.waitingroom.RoomConfig}: total active users, new users per minute, session
 * duration) and gives everyone else a place in line. The place is not stored on the server: it
 * lives in an encrypted {@link io.github.waitingroom.Ticket} that the visitor carries (usually a
 * cookie), sealed and opened by a {@link io.github.waitingroom.TicketCodec}. Visitors who arrive
 * within the same bucket width (one minute by default) share a bucket, and buckets are served
 * oldest first.
 *
 * <p>The request path never waits on the network: {@link io.github.waitingroom.WaitingRoom#decide}
 * opens the ticket, bumps lock-free counters and spends a local budget. A background sync
 * publishes this node's counters through a {@link io.github.waitingroom.coordinator.Transport}
 * and turns everyone's counters into new budgets with the pure
 * {@link io.github.waitingroom.allocation.SlotAllocator}.
 *
 * <p>This package holds the public API; {@code coordinator} holds the transport SPI and the
 * report format, {@code allocation} the pure allocation functions.
 */
@NullMarked
package io.github.waitingroom;

import org.jspecify.annotations.NullMarked;
