/**
 * How nodes of one room share their tallies: the {@link io.github.waitingroom.coordinator.Transport}
 * SPI, the {@link io.github.waitingroom.coordinator.Report} it carries, and the {@link
 * io.github.waitingroom.coordinator.Coordinator} that decides when an epoch is settled (an
 * interface: {@link io.github.waitingroom.coordinator.StoreCoordinator} is the default).
 *
 * <p>Coordination has two tiers, as in the published design. Each node publishes its report (its
 * tallies of its latest epochs) to its data center's scope and gets back the reports of every node
 * there; once every node of the data center has published an epoch, the data center's sum of that
 * epoch is settled and published to the global scope, where every data center's sums are. A
 * transport only stores bytes and tells the store's time ({@link
 * io.github.waitingroom.coordinator.Transport#CLOCK_SCOPE}, which every node keeps time by and
 * refuses a transport without): all arithmetic happens here, in plain Java, so a user's own
 * transport (a database, a grid, a service) needs one method.
 *
 * <p>Every read returns the reports of the node's data center and the sums of every data center,
 * so what a room reads from the store grows with the square of its size; {@link
 * io.github.waitingroom.coordinator.Epochs} lets a large room stretch its epochs, on every node
 * alike, to stay within a budget.
 *
 * <p>{@code StoreCoordinator} runs the exchanges (joining, publishing, reading back) and meets its
 * parts, each package-private and used by its sync thread: {@code Remembered} holds the reports it
 * remembers and forgets them after the retention; {@code AnswerReader} opens and decodes an
 * answer's values into them, logs what it cannot read (with names made printable) and tells
 * whether a joining node is alone; {@code Settlement} settles the data
 * center's sums and the room's, counting silent publishers ({@code ActiveHistory} tells the
 * sessions that may have moved into them); {@code SumLateness} tells a data center whose sums come
 * late from one that is gone, and how late they come; {@code SumVisibility} tells whether the data
 * center's sums reached the store in time for a plan; {@code Republication} puts back the reports
 * the store lost; {@code Documents} holds the global scope's documents (settings, and the eras of
 * the epochs) and checks the names of those it is given to keep; {@code VanishWatch} notices values that leave the store before their time;
 * and {@code Agreement} stops the plans while the reports say their publishers counted other
 * publishers than this node (see docs/security.md).
 */
@NullMarked
package io.github.waitingroom.coordinator;

import org.jspecify.annotations.NullMarked;
