/**
 * A small shop on Spring Boot behind the waiting room, configured only through {@code
 * waitingroom-spring-boot-starter} and {@code application.yml}: no waiting room code in the
 * application. The shop page ({@code static/index.html}) loads its stylesheet, script and image as
 * static files, which the room lets through without a ticket; its script calls the JSON API of
 * {@link io.github.waitingroom.examples.springboot.ShopApi} several times, each call carrying the
 * visitor's ticket cookie; the checkout is a plain HTML form that posts to {@link
 * io.github.waitingroom.examples.springboot.CheckoutController}.
 *
 * <p>Start it with {@code mvn -q -pl waitingroom-examples-spring-boot spring-boot:run} after a
 * {@code mvn -q install -DskipTests}; it needs Redis at {@code redis://127.0.0.1:6379}.
 */
@NullMarked
package io.github.waitingroom.examples.springboot;

import org.jspecify.annotations.NullMarked;
