/**
 * The capacity planner: a command-line tool that runs the real core ({@link
 * io.github.waitingroom.WaitingRoom} on a {@link io.github.waitingroom.ManualClock}, one node, the
 * in-memory transport) through an expected crowd in virtual time, on the harness the spike
 * simulator of the benchmarks runs on too ({@code waitingroom-simulation}), and tells how long people would
 * wait, how long the line would get, how many would give up and how busy the room would be; and,
 * with a target wait, searches the smallest limits that meet it. Start with {@link
 * io.github.waitingroom.examples.planner.CapacityPlanner}.
 */
@NullMarked
package io.github.waitingroom.examples.planner;

import org.jspecify.annotations.NullMarked;
