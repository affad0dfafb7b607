/**
 * How nodes of one room share their counts: the {@link io.github.waitingroom.coordinator.Transport}
 * SPI, the {@link io.github.waitingroom.coordinator.Report} it carries, and the
 * {@link io.github.waitingroom.coordinator.Coordinator} that turns reports into a room view.
 *
 * <p>Coordination has two tiers, as in the published design. Each node publishes its report to
 * its data center's scope and gets back the reports of every node there; it sums them into the
 * data center's report, which it publishes to the global scope, where it gets back every data
 * center's report. A transport only stores bytes: all arithmetic happens here, in plain Java, so
 * a user's own transport (a database, a grid, a service) needs one method.
 */
@NullMarked
package io.github.waitingroom.coordinator;

import org.jspecify.annotations.NullMarked;
