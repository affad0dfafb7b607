/**
 * The coordinator {@link io.github.waitingroom.coordinator.Transport} over PostgreSQL, for a room
 * that runs on many JVMs where the team runs no Redis: {@link
 * io.github.waitingroom.postgres.PostgresTransport}, plain JDBC on the application's {@link
 * javax.sql.DataSource}.
 *
 * <p>Each sync is one SQL statement: it stores the node's report and its data center's sum,
 * forgets values whose retention has passed (by the database's clock) and answers with every live
 * value of the scopes it wrote, and that clock. The table is created at the first exchange if it is
 * absent, or checked when the application manages its schema itself.
 */
@NullMarked
package io.github.waitingroom.postgres;

import org.jspecify.annotations.NullMarked;
