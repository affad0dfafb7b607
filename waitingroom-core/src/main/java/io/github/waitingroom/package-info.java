/**
 * A virtual waiting room that a Java application embeds to survive traffic spikes.
 *
 * <p>A {@link io.github.waitingroom.WaitingRoom} admits visitors while the room's limits allow
 * ({@link io.github.waitingroom.RoomConfig}: total active users, new users per minute, session
 * duration) and gives everyone else a place in line. The place is not stored on the server: it
 * lives in an encrypted {@link io.github.waitingroom.TicketState} that the visitor carries (usually a
 * cookie), sealed and opened by a {@link io.github.waitingroom.TicketCodec}: the second the
 * visitor arrived, with random tie-break bits, which is also the ticket's id.
 *
 * <p>The request path never waits on the network: {@link io.github.waitingroom.WaitingRoom#decide}
 * opens the ticket, counts it once per ticket in lock-free state, and takes a slot from the
 * node's grant with one compare-and-set. A background sync ({@code Synchronizer}) tallies the
 * node once per epoch, exchanges tallies through a {@link
 * io.github.waitingroom.coordinator.Transport}, and applies the room's {@link
 * io.github.waitingroom.allocation.Plan} of each settled epoch, which every node computes alike.
 *
 * <p><b>The admission rule.</b> Every node computes the same plan from the same settled tallies
 * ({@link io.github.waitingroom.allocation.Plan}): the <i>pool</i> is every slot the limits leave
 * (min(total limit - active, per-minute limit - admissions of the last 60 s)); the <i>cutoff</i>
 * makes the first pool holders of the room's line eligible, oldest first (every arrival second that
 * fits whole, and of the first that does not, the share of its places the pool still covers: a
 * place's tie-break bits are uniform; past the holders still waiting at or below the cutoff in
 * force, if that lies in the same second), and once the whole line fits it is open to newcomers;
 * the pool is shared out to data centers and nodes as <i>slots</i>, by their eligible holders (and
 * newcomers), never taking from a node more than it can give back. A request is then decided in
 * memory: a ticket, waiting or new, whose place is at or below the cutoff takes one of the node's
 * slots by compare-and-set, and every other one waits. <i>Safety in one line:</i> a node admits
 * after its tally at most the larger of its new slots and what it held (what it spent since the
 * tally comes off the new slots), and the nodes' shares sum to at most the pool, so the room
 * admits at most what the limits left, whatever clients do: which ticket takes a slot never enters
 * the argument. <i>Order:</i> every node switches plans at the same instant, nobody above the
 * cutoff gets in, and among the eligible whoever polls a node with a slot left first gets in (one
 * that finds none is told to ask again in a second). A place lives in the visitor's cookie, so a
 * holder keeps it at any pace and for the waiting timeout of silence.
 *
 * <p>An operator changes a running room through {@link io.github.waitingroom.RoomSettings}: one
 * versioned document (limits, queueing method, queue-all, suspension, session renewal, page texts,
 * scheduled events with a pre-queue and its lottery) that {@link
 * io.github.waitingroom.WaitingRoom#updateSettings} seals with the room's keys and publishes
 * through the same store, and that every node puts in force at the same instant ({@code
 * LiveSettings}). {@link io.github.waitingroom.WaitingRoom#revoke} ends a session at the
 * application's request.
 *
 * <p><b>The shape of the design.</b> {@link io.github.waitingroom.WaitingRoom} is the facade. Four
 * interfaces carry the published design, each a contract: {@link io.github.waitingroom.Ticket}
 * (what a cookie proves: room, place, session), {@link
 * io.github.waitingroom.allocation.BucketState} (the line as buckets of arrival time, {@code
 * bucketWidth} wide), {@link io.github.waitingroom.allocation.SlotAllocator} (from a settled epoch to
 * this node's plan; {@link io.github.waitingroom.allocation.Plan} is the default) and {@link
 * io.github.waitingroom.coordinator.Coordinator} (exchanges this node's tallies for the room's
 * settled epochs; {@link io.github.waitingroom.coordinator.StoreCoordinator} is the default), over
 * the {@link io.github.waitingroom.coordinator.Transport} SPI that any store implements.
 *
 * <p><b>Inside a node</b>, package-private, one role per class: {@code RoomParts} (the parts of
 * the facade, wired from the {@code RoomOptions} a builder collected and checked, and the request
 * path over them: which of a request's tickets is decided), {@code Decider} (the admission
 * rule: what each request gets), {@code Grant} (the cutoff and slots in force) and {@code WaitingAnswer} (what a waiting holder is told: people
 * ahead, wait, when to ask again); {@code NodeState} (the places this node knows, counted
 * lock-free, and its tally) with {@code Seen} (what it counted for one place), {@code Line} (the
 * line of waiting holders: polls, paces, dues), {@code Admitter} (admissions on the request path),
 * {@code LineScan} (one tally's pass over the places), {@code Duplicates} (counts an earlier node
 * of the data center also made, taken back), {@code Schedule} (the grant in force and the plan that
 * takes over next), {@code Arrivals} (arrival rates between two plans) and {@code Revocations}; {@code Synchronizer} (the sync loop) with {@code Tallies}
 * (this node's tallies of its latest epochs, and their withdrawal), {@code Plans} (puts the
 * settled plans in force; what they mean for a waiting holder and the room's status), {@code
 * SettingsSync} (the live settings as the sync thread handles them), {@code StoreFailures}
 * (whether the store answers), {@code SyncTimer} (when the next sync runs), {@code EpochPacer}
 * (how long epochs are), {@code Outage} (what a node does while the store fails) and {@code
 * QueueLog}.
 *
 * <p>This package holds the public API and the node's own state; {@code coordinator} holds the
 * transport SPI, the report format and the settling of epochs, {@code allocation} the pure plan.
 */
@NullMarked
package io.github.waitingroom;

import org.jspecify.annotations.NullMarked;
