/**
 * What the tests of the waiting room's modules share, in one place instead of a copy in each test
 * tree. Not published: other modules use it in test scope only.
 *
 * <p>Real parts, never mocks: {@link io.github.waitingroom.testsupport.Services} decides whether a
 * missing outside service skips a test or (where CI requires services) fails it; {@link
 * io.github.waitingroom.testsupport.LocalRedis} is the shared Redis at 127.0.0.1:6379 and {@link
 * io.github.waitingroom.testsupport.RedisServerProcess} a private {@code redis-server} for the tests
 * that stop or flush one, {@link io.github.waitingroom.testsupport.RedisClusterProcesses} a private
 * Redis Cluster of three; {@link io.github.waitingroom.testsupport.Chromium} starts Debian's headless
 * Chromium through Selenium; {@link io.github.waitingroom.testsupport.HttpVisitor} is one
 * browser-like visitor over real HTTP, {@link io.github.waitingroom.testsupport.Answers} reads what
 * it gets back (the JSON status among it), {@link io.github.waitingroom.testsupport.JsonTree} reads
 * other JSON, {@link io.github.waitingroom.testsupport.FreePorts} finds ports for servers, and
 * {@link io.github.waitingroom.testsupport.Opened} closes what a test opened once it is over; {@link
 * io.github.waitingroom.testsupport.ManualRooms} are rooms on a manual clock that the test syncs,
 * and {@link io.github.waitingroom.testsupport.LiveChanges} puts a change of their live settings in
 * force; {@link io.github.waitingroom.testsupport.PublishedTallies} shows what a room's tallies
 * published (how the application answered, among it).
 *
 * <p>The scenarios in {@code io.github.waitingroom.testsupport.boot} are the Spring Boot tests that
 * the Boot 3 module ({@code waitingroom-spring-boot-autoconfigure}) and the Boot 4 module ({@code
 * waitingroom-spring-boot4-test}) both run: each is written once, and each module supplies only what
 * differs between the two Boot versions.
 *
 * <p>Helpers that need Lettuce, Selenium or jackson-core get them from the test module that uses
 * them: this module brings none of them onto a test classpath.
 */
@NullMarked
package io.github.waitingroom.testsupport;

import org.jspecify.annotations.NullMarked;
