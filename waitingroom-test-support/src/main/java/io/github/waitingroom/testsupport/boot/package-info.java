/**
 * Spring Boot scenarios written once and run on both Boot versions: each is an abstract JUnit test
 * class whose subclass in {@code waitingroom-spring-boot-autoconfigure} (Boot 3) or {@code
 * waitingroom-spring-boot4-test} (Boot 4) starts the application the Boot way of its version. The
 * scenarios themselves speak to the applications over real HTTP and through the core's {@link
 * io.github.waitingroom.WaitingRoom}, so they compile without Spring.
 */
@NullMarked
package io.github.waitingroom.testsupport.boot;

import org.jspecify.annotations.NullMarked;
