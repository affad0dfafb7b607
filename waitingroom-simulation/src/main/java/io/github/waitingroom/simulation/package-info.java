/**
 * The virtual-time harness that the spike simulator ({@code benchmarks}) and the capacity planner
 * ({@code waitingroom-examples}) run the real core on.
 *
 * <p>A run drives real {@link io.github.waitingroom.WaitingRoom} nodes, built by {@link
 * io.github.waitingroom.simulation.VirtualNodes} with background sync off on a {@link
 * io.github.waitingroom.ManualClock}, through a crowd of simulated clients. Time only moves when
 * the run moves it: an {@link io.github.waitingroom.simulation.EventQueue} hands out the next
 * event (a client's request, a node's sync) in time order, the run sets the clocks to its instant
 * and calls the room. What the clients hold is kept as a browser would ({@link
 * io.github.waitingroom.simulation.CookieJar}); who is really active is counted from the ground
 * truth ({@link io.github.waitingroom.simulation.ActiveUsers}), not from the room's own view; the
 * waits and admissions go to primitive lists ({@link io.github.waitingroom.simulation.DoubleList},
 * {@link io.github.waitingroom.simulation.LongList}) and come out as nearest-rank {@link
 * io.github.waitingroom.simulation.Quantiles}. Per-client random times that do not depend on the
 * order of events come from {@link io.github.waitingroom.simulation.SeededDraws}.
 *
 * <p>Every piece is deterministic for a seed: the same run gives the same figures, bit for bit.
 * Nothing here is part of the library; the module is never deployed.
 */
@NullMarked
package io.github.waitingroom.simulation;

import org.jspecify.annotations.NullMarked;
