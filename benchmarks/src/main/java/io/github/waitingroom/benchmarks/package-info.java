/**
 * What the waiting room costs and how faithfully it holds its limits, with numbers anyone can
 * reproduce.
 *
 * <p>The JMH benchmarks ({@code *Benchmark}) time the pieces on the request path (opening and
 * sealing tickets, the admission decision for each kind of request) against the floor of one bare
 * AES-GCM decryption with the JDK's own cipher, and the pieces of a coordination round (slot
 * allocation, report encoding). The {@link io.github.waitingroom.benchmarks.SpikeSimulator} drives
 * the real core classes through data centers, nodes, sync lag and traffic spikes in virtual time,
 * on the harness of {@code waitingroom-simulation} (the capacity planner of the examples runs on it
 * too); its runs are {@link io.github.waitingroom.benchmarks.Scenario}s (the named ones in {@link
 * io.github.waitingroom.benchmarks.Scenarios}), its parts the {@code Sim*} classes: {@link
 * io.github.waitingroom.benchmarks.SimResult} holds what a run measured and {@link
 * io.github.waitingroom.benchmarks.SimReport} writes it out.
 * Nothing here is part of the library.
 */
@NullMarked
package io.github.waitingroom.benchmarks;

import org.jspecify.annotations.NullMarked;
