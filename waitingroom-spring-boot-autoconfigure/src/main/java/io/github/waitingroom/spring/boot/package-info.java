/**
 * The waiting room for Spring Boot: what an application may implement to change how the starter
 * behaves, such as {@link io.github.waitingroom.spring.boot.WaitingRoomBypass} rules for
 * operators (in a reactive application {@link
 * io.github.waitingroom.spring.boot.ReactiveWaitingRoomBypass}), and what it offers beyond the main room: {@link
 * io.github.waitingroom.spring.boot.WaitingRooms}, the further rooms of {@code waitingroom.rooms}. The auto-configuration itself lives in {@code .autoconfigure} and Actuator support in
 * {@code .actuate}; applications configure both through {@code waitingroom.*} properties.
 */
@NullMarked
package io.github.waitingroom.spring.boot;

import org.jspecify.annotations.NullMarked;
