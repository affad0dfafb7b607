package io.github.waitingroom.postgres;

import io.github.waitingroom.coordinator.Transport;
import io.github.waitingroom.tck.TransportCompatibilityKit;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The PostgreSQL transport against the compatibility kit, on the real PostgreSQL, in a schema of
 * its own, every node on one small pool ({@link TestPool}) as in an application. Time moves by shifting the stored expiry times back (the statement itself reads the
 * database's clock).
 */
class PostgresTransportCompatibilityTest extends TransportCompatibilityKit {
  private static DataSource dataSource;
  private static TestPool pool;
  private static String schema = "";

  @BeforeAll
  static void connect() throws Exception {
    dataSource = LocalPostgres.require();
    pool = new TestPool(dataSource);
    schema = LocalPostgres.createSchema(dataSource, "tck");
  }

  @AfterAll
  static void cleanUp() throws Exception {
    if (pool != null) {
      pool.close();
    }
    if (!schema.isEmpty()) {
      LocalPostgres.dropSchema(dataSource, schema);
    }
  }

  @Override
  protected Transport transport() {
    // One pool for every node: each exchange takes a connection of its own while it runs.
    return PostgresTransport.builder(pool).table(schema + ".waitingroom_values").build();
  }

  @Override
  protected void elapse(Duration time) throws Exception {
    LocalPostgres.run(dataSource,
        "UPDATE " + schema + ".waitingroom_values SET expires_at = expires_at - interval '" + time.toMillis() + " milliseconds'");
  }

  @Override
  protected Transport unreachableTransport() {
    return PostgresTransport.builder(LocalPostgres.unreachable()).table(schema + ".waitingroom_values").build();
  }
}
