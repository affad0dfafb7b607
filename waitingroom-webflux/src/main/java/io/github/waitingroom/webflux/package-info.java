/**
 * The Spring WebFlux adapter of the waiting room: {@link io.github.waitingroom.webflux.WaitingRoomWebFilter}.
 *
 * <p>The filter only translates a {@code ServerWebExchange} into the container-neutral {@link
 * io.github.waitingroom.http.Gate} of {@code waitingroom-http} and its answer back, as the servlet
 * filter does for a servlet request, so both stacks behave alike. It never blocks: the room decides
 * in memory, and its store is synchronised by the room's own background thread.
 */
@NullMarked
package io.github.waitingroom.webflux;

import org.jspecify.annotations.NullMarked;
