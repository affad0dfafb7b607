/**
 * The servlet adapter of the waiting room: {@link io.github.waitingroom.servlet.WaitingRoomFilter}.
 *
 * <p>The filter only translates. It reads the room's two ticket cookies (the session and the
 * place in line), asks the container-neutral {@link io.github.waitingroom.WaitingRoom#decide(String,
 * String)} what to do, writes the new ticket (when there is one) back as the session cookie when
 * the request is let through and as the place cookie otherwise, and either lets the request through
 * to the application or answers it with the waiting page or the JSON status. All admission logic
 * lives in the core and every HTTP rule in {@code waitingroom-http}, so the filter takes no lock and
 * does no network I/O on a request; a newcomer's human check, which asks a service, is answered
 * asynchronously where the filter chain supports it.
 *
 * <p>An application may guard several paths with several rooms, one filter each: a request
 * belongs to the room with the most specific path prefix that covers it, and to no other.
 *
 * <p>The waiting page is a self-contained Mustache template (plain or branded) in the visitor's
 * language, chosen by {@code Accept-Language} among twelve shipped ones; users can replace its texts
 * and the page itself with their own (see {@link io.github.waitingroom.http.Gate.Builder#template}).
 *
 * <p>{@link io.github.waitingroom.servlet.WaitingRoomDashboard} is the operators' live page of one
 * or more rooms (their status and this node's metrics, as charts): a servlet the application maps
 * itself, outside the guarded paths, behind a bearer token or a role.
 */
@NullMarked
package io.github.waitingroom.servlet;

import org.jspecify.annotations.NullMarked;
