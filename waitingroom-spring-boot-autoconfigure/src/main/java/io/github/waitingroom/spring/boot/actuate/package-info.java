/**
 * Actuator support: the {@code waitingroom} endpoint, a read-only snapshot of the room as this node
 * last saw it, and a health indicator for the store of every room. Both read only the room's public API;
 * neither touches the request path.
 */
@NullMarked
package io.github.waitingroom.spring.boot.actuate;

import org.jspecify.annotations.NullMarked;
