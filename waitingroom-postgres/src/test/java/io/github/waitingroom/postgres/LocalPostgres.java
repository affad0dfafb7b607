package io.github.waitingroom.postgres;

import io.github.waitingroom.testsupport.FreePorts;
import io.github.waitingroom.testsupport.Services;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The shared PostgreSQL this module's tests use: {@code -Dwaitingroom.postgresUrl}, by default
 * {@code jdbc:postgresql://127.0.0.1:5432/test}, as user {@code -Dwaitingroom.postgresUser}
 * (default {@code postgres}, no password: trust authentication). Each test class keeps to a
 * schema of its own ({@link #createSchema}), which it drops when done ({@link #dropSchema}), so
 * that runs never collide.
 */
final class LocalPostgres {
  static final String URL = System.getProperty("waitingroom.postgresUrl", "jdbc:postgresql://127.0.0.1:5432/test");
  static final String USER = System.getProperty("waitingroom.postgresUser", "postgres");

  private LocalPostgres() {}

  /** A data source that opens a connection per call (no pool), with short timeouts. */
  static PGSimpleDataSource dataSource() {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl(URL);
    ds.setUser(USER);
    ds.setConnectTimeout(5);
    ds.setSocketTimeout(30);
    return ds;
  }

  /** A data source to 127.0.0.1 on a port where nothing listens. */
  static DataSource unreachable() {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setServerNames(new String[] {"127.0.0.1"});
    ds.setPortNumbers(new int[] {FreePorts.closed()});
    ds.setDatabaseName("test");
    ds.setUser(USER);
    ds.setConnectTimeout(1);
    ds.setSocketTimeout(2);
    return ds;
  }

  /**
   * Skips the calling test, or fails it where services are required ({@link Services}), when the
   * shared PostgreSQL does not answer.
   */
  static PGSimpleDataSource require() {
    PGSimpleDataSource ds = dataSource();
    boolean reachable;
    try (Connection c = ds.getConnection()) {
      reachable = c.isValid(5);
    } catch (SQLException e) {
      reachable = false;
    }
    Services.assume(reachable, "PostgreSQL at " + URL + " (user " + USER + ") is unreachable");
    return ds;
  }

  /** Creates a schema that no other test run uses, {@code wr_test_<what>_<8 hex digits>}, and returns its name. */
  static String createSchema(DataSource ds, String what) throws SQLException {
    String name = "wr_test_" + what + "_" + UUID.randomUUID().toString().substring(0, 8);
    run(ds, "CREATE SCHEMA " + name);
    return name;
  }

  /** Drops a schema made by {@link #createSchema}, with everything in it. */
  static void dropSchema(DataSource ds, String name) throws SQLException {
    run(ds, "DROP SCHEMA IF EXISTS " + name + " CASCADE");
  }

  /** Runs one statement on a connection of its own. */
  static void run(DataSource ds, String sql) throws SQLException {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
