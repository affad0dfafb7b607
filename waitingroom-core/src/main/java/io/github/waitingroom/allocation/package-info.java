/**
 * The thinking of the waiting room, as pure functions: a {@link
 * io.github.waitingroom.allocation.Tally} is what one publisher counted at the end of an epoch,
 * and a {@link io.github.waitingroom.allocation.Plan} turns the settled tallies of an epoch and a
 * configuration into the room's free slots, one admission cutoff over the line, and one node's
 * grant, and estimates waits from them. A {@link io.github.waitingroom.allocation.Pace} is how
 * fast the limits let the line move, which a wait estimate divides by. A {@link
 * io.github.waitingroom.allocation.SlotAllocator} is the seam: the plan is its default, and a room
 * may be given another that adjusts what plans are computed from. A {@link
 * io.github.waitingroom.allocation.BucketState} reports the line in buckets of arrival time, as the
 * published design keeps it. Package-private parts do the work of the public types, each one role:
 * {@code PlanMaker} computes a plan and {@code WaitEstimates} its wait estimates, {@code LineIndex}
 * holds a plan's line as users ahead of each arrival second, {@code TallySums} adds tallies up and
 * {@code CheckIns} sorts and searches a tally's check-ins. No clocks, threads or I/O live here, and nothing here knows how tallies travel (that is
 * the coordinator's business), which is what makes the rules easy to property-test.
 */
@NullMarked
package io.github.waitingroom.allocation;

import org.jspecify.annotations.NullMarked;
