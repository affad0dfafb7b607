/**
 * Spring Boot auto-configuration of the waiting room, registered in {@code
 * META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}: the room and
 * its store from {@code waitingroom.*} properties ({@link
 * io.github.waitingroom.spring.boot.autoconfigure.WaitingRoomAutoConfiguration}), the servlet
 * filter that guards the application ({@link
 * io.github.waitingroom.spring.boot.autoconfigure.WaitingRoomServletAutoConfiguration}) and the
 * Actuator endpoint and health indicator ({@link
 * io.github.waitingroom.spring.boot.autoconfigure.WaitingRoomEndpointAutoConfiguration}). Every
 * bean backs off when the application defines its own.
 */
@NullMarked
package io.github.waitingroom.spring.boot.autoconfigure;

import org.jspecify.annotations.NullMarked;
