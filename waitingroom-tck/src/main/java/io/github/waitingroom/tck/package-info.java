/**
 * The transport compatibility kit: one abstract JUnit 5 class, {@link
 * io.github.waitingroom.tck.TransportCompatibilityKit}, that spells out the {@link
 * io.github.waitingroom.coordinator.Transport} contract as tests, the store's clock in every
 * answer included (a node refuses a transport without it). The in-memory and the Redis transports
 * run it; so should any transport a user writes for their own store. Add this artifact with {@code
 * <scope>test</scope>} and extend the class.
 */
@NullMarked
package io.github.waitingroom.tck;

import org.jspecify.annotations.NullMarked;
