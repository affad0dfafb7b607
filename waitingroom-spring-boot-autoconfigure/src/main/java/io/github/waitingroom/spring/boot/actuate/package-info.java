/**
 * Actuator support: the {@code waitingroom} endpoint, a read-only snapshot of the room as this node
 * last saw it, a health indicator for the store of every room, and {@link
 * io.github.waitingroom.spring.boot.actuate.WaitingRoomMeterBinder}, which binds every room's
 * Micrometer gauges. All read only the room's public API; none touches the request path.
 */
@NullMarked
package io.github.waitingroom.spring.boot.actuate;

import org.jspecify.annotations.NullMarked;
