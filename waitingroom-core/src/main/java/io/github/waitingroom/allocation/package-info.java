/**
 * The thinking of the waiting room, as pure functions: a {@link
 * io.github.waitingroom.allocation.RoomView} is everyone's counts evaluated at one instant; the
 * {@link io.github.waitingroom.allocation.SlotAllocator} turns a view and a configuration into free
 * slots, eligible slots per bucket (oldest first) and one node's budget. No clocks, threads or
 * I/O live here, which is what makes the rules easy to property-test.
 */
@NullMarked
package io.github.waitingroom.allocation;

import org.jspecify.annotations.NullMarked;
