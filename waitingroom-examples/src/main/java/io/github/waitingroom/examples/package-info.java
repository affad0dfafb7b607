/**
 * Runnable examples: {@link io.github.waitingroom.examples.DemoServer}, a small ticket shop on
 * embedded Jetty behind the waiting room, and {@link io.github.waitingroom.examples.LoadGenerator},
 * which sends a crowd of visitors at it. Both take their settings from command-line flags (picocli;
 * {@code --help} lists them), so several demo nodes can run side by side. The demo
 * can also serve the room's metrics for Prometheus and the operators' live dashboard. The capacity
 * planner is in {@link io.github.waitingroom.examples.planner}.
 */
@NullMarked
package io.github.waitingroom.examples;

import org.jspecify.annotations.NullMarked;
