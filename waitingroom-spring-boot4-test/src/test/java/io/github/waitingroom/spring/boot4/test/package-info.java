/** A Spring Boot 4 application that uses the starter, and its test over real HTTP. */
@NullMarked
package io.github.waitingroom.spring.boot4.test;

import org.jspecify.annotations.NullMarked;
