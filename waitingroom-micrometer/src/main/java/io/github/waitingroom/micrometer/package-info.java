/**
 * Micrometer metrics for a waiting room: {@link io.github.waitingroom.micrometer.WaitingRoomMetrics},
 * a {@code MeterBinder} that registers gauges over {@link io.github.waitingroom.WaitingRoom#status()}
 * and {@link io.github.waitingroom.WaitingRoom#config()}.
 *
 * <p>Every meter is a gauge, read when the registry is scraped or published; nothing runs on the
 * request path. Every meter carries the tag {@code room} with the room's id. Counters and timers
 * (admissions, time in line, sync duration) need events from inside the room and will come with
 * the core's metrics SPI.
 */
@NullMarked
package io.github.waitingroom.micrometer;

import org.jspecify.annotations.NullMarked;
